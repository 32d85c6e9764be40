//! `tablero feed`: a record or a computer match played on the live feed without a window, at
//! a pace, for a stream's overlay or spectators (`tablero watch`).

use super::{Feed, FeedError, Phase, View};
use crate::matches::STOP;
use crate::record::{PlayerInfo, Record, now_ms};
use crate::rules::{AnyGame, AnyMove, Game, Variant};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Waits `seconds`, or less if Ctrl-C comes; false after a Ctrl-C.
fn pause(seconds: f64) -> bool {
    let until = std::time::Instant::now() + Duration::from_secs_f64(seconds);
    while std::time::Instant::now() < until {
        if STOP.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20).min(until - std::time::Instant::now()));
    }
    !STOP.load(Ordering::Relaxed)
}

/// One game shown on the feed move by move.
struct Showing<'a> {
    feed: &'a Feed,
    game_id: u64,
    start: AnyGame,
    players: [PlayerInfo; 2],
    moves: Vec<AnyMove>,
    times: Vec<u64>,
    started_ms: u64,
    /// The position now, and whether to weigh it after each move (`--eval`).
    now: AnyGame,
    eval: bool,
}

impl Showing<'_> {
    fn publish(&self) {
        self.feed.publish(&View {
            game: self.game_id,
            start: &self.start,
            moves: &self.moves,
            times: &self.times,
            started_ms: self.started_ms,
            players: &self.players,
            phase: Phase::Play,
            sand: None,
        });
        if self.eval {
            self.feed.evaluation(self.moves.len(), crate::ai::evaluation(&self.now));
        }
    }

    fn push(&mut self, mv: AnyMove) {
        self.now.play_unchecked(&mv);
        self.moves.push(mv);
        self.times.push(now_ms());
        self.publish();
    }
}

/// What `tablero feed` shows.
pub enum Show {
    /// A record, move by move.
    Record(std::path::PathBuf),
    /// A computer match, game after game (the games of `tablero match` with this seed).
    Match { variant: Variant, a: String, b: String, seed: u64, games: u32 },
}

/// How `tablero feed` shows it.
pub struct Pace {
    /// Seconds a move.
    pub pace: f64,
    /// Where the feed is served.
    pub addr: std::net::SocketAddr,
    /// Seconds to go on serving after the end (until Ctrl-C if none).
    pub linger: Option<f64>,
    /// The computer's evaluation after every move.
    pub eval: bool,
}

/// `tablero feed <record.json>` or `tablero feed match ...`: everything is checked before the
/// server starts (the players by the command line, the record here).
pub fn run(show: &Show, o: &Pace, out: &mut dyn Write) -> Result<(), FeedError> {
    let feed = Feed::new();
    let record = match show {
        Show::Match { .. } => None,
        Show::Record(path) => Some(crate::record::load(path)?),
    };
    let server = super::server::serve(feed.clone(), o.addr)?;
    writeln!(out, "feed: {} (overlay: {}/overlay, events: {}/events)", server.url(), server.url(), server.url())?;
    out.flush()?;
    let mut played = 0usize;
    match (record, show) {
        (Some((record, positions)), _) => {
            played += show_record(&feed, &record, &positions, o.pace, o.eval)?;
        }
        (None, Show::Match { variant, a, b, seed, games }) => {
            let (variant, seed, games) = (*variant, *seed, *games);
            for g in 0..games {
                if STOP.load(Ordering::Relaxed) {
                    break;
                }
                let n = show_match_game(&feed, variant, a, b, g, seed, (o.pace, o.eval), out)?;
                played += n;
                if g + 1 < games && !pause(o.pace * 3.0) {
                    break;
                }
            }
        }
        (None, Show::Record(_)) => unreachable!("a record shown is loaded"),
    }
    if !STOP.load(Ordering::Relaxed) {
        writeln!(
            out,
            "feed: {played} moves shown; serving until {}",
            match o.linger {
                Some(s) => format!("{s} s from now"),
                None => "Ctrl-C".into(),
            }
        )?;
        out.flush()?;
        pause(o.linger.unwrap_or(f64::MAX / 4.0).min(1e9));
    }
    let (listeners, dropped) = feed.listeners();
    server.stop();
    writeln!(out, "feed: closed ({listeners} listeners at the end, {dropped} dropped for falling behind)")?;
    Ok(())
}

fn show_record(feed: &Feed, record: &Record, positions: &[AnyGame], pace: f64, eval: bool) -> Result<usize, FeedError> {
    let start = record.start_game()?;
    let mut showing = Showing {
        feed,
        game_id: record.created_ms,
        start: start.clone(),
        players: record.players.clone(),
        moves: Vec::new(),
        times: Vec::new(),
        started_ms: now_ms(),
        now: start,
        eval,
    };
    showing.publish();
    for mv in record.moves_played(positions)? {
        if !pause(pace) {
            break;
        }
        showing.push(mv);
    }
    Ok(showing.moves.len())
}

#[allow(clippy::too_many_arguments)]
fn show_match_game(
    feed: &Feed,
    variant: Variant,
    a: &str,
    b: &str,
    g: u32,
    seed: u64,
    (pace, eval): (f64, bool),
    out: &mut dyn Write,
) -> Result<usize, FeedError> {
    // The game `tablero match` would play as its game `g`.
    let a_first = g.is_multiple_of(2);
    let info = |name: &str| PlayerInfo {
        name: name.to_string(),
        kind: if name == "random" { "computer:random".into() } else { name.to_string() },
    };
    let players = if a_first { [info(a), info(b)] } else { [info(b), info(a)] };
    let mut showing = Showing {
        feed,
        game_id: now_ms().wrapping_add(g as u64),
        start: variant.initial(),
        players,
        moves: Vec::new(),
        times: Vec::new(),
        started_ms: now_ms(),
        now: variant.initial(),
        eval,
    };
    showing.publish();
    let mut asked = std::time::Instant::now();
    let played = crate::matches::play_game_showing(
        variant,
        a,
        b,
        a_first,
        crate::matches::game_seed(seed, g),
        [1, 1],
        &mut crate::matches::Clock::default(),
        &mut |mv| {
            // At least `pace` between moves, the thinking included.
            if !pause((pace - asked.elapsed().as_secs_f64()).max(0.0)) {
                return false;
            }
            showing.push(mv.clone());
            asked = std::time::Instant::now();
            true
        },
    );
    match played {
        Err(_) if STOP.load(Ordering::Relaxed) => {} // Ctrl-C: the game ends where it stands
        other => {
            other?;
        }
    }
    match showing.now.outcome() {
        Some(o) => writeln!(out, "game {}: {}", g + 1, crate::matches::result_line(variant, o))?,
        None => writeln!(out, "game {}: unfinished after {} moves", g + 1, showing.moves.len())?,
    }
    out.flush()?;
    Ok(showing.moves.len())
}
