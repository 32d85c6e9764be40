//! `tablero feed`: a record or a computer match played on the live feed without a window, at
//! a pace, for a stream's overlay or spectators (`tablero watch`).

use super::{Feed, Phase, View};
use crate::cli::error::CliError;
use crate::matches::STOP;
use crate::record::{PlayerInfo, Record, now_ms};
use crate::rules::{AnyGame, AnyMove, Game, Variant, quote};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub const USAGE: &str = "usage: tablero feed <record.json> [options]
       tablero feed match <variant> --a <player> --b <player> --seed S [--games N] [options]
options: --pace S (seconds a move, default 1), --port N (on 127.0.0.1, default 7878),
         --listen ADDR (any address, such as 0.0.0.0:7878), --linger S (seconds to go on
         serving after the end; default: until Ctrl-C), --eval (the computer's evaluation
         after every move, for the overlay's eval bar)";

struct Options {
    pace: f64,
    addr: std::net::SocketAddr,
    linger: Option<f64>,
    a: Option<String>,
    b: Option<String>,
    seed: Option<u64>,
    games: u32,
    eval: bool,
}

fn options(flags: &[String]) -> Result<Options, CliError> {
    let mut o = Options {
        pace: 1.0,
        addr: std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, super::DEFAULT_PORT)),
        linger: None,
        a: None,
        b: None,
        seed: None,
        games: 1,
        eval: false,
    };
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        if flag == "--eval" {
            o.eval = true;
            continue;
        }
        let value = it.next().ok_or_else(|| CliError(format!("{} needs a value; {USAGE}", quote(flag))))?;
        let seconds = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && (0.0..=86_400.0).contains(s))
                .ok_or_else(|| CliError(format!("{flag} '{}' is not a number of seconds", quote(value))))
        };
        match flag.as_str() {
            "--pace" => o.pace = seconds()?,
            "--linger" => o.linger = Some(seconds()?),
            "--port" => o.addr = super::parse_addr(value, false).map_err(CliError)?,
            "--listen" => o.addr = super::parse_addr(value, true).map_err(CliError)?,
            "--a" => o.a = Some(value.clone()),
            "--b" => o.b = Some(value.clone()),
            "--seed" => {
                o.seed = Some(
                    crate::rules::number(value)
                        .ok_or_else(|| CliError(format!("--seed '{}' is not a whole number", quote(value))))?,
                )
            }
            "--games" => {
                o.games = crate::rules::number::<u32>(value).filter(|n| (1..=10_000).contains(n)).ok_or_else(|| {
                    CliError(format!("--games '{}' is not a number of games from 1 to 10000", quote(value)))
                })?
            }
            other => return Err(CliError(format!("unknown option '{}' for feed; {USAGE}", quote(other)))),
        }
    }
    Ok(o)
}

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

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let feed = Feed::new();
    let (what, flags) = args.split_first().ok_or_else(|| CliError(USAGE.into()))?;
    let is_match = what == "match";
    let (variant, flags) = if is_match {
        let (v, rest) = flags.split_first().ok_or_else(|| CliError(USAGE.into()))?;
        (Some(v.parse::<Variant>().map_err(CliError)?), rest)
    } else {
        (None, flags)
    };
    let o = options(flags)?;
    // Everything is checked before the server starts.
    let record = match variant {
        Some(_) => {
            let a = o.a.as_deref().ok_or_else(|| CliError("feed match needs --a <player>".into()))?;
            let b = o.b.as_deref().ok_or_else(|| CliError("feed match needs --b <player>".into()))?;
            crate::players::by_name(a, 0).map_err(CliError)?;
            crate::players::by_name(b, 0).map_err(CliError)?;
            o.seed.ok_or_else(|| CliError("feed match needs --seed S (runs repeat for a given seed)".into()))?;
            None
        }
        None => {
            if o.a.is_some() || o.b.is_some() || o.seed.is_some() {
                return Err(CliError("--a, --b and --seed go with `tablero feed match`".into()));
            }
            Some(crate::record::load(std::path::Path::new(what)).map_err(CliError::from)?)
        }
    };
    let server = super::server::serve(feed.clone(), o.addr).map_err(CliError)?;
    writeln!(out, "feed: {} (overlay: {}/overlay, events: {}/events)", server.url(), server.url(), server.url())?;
    out.flush()?;
    let mut played = 0usize;
    match (record, variant) {
        (Some((record, positions)), _) => {
            played += show_record(&feed, &record, &positions, o.pace, o.eval)?;
        }
        (None, Some(variant)) => {
            let (a, b) = (o.a.clone().unwrap_or_default(), o.b.clone().unwrap_or_default());
            let seed = o.seed.unwrap_or(0);
            for g in 0..o.games {
                if STOP.load(Ordering::Relaxed) {
                    break;
                }
                let n = show_match_game(&feed, variant, &a, &b, g, seed, (o.pace, o.eval), out)?;
                played += n;
                if g + 1 < o.games && !pause(o.pace * 3.0) {
                    break;
                }
            }
        }
        _ => unreachable!("a record or a match"),
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

fn show_record(feed: &Feed, record: &Record, positions: &[AnyGame], pace: f64, eval: bool) -> Result<usize, CliError> {
    let start = record.start_game().map_err(CliError::from)?;
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
    for mv in record.moves_played(positions).map_err(CliError::from)? {
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
) -> Result<usize, CliError> {
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
