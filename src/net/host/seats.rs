//! The seats' game at the host: the game and its record under one lock, the team's blind
//! round, CTOR's secret squares, questions (undo, rematch) and their answers, each seat's
//! token and rate. What it refuses is a typed [`Refused`]; the server gives it its status.

use super::tokens::{save_tokens, seats_path};
use super::{AWAY, RATE, Sitter, members};
use crate::feed::{Feed, Phase, View};
use crate::net::{Asked, Question, Said, SeatId, SeatView, Token};
use crate::record::Record;
use crate::rules::ctor::{CtorMove, Square};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::team::Lead;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A team's blind Puts of one turn, as the host collects them.
#[derive(Default)]
pub(super) struct Round {
    /// The turn, or 0 before any.
    pub(super) turn: u32,
    /// Puts each member is still to choose.
    pub(super) want: Vec<u8>,
    /// The choices so far, in the order they came: (member, square).
    pub(super) chosen: Vec<(u8, Square)>,
    /// Every Put of the turn is played: the acting member plays on.
    pub(super) done: bool,
}

/// A question asked and not yet answered.
#[derive(Clone)]
pub(super) struct Asking {
    pub(super) by: Side,
    pub(super) what: Question,
}

/// The game and what goes with it, under one lock.
pub(super) struct Table {
    /// The start, with CTOR's secret squares once both teams have chosen them.
    pub(super) start: AnyGame,
    /// Each team's secret squares, as chosen (CTOR with `--secrets`).
    pub(super) secrets: [Option<Vec<u16>>; 2],
    pub(super) game: AnyGame,
    pub(super) record: Record,
    pub(super) path: PathBuf,
    pub(super) save_error: Option<String>,
    pub(super) moves: Vec<AnyMove>,
    pub(super) round: Round,
    pub(super) asked: Option<Asking>,
    /// When the turn now began, and which turn it is (the sand-glass).
    pub(super) turn_began: Instant,
    pub(super) turn_key: (u32, Side, usize),
    pub(super) version: u64,
}

pub(super) struct Seat {
    pub(super) id: SeatId,
    pub(super) sitter: Sitter,
    pub(super) token: Option<Token>,
}

pub(super) struct Shared {
    pub(super) table: Mutex<Table>,
    /// Woken after every change.
    pub(super) moved: Condvar,
    pub(super) version: tokio::sync::watch::Sender<u64>,
    pub(super) seats: Vec<Seat>,
    pub(super) team: bool,
    pub(super) timer: Option<u8>,
    /// The start as given (a rematch starts from it, its teams choosing their squares again).
    pub(super) start: AnyGame,
    /// Whether the teams choose secret squares.
    pub(super) secret_squares: bool,
    pub(super) heard: Mutex<Vec<Option<Instant>>>,
    /// When every seat taken by a person (here or remote) was first heard from: the
    /// sand-glass runs from then.
    pub(super) joined: Mutex<Option<Instant>>,
    pub(super) rate: Mutex<Vec<(Instant, u32)>>,
    pub(super) in_flight: AtomicUsize,
    /// Set when the host closes: the computer's seats stop playing.
    pub(super) closed: AtomicBool,
    pub(super) feed: Option<Arc<Feed>>,
}

/// Why the host refuses what a seat asks. Each kind has one status code, given at the server's
/// edge (`server::status`); the seats' logic knows nothing of HTTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A request that is not understood.
    Malformed,
    /// No seat has the token (or none was given).
    NoSeat,
    /// Not the seat's to do: another's turn, the game over, a question not its own.
    NotYours,
    /// Made for another point of the game than the host's (a stale or doubled move).
    Stale,
    /// A move the rules refuse, or squares that cannot be chosen.
    Illegal,
    /// A body over the limit.
    TooLarge,
    /// A body that did not arrive in time.
    TooSlow,
    /// Over a seat's requests a second.
    TooMany,
}

/// A refusal: its kind and the one line said to the seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: Why,
    pub text: String,
}

pub(super) fn refuse(why: Why, text: impl Into<String>) -> Refused {
    Refused { why, text: text.into() }
}

impl Table {
    /// The game after `keep` of its moves from the start, for a new game or an undo.
    pub(super) fn relay(&mut self, keep: usize) {
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
    pub(super) fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn index(&self, id: SeatId) -> Option<usize> {
        self.seats.iter().position(|s| s.id == id)
    }

    pub(super) fn team_of(&self, side: Side) -> impl Iterator<Item = &Seat> {
        self.seats.iter().filter(move |s| s.id.side == side)
    }

    /// The member of `side` who plays the Moves and Landings (the captain).
    pub(super) fn acting(&self, t: &Table, side: Side) -> u8 {
        let AnyGame::Ctor(g) = &t.game else { return 0 };
        crate::team::acting(Lead::Captain, g.turn(), members(&t.game, side) as usize) as u8
    }

    /// After every change: the sand-glass and the team's blind round begun for a new turn, the
    /// feed shown, those waiting woken, and the record saved.
    pub(super) fn changed(&self, t: &mut Table, saved: bool) {
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
    pub(super) fn begin_round(&self, t: &mut Table) {
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

    pub(super) fn publish(&self, t: &Table) {
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
    pub(super) fn sand_left(&self, t: &Table) -> Option<u64> {
        let per = self.timer?;
        if t.game.outcome().is_some() || self.choosing_secrets(t) {
            return None;
        }
        let joined = (*self.joined.lock().unwrap_or_else(|e| e.into_inner()))?;
        let began = t.turn_began.max(joined);
        Some(Duration::from_secs(per as u64).saturating_sub(began.elapsed()).as_millis() as u64)
    }

    pub(super) fn view(&self, seat: usize) -> SeatView {
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
                Sitter::Computer(c) => c.name(),
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
            asked: t.asked.as_ref().map(|q| Asked { what: q.what, mine: q.by == id.side }),
            result: over.map(|o| crate::matches::result_line(variant, o)),
        }
    }

    /// A member's blind Puts still to choose, and those chosen and not yet played.
    pub(super) fn blind(&self, t: &Table, id: SeatId) -> (u8, Vec<Square>) {
        if !self.in_round(t, id.side) {
            return (0, Vec::new());
        }
        let want = t.round.want.get(id.member as usize).copied().unwrap_or(0);
        (want, t.round.chosen.iter().filter(|(m, _)| *m == id.member).map(|(_, sq)| *sq).collect())
    }

    /// Whether `side`'s team is choosing its Puts blind now.
    pub(super) fn in_round(&self, t: &Table, side: Side) -> bool {
        self.team
            && t.game.side_to_move() == side
            && t.game.outcome().is_none()
            && members(&t.game, side) >= 2
            && !t.round.done
    }

    /// Whether `id` makes the next move (outside a blind round).
    pub(super) fn may_move(&self, t: &Table, id: SeatId) -> bool {
        t.game.side_to_move() == id.side && !self.in_round(t, id.side) && self.acting(t, id.side) == id.member
    }

    /// Plays `text` for seat `id` (None: the host's own computer or clock) if it is the seat's
    /// to make and `seq` the moves played so far. A team member's Put during its team's blind
    /// round is kept as its choice.
    pub(super) fn play(&self, id: Option<SeatId>, seq: Option<u64>, text: &str) -> Result<u64, Refused> {
        let mut t = self.lock();
        if t.game.outcome().is_some() {
            return Err(refuse(Why::NotYours, "the game is over"));
        }
        if self.choosing_secrets(&t) {
            return Err(refuse(Why::NotYours, "the teams are choosing their secret squares"));
        }
        let played = t.record.moves.len() as u64;
        if let Some(id) = id
            && t.game.side_to_move() != id.side
        {
            return Err(refuse(Why::NotYours, "not this seat's turn"));
        }
        if let Some(seq) = seq
            && seq != played
        {
            return Err(refuse(Why::Stale, format!("seq {seq} is not the moves played ({played}): read /seat again")));
        }
        let mv = t.game.parse_move(text).map_err(|e| refuse(Why::Illegal, e.to_string()))?;
        if let Some(id) = id
            && self.in_round(&t, id.side)
        {
            return self.choose(&mut t, id.member, &mv).map(|()| played);
        }
        if let Some(id) = id
            && self.acting(&t, id.side) != id.member
        {
            return Err(refuse(
                Why::NotYours,
                format!("member {} plays the team's Moves and Landings this turn", self.acting(&t, id.side) + 1),
            ));
        }
        if self.team && crate::team::is_put(&mv) && members(&t.game, t.game.side_to_move()) >= 2 {
            return Err(refuse(Why::NotYours, "this turn's Puts were chosen blind by the team's members"));
        }
        let member = id.map(|i| i.member).or(self.team.then(|| self.acting(&t, t.game.side_to_move())));
        self.push(&mut t, mv, member)?;
        let seq = t.record.moves.len() as u64;
        self.changed(&mut t, true);
        Ok(seq)
    }

    /// Plays a move into the game and the record.
    pub(super) fn push(&self, t: &mut Table, mv: AnyMove, member: Option<u8>) -> Result<(), Refused> {
        t.game.play(&mv).map_err(|e| refuse(Why::Illegal, e.to_string()))?;
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
    pub(super) fn choose(&self, t: &mut Table, member: u8, mv: &AnyMove) -> Result<(), Refused> {
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
                    return Err(refuse(Why::NotYours, "this member has chosen its Puts: the team's others choose"));
                }
                if g.disc(*sq).is_some() {
                    return Err(refuse(Why::Illegal, format!("square {sq} is taken")));
                }
                if t.round.chosen.iter().any(|(m, s)| *m == member && s == sq) {
                    return Err(refuse(Why::Illegal, format!("square {sq} is chosen already")));
                }
                t.round.chosen.push((member, *sq));
                t.round.want[member as usize] -= 1;
            }
            _ => {
                return Err(refuse(
                    Why::NotYours,
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
    pub(super) fn resolve(&self, t: &mut Table) -> bool {
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
    pub(super) fn choosing_secrets(&self, t: &Table) -> bool {
        self.secret_squares && t.secrets.iter().any(Option::is_none)
    }

    /// The teams of the computer alone choose their squares at once.
    pub(super) fn computer_secrets(&self, t: &mut Table) {
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
    pub(super) fn apply_secrets(&self, t: &mut Table) {
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
    pub(super) fn set_secrets(&self, id: SeatId, squares: &[u16]) -> Result<(), Refused> {
        let mut t = self.lock();
        if self.secret_squares && t.secrets[id.side.index()].is_some() {
            return Err(refuse(Why::Stale, "the team's secret squares are chosen already"));
        }
        if !self.choosing_secrets(&t) {
            return Err(refuse(Why::NotYours, "this game has no secret squares to choose now"));
        }
        let AnyGame::Ctor(g) = &t.start else { unreachable!("secret squares are CTOR's") };
        let mut check = g.clone();
        check.set_secrets(id.side, squares).map_err(|e| refuse(Why::Illegal, e.to_string()))?;
        t.secrets[id.side.index()] = Some(squares.to_vec());
        self.apply_secrets(&mut t);
        self.changed(&mut t, true);
        Ok(())
    }

    /// A question of `side`'s seat to the other side.
    pub(super) fn ask(&self, id: SeatId, seq: u64, what: Question) -> Result<(), Refused> {
        let mut t = self.lock();
        let played = t.record.moves.len() as u64;
        if seq != played {
            return Err(refuse(Why::Stale, format!("seq {seq} is not the moves played ({played})")));
        }
        match what {
            Question::Undo => {
                if t.game.outcome().is_some() {
                    return Err(refuse(Why::NotYours, "the game is over: ask for a rematch"));
                }
                if self.team {
                    return Err(refuse(Why::NotYours, "in team play moves are not taken back"));
                }
                if undo_to(&t, id.side).is_none() {
                    return Err(refuse(Why::NotYours, "this seat has no move to take back"));
                }
            }
            Question::Rematch => {
                if t.game.outcome().is_none() {
                    return Err(refuse(Why::NotYours, "a rematch is asked once the game is over"));
                }
            }
        }
        t.asked = Some(Asking { by: id.side, what });
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
    pub(super) fn answer(&self, side: Side, yes: bool) -> Result<Question, Refused> {
        let mut t = self.lock();
        let Some(q) = t.asked.clone().filter(|q| q.by != side) else {
            return Err(refuse(Why::NotYours, "the other side has asked nothing"));
        };
        t.asked = None;
        if yes && q.what == Question::Undo {
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
    pub(super) fn rematch(&self, t: &mut Table) {
        let mut record = Record::new(&self.start, t.record.players.clone().map(|p| (p.name, p.kind)));
        record.team = t.record.team.clone();
        record.options.timer = self.timer;
        if record.created_ms <= t.record.created_ms {
            record.created_ms = t.record.created_ms + 1;
        }
        // Beside the game before, named as every record is.
        let dir = t.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let path = crate::record::new_file_in(&dir, &record);
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

    /// The seat whose token `given` is, compared in constant time with every seat's: its
    /// requests counted against [`RATE`] a second, and the seat heard from now.
    pub(super) fn seat_by_token(&self, given: &[u8]) -> Result<usize, Refused> {
        let mut found = None;
        for (k, seat) in self.seats.iter().enumerate() {
            if let Some(token) = &seat.token
                && token.matches(given)
            {
                found = Some(k);
            }
        }
        let k = found.ok_or_else(|| refuse(Why::NoSeat, "no seat has this token"))?;
        let now = Instant::now();
        let mut rate = self.rate.lock().unwrap_or_else(|e| e.into_inner());
        let (since, n) = &mut rate[k];
        if now.duration_since(*since) >= Duration::from_secs(1) {
            (*since, *n) = (now, 0);
        }
        *n += 1;
        if *n > RATE {
            return Err(refuse(Why::TooMany, "too many requests: at most 100 a second"));
        }
        self.heard_from(k, now);
        Ok(k)
    }

    /// Seat `k` was heard from now: once every seat of a person has been, the sand-glass runs.
    pub(super) fn heard_from(&self, k: usize, now: Instant) {
        let mut heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        let first = heard[k].is_none();
        heard[k] = Some(now);
        if first && self.seats.iter().zip(heard.iter()).all(|(s, h)| s.sitter.is_computer() || h.is_some()) {
            *self.joined.lock().unwrap_or_else(|e| e.into_inner()) = Some(now);
        }
    }

    /// What seat `id` says, as the seats' logic takes it (the server's routes and a person at
    /// the host's table alike).
    pub(super) fn hear(&self, id: SeatId, said: &Said) -> Result<(), Refused> {
        match said {
            Said::Move(m) => self.play(Some(id), Some(m.seq), &m.mv).map(|_| ()),
            Said::Secrets(s) => self.set_secrets(id, &s.squares),
            Said::Ask(a) => self.ask(id, a.seq, a.what),
            Said::Answer(a) => self.answer(id.side, a.yes).map(|_| ()),
        }
    }
}

/// The moves kept when `side` takes back its last move: up to just before it, or before the
/// first move of its turn where a turn is several moves (Ordo X, Volterra). None if `side` has
/// not moved.
pub(super) fn undo_to(t: &Table, side: Side) -> Option<usize> {
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
