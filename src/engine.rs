//! `tablero engine`: the computer opponent for other programs, one command a line on
//! standard input and one answer a line on standard output, in the manner of chess engines'
//! UCI (see `docs/engine.md`). `tablero analyse` prints the best moves of a position.

use crate::ai::{self, LEVELS, Level, Line, Search};
use crate::rules::{AnyGame, AnyMove, Game, one_line, quote};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most `go nodes` takes, and the longest `go movetime` (an hour).
pub const MAX_NODES: u64 = 100_000_000;
pub const MAX_MOVETIME_MS: u64 = 3_600_000;

/// How long to think: a level, a number of playouts (positions, for Volterra's alpha-beta),
/// or a time, searched deeper and deeper until it runs out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Level(Level),
    Nodes(u64),
    Movetime(u64),
}

/// Reads the words after `go`.
pub fn parse_go(words: &[&str]) -> Result<Budget, EngineError> {
    match words {
        [] => Ok(Budget::Level(LEVELS[1])),
        ["level", name] => level(name).map(Budget::Level),
        ["nodes", n] => crate::rules::number::<u64>(n)
            .filter(|n| (1..=MAX_NODES).contains(n))
            .map(Budget::Nodes)
            .ok_or_else(|| EngineError::Nodes(n.to_string())),
        ["movetime", ms] => crate::rules::number::<u64>(ms)
            .filter(|n| (1..=MAX_MOVETIME_MS).contains(n))
            .map(Budget::Movetime)
            .ok_or_else(|| EngineError::Movetime(ms.to_string())),
        _ => Err(EngineError::Go),
    }
}

/// A level by its name, for `go level` and `tablero analyse --level`.
pub fn level(name: &str) -> Result<Level, EngineError> {
    ai::level(name).ok_or_else(|| EngineError::UnknownLevel(name.to_string()))
}

/// What the engine or `tablero analyse` refuses, said after `error ` on the engine's output.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("unknown level '{}' (levels: {})", quote(.0), LEVELS.iter().map(|l| l.name).collect::<Vec<_>>().join(", "))]
    UnknownLevel(String),
    #[error("nodes '{}' is not a number from 1 to {MAX_NODES}", quote(.0))]
    Nodes(String),
    #[error("movetime '{}' is not a number of milliseconds from 1 to {MAX_MOVETIME_MS}", quote(.0))]
    Movetime(String),
    #[error("go takes: level <name>, nodes <n> or movetime <ms>")]
    Go,
    #[error("position takes a position string (or a variant's name) and maybe moves")]
    NoPosition,
    #[error(transparent)]
    Position(#[from] crate::rules::PositionError),
    #[error("move {n} ('{}'): {err}", quote(.text))]
    Move { n: usize, text: String, err: crate::rules::MoveError },
    #[error("the game is over: nothing to analyse")]
    GameOver,
    #[error(transparent)]
    Threads(#[from] ai::ThreadsError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The level a number of nodes searches with: master's shape, that budget (and the tree
/// search for Ordo X, whose selective alpha-beta has no budget of its own; the full-width
/// alpha-beta of Ordo and Crossings as deep as the budget allows).
fn nodes_level(n: u64) -> Level {
    let m = LEVELS[LEVELS.len() - 1];
    Level {
        playouts: n.min(u32::MAX as u64) as u32,
        ctor_playouts: n.min(u32::MAX as u64) as u32,
        positions: n,
        volterra_positions: n,
        beam: 0,
        deep: ai::deep::ANY_DEPTH,
        ..m
    }
}

/// The iterations of a timed search: each a level a little stronger than the last.
fn iteration(k: u32) -> Level {
    let m = LEVELS[LEVELS.len() - 1];
    Level {
        playouts: 128u32.saturating_mul(1 << k.min(20)),
        ctor_playouts: 128u32.saturating_mul(1 << k.min(20)),
        plies: k + 1,
        positions: u64::MAX,
        volterra_positions: u64::MAX,
        beam: (k + 1).min(6),
        deep: k + 1,
        // The first iteration answers fast; the guard (a plain search of every root move)
        // comes with the second.
        guard: k >= 1,
        ..m
    }
}

/// One `info` line: what was searched, the score from the mover's view, and the line.
pub fn info(search: &Search, what: &str) -> String {
    let chosen = search.lines.iter().find(|l| Some(&l.mv) == search.mv.as_ref());
    let (score, pv) = match chosen.or(search.lines.first()) {
        Some(l) => (l.score, pv_text(l)),
        None => (0.5, String::new()),
    };
    format!("info {what} {} {} score {score:.3} pv {pv}", search.unit, search.work)
}

fn pv_text(l: &Line) -> String {
    l.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Searches `game` within `budget`, calling `say` with each `info` line; the move to play
/// (a legal one even if stopped before anything was searched).
pub fn think(
    game: &AnyGame,
    budget: Budget,
    seed: u64,
    threads: usize,
    stop: &AtomicBool,
    say: &mut dyn FnMut(String),
) -> Option<AnyMove> {
    let fallback = game.legal_moves().into_iter().next();
    let best = match budget {
        Budget::Level(level) => {
            let s = ai::search_until(game, level.on(threads), seed, stop);
            say(info(&s, &format!("level {}", level.name)));
            s.mv
        }
        Budget::Nodes(n) => {
            let s = ai::search_until(game, nodes_level(n).on(threads), seed, stop);
            say(info(&s, "nodes"));
            s.mv
        }
        Budget::Movetime(ms) => {
            let deadline = Instant::now() + Duration::from_millis(ms);
            let timeout = AtomicBool::new(false);
            let mut best = None;
            let done = AtomicBool::new(false);
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    while Instant::now() < deadline && !done.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    timeout.store(true, Ordering::Relaxed);
                });
                for k in 0..24 {
                    let s = ai::search_until(game, iteration(k).on(threads), seed, &timeout);
                    if timeout.load(Ordering::Relaxed) {
                        // Cut short: its move counts only if nothing was finished before.
                        if best.is_none() {
                            best = s.mv;
                        }
                        break;
                    }
                    say(info(&s, &format!("depth {}", k + 1)));
                    best = s.mv;
                    if s.work == 0 {
                        break; // one move only, or nothing to search
                    }
                }
                done.store(true, Ordering::Relaxed);
            });
            best
        }
    };
    best.or(fallback)
}

/// The engine's loop over `input`, answering on `output`; returns at `quit` or the end of
/// the input.
/// Writes one answer line (and flushes it: the other program waits for it). `then` runs
/// while the output is held, before the line goes out.
fn answer(output: &Mutex<dyn Write + Send>, text: &str, then: impl FnOnce()) {
    let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
    then();
    let _ = writeln!(out, "{}", one_line(text));
    let _ = out.flush();
}

pub fn run(input: impl BufRead, output: Arc<Mutex<dyn Write + Send>>) {
    let say = |text: String| answer(&output, &text, || {});
    let mut game: Option<AnyGame> = None;
    let mut seed = 1u64;
    let mut threads = 1usize;
    let mut thinking: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)> = None;
    // Set by the search as it says `bestmove` (before the answer is out, so that a command
    // sent after reading it never finds the engine still thinking).
    let searched = Arc::new(AtomicBool::new(false));
    let finish = |thinking: &mut Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>, stop: bool| {
        if let Some((flag, handle)) = thinking.take() {
            if stop {
                flag.store(true, Ordering::Relaxed);
            }
            let _ = handle.join();
        }
    };
    for line in input.lines() {
        let Ok(line) = line else {
            say("error the input is not UTF-8 text".into());
            continue;
        };
        // A search that said its move is done with (its thread ends at once).
        if searched.load(Ordering::Acquire) {
            finish(&mut thinking, false);
        }
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "isready" => say("readyok".into()),
            "quit" => {
                finish(&mut thinking, true);
                return;
            }
            "stop" => finish(&mut thinking, true),
            "position" | "go" if thinking.is_some() => say(format!("error still thinking: send stop before {command}")),
            "position" => match position(rest) {
                Ok(g) => game = Some(g),
                Err(e) => say(format!("error {e}")),
            },
            "seed" => match crate::rules::number::<u64>(rest) {
                Some(n) => seed = n,
                None => say(format!("error seed '{}' is not a whole number", quote(rest))),
            },
            "threads" => match ai::parse_threads(rest) {
                Ok(n) => threads = n,
                Err(e) => say(format!("error {e}")),
            },
            "go" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let budget = match parse_go(&words) {
                    Ok(b) => b,
                    Err(e) => {
                        say(format!("error {e}"));
                        continue;
                    }
                };
                let Some(g) = game.clone() else {
                    say("error no position yet: send position <position string> first".into());
                    continue;
                };
                if g.outcome().is_some() {
                    say("error the game is over: no move to search".into());
                    continue;
                }
                let flag = Arc::new(AtomicBool::new(false));
                let stop = flag.clone();
                let out = output.clone();
                searched.store(false, Ordering::Release);
                let said = searched.clone();
                let handle = std::thread::spawn(move || {
                    let say = |text: String, last: bool| {
                        answer(&out, &text, || {
                            if last {
                                said.store(true, Ordering::Release);
                            }
                        })
                    };
                    let mv = think(&g, budget, seed, threads, &stop, &mut |t| say(t, false));
                    match mv {
                        Some(mv) => say(format!("bestmove {mv}"), true),
                        None => say("bestmove (none)".into(), true),
                    }
                });
                thinking = Some((flag, handle));
            }
            other => say(format!(
                "error unknown command '{}' (commands: position, go, stop, isready, seed, threads, quit)",
                quote(other)
            )),
        }
    }
    // The end of the input: a search under way finishes first (a script may pipe its
    // commands and close).
    finish(&mut thinking, false);
}

/// `<position string> [moves <move> ...]`, or a variant's name for its start.
pub fn position(text: &str) -> Result<AnyGame, EngineError> {
    let (pos, moves) = match text.split_once(" moves") {
        Some((p, m)) => (p.trim(), Some(m)),
        None => (text.trim(), None),
    };
    if pos.is_empty() {
        return Err(EngineError::NoPosition);
    }
    let mut game = AnyGame::read(pos)?;
    for (i, m) in moves.unwrap_or("").split_whitespace().enumerate() {
        game.play_text(m).map_err(|err| EngineError::Move { n: i + 1, text: m.to_string(), err })?;
    }
    Ok(game)
}

/// `tablero analyse "<position>" [--level L] [--top K] [--threads T]`: the K best moves with
/// their scores and lines. The position is a position string or a variant's name for its
/// start, maybe with `moves ...` after it.
pub fn analyse(text: &str, level: Level, top: usize, threads: usize, out: &mut dyn Write) -> Result<(), EngineError> {
    let game = position(text)?;
    if game.outcome().is_some() {
        return Err(EngineError::GameOver);
    }
    let s = ai::search(&game, level.on(threads), 1);
    writeln!(
        out,
        "{} {}, level {}; scores are the mover's expected result, 0 lost to 1 won",
        s.work, s.unit, level.name
    )?;
    for (i, l) in s.lines.iter().take(top).enumerate() {
        writeln!(out, "{}. {}  score {:.3}  line {}", i + 1, l.mv, l.score, pv_text(l))?;
    }
    Ok(())
}
