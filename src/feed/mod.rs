//! The live feed: what a game at the table, a headless match or a replay looks like from
//! outside, for streaming tools' overlays and spectators on other machines.
//!
//! Whoever plays the game (the 3D table, `tablero feed`) tells the [`Feed`] what the table
//! shows now, as a [`View`]: the start, the moves played with their times, the players, the
//! phase and the sand-glass. The feed compares it with what it showed before and announces
//! the difference as numbered events (a move, an undo, a redo, a new game, the result), which
//! [`server`] sends to every listener; `/state` is the whole picture at once. Nothing a
//! listener sends reaches the game: the feed only reads.
//!
//! Hidden information stays hidden: positions are public position strings (CTOR's secret
//! squares are not in them), effects are the rules' own (a secret square appears only in the
//! `SecretRevealed` effect of the move after which it worked), and the only secrets in the
//! state are those already revealed.

pub mod client;
pub mod headless;
pub mod overlay;
pub mod server;
pub mod wire;

pub use wire::Phase;

use crate::record::PlayerInfo;
use crate::rules::{AnyGame, AnyMove, Effect, Game, Side, ctor::SecretState};
use crate::table::Change;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use wire::{After, Clocks, Ended, Event, MoveLine, Revealed, Sand, Score, State, What};

/// Events kept for listeners that join late or reconnect (`/events?from=N`).
pub const RING: usize = 512;

/// Events waiting for one listener before it counts as too slow and is dropped.
pub const BUFFER: usize = 256;

/// The most listeners at once; more are refused with 503.
pub const MAX_LISTENERS: usize = 1000;

/// The feed's port on 127.0.0.1 unless another address is asked for.
pub const DEFAULT_PORT: u16 = 7878;

/// What the table shows now, given to [`Feed::publish`] after every change.
#[derive(Clone, Debug)]
pub struct View<'a> {
    /// Tells one game from the next (a record's `created_ms`): a new game, even from the
    /// same start with the same players, starts the feed over.
    pub game: u64,
    /// The start, with CTOR's secret squares (the feed needs them to know the effects; it
    /// never sends them).
    pub start: &'a AnyGame,
    pub moves: &'a [AnyMove],
    /// When each move was played (milliseconds since 1970); missing ones are taken as now.
    pub times: &'a [u64],
    /// When the game started (the first move's thinking time counts from it).
    pub started_ms: u64,
    pub players: &'a [PlayerInfo; 2],
    pub phase: Phase,
    /// CTOR's sand-glass: seconds per turn and milliseconds left now, while it runs.
    pub sand: Option<(u8, u64)>,
}

/// One event as it goes out: its number, its kind (`move`, `undo`, `redo`, `new_game`,
/// `result`, `phase`, `resync`) and its JSON.
#[derive(Debug)]
pub struct Sent {
    pub seq: u64,
    pub kind: &'static str,
    pub data: String,
}

impl Sent {
    fn of(event: Event) -> Sent {
        let data = serde_json::to_string(&event).unwrap_or_default();
        Sent { seq: event.seq, kind: event.what.kind(), data }
    }
}

/// A move the feed has shown.
#[derive(Clone, Debug)]
struct Shown {
    mv: AnyMove,
    text: String,
    at_ms: u64,
    by: Side,
    parts: Vec<Vec<Effect>>,
}

#[derive(Default)]
struct Inner {
    seq: u64,
    game: Option<u64>,
    variant_start: String,
    /// positions[0] is the start, positions[i] the position after i moves (with secrets).
    positions: Vec<AnyGame>,
    moves: Vec<Shown>,
    undone: Vec<AnyMove>,
    started_ms: u64,
    players: Option<[PlayerInfo; 2]>,
    phase: Option<Phase>,
    sand_ends_ms: Option<(u8, u64)>,
    /// The computer's evaluation and the number of moves it was for.
    eval: Option<(usize, f64)>,
    recent: VecDeque<Arc<Sent>>,
    listeners: Vec<tokio::sync::mpsc::Sender<Arc<Sent>>>,
    dropped: u64,
}

/// The live feed of one table. Cheap to share (`Arc<Feed>`); [`Feed::publish`] never blocks on
/// a listener: each has a bounded buffer, and one that falls [`BUFFER`] events behind is dropped.
#[derive(Default)]
pub struct Feed {
    inner: Mutex<Inner>,
}

/// Why a listener was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// `from` is after the next event.
    Future(u64),
    /// [`MAX_LISTENERS`] are listening.
    Full,
}

impl Feed {
    pub fn new() -> Arc<Feed> {
        Arc::new(Feed::default())
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Shows what the table shows now after `changes` (the seats' host's table's, since the
    /// last call): they are announced as they come where they follow from the game shown;
    /// what they do not bring, the view does ([`Feed::publish`]).
    pub fn publish_changes(&self, view: &View, changes: &[Change]) {
        {
            let now = crate::record::now_ms();
            let mut inner = self.lock();
            let same = inner.game == Some(view.game)
                && inner.positions.first() == Some(view.start)
                && inner.players.as_ref() == Some(view.players);
            if same {
                // (What does not follow is laid out from the view below.)
                inner.follow(changes, view, now);
            }
        }
        self.publish(view);
    }

    /// Shows what the table shows now, announcing what changed since the last call. The view
    /// is trusted to be a game the rules allow (the table and the match only play legal moves);
    /// a move that is not legal ends the feed's game there and starts it over from the view.
    pub fn publish(&self, view: &View) {
        let now = crate::record::now_ms();
        let mut inner = self.lock();
        let inner = &mut *inner;
        let start_text = view.start.to_string();
        let same_game = inner.game == Some(view.game)
            && inner.variant_start == start_text
            && inner.players.as_ref() == Some(view.players);
        inner.sand_ends_ms = view.sand.map(|(per, left)| (per, now + left));
        if !same_game || !inner.replay_moves(view, now) {
            inner.game = Some(view.game);
            inner.variant_start = start_text;
            inner.players = Some(view.players.clone());
            inner.started_ms = view.started_ms;
            inner.phase = Some(view.phase);
            inner.positions = vec![view.start.clone()];
            inner.moves.clear();
            inner.undone.clear();
            inner.eval = None;
            for (i, mv) in view.moves.iter().enumerate() {
                if !inner.push_move(mv, view.times.get(i).copied().unwrap_or(now)) {
                    break;
                }
            }
            let state = Box::new(inner.state());
            inner.announce(What::NewGame(wire::NewGame { game: view.game, state }));
            return;
        }
        if inner.phase != Some(view.phase) {
            inner.phase = Some(view.phase);
            let after = inner.after();
            inner.announce(What::Phase(wire::PhaseChanged { phase: view.phase, after }));
        }
    }

    /// Shows the computer's evaluation of the position after `ply` moves (the first side's
    /// expected result, 0 to 1): an `eval` event, and `/state`'s `eval` while the game stands
    /// there. An evaluation for another position than the one shown is ignored.
    pub fn evaluation(&self, ply: usize, first: f64) {
        let mut inner = self.lock();
        if inner.players.is_none() || ply != inner.moves.len() || inner.eval == Some((ply, first)) {
            return;
        }
        inner.eval = Some((ply, first));
        let eval = inner.eval().expect("just set");
        inner.announce(What::Eval(eval));
    }

    /// The whole picture (`/state`).
    pub fn state(&self) -> State {
        self.lock().state()
    }

    /// The whole picture as a `new_game` event numbered as the last event (JSON), for a stream
    /// that a late spectator reads from its start: none before a game is shown.
    pub fn snapshot(&self) -> Option<String> {
        let inner = self.lock();
        let game = inner.game?;
        inner.players.as_ref()?;
        let state = Box::new(inner.state());
        serde_json::to_string(&Event { seq: inner.seq, what: What::NewGame(wire::NewGame { game, state }) }).ok()
    }

    /// The number of the last event (0 before any).
    pub fn seq(&self) -> u64 {
        self.lock().seq
    }

    /// Listeners now, and listeners dropped for falling behind since the feed began.
    pub fn listeners(&self) -> (usize, u64) {
        let mut inner = self.lock();
        inner.listeners.retain(|l| !l.is_closed());
        (inner.listeners.len(), inner.dropped)
    }

    /// A new listener. With `from`, the events from that number on come first (those still
    /// kept; if some are gone, a `resync` event says to read `/state` again), then every new
    /// one; without it, only the new ones.
    pub fn subscribe(&self, from: Option<u64>) -> Result<tokio::sync::mpsc::Receiver<Arc<Sent>>, Refused> {
        let mut inner = self.lock();
        inner.listeners.retain(|l| !l.is_closed());
        if inner.listeners.len() >= MAX_LISTENERS {
            return Err(Refused::Full);
        }
        let backlog: Vec<Arc<Sent>> = match from {
            None => Vec::new(),
            Some(n) if n > inner.seq + 1 => return Err(Refused::Future(inner.seq + 1)),
            Some(n) => {
                let oldest = inner.recent.front().map(|e| e.seq).unwrap_or(inner.seq + 1);
                let mut v: Vec<Arc<Sent>> = Vec::new();
                if n < oldest {
                    let reason = format!("events before {oldest} are no longer kept: read /state");
                    v.push(Arc::new(Sent::of(Event { seq: inner.seq, what: What::Resync(wire::Resync { reason }) })));
                }
                v.extend(inner.recent.iter().filter(|e| e.seq >= n).cloned());
                v
            }
        };
        let (tx, rx) = tokio::sync::mpsc::channel(BUFFER + backlog.len());
        for e in backlog {
            let _ = tx.try_send(e);
        }
        inner.listeners.push(tx);
        Ok(rx)
    }
}

impl Inner {
    /// Catches up with the view's moves within the same game: undoes back to the moves both
    /// share, then plays the rest, announcing each. False if a move is not legal.
    fn replay_moves(&mut self, view: &View, now: u64) -> bool {
        // The full start may differ with the same public position (CTOR's secret squares are
        // chosen after the table opens): the feed's positions follow it, silently.
        if self.positions[0] != *view.start {
            self.positions.truncate(1);
            self.positions[0] = view.start.clone();
            let moves: Vec<Shown> = std::mem::take(&mut self.moves);
            for m in moves {
                let mut g = self.positions.last().expect("the start").clone();
                if g.clone().play(&m.mv).is_err() {
                    return false;
                }
                let parts = g.play_parts_unchecked(&m.mv);
                self.positions.push(g);
                self.moves.push(Shown { parts, ..m });
            }
        }
        let common = self.moves.iter().zip(view.moves).take_while(|(a, b)| a.mv == **b).count();
        while self.moves.len() > common {
            self.undo_one();
        }
        for (i, mv) in view.moves.iter().enumerate().skip(common) {
            if !self.play_one(mv, view.times.get(i).copied().unwrap_or(now)) {
                return false;
            }
        }
        true
    }

    /// Follows a table's changes within the same game (the seats' host's): moves taken back
    /// and moves played, announcing each. False where one does not follow from the game here
    /// (the view then says how the game stands).
    fn follow(&mut self, changes: &[Change], view: &View, now: u64) -> bool {
        for change in changes {
            match change {
                Change::Back { ply } if *ply <= self.moves.len() => {
                    while self.moves.len() > *ply {
                        self.undo_one();
                    }
                }
                Change::Played { ply, mv } if *ply == self.moves.len() => {
                    let Some(played) = view.moves.get(*ply).filter(|m| m.to_string() == *mv) else { return false };
                    if !self.play_one(played, view.times.get(*ply).copied().unwrap_or(now)) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        true
    }

    /// Takes the last move back, announcing it.
    fn undo_one(&mut self) {
        let Some(m) = self.moves.pop() else { return };
        self.positions.pop();
        self.undone.push(m.mv.clone());
        let after = self.after();
        let last = self.moves.last().map(|m| m.text.clone());
        self.announce(What::Undo(wire::Undone { ply: self.moves.len(), undone: m.text, last, after }));
    }

    /// Plays a move (a redo where it is the last one undone), announcing it and the end it
    /// brings; false (and nothing changed) if it is not legal.
    fn play_one(&mut self, mv: &AnyMove, at_ms: u64) -> bool {
        let was_over = self.positions.last().expect("the start").outcome().is_some();
        let redo = self.undone.last() == Some(mv);
        if !self.push_move(mv, at_ms) {
            return false;
        }
        if redo {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        let m = self.moves.last().expect("just pushed").clone();
        let after = self.after();
        let moved = wire::Moved {
            ply: self.moves.len(),
            mv: m.text,
            by: self.side_name(m.by).into(),
            at_ms: m.at_ms,
            parts: m.parts,
            after,
        };
        self.announce(if redo { What::Redo(moved) } else { What::Move(moved) });
        if !was_over && let Some(result) = self.result() {
            self.announce(What::Result(result));
        }
        true
    }

    /// Plays a move on the last position; false (and nothing changed) if it is not legal.
    fn push_move(&mut self, mv: &AnyMove, at_ms: u64) -> bool {
        let mut g = self.positions.last().expect("the start").clone();
        if g.clone().play(mv).is_err() {
            return false;
        }
        let by = g.side_to_move();
        let parts = g.play_parts_unchecked(mv);
        self.positions.push(g);
        self.moves.push(Shown { mv: mv.clone(), text: mv.to_string(), at_ms, by, parts });
        true
    }

    fn game(&self) -> &AnyGame {
        self.positions.last().expect("the feed has a start once it has a game")
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.game().variant().side_name(side)
    }

    fn result(&self) -> Option<Ended> {
        let game = self.game();
        game.outcome().map(|o| Ended {
            winner: o.winner.map(|w| self.side_name(w).into()),
            reason: o.reason.to_string(),
            text: crate::matches::result_line(game.variant(), o).trim_start_matches("result: ").to_string(),
        })
    }

    /// A value for each side, by side name.
    fn by_side<T>(&self, [first, second]: [T; 2]) -> std::collections::BTreeMap<String, T> {
        [(self.side_name(Side::First).to_string(), first), (self.side_name(Side::Second).to_string(), second)].into()
    }

    /// Each side's thinking time so far, and whose clock runs since when.
    fn clocks(&self) -> Clocks {
        let mut used = [0u64; 2];
        let mut since = self.started_ms;
        for m in &self.moves {
            used[m.by.index()] += m.at_ms.saturating_sub(since);
            since = m.at_ms;
        }
        let game = self.game();
        let running =
            (game.outcome().is_none() && self.phase == Some(Phase::Play)).then(|| self.side_name(game.side_to_move()));
        Clocks {
            used_ms: self.by_side(used),
            running: running.map(str::to_string),
            since_ms: since,
            sand: self.sand_ends_ms.map(|(seconds, ends_ms)| Sand { seconds, ends_ms }),
        }
    }

    /// The table after the last change: what every move event carries.
    fn after(&self) -> After {
        let game = self.game();
        let tally = game.tally(&self.positions[0]);
        After {
            position: game.to_string(),
            to_move: game.outcome().is_none().then(|| self.side_name(game.side_to_move()).into()),
            score: Score {
                what: tally.what.into(),
                sides: [0, 1].map(|i| (tally.names[i].to_string(), tally.sides[i].clone())).into(),
                text: tally.to_string(),
            },
            clocks: self.clocks(),
            result: self.result(),
            revealed: revealed(game),
        }
    }

    /// The evaluation of the position shown, if the computer has weighed it.
    fn eval(&self) -> Option<wire::Eval> {
        let (ply, first) = self.eval.filter(|(ply, _)| *ply == self.moves.len())?;
        let variant = self.game().variant();
        Some(wire::Eval {
            ply,
            first,
            chances: self.by_side([first, 1.0 - first]),
            text: crate::ai::standing(variant, first),
        })
    }

    fn state(&self) -> State {
        let Some(players) = &self.players else {
            return State { seq: self.seq, game: None, phase: None, shown: None };
        };
        let game = self.game();
        let variant = game.variant();
        let mut since = self.started_ms;
        let moves: Vec<MoveLine> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let think_ms = m.at_ms.saturating_sub(since);
                since = m.at_ms;
                MoveLine { ply: i + 1, mv: m.text.clone(), by: self.side_name(m.by).into(), at_ms: m.at_ms, think_ms }
            })
            .collect();
        let sides = [Side::First, Side::Second];
        State {
            seq: self.seq,
            game: self.game,
            phase: Some(self.phase.unwrap_or(Phase::Play)),
            shown: Some(wire::Shown {
                variant: variant.name().into(),
                title: variant.title().into(),
                start: self.positions[0].to_string(),
                sides: sides.map(|s| self.side_name(s).to_string()),
                players: sides.map(|s| wire::Player {
                    side: self.side_name(s).into(),
                    name: players[s.index()].name.clone(),
                    kind: players[s.index()].kind.clone(),
                }),
                started_ms: self.started_ms,
                moves,
                last: self.moves.last().map(|m| m.text.clone()),
                after: self.after(),
                eval: self.eval(),
            }),
        }
    }

    /// Numbers an event, keeps it for late listeners and sends it to every listener that keeps
    /// up (one whose buffer is full is dropped: it closes, and may reconnect with `from`).
    fn announce(&mut self, what: What) {
        self.seq += 1;
        let sent = Arc::new(Sent::of(Event { seq: self.seq, what }));
        self.recent.push_back(sent.clone());
        while self.recent.len() > RING {
            self.recent.pop_front();
        }
        let before = self.listeners.len();
        self.listeners.retain(|l| match l.try_send(sent.clone()) {
            Ok(()) => true,
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => false,
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => false,
        });
        self.dropped += (before - self.listeners.len()) as u64;
    }
}

/// CTOR's secret squares that have worked (public from then on), by owner.
fn revealed(game: &AnyGame) -> Vec<Revealed> {
    let AnyGame::Ctor(g) = game else { return Vec::new() };
    [Side::First, Side::Second]
        .iter()
        .flat_map(|&s| {
            g.secrets(s)
                .iter()
                .filter(|(_, st)| *st == SecretState::Revealed)
                .map(move |(sq, _)| Revealed { owner: game.variant().side_name(s).into(), square: *sq })
        })
        .collect()
}

/// Reads the feed's address: a port (`7878`) or `host:port`. Only a loopback address is taken
/// unless `anywhere` (the `--listen` flag): serving beyond this machine is asked for by name.
pub fn parse_addr(text: &str, anywhere: bool) -> Result<std::net::SocketAddr, FeedError> {
    use std::net::{Ipv4Addr, SocketAddr};
    let addr: SocketAddr = match text.parse::<u16>() {
        Ok(port) => SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        Err(_) => text.parse().map_err(|_| FeedError::Address(text.to_string()))?,
    };
    if !anywhere && !addr.ip().is_loopback() {
        return Err(FeedError::NotLocal(addr));
    }
    Ok(addr)
}

/// What the live feed, its server or a spectator's connection refuses or fails at.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("'{}' is not an address (a port like 7878, or host:port like 127.0.0.1:7878)", crate::rules::quote(.0))]
    Address(String),
    #[error("the feed serves only this machine (127.0.0.1) unless asked: use --listen {0} to serve other machines")]
    NotLocal(std::net::SocketAddr),
    #[error("the feed cannot listen on {addr}: {source}")]
    Listen { addr: std::net::SocketAddr, source: std::io::Error },
    #[error("the feed cannot start: {0}")]
    Start(std::io::Error),
    #[error("an https feed's address carries its certificate's pin, as the host prints it (https://HOST:PORT#cert=…)")]
    Https,
    #[error("'{}' is not a feed's address (like http://127.0.0.1:7878, or nats://RELAY:4222/GAME for a game through a relay)", crate::rules::quote(.0))]
    Url(String),
    #[error("'{}' is not the relay's WebSocket (ws://HOST:PORT or wss://HOST:PORT, as the `websocket` block of its configuration serves it, or its port alone)", crate::rules::quote(.0))]
    WebSocket(String),
    #[error("cannot write {path}: {source}")]
    Write { path: std::path::PathBuf, source: std::io::Error },
    #[error("cannot start the spectator's connection: {0}")]
    Spectator(std::io::Error),
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    #[error(transparent)]
    Match(#[from] crate::matches::MatchError),
    /// Standard output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
