//! The seats at the host: who may do what, over the same table core as the 3D table's
//! (`crate::table::Table`, which holds the game, its record and file, undo, the team's blind
//! round, CTOR's secret squares and the questions, under one lock), the sand-glass, each
//! seat's token and rate. What it refuses is a typed [`Refused`]; the server gives it its
//! status.

use super::tokens::{save_tokens, seats_path};
use super::{AWAY, RATE, Sitter, members};
use crate::feed::{Feed, Phase, View};
use crate::net::{Asked, Question, Said, SeatId, SeatView, Token};
use crate::record::Record;
use crate::rules::ctor::Square;
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::table::{By, Change, Ground, Intent, RoundPhase};
use crate::team::Lead;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The game and what goes with it, under one lock.
pub(super) struct Table {
    /// The game, its history and record (and the record's file), CTOR's secret squares and
    /// the team's blind round: the same table core as the 3D table's, its members choosing
    /// apart, its record written when asked (after the seats are woken).
    pub(super) core: crate::table::Table,
    /// When the turn now began, and which turn it is (the sand-glass).
    pub(super) turn_began: Instant,
    pub(super) turn_key: (u32, Side, usize),
    pub(super) version: u64,
    /// The changes to the game not yet given a version, then the last [`LOG`] with theirs:
    /// a seat that asks after a version still here follows them, not the list of moves.
    pub(super) pending: Vec<Change>,
    pub(super) log: VecDeque<(u64, Change)>,
    /// The first version whose changes are all in `log`.
    pub(super) log_from: u64,
}

/// How many changes the host keeps for its seats to follow.
pub(super) const LOG: usize = 256;

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
    /// Through a relay: the game's name there (a rematch's record keeps it).
    pub(super) relay_game: Option<String>,
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
    pub(super) fn game(&self) -> &AnyGame {
        &self.core.game
    }

    /// The moves played so far.
    pub(super) fn played(&self) -> u64 {
        self.core.history.len() as u64
    }

    /// The game's start (with CTOR's secret squares once chosen).
    pub(super) fn start(&self) -> &AnyGame {
        self.core.history.first().map_or(&self.core.game, |(g, _)| g)
    }

    /// Applies `intent` to the table core, its refusal given the seats' kind; revealed blind
    /// Puts are placed at once (nothing here waits for an animation).
    pub(super) fn apply(&mut self, intent: Intent) -> Result<(), Refused> {
        let mark = self.core.mark();
        let out = self.core.apply(intent).map_err(|r| {
            let why = match r.1 {
                Ground::NotYours => Why::NotYours,
                Ground::Illegal => Why::Illegal,
            };
            refuse(why, r.0)
        })?;
        self.pending.extend(self.core.changes(mark, &out));
        self.place();
        Ok(())
    }

    /// Revealed blind Puts placed (each step places one or ends the placing).
    pub(super) fn place(&mut self) {
        for _ in 0..64 {
            if self.core.round.phase != RoundPhase::Placing {
                break;
            }
            let mark = self.core.mark();
            let Ok(out) = self.core.apply(Intent::PlaceNextPut) else { break };
            self.pending.extend(self.core.changes(mark, &out));
        }
    }

    /// The game's changes after version `after`, if the log still has them all.
    pub(super) fn changes_after(&self, after: u64) -> Option<Vec<Change>> {
        (after.saturating_add(1) >= self.log_from && after <= self.version)
            .then(|| self.log.iter().filter(|(v, _)| *v > after).map(|(_, c)| c.clone()).collect())
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
        let AnyGame::Ctor(g) = t.game() else { return 0 };
        crate::team::acting(Lead::Captain, g.turn(), members(t.game(), side) as usize) as u8
    }

    /// After every change: the sand-glass begun for a new turn, the feed shown, those waiting
    /// woken, then the record saved.
    pub(super) fn changed(&self, t: &mut Table) {
        let key = match t.game() {
            AnyGame::Ctor(g) => (g.turn(), g.side_to_move(), 0),
            g => (0, g.side_to_move(), t.core.history.len()),
        };
        if key != t.turn_key {
            t.turn_key = key;
            t.turn_began = Instant::now();
        }
        t.version += 1;
        let version = t.version;
        let pending = std::mem::take(&mut t.pending);
        self.publish(t, &pending);
        t.log.extend(pending.into_iter().map(|c| (version, c)));
        while t.log.len() > LOG {
            if let Some((v, _)) = t.log.pop_front() {
                t.log_from = t.log_from.max(v + 1);
            }
        }
        self.moved.notify_all();
        self.version.send_replace(t.version);
        // Saved before the seat that moved is answered (the lock is held), after the others
        // are woken: a disk's flush does not delay the move on the other machines.
        let _ = t.core.apply(Intent::Save);
    }

    /// The feed follows the table's `changes`, with the view as it stands.
    pub(super) fn publish(&self, t: &Table, changes: &[Change]) {
        let Some(feed) = &self.feed else { return };
        let times: Vec<u64> = t.core.record.moves.iter().map(|m| m.at_ms).collect();
        let sand = self.sand_left(t).map(|left| (self.timer.unwrap_or(0), left));
        let moves: Vec<AnyMove> = t.core.history.iter().map(|(_, mv)| mv.clone()).collect();
        // While the teams choose their secret squares the feed shows the start without them.
        let start = if self.choosing_secrets(t) { &self.start } else { t.start() };
        let view = View {
            game: t.core.record.created_ms,
            start,
            moves: &moves,
            times: &times,
            started_ms: t.core.record.created_ms,
            players: &t.core.record.players,
            phase: Phase::Play,
            sand,
        };
        feed.publish_changes(&view, changes);
    }

    /// Milliseconds left on the sand-glass, while it runs.
    pub(super) fn sand_left(&self, t: &Table) -> Option<u64> {
        let per = self.timer?;
        if t.game().outcome().is_some() || self.choosing_secrets(t) {
            return None;
        }
        let joined = (*self.joined.lock().unwrap_or_else(|e| e.into_inner()))?;
        let began = t.turn_began.max(joined);
        Some(Duration::from_secs(per as u64).saturating_sub(began.elapsed()).as_millis() as u64)
    }

    /// Seat `seat`'s view; `after`, the version the seat has (`GET /seat?wait=V`): the changes
    /// since then come with it, where the host still has them all.
    pub(super) fn view(&self, seat: usize, after: Option<u64>) -> SeatView {
        let t = self.lock();
        let id = self.seats[seat].id;
        let variant = t.game().variant();
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
        let over = t.game().outcome();
        let (puts_to_choose, chosen) = self.blind(&t, id);
        let choose_secrets = self.choosing_secrets(&t) && self.secrets_of(&t, id.side).is_empty();
        let (secrets, revealed) = match t.game() {
            AnyGame::Ctor(g) => (
                self.secrets_of(&t, id.side),
                g.secrets(id.side.other())
                    .iter()
                    .filter(|(_, st)| *st == crate::rules::ctor::SecretState::Revealed)
                    .map(|(sq, _)| *sq)
                    .collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let waiting = self.choosing_secrets(&t);
        let record = &t.core.record;
        SeatView {
            seat: id.name(self.team),
            side: variant.side_name(id.side).into(),
            variant: variant.name().into(),
            start: record.start.clone(),
            timer: self.timer,
            game: record.created_ms,
            moves: record.moves.iter().map(|m| m.mv.clone()).collect(),
            seq: record.moves.len() as u64,
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
            asked: t.core.asked.map(|(by, what)| Asked { what, mine: by == id.side }),
            result: over.map(|o| crate::matches::result_line(variant, o)),
            changes: after.and_then(|a| t.changes_after(a)).unwrap_or_default(),
            changes_after: after.filter(|a| t.changes_after(*a).is_some()),
        }
    }

    /// A member's blind Puts still to choose, and those chosen and not yet played.
    pub(super) fn blind(&self, t: &Table, id: SeatId) -> (u8, Vec<Square>) {
        if !self.in_round(t, id.side) {
            return (0, Vec::new());
        }
        t.core.round.blind(id.member)
    }

    /// Whether `side`'s team is choosing its Puts blind now.
    pub(super) fn in_round(&self, t: &Table, side: Side) -> bool {
        self.team && t.game().side_to_move() == side && t.core.in_round()
    }

    /// Whether `id` makes the next move (outside a blind round).
    pub(super) fn may_move(&self, t: &Table, id: SeatId) -> bool {
        t.game().side_to_move() == id.side && !self.in_round(t, id.side) && self.acting(t, id.side) == id.member
    }

    /// Plays `text` for seat `id` (None: the host's own computer or clock) if it is the seat's
    /// to make and `seq` the moves played so far. A team member's Put during its team's blind
    /// round is kept as its choice.
    pub(super) fn play(&self, id: Option<SeatId>, seq: Option<u64>, text: &str) -> Result<u64, Refused> {
        let mut t = self.lock();
        if t.game().outcome().is_some() {
            return Err(refuse(Why::NotYours, "the game is over"));
        }
        if self.choosing_secrets(&t) {
            return Err(refuse(Why::NotYours, "the teams are choosing their secret squares"));
        }
        let played = t.played();
        if let Some(id) = id
            && t.game().side_to_move() != id.side
        {
            return Err(refuse(Why::NotYours, "not this seat's turn"));
        }
        if let Some(seq) = seq
            && seq != played
        {
            return Err(refuse(Why::Stale, format!("seq {seq} is not the moves played ({played}): read /seat again")));
        }
        let mv = t.game().parse_move(text).map_err(|e| refuse(Why::Illegal, e.to_string()))?;
        if let Some(id) = id
            && self.in_round(&t, id.side)
        {
            return self.choose(&mut t, id.member, mv).map(|()| played);
        }
        if let Some(id) = id
            && self.acting(&t, id.side) != id.member
        {
            return Err(refuse(
                Why::NotYours,
                format!("member {} plays the team's Moves and Landings this turn", self.acting(&t, id.side) + 1),
            ));
        }
        if self.team && crate::team::is_put(&mv) && members(t.game(), t.game().side_to_move()) >= 2 {
            return Err(refuse(Why::NotYours, "this turn's Puts were chosen blind by the team's members"));
        }
        let by = match (id, mv.to_string() == "T") {
            (None, true) => By::SandGlass,
            (None, false) => By::Computer,
            (Some(_), _) => By::Person,
        };
        t.apply(Intent::Play(mv, by))?;
        let seq = t.played();
        self.changed(&mut t);
        Ok(seq)
    }

    /// A member's blind choice: a Put (kept, unseen) or End (no more Puts from this member).
    pub(super) fn choose(&self, t: &mut Table, member: u8, mv: AnyMove) -> Result<(), Refused> {
        t.apply(Intent::Blind(member, mv))?;
        self.changed(t);
        Ok(())
    }

    /// Whether the game waits for a team's secret squares.
    pub(super) fn choosing_secrets(&self, t: &Table) -> bool {
        self.secret_squares && [Side::First, Side::Second].iter().any(|s| self.secrets_of(t, *s).is_empty())
    }

    /// The secret squares `side`'s team chose (none yet, or outside CTOR).
    fn secrets_of(&self, t: &Table, side: Side) -> Vec<u16> {
        match t.start() {
            AnyGame::Ctor(g) => g.secrets(side).iter().map(|(sq, _)| *sq).collect(),
            _ => Vec::new(),
        }
    }

    /// The teams of the computer alone choose their squares at once.
    pub(super) fn computer_secrets(&self, t: &mut Table) {
        let AnyGame::Ctor(g) = &self.start else { return };
        if !self.secret_squares {
            return;
        }
        for side in [Side::First, Side::Second] {
            if self.secrets_of(t, side).is_empty() && self.team_of(side).all(|s| s.sitter.is_computer()) {
                let seed = t.core.record.created_ms ^ (0x5eed + side.index() as u64);
                let _ = t.apply(Intent::Secrets(side, crate::team::random_secrets(g, seed)));
            }
        }
        self.secrets_chosen(t);
    }

    /// Once both teams have chosen, the first turn (and its sand-glass) begins.
    fn secrets_chosen(&self, t: &mut Table) {
        if !self.choosing_secrets(t) {
            t.turn_began = Instant::now();
        }
    }

    /// A team's secret squares, sent by one of its members.
    pub(super) fn set_secrets(&self, id: SeatId, squares: &[u16]) -> Result<(), Refused> {
        let mut t = self.lock();
        if self.secret_squares && !self.secrets_of(&t, id.side).is_empty() {
            return Err(refuse(Why::Stale, "the team's secret squares are chosen already"));
        }
        if !self.choosing_secrets(&t) {
            return Err(refuse(Why::NotYours, "this game has no secret squares to choose now"));
        }
        t.apply(Intent::Secrets(id.side, squares.to_vec()))?;
        self.secrets_chosen(&mut t);
        self.changed(&mut t);
        Ok(())
    }

    /// A question of `side`'s seat to the other side.
    pub(super) fn ask(&self, id: SeatId, seq: u64, what: Question) -> Result<(), Refused> {
        let mut t = self.lock();
        let played = t.played();
        if seq != played {
            return Err(refuse(Why::Stale, format!("seq {seq} is not the moves played ({played})")));
        }
        t.apply(Intent::Ask(id.side, what))?;
        self.changed(&mut t);
        // The computer at the host agrees at once.
        if self.team_of(id.side.other()).all(|s| s.sitter.is_computer()) {
            drop(t);
            return self.answer(id.side.other(), true).map(|_| ());
        }
        Ok(())
    }

    /// The other side's answer: yes takes back the asker's last move (and what followed) or
    /// starts the rematch (the same seats and invitations, in a new record beside the last).
    pub(super) fn answer(&self, side: Side, yes: bool) -> Result<Question, Refused> {
        let mut t = self.lock();
        let what = t.core.asked.map(|(_, what)| what);
        let path = t.core.record_path.clone();
        t.apply(Intent::Answer(side, yes))?;
        if t.core.record_path != path
            && let Some(path) = &t.core.record_path
        {
            let tokens: Vec<(SeatId, Option<Token>)> = self.seats.iter().map(|s| (s.id, s.token)).collect();
            let _ = save_tokens(&seats_path(path), &tokens, self.team, self.relay_game.as_deref());
            self.computer_secrets(&mut t);
        }
        self.changed(&mut t);
        Ok(what.unwrap_or(Question::Undo))
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
        self.counted(k)?;
        Ok(k)
    }

    /// A request of seat `k` (proven its own), counted against [`RATE`] a second; the seat is
    /// heard from now.
    pub(super) fn counted(&self, k: usize) -> Result<(), Refused> {
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
        Ok(())
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

/// The table core that holds a host's game: `record` resumed (or begun) and saved to `path`
/// when asked, its team's members choosing their blind Puts apart.
pub(super) fn holder(record: Record, path: PathBuf) -> Result<crate::table::Table, crate::record::RecordError> {
    Ok(crate::table::Table::resume(record, Some(path))?.saving_when_asked().members_apart())
}
