//! The host: the game, its seats and the server a remote seat plays through (see the module
//! above for the protocol). The host's rules decide every move and its clock the sand-glass;
//! the record is saved after each move, and the seats' tokens beside it, readable by the owner
//! only, so that a host started again with the same record reopens the same seats with the same
//! invitations. Spectators watch the host's live feed, which never carries a token or a blind
//! Put before it is played.

use super::{Answer, Ask, Asked, Invitation, NetError, SeatId, SeatView, Secrets, SentMove, Token, seat_name};
use crate::feed::{Feed, Phase, View};
use crate::matches::STOP;
use crate::record::{PlayerInfo, Record};
use crate::rules::ctor::{CtorMove, Square};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::team::{Lead, TeamRecord};
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most bytes a request's body may have.
pub const MAX_BODY: usize = 1024;
/// How long a request's body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(5);
/// The longest a `GET /seat?wait=V` waits.
pub const LONGEST_WAIT: Duration = Duration::from_secs(20);
/// Requests a second one seat may make.
pub const RATE: u32 = 100;
/// Requests served at once; more wait their turn with 503.
pub const IN_FLIGHT: usize = 64;
/// A remote seat not heard from for this long is shown as away.
pub const AWAY: Duration = Duration::from_secs(10);

/// Who sits at a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Sitter {
    /// A player on another machine, with the seat's invitation.
    Remote,
    /// A person at the host's own table (`tablero host` with a window).
    Person,
    /// The computer at the host: `ai:<level>` or `random`.
    Computer(String),
}

impl Sitter {
    pub fn parse(text: &str) -> Result<Sitter, NetError> {
        match text {
            "remote" => Ok(Sitter::Remote),
            "person" => Ok(Sitter::Person),
            _ if text == "random" || text.starts_with("ai:") => {
                crate::players::by_name(text, 0).map_err(|_| NetError::Sitter(text.to_string()))?;
                Ok(Sitter::Computer(text.to_string()))
            }
            _ => Err(NetError::Sitter(text.to_string())),
        }
    }

    fn player(&self, seat: SeatId, team: bool) -> PlayerInfo {
        let (name, kind) = match self {
            Sitter::Remote => (format!("remote ({})", seat.name(team)), "human".to_string()),
            Sitter::Person => ("person at the host".into(), "human".into()),
            Sitter::Computer(c) if c == "random" => ("random mover".into(), "computer:random".into()),
            Sitter::Computer(c) => (format!("computer ({})", c.trim_start_matches("ai:")), c.clone()),
        };
        PlayerInfo { name, kind }
    }

    fn is_computer(&self) -> bool {
        matches!(self, Sitter::Computer(_))
    }
}

/// What a host is asked to do.
pub struct HostOptions {
    pub start: AnyGame,
    /// Who sits at each side's seats: one, or in a CTOR team game one per member.
    pub seats: [Vec<Sitter>; 2],
    pub addr: SocketAddr,
    /// The record's file; a new one in the data folder unless given. A record that exists is
    /// resumed, with the seats' tokens kept beside it.
    pub record: Option<PathBuf>,
    /// Seconds the host serves on after the end, so that remote seats see the result (and may
    /// ask for a rematch).
    pub linger: f64,
    /// CTOR's sand-glass: seconds per turn, timed by the host.
    pub timer: Option<u8>,
    /// Where to serve the live feed for spectators, if anywhere.
    pub feed: Option<SocketAddr>,
    /// CTOR: each team chooses 5 secret squares before the first move (the computer's teams at
    /// once), sent to the host only.
    pub secrets: bool,
    /// HTTPS even on this machine's loopback (a host that other machines reach always serves
    /// HTTPS).
    pub tls: bool,
}

impl HostOptions {
    /// Options with every seat remote (one per side, or one per member of a CTOR team).
    pub fn remote(start: AnyGame, addr: SocketAddr) -> HostOptions {
        let seats = [Side::First, Side::Second].map(|s| vec![Sitter::Remote; members(&start, s) as usize]);
        HostOptions {
            start,
            seats,
            addr,
            record: None,
            linger: 0.0,
            timer: None,
            feed: None,
            secrets: false,
            tls: false,
        }
    }
}

/// The members of `side`'s team: 1, or in CTOR the team's size.
pub fn members(game: &AnyGame, side: Side) -> u8 {
    match game {
        AnyGame::Ctor(g) => g.teams().sizes[side.index()].max(1),
        _ => 1,
    }
}

/// Whether the game is a CTOR team game (a team of two or more).
pub fn is_team_game(game: &AnyGame) -> bool {
    members(game, Side::First) > 1 || members(game, Side::Second) > 1
}

/// A team's blind Puts of one turn, as the host collects them.
#[derive(Default)]
struct Round {
    /// The turn, or 0 before any.
    turn: u32,
    /// Puts each member is still to choose.
    want: Vec<u8>,
    /// The choices so far, in the order they came: (member, square).
    chosen: Vec<(u8, Square)>,
    /// Every Put of the turn is played: the acting member plays on.
    done: bool,
}

/// A question asked and not yet answered.
#[derive(Clone)]
struct Question {
    by: Side,
    what: &'static str,
}

/// The game and what goes with it, under one lock.
struct Table {
    /// The start, with CTOR's secret squares once both teams have chosen them.
    start: AnyGame,
    /// Each team's secret squares, as chosen (CTOR with `--secrets`).
    secrets: [Option<Vec<u16>>; 2],
    game: AnyGame,
    record: Record,
    path: PathBuf,
    save_error: Option<String>,
    moves: Vec<AnyMove>,
    round: Round,
    asked: Option<Question>,
    /// When the turn now began, and which turn it is (the sand-glass).
    turn_began: Instant,
    turn_key: (u32, Side, usize),
    version: u64,
}

struct Seat {
    id: SeatId,
    sitter: Sitter,
    token: Option<Token>,
}

struct Shared {
    table: Mutex<Table>,
    /// Woken after every change.
    moved: Condvar,
    version: tokio::sync::watch::Sender<u64>,
    seats: Vec<Seat>,
    team: bool,
    timer: Option<u8>,
    /// The start as given (a rematch starts from it, its teams choosing their squares again).
    start: AnyGame,
    /// Whether the teams choose secret squares.
    secret_squares: bool,
    heard: Mutex<Vec<Option<Instant>>>,
    /// When every seat taken by a person (here or remote) was first heard from: the
    /// sand-glass runs from then.
    joined: Mutex<Option<Instant>>,
    rate: Mutex<Vec<(Instant, u32)>>,
    in_flight: AtomicUsize,
    /// Set when the host closes: the computer's seats stop playing.
    closed: AtomicBool,
    feed: Option<Arc<Feed>>,
}

type Refusal = (StatusCode, String);

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    (status, why.into())
}

impl Table {
    /// The game after `keep` of its moves from the start, for a new game or an undo.
    fn relay(&mut self, keep: usize) {
        let mut game = self.start.clone();
        for mv in &self.moves[..keep] {
            game.play_unchecked(mv);
        }
        self.moves.truncate(keep);
        self.record.moves.truncate(keep);
        self.record.result = crate::record::RecordResult::of(&game);
        self.game = game;
        self.round = Round::default();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn index(&self, id: SeatId) -> Option<usize> {
        self.seats.iter().position(|s| s.id == id)
    }

    fn team_of(&self, side: Side) -> impl Iterator<Item = &Seat> {
        self.seats.iter().filter(move |s| s.id.side == side)
    }

    /// The member of `side` who plays the Moves and Landings (the captain).
    fn acting(&self, t: &Table, side: Side) -> u8 {
        let AnyGame::Ctor(g) = &t.game else { return 0 };
        crate::team::acting(Lead::Captain, g.turn(), members(&t.game, side) as usize) as u8
    }

    /// After every change: the sand-glass and the team's blind round begun for a new turn, the
    /// feed shown, those waiting woken, and the record saved.
    fn changed(&self, t: &mut Table, saved: bool) {
        let key = match &t.game {
            AnyGame::Ctor(g) => (g.turn(), g.side_to_move(), 0),
            g => (0, g.side_to_move(), t.moves.len()),
        };
        if key != t.turn_key {
            t.turn_key = key;
            t.turn_began = Instant::now();
        }
        self.begin_round(t);
        t.version += 1;
        self.publish(t);
        self.moved.notify_all();
        self.version.send_replace(t.version);
        // Saved before the seat that moved is answered (the lock is held), after the others
        // are woken: a disk's flush does not delay the move on the other machines.
        if saved {
            let written = crate::record::write_atomic(&t.path, &t.record.to_json());
            t.save_error = written.err().map(|e| format!("saving {} failed: {e}", t.path.display()));
        }
    }

    /// A team's blind round starts with its turn: each member's share of the Puts.
    fn begin_round(&self, t: &mut Table) {
        let AnyGame::Ctor(g) = &t.game else { return };
        let side = g.side_to_move();
        let size = members(&t.game, side);
        if !self.team || size < 2 || g.outcome().is_some() || t.round.turn == g.turn() {
            return;
        }
        if g.had_operation() {
            // A game resumed mid-turn: the Puts made stand, the round is over.
            t.round = Round { turn: g.turn(), want: vec![0; size as usize], chosen: Vec::new(), done: true };
            return;
        }
        let want = crate::team::shares(g.left().puts, size as usize);
        t.round = Round { turn: g.turn(), want, chosen: Vec::new(), done: false };
    }

    fn publish(&self, t: &Table) {
        let Some(feed) = &self.feed else { return };
        let times: Vec<u64> = t.record.moves.iter().map(|m| m.at_ms).collect();
        let sand = self.sand_left(t).map(|left| (self.timer.unwrap_or(0), left));
        feed.publish(&View {
            game: t.record.created_ms,
            start: &t.start,
            moves: &t.moves,
            times: &times,
            started_ms: t.record.created_ms,
            players: &t.record.players,
            phase: Phase::Play,
            sand,
        });
    }

    /// Milliseconds left on the sand-glass, while it runs.
    fn sand_left(&self, t: &Table) -> Option<u64> {
        let per = self.timer?;
        if t.game.outcome().is_some() || self.choosing_secrets(t) {
            return None;
        }
        let joined = (*self.joined.lock().unwrap_or_else(|e| e.into_inner()))?;
        let began = t.turn_began.max(joined);
        Some(Duration::from_secs(per as u64).saturating_sub(began.elapsed()).as_millis() as u64)
    }

    fn view(&self, seat: usize) -> SeatView {
        let t = self.lock();
        let id = self.seats[seat].id;
        let variant = t.game.variant();
        let heard = self.heard.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let others: Vec<String> = self
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.id.side != id.side)
            .map(|(k, s)| match &s.sitter {
                Sitter::Computer(c) => c.clone(),
                Sitter::Person => "here".into(),
                Sitter::Remote if heard[k].is_some_and(|h| h.elapsed() < AWAY) => "remote".into(),
                Sitter::Remote => "away".into(),
            })
            .collect();
        let over = t.game.outcome();
        let (puts_to_choose, chosen) = self.blind(&t, id);
        let choose_secrets = self.choosing_secrets(&t) && t.secrets[id.side.index()].is_none();
        let (secrets, revealed) = match &t.game {
            AnyGame::Ctor(g) => (
                t.secrets[id.side.index()].clone().unwrap_or_default(),
                g.secrets(id.side.other())
                    .iter()
                    .filter(|(_, st)| *st == crate::rules::ctor::SecretState::Revealed)
                    .map(|(sq, _)| *sq)
                    .collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let waiting = self.choosing_secrets(&t);
        SeatView {
            seat: id.name(self.team),
            side: variant.side_name(id.side).into(),
            variant: variant.name().into(),
            start: t.record.start.clone(),
            timer: self.timer,
            game: t.record.created_ms,
            moves: t.record.moves.iter().map(|m| m.mv.clone()).collect(),
            seq: t.record.moves.len() as u64,
            version: t.version,
            your_turn: over.is_none()
                && (choose_secrets || (!waiting && (puts_to_choose > 0 || self.may_move(&t, id)))),
            puts_to_choose,
            chosen: chosen.iter().map(|sq| format!("P{sq}")).collect(),
            other: others.join(", "),
            sand_left_ms: self.sand_left(&t),
            choose_secrets,
            secrets_pending: waiting,
            secrets,
            revealed,
            asked: t.asked.as_ref().map(|q| Asked { what: q.what.to_string(), mine: q.by == id.side }),
            result: over.map(|o| crate::matches::result_line(variant, o)),
        }
    }

    /// A member's blind Puts still to choose, and those chosen and not yet played.
    fn blind(&self, t: &Table, id: SeatId) -> (u8, Vec<Square>) {
        if !self.in_round(t, id.side) {
            return (0, Vec::new());
        }
        let want = t.round.want.get(id.member as usize).copied().unwrap_or(0);
        (want, t.round.chosen.iter().filter(|(m, _)| *m == id.member).map(|(_, sq)| *sq).collect())
    }

    /// Whether `side`'s team is choosing its Puts blind now.
    fn in_round(&self, t: &Table, side: Side) -> bool {
        self.team
            && t.game.side_to_move() == side
            && t.game.outcome().is_none()
            && members(&t.game, side) >= 2
            && !t.round.done
    }

    /// Whether `id` makes the next move (outside a blind round).
    fn may_move(&self, t: &Table, id: SeatId) -> bool {
        t.game.side_to_move() == id.side && !self.in_round(t, id.side) && self.acting(t, id.side) == id.member
    }

    /// Plays `text` for seat `id` (None: the host's own computer or clock) if it is the seat's
    /// to make and `seq` the moves played so far. A team member's Put during its team's blind
    /// round is kept as its choice.
    fn play(&self, id: Option<SeatId>, seq: Option<u64>, text: &str) -> Result<u64, Refusal> {
        let mut t = self.lock();
        if t.game.outcome().is_some() {
            return Err(refuse(StatusCode::FORBIDDEN, "the game is over"));
        }
        if self.choosing_secrets(&t) {
            return Err(refuse(StatusCode::FORBIDDEN, "the teams are choosing their secret squares"));
        }
        let played = t.record.moves.len() as u64;
        if let Some(id) = id
            && t.game.side_to_move() != id.side
        {
            return Err(refuse(StatusCode::FORBIDDEN, "not this seat's turn"));
        }
        if let Some(seq) = seq
            && seq != played
        {
            return Err(refuse(
                StatusCode::CONFLICT,
                format!("seq {seq} is not the moves played ({played}): read /seat again"),
            ));
        }
        let mv = t.game.parse_move(text).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        if let Some(id) = id
            && self.in_round(&t, id.side)
        {
            return self.choose(&mut t, id.member, &mv).map(|()| played);
        }
        if let Some(id) = id
            && self.acting(&t, id.side) != id.member
        {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                format!("member {} plays the team's Moves and Landings this turn", self.acting(&t, id.side) + 1),
            ));
        }
        if self.team && crate::team::is_put(&mv) && members(&t.game, t.game.side_to_move()) >= 2 {
            return Err(refuse(StatusCode::FORBIDDEN, "this turn's Puts were chosen blind by the team's members"));
        }
        let member = id.map(|i| i.member).or(self.team.then(|| self.acting(&t, t.game.side_to_move())));
        self.push(&mut t, mv, member)?;
        let seq = t.record.moves.len() as u64;
        self.changed(&mut t, true);
        Ok(seq)
    }

    /// Plays a move into the game and the record.
    fn push(&self, t: &mut Table, mv: AnyMove, member: Option<u8>) -> Result<(), Refusal> {
        t.game.play(&mv).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        let after = t.game.clone();
        t.record.push(&mv.to_string(), &after);
        if self.team
            && let Some(last) = t.record.moves.last_mut()
        {
            last.member = member;
        }
        t.moves.push(mv);
        t.asked = None;
        Ok(())
    }

    /// A member's blind choice: a Put (kept, unseen) or End (no more Puts from this member).
    fn choose(&self, t: &mut Table, member: u8, mv: &AnyMove) -> Result<(), Refusal> {
        let AnyGame::Ctor(g) = &t.game else { unreachable!("only CTOR has teams") };
        let want = t.round.want.get(member as usize).copied().unwrap_or(0);
        match mv {
            AnyMove::Ctor(CtorMove::End) => {
                if let Some(w) = t.round.want.get_mut(member as usize) {
                    *w = 0;
                }
            }
            AnyMove::Ctor(CtorMove::Put(sq)) => {
                if want == 0 {
                    return Err(refuse(
                        StatusCode::FORBIDDEN,
                        "this member has chosen its Puts: the team's others choose",
                    ));
                }
                if g.disc(*sq).is_some() {
                    return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, format!("square {sq} is taken")));
                }
                if t.round.chosen.iter().any(|(m, s)| *m == member && s == sq) {
                    return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, format!("square {sq} is chosen already")));
                }
                t.round.chosen.push((member, *sq));
                t.round.want[member as usize] -= 1;
            }
            _ => {
                return Err(refuse(
                    StatusCode::FORBIDDEN,
                    "the team chooses its Puts first (a member's End gives up the rest of its share)",
                ));
            }
        }
        let resolved = self.resolve(t);
        self.changed(t, resolved);
        Ok(())
    }

    /// Once every member has chosen: the Puts played in the order chosen, those whose square
    /// was taken choose again (while the turn has Puts left).
    fn resolve(&self, t: &mut Table) -> bool {
        if t.round.want.iter().any(|w| *w > 0) {
            return false;
        }
        let AnyGame::Ctor(g) = &t.game else { return false };
        let blind = g.resolve_blind_put(&t.round.chosen);
        let turn = g.turn();
        for (member, sq) in blind.accepted {
            let _ = self.push(t, AnyMove::Ctor(CtorMove::Put(sq)), Some(member));
        }
        let room = match &t.game {
            AnyGame::Ctor(g) if g.turn() == turn && g.outcome().is_none() => g.left().puts as usize,
            _ => 0,
        };
        t.round.chosen.clear();
        if room > 0 && !blind.choose_again.is_empty() {
            for m in blind.choose_again.into_iter().take(room) {
                t.round.want[m as usize] += 1;
            }
        } else {
            t.round.done = true;
        }
        true
    }

    /// Whether the game waits for a team's secret squares.
    fn choosing_secrets(&self, t: &Table) -> bool {
        self.secret_squares && t.secrets.iter().any(Option::is_none)
    }

    /// The teams of the computer alone choose their squares at once.
    fn computer_secrets(&self, t: &mut Table) {
        let AnyGame::Ctor(g) = &t.start else { return };
        if !self.secret_squares {
            return;
        }
        for side in [Side::First, Side::Second] {
            if t.secrets[side.index()].is_none() && self.team_of(side).all(|s| s.sitter.is_computer()) {
                let seed = t.record.created_ms ^ (0x5eed + side.index() as u64);
                t.secrets[side.index()] = Some(crate::team::random_secrets(g, seed));
            }
        }
        self.apply_secrets(t);
    }

    /// Once both teams have chosen: the squares go into the game and its record, and the
    /// first turn (and its sand-glass) begins.
    fn apply_secrets(&self, t: &mut Table) {
        let ([Some(black), Some(white)], AnyGame::Ctor(g)) = (&t.secrets, &mut t.start) else { return };
        if !g.secrets(Side::First).is_empty() {
            return;
        }
        if g.set_secrets(Side::First, black).is_err() || g.set_secrets(Side::Second, white).is_err() {
            return;
        }
        t.record.secrets = Record::secrets_of(&t.start);
        let keep = t.moves.len();
        t.relay(keep);
        t.turn_began = Instant::now();
    }

    /// A team's secret squares, sent by one of its members.
    fn set_secrets(&self, id: SeatId, squares: &[u16]) -> Result<(), Refusal> {
        let mut t = self.lock();
        if self.secret_squares && t.secrets[id.side.index()].is_some() {
            return Err(refuse(StatusCode::CONFLICT, "the team's secret squares are chosen already"));
        }
        if !self.choosing_secrets(&t) {
            return Err(refuse(StatusCode::FORBIDDEN, "this game has no secret squares to choose now"));
        }
        let AnyGame::Ctor(g) = &t.start else { unreachable!("secret squares are CTOR's") };
        let mut check = g.clone();
        check.set_secrets(id.side, squares).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        t.secrets[id.side.index()] = Some(squares.to_vec());
        self.apply_secrets(&mut t);
        self.changed(&mut t, true);
        Ok(())
    }

    /// A question of `side`'s seat to the other side.
    fn ask(&self, id: SeatId, seq: u64, what: &str) -> Result<(), Refusal> {
        let mut t = self.lock();
        let played = t.record.moves.len() as u64;
        if seq != played {
            return Err(refuse(StatusCode::CONFLICT, format!("seq {seq} is not the moves played ({played})")));
        }
        let what = match what {
            "undo" => {
                if t.game.outcome().is_some() {
                    return Err(refuse(StatusCode::FORBIDDEN, "the game is over: ask for a rematch"));
                }
                if self.team {
                    return Err(refuse(StatusCode::FORBIDDEN, "in team play moves are not taken back"));
                }
                if undo_to(&t, id.side).is_none() {
                    return Err(refuse(StatusCode::FORBIDDEN, "this seat has no move to take back"));
                }
                "undo"
            }
            "rematch" => {
                if t.game.outcome().is_none() {
                    return Err(refuse(StatusCode::FORBIDDEN, "a rematch is asked once the game is over"));
                }
                "rematch"
            }
            other => {
                return Err(refuse(
                    StatusCode::BAD_REQUEST,
                    format!("'{}' is not a question (undo, rematch)", crate::rules::quote(other)),
                ));
            }
        };
        t.asked = Some(Question { by: id.side, what });
        self.changed(&mut t, false);
        // The computer at the host agrees at once.
        if self.team_of(id.side.other()).all(|s| s.sitter.is_computer()) {
            drop(t);
            return self.answer(id.side.other(), true).map(|_| ());
        }
        Ok(())
    }

    /// The other side's answer: yes takes back the asker's last move (and what followed) or
    /// starts the rematch.
    fn answer(&self, side: Side, yes: bool) -> Result<&'static str, Refusal> {
        let mut t = self.lock();
        let Some(q) = t.asked.clone().filter(|q| q.by != side) else {
            return Err(refuse(StatusCode::FORBIDDEN, "the other side has asked nothing"));
        };
        t.asked = None;
        if yes && q.what == "undo" {
            if let Some(keep) = undo_to(&t, q.by) {
                t.relay(keep);
            }
            self.changed(&mut t, true);
        } else if yes {
            self.rematch(&mut t);
        } else {
            self.changed(&mut t, false);
        }
        Ok(q.what)
    }

    /// A new game from the same start, with the same seats and invitations, in a new record.
    fn rematch(&self, t: &mut Table) {
        let mut record = Record::new(&self.start, t.record.players.clone().map(|p| (p.name, p.kind)));
        record.team = t.record.team.clone();
        record.options.timer = self.timer;
        if record.created_ms <= t.record.created_ms {
            record.created_ms = t.record.created_ms + 1;
        }
        // Beside the game before, named as every record is.
        let dir = t.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let path = (1u32..)
            .map(|k| {
                let base = format!("{}-{}", record.created_ms, record.variant);
                dir.join(if k == 1 { format!("{base}.json") } else { format!("{base}-{k}.json") })
            })
            .find(|p| !p.exists())
            .unwrap_or_else(|| dir.join("rematch.json"));
        let tokens: Vec<(SeatId, Option<Token>)> = self.seats.iter().map(|s| (s.id, s.token)).collect();
        let _ = save_tokens(&seats_path(&path), &tokens, self.team);
        t.record = record;
        t.path = path;
        t.moves.clear();
        t.start = self.start.clone();
        t.secrets = [None, None];
        self.computer_secrets(t);
        t.relay(0);
        self.changed(t, true);
    }

    /// The seat whose token the request carries, compared in constant time with every seat's.
    fn seat_of(&self, headers: &HeaderMap) -> Result<usize, Refusal> {
        let given = bearer(headers)?;
        let mut found = None;
        for (k, seat) in self.seats.iter().enumerate() {
            if let Some(token) = &seat.token
                && token.matches(given)
            {
                found = Some(k);
            }
        }
        let k = found.ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "no seat has this token"))?;
        let now = Instant::now();
        let mut rate = self.rate.lock().unwrap_or_else(|e| e.into_inner());
        let (since, n) = &mut rate[k];
        if now.duration_since(*since) >= Duration::from_secs(1) {
            (*since, *n) = (now, 0);
        }
        *n += 1;
        if *n > RATE {
            return Err(refuse(StatusCode::TOO_MANY_REQUESTS, "too many requests: at most 100 a second"));
        }
        let mut heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        let first = heard[k].is_none();
        heard[k] = Some(now);
        if first && self.seats.iter().zip(heard.iter()).all(|(s, h)| s.sitter.is_computer() || h.is_some()) {
            *self.joined.lock().unwrap_or_else(|e| e.into_inner()) = Some(now);
        }
        Ok(k)
    }
}

/// The token of a request's one `Authorization: Bearer TOKEN` header. None at all is 401; two
/// headers, another scheme, or anything but the token's 32 hexadecimal digits after `Bearer `
/// is a malformed request (400), never read by its first header or first word.
fn bearer(headers: &HeaderMap) -> Result<&[u8], Refusal> {
    let mut all = headers.get_all(header::AUTHORIZATION).iter();
    let value = all.next().ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "a seat's requests carry its token"))?;
    if all.next().is_some() {
        return Err(refuse(StatusCode::BAD_REQUEST, "a request carries one Authorization header, not several"));
    }
    value
        .as_bytes()
        .strip_prefix(b"Bearer ")
        .filter(|t| t.len() == 32 && t.iter().all(u8::is_ascii_hexdigit))
        .ok_or_else(|| {
            refuse(StatusCode::BAD_REQUEST, "the Authorization header is `Bearer ` and the seat's token, nothing else")
        })
}

/// The moves kept when `side` takes back its last move: up to just before it, or before the
/// first move of its turn where a turn is several moves (Ordo X, Volterra). None if `side` has
/// not moved.
fn undo_to(t: &Table, side: Side) -> Option<usize> {
    let mut game = t.start.clone();
    let mut sides = Vec::with_capacity(t.moves.len());
    for mv in &t.moves {
        sides.push(game.side_to_move());
        game.play_unchecked(mv);
    }
    let mut keep = sides.iter().rposition(|s| *s == side)?;
    while keep > 0 && sides[keep - 1] == side {
        keep -= 1;
    }
    Some(keep)
}

fn answer(r: Result<Response, Refusal>) -> Response {
    match r {
        Ok(r) => r,
        Err((status, why)) => (status, format!("{why}\n")).into_response(),
    }
}

/// A request's body: at most [`MAX_BODY`] bytes within [`BODY_TIME`], as JSON of `T`.
async fn body<T: serde::de::DeserializeOwned>(body: axum::body::Body) -> Result<T, Refusal> {
    let bytes = match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
        Err(_) => return Err(refuse(StatusCode::REQUEST_TIMEOUT, "the request did not arrive within 5 s")),
        Ok(Err(_)) => return Err(refuse(StatusCode::PAYLOAD_TOO_LARGE, "a request is at most 1 KiB")),
        Ok(Ok(b)) => b,
    };
    serde_json::from_slice(&bytes).map_err(|e| {
        refuse(StatusCode::BAD_REQUEST, format!("not understood: {}", crate::rules::one_line(&e.to_string())))
    })
}

async fn seat(State(s): State<Arc<Shared>>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    answer(
        async {
            let k = s.seat_of(&headers)?;
            if let Some(k) = q.keys().find(|k| k.as_str() != "wait") {
                return Err(refuse(StatusCode::BAD_REQUEST, format!("unknown parameter '{}'", crate::rules::quote(k))));
            }
            if let Some(w) = q.get("wait") {
                let after: u64 = crate::rules::number(w)
                    .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "wait takes the view's version"))?;
                let mut rx = s.version.subscribe();
                let _ = tokio::time::timeout(LONGEST_WAIT, rx.wait_for(|v| *v != after)).await;
            }
            Ok(axum::Json(s.view(k)).into_response())
        }
        .await,
    )
}

async fn seat_move(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = s.seat_of(&headers)?;
            let sent: SentMove = body(b).await?;
            let seq = s.play(Some(s.seats[k].id), Some(sent.seq), &sent.mv)?;
            Ok(axum::Json(serde_json::json!({ "seq": seq })).into_response())
        }
        .await,
    )
}

async fn seat_secrets(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = s.seat_of(&headers)?;
            let sent: Secrets = body(b).await?;
            s.set_secrets(s.seats[k].id, &sent.squares)?;
            Ok(axum::Json(serde_json::json!({ "secrets": "chosen" })).into_response())
        }
        .await,
    )
}

async fn seat_ask(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = s.seat_of(&headers)?;
            let asked: Ask = body(b).await?;
            s.ask(s.seats[k].id, asked.seq, &asked.what)?;
            Ok(axum::Json(serde_json::json!({ "asked": asked.what })).into_response())
        }
        .await,
    )
}

async fn seat_answer(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = s.seat_of(&headers)?;
            let said: Answer = body(b).await?;
            let what = s.answer(s.seats[k].id.side, said.yes)?;
            Ok(axum::Json(serde_json::json!({ "answered": what, "yes": said.yes })).into_response())
        }
        .await,
    )
}

async fn join_page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "tablero: this is a seat's invitation. Open it with tablero: tablero join '<the whole link>'\n",
    )
        .into_response()
}

async fn index() -> Response {
    "tablero host: a game's seats, for their invitations (tablero join). Spectators watch the live feed.\n"
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Response {
    (StatusCode::NOT_FOUND, format!("no page {} here\n", crate::rules::quote(uri.path()))).into_response()
}

fn router(shared: Arc<Shared>) -> Router {
    let limit = shared.clone();
    Router::new()
        .route("/", get(index))
        .route("/join", get(join_page))
        .route("/seat", get(seat))
        .route("/seat/move", post(seat_move))
        .route("/seat/secrets", post(seat_secrets))
        .route("/seat/ask", post(seat_ask))
        .route("/seat/answer", post(seat_answer))
        .fallback(not_found)
        .with_state(shared)
        .layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
            let limit = limit.clone();
            async move {
                if limit.in_flight.fetch_add(1, Ordering::SeqCst) >= IN_FLIGHT {
                    limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                    return (StatusCode::SERVICE_UNAVAILABLE, "busy: try again\n").into_response();
                }
                let mut r = next.run(req).await;
                limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                r.headers_mut().insert(header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
                r
            }
        }))
}

/// The file beside a record that keeps its seats' tokens.
pub fn seats_path(record: &Path) -> PathBuf {
    let mut name = record.file_name().unwrap_or_default().to_os_string();
    name.push(".seats");
    record.with_file_name(name)
}

/// Writes the tokens, readable and writable by the owner only (created so, then renamed).
fn save_tokens(path: &Path, tokens: &[(SeatId, Option<Token>)], team: bool) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let map: serde_json::Map<String, serde_json::Value> =
        tokens.iter().map(|(id, t)| (id.name(team), t.map(|t| t.hex()).into())).collect();
    let text = serde_json::Value::Object(map).to_string();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".seats.{}.tmp", std::process::id()));
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn load_tokens(path: &Path, ids: &[SeatId], team: bool) -> Result<Vec<Option<Token>>, NetError> {
    let bad = |why: String| NetError::Seats { path: path.display().to_string(), why };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    ids.iter()
        .map(|id| {
            let k = id.name(team);
            match v.get(&k) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => {
                    Token::from_hex(s).map(Some).ok_or_else(|| bad(format!("{k} is not a token")))
                }
                Some(_) => Err(bad(format!("{k} is not a token"))),
            }
        })
        .collect()
}

/// The address an invitation names for a host listening on `addr`: `addr` itself, or where it
/// listens on every address, this machine's address on the route out (asked of the system by
/// a UDP socket aimed at a documentation address: nothing is sent), else the loopback.
pub fn reachable(addr: SocketAddr) -> SocketAddr {
    if !addr.ip().is_unspecified() {
        return addr;
    }
    let (any, probe): (SocketAddr, SocketAddr) = if addr.is_ipv4() {
        (([0, 0, 0, 0], 0).into(), ([192, 0, 2, 1], 9).into())
    } else {
        (([0u16; 8], 0).into(), ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], 9).into())
    };
    let out = std::net::UdpSocket::bind(any).and_then(|s| s.connect(probe).and_then(|()| s.local_addr()));
    match out {
        Ok(a) if !a.ip().is_unspecified() => SocketAddr::new(a.ip(), addr.port()),
        _ => SocketAddr::new(
            if addr.is_ipv4() { [127, 0, 0, 1].into() } else { std::net::Ipv6Addr::LOCALHOST.into() },
            addr.port(),
        ),
    }
}

/// A host serving its seats; dropping it stops the server.
pub struct Host {
    shared: Arc<Shared>,
    /// The address the host listens on.
    pub addr: SocketAddr,
    /// The address its invitations name: `addr`, or where it listens on every address
    /// (`0.0.0.0`), this machine's address towards other machines.
    pub reach: SocketAddr,
    /// Over HTTPS: the SHA-256 of the certificate the invitations pin.
    pub cert: Option<super::tls::Fingerprint>,
    /// The record's file when the host opened (a rematch saves into a new one).
    pub path: PathBuf,
    /// The live feed's server, if asked for.
    pub feed: Option<crate::feed::server::Server>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Host {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Relaxed);
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Host {
    /// Opens the seats: resumes the record if it exists (with its seats' tokens), else starts
    /// one; binds the address and serves.
    pub fn open(o: HostOptions) -> Result<Host, NetError> {
        let mut start = o.start.clone();
        if let Some(t) = o.timer {
            match &mut start {
                AnyGame::Ctor(g) if crate::rules::ctor::TIMERS.contains(&t) => g.set_timer(Some(t)),
                _ => return Err(NetError::Timer(t)),
            }
        }
        let team = is_team_game(&start);
        let mut seats = Vec::new();
        for side in [Side::First, Side::Second] {
            for m in 0..members(&start, side) {
                let sitter = o.seats[side.index()].get(m as usize).cloned().unwrap_or(Sitter::Remote);
                seats.push(Seat { id: SeatId::new(side, m), sitter, token: None });
            }
        }
        let players = |side: Side| -> Vec<PlayerInfo> {
            seats.iter().filter(|s| s.id.side == side).map(|s| s.sitter.player(s.id, team)).collect()
        };
        let fresh = || {
            let mut r = Record::new(
                &start,
                [Side::First, Side::Second].map(|s| {
                    let p = players(s);
                    let name = p.iter().map(|p| p.name.clone()).collect::<Vec<_>>().join(" & ");
                    (name, p[0].kind.clone())
                }),
            );
            if team {
                r.team = Some(TeamRecord::new([players(Side::First), players(Side::Second)], Lead::Captain));
            }
            r
        };
        let path = match &o.record {
            Some(p) => p.clone(),
            None => crate::record::new_game_path(&crate::record::data_dir(), &fresh()),
        };
        let seats_file = seats_path(&path);
        let ids: Vec<SeatId> = seats.iter().map(|s| s.id).collect();
        let (record, game, moves, tokens) = if path.exists() {
            let (record, positions) = crate::record::load(&path)?;
            if record.start_game()?.to_string() != start.to_string() {
                return Err(NetError::OtherStart { path: path.display().to_string() });
            }
            let tokens =
                if seats_file.exists() { load_tokens(&seats_file, &ids, team)? } else { vec![None; ids.len()] };
            let moves = record.moves_played(&positions)?;
            (record, positions.last().cloned().unwrap_or_else(|| start.clone()), moves, tokens)
        } else {
            let record = fresh();
            crate::record::write_atomic(&path, &record.to_json())?;
            (record, start.clone(), Vec::new(), vec![None; ids.len()])
        };
        for (seat, token) in seats.iter_mut().zip(tokens) {
            seat.token = match seat.sitter {
                Sitter::Computer(_) => None,
                _ => Some(match token {
                    Some(t) => t,
                    None => Token::new()?,
                }),
            };
        }
        save_tokens(&seats_file, &seats.iter().map(|s| (s.id, s.token)).collect::<Vec<_>>(), team)?;
        // A record resumed starts as it was saved, with its secret squares if it has them.
        let (resumed_start, chosen_secrets) = match (record.start_game()?, o.secrets) {
            (AnyGame::Ctor(g), true) if !g.secrets(Side::First).is_empty() => {
                let squares = [Side::First, Side::Second].map(|s| Some(g.secrets(s).iter().map(|(q, _)| *q).collect()));
                (AnyGame::Ctor(g), squares)
            }
            (game, _) => (game, [None, None]),
        };
        let secret_squares = o.secrets && matches!(start, AnyGame::Ctor(_));
        let feed = o.feed.map(|_| Feed::new());
        let n = seats.len();
        let nobody = seats.iter().all(|s| s.sitter.is_computer());
        let shared = Arc::new(Shared {
            table: Mutex::new(Table {
                start: resumed_start,
                secrets: chosen_secrets,
                game,
                record,
                path: path.clone(),
                save_error: None,
                moves,
                round: Round::default(),
                asked: None,
                turn_began: Instant::now(),
                turn_key: (u32::MAX, Side::First, 0),
                version: 0,
            }),
            moved: Condvar::new(),
            version: tokio::sync::watch::Sender::new(0),
            seats,
            team,
            timer: o.timer,
            start,
            secret_squares,
            heard: Mutex::new(vec![None; n]),
            joined: Mutex::new(nobody.then(Instant::now)),
            rate: Mutex::new(vec![(Instant::now(), 0); n]),
            in_flight: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            feed: feed.clone(),
        });
        {
            let mut t = shared.lock();
            shared.computer_secrets(&mut t);
            shared.changed(&mut t, false);
        }
        let feed_server = match (feed, o.feed) {
            (Some(feed), Some(addr)) => {
                Some(crate::feed::server::serve(feed, addr).map_err(|e| NetError::Feed(e.to_string()))?)
            }
            _ => None,
        };
        let listener =
            std::net::TcpListener::bind(o.addr).map_err(|source| NetError::Listen { addr: o.addr, source })?;
        let addr = listener.local_addr()?;
        let reach = reachable(addr);
        // HTTPS for every host that other machines reach, with the certificate kept beside the
        // record (a resumed host keeps it, and its invitations).
        let identity = if o.tls || !addr.ip().is_loopback() {
            let names = vec!["localhost".to_string(), reach.ip().to_string(), addr.ip().to_string()];
            Some(super::tls::identity(&path, &names).map_err(NetError::Certificate)?)
        } else {
            None
        };
        let cert = identity.as_ref().map(|i| i.fingerprint());
        let acceptor = match &identity {
            Some(i) => Some(i.acceptor().map_err(|e| NetError::Certificate(e.to_string()))?),
            None => None,
        };
        listener.set_nonblocking(true)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tablero-host")
            .enable_all()
            .build()?;
        let (stop, thread) =
            crate::feed::server::spawn(runtime, listener, acceptor, router(shared.clone()), "tablero-host")?;
        Ok(Host { shared, addr, reach, cert, path, feed: feed_server, stop: Some(stop), thread: Some(thread) })
    }

    /// Whether the game is a CTOR team game (its seats are members: `first.1`, …).
    pub fn is_team(&self) -> bool {
        self.shared.team
    }

    /// Each remote seat's name and invitation.
    pub fn invitations(&self) -> Vec<(SeatId, String)> {
        self.shared
            .seats
            .iter()
            .filter(|s| s.sitter == Sitter::Remote)
            .filter_map(|s| self.seat_link(s.id).map(|l| (s.id, l)))
            .collect()
    }

    /// The link of any seat with a token (a person at the host's table connects through it).
    pub fn seat_link(&self, id: SeatId) -> Option<String> {
        let seat = &self.shared.seats[self.shared.index(id)?];
        seat.token.map(|t| Invitation::link(&self.reach, id, self.shared.team, &t, self.cert.as_ref()))
    }

    /// The seat a person at the host's table sits at.
    pub fn person(&self) -> Option<SeatId> {
        self.shared.seats.iter().find(|s| s.sitter == Sitter::Person).map(|s| s.id)
    }

    /// The game now.
    pub fn game(&self) -> AnyGame {
        self.shared.lock().game.clone()
    }

    /// The record's file now (a rematch saves into a new one).
    pub fn record_path(&self) -> PathBuf {
        self.shared.lock().path.clone()
    }

    /// Plays the game out: the computer's seats move here, the remote ones through the server,
    /// and the sand-glass ends turns. Returns when the game is over, or with
    /// [`NetError::Stopped`] after Ctrl-C (the record keeps every move played).
    pub fn play_out(&self) -> Result<AnyGame, NetError> {
        play_out(&self.shared)
    }

    /// Plays game after game (rematches) on a thread of its own, until the host closes.
    pub fn play_in_background(&self) -> std::thread::JoinHandle<()> {
        let shared = self.shared.clone();
        std::thread::spawn(move || {
            while !shared.closed.load(Ordering::Relaxed) && !STOP.load(Ordering::Relaxed) {
                if play_out(&shared).is_err() {
                    return;
                }
                let t = shared.lock();
                let _ = shared.moved.wait_timeout(t, Duration::from_millis(200));
            }
        })
    }
}

fn play_out(shared: &Shared) -> Result<AnyGame, NetError> {
    let mut said_error = None;
    loop {
        if STOP.load(Ordering::Relaxed) || shared.closed.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        let mut t = shared.lock();
        if let Some(e) = &t.save_error
            && said_error.as_ref() != Some(e)
        {
            eprintln!("tablero: {e}");
            said_error = Some(e.clone());
        }
        if t.game.outcome().is_some() {
            return Ok(t.game.clone());
        }
        // The sand-glass: the turn ends when it runs out, whatever was done.
        if shared.sand_left(&t) == Some(0) {
            let ply = t.record.moves.len() as u64;
            t.round.done = true;
            drop(t);
            // (A move that came first is no error: the next round looks again.)
            let _ = shared.play(None, Some(ply), "T");
            continue;
        }
        if shared.choosing_secrets(&t) {
            wait(shared, t);
            continue;
        }
        let side = t.game.side_to_move();
        let created = t.record.created_ms;
        let ply = t.record.moves.len() as u64;
        if shared.in_round(&t, side) {
            // The computer members of the team choose their blind Puts, from their team's view.
            let choosing: Vec<(u8, u8, String)> = shared
                .team_of(side)
                .filter_map(|s| match &s.sitter {
                    Sitter::Computer(kind) => {
                        let want = t.round.want.get(s.id.member as usize).copied().unwrap_or(0);
                        (want > 0).then(|| (s.id.member, want, kind.clone()))
                    }
                    _ => None,
                })
                .collect();
            if let Some((member, want, kind)) = choosing.into_iter().next() {
                let AnyGame::Ctor(g) = &t.game else { unreachable!("teams are CTOR's") };
                let seed = crate::matches::game_seed(created, ply as u32).wrapping_add(member as u64);
                let mut squares = crate::team::computer_puts(&g.view(side), want, &kind, seed);
                squares.retain(|sq| !t.round.chosen.iter().any(|(m, s)| *m == member && s == sq));
                let mut made = false;
                for sq in squares {
                    made |= shared.choose(&mut t, member, &AnyMove::Ctor(CtorMove::Put(sq))).is_ok();
                }
                if !made {
                    let _ = shared.choose(&mut t, member, &AnyMove::Ctor(CtorMove::End));
                }
                continue;
            }
            wait(shared, t);
            continue;
        }
        let acting = shared.acting(&t, side);
        let seat = shared.team_of(side).find(|s| s.id.member == acting).map(|s| s.sitter.clone());
        match seat {
            Some(Sitter::Computer(name)) => {
                let game = if shared.team { crate::team::after_round(&t.game) } else { t.game.clone() };
                drop(t);
                let seed = crate::matches::game_seed(created, ply as u32).wrapping_add(ply);
                let mut player = crate::players::by_name(&name, seed)?;
                let mv = player.choose(&game).ok_or_else(|| NetError::Rules("the computer found no move".into()))?;
                match shared.play(None, Some(ply), &mv.to_string()) {
                    Ok(_) => {}
                    // The sand-glass ran out meanwhile: the next round looks again.
                    Err((StatusCode::CONFLICT, _)) => {}
                    Err((_, why)) => return Err(NetError::Rules(why)),
                }
            }
            _ => wait(shared, t),
        }
    }
}

/// Waits for a change, or a moment (the sand-glass runs meanwhile).
fn wait(shared: &Shared, t: MutexGuard<'_, Table>) {
    let _ = shared.moved.wait_timeout(t, Duration::from_millis(50));
}

/// `tablero host "<position>" --headless`: prints each remote seat's invitation, plays the game
/// out, prints the result line, and serves on for `linger` seconds so that the seats see it (a
/// rematch agreed meanwhile is played too).
pub fn run_headless(o: HostOptions, out: &mut dyn Write) -> Result<(), NetError> {
    let linger = o.linger;
    let host = Host::open(o)?;
    for (id, link) in host.invitations() {
        writeln!(out, "invite {}: {link}", id.name(host.is_team()))?;
    }
    if let Some(feed) = &host.feed {
        writeln!(out, "feed: {} (for spectators: tablero watch {})", feed.url(), feed.url())?;
    }
    writeln!(out, "record: {}", host.path.display())?;
    out.flush()?;
    loop {
        let end = host.play_out()?;
        let outcome = end.outcome().expect("a game played out is over");
        writeln!(out, "{}", crate::matches::result_line(end.variant(), outcome))?;
        out.flush()?;
        let until = Instant::now() + Duration::from_secs_f64(linger.clamp(0.0, 3600.0));
        let mut again = false;
        while Instant::now() < until && !STOP.load(Ordering::Relaxed) {
            if host.game().outcome().is_none() {
                again = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if !again {
            return Ok(());
        }
        writeln!(out, "rematch: {}", host.record_path().display())?;
        out.flush()?;
    }
}

/// The name of a side's seats as `--seat` takes them: `first`, `second` or the side's name,
/// and `.N` for a team's member.
pub fn seat_names(game: &AnyGame, side: Side) -> Vec<String> {
    let n = members(game, side);
    if n == 1 { vec![seat_name(side).to_string()] } else { (0..n).map(|m| SeatId::new(side, m).name(true)).collect() }
}
