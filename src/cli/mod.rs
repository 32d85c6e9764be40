//! The headless command line of docs/notation.md: `moves`, `perft`, `play`, `match`, `bench`.
//! Output is plain text for other programs; every error is one line and exit status 2.

pub mod error;

pub use crate::matches::{
    Clock, MATCH_PLY_LIMIT, STOP, Score, game_seed, interrupted, play_game, play_game_showing, result_line,
    stop_on_interrupt, wilson,
};
pub use error::CliError;

use crate::bench;
use crate::players;
use crate::rules::{AnyGame, Game, Side, Variant, quote};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The most games `match` plays in one run.
pub const MAX_GAMES: u32 = 100_000;

/// The deepest `perft` (a count that deep takes years in every variant but Volterra's end
/// positions; progress and Ctrl-C keep it in hand).
pub const MAX_DEPTH: u32 = 12;

/// Progress of a long command on standard error: shown when standard error is a terminal or
/// `TABLERO_PROGRESS` is set, rewritten at most twice a second, after the first second.
struct Progress {
    on: bool,
    tty: bool,
    started: Instant,
    shown: Option<Instant>,
}

impl Progress {
    fn new() -> Progress {
        use std::io::IsTerminal;
        let tty = std::io::stderr().is_terminal();
        Progress {
            on: tty || std::env::var_os("TABLERO_PROGRESS").is_some(),
            tty,
            started: Instant::now(),
            shown: None,
        }
    }

    /// Shows `line` if it is time to (`force`: now, the last line of a run).
    fn show(&mut self, line: impl FnOnce() -> String, force: bool) {
        let now = Instant::now();
        let due = match self.shown {
            None => now - self.started >= Duration::from_secs(1),
            Some(t) => now - t >= Duration::from_millis(500),
        };
        if !self.on || !(due || (force && self.shown.is_some())) {
            return;
        }
        self.shown = Some(now);
        let text = format!("{} ({:.1} s)", line(), self.started.elapsed().as_secs_f64());
        let mut err = std::io::stderr().lock();
        let _ = if self.tty { write!(err, "\r\x1b[2K{text}") } else { writeln!(err, "{text}") };
        let _ = err.flush();
    }

    /// Ends the progress line (on a terminal the cursor is left at the start of a new line).
    fn done(&mut self) {
        if self.tty && self.shown.is_some() {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// `[#####.....]` for `done` of `all`.
fn bar(done: u64, all: u64) -> String {
    let filled = (done * 20).checked_div(all).unwrap_or(20) as usize;
    format!("[{}{}]", "#".repeat(filled), ".".repeat(20 - filled))
}

pub const USAGE: &str = "\
usage:
  tablero moves \"<position>\"                 every legal move, one per line
  tablero perft \"<position>\" <depth> [--divide]
                                             the number of move sequences of that length
                                             (--divide: also the count after each first move)
  tablero play \"<position>\" <move>...        the position after the moves, and the result if the game ended
  tablero match <variant> --a <player> --b <player> --games N --seed S
                                             plays N games headless; players: random, ai:<level>
                                             (levels: easy, medium, hard, master), ai:baseline;
                                             [--threads T] the computer thinks on T threads
                                             (--a-threads, --b-threads: one player only)
  tablero feed <record.json> [--pace S] [--port N | --listen ADDR] [--linger S]
  tablero feed match <variant> --a <player> --b <player> --seed S [--games N] [--pace S] ...
                                             serves a record or a match on the live feed
                                             (http://127.0.0.1:7878: /state, /events, /overlay)
  tablero analyse \"<position>\" [--level L] [--top K] [--threads T]
                                             the K best moves (3) with scores and lines, at level L (hard)
  tablero engine                             the computer opponent for other programs: UCI-like
                                             commands on standard input (docs/engine.md)
  tablero check <record.json>                replays a record: the final position and the result
  tablero review <record.json> [--top K]     the K moves (5) that lost most by the computer's estimate
  tablero sounds <dir>                       writes the table's synthesised sounds as WAV files
  tablero bench [--quick]                    perft speed of every variant (nodes per second)
  tablero bench --ai                         how long the strongest level takes per move, over a game
  tablero screenshot \"<position>\" --out <file.png> [--size WxH] [--palette classic|okabe-ito]
                                             renders a position off-screen
  tablero photo \"<position>\" --out <file.png> [--size WxH] [--view first|second|top|macro|doughnut]
                                             a picture without any control, up to 3840x2160 (the size)
  tablero bench-table [--frames N]           frame time and memory of the 3D table
  tablero keys                               every key of the 3D table, and what it does
  tablero [play \"<position>\"]                opens the 3D table (the menu, or that position)
  tablero replay <record.json>               opens a record in the 3D table to watch or play on
  tablero watch <url>                        the 3D table as a spectator of a live feed
  tablero ... --feed [PORT] | --listen ADDR  the table's game on the live feed too
variants: ordo, ordo-x, crossings, volterra, volterra-free, ctor8, ctor10
positions (docs/notation.md): crossings ... [exact]; volterra ... [build-near-source], the side
  field l or d of a start says who starts; ctor8|ctor10 <board> <side> <turn> <left> <teams>
  <idle> [landing=N] [power=R] [landing-back]: teams 1v1 to 3v3 (Black's first), power=R the
  turn power (the allowance table's row 1, 2 or 3; the larger team's unless given),
  landing-back a Landing's disc goes back on a square just emptied";

/// Runs one command line (without the program name), writing its output to `out`.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let Some(command) = args.first() else {
        return Err(CliError("no command given (tablero help lists the commands)".into()));
    };
    let rest = &args[1..];
    match command.as_str() {
        "moves" => {
            let [position] = rest else {
                return Err(arity("moves", "one position string (in quotes)"));
            };
            let game = parse_position(position)?;
            for mv in game.legal_moves() {
                writeln!(out, "{mv}")?;
            }
        }
        "perft" => {
            let (position, depth, divide) = match rest {
                [p, d] => (p, d, false),
                [p, d, flag] if flag == "--divide" => (p, d, true),
                _ => return Err(arity("perft", "a position string (in quotes), a depth and maybe --divide")),
            };
            let game = parse_position(position)?;
            let depth: u32 = crate::rules::number(depth).filter(|d| *d <= MAX_DEPTH).ok_or_else(|| {
                CliError(format!("depth '{}' is not a whole number from 0 to {MAX_DEPTH}", quote(depth)))
            })?;
            perft(&game, depth, divide, out)?;
        }
        "play" => {
            let Some((position, moves)) = rest.split_first() else {
                return Err(arity("play", "a position string (in quotes) and moves"));
            };
            let mut game = parse_position(position)?;
            for (i, text) in moves.iter().enumerate() {
                game.play_text(text).map_err(|e| CliError(format!("move {}: {e}", i + 1)))?;
            }
            writeln!(out, "{game}")?;
            if let Some(outcome) = game.outcome() {
                writeln!(out, "{}", result_line(game.variant(), outcome))?;
            }
        }
        "match" => run_match(rest, out)?,
        "feed" => crate::feed::headless::run(rest, out)?,
        "analyse" | "analyze" => crate::engine::analyse(rest, out)?,
        "engine" => return Err(CliError("the engine runs from the binary: tablero engine".into())),
        "check" => {
            let [path] = rest else { return Err(arity("check", "the path of a record (.json)")) };
            let (record, positions) = crate::record::load(std::path::Path::new(path))?;
            let last = positions.last().expect("a replay has at least the start");
            writeln!(out, "{last}")?;
            match last.outcome() {
                Some(o) => writeln!(out, "{}", result_line(last.variant(), o))?,
                None => writeln!(out, "unfinished after {} moves", record.moves.len())?,
            }
        }
        "review" => review(rest, out)?,
        "sounds" => {
            let [dir] = rest else { return Err(arity("sounds", "the folder to write the sounds into")) };
            let written = crate::sound::write_all(std::path::Path::new(dir)).map_err(CliError)?;
            writeln!(
                out,
                "{} sounds written into {dir} (WAV, 16-bit, {} Hz, mono)",
                written.len(),
                crate::sound::RATE
            )?;
        }
        "bench" => match rest {
            [] => bench::run(false, out)?,
            [flag] if flag == "--quick" => bench::run(true, out)?,
            [flag] if flag == "--ai" => bench::ai_answers(out)?,
            _ => return Err(arity("bench", "nothing, --quick or --ai")),
        },
        "help" | "--help" | "-h" => writeln!(out, "{USAGE}")?,
        other => {
            return Err(CliError(format!("unknown command '{}' (tablero help lists the commands)", quote(other))));
        }
    }
    Ok(())
}

/// `tablero review <record.json> [--top K]`: the evaluation after every move, and the moves
/// that lost most (the table's *Review* marks the same).
fn review(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let usage = "usage: tablero review <record.json> [--top K]";
    let (path, top) = match args {
        [path] => (path, 5),
        [path, flag, k] if flag == "--top" => (
            path,
            crate::rules::number::<usize>(k)
                .filter(|k| (1..=100).contains(k))
                .ok_or_else(|| CliError(format!("--top '{}' is not a number from 1 to 100", quote(k))))?,
        ),
        _ => return Err(CliError(usage.into())),
    };
    let (record, positions) = crate::record::load(std::path::Path::new(path))?;
    let variant = positions[0].variant();
    let mut progress = Progress::new();
    let total = positions.len() as u64;
    let moves = record.moves_played(&positions)?;
    let weighed = crate::ai::review(&positions, &STOP, &mut |n| {
        progress.show(|| format!("review {} {n}/{total} positions", bar(n as u64, total)), false)
    });
    progress.done();
    if weighed.len() < positions.len() {
        return Err(CliError("the review was stopped by Ctrl-C".into()));
    }
    let level = crate::ai::LEVELS[crate::ai::EVAL_LEVEL].name;
    writeln!(
        out,
        "{} moves, weighed at level {level}; the evaluation is {}'s expected result",
        record.moves.len(),
        variant.side_name(Side::First)
    )?;
    for (i, w) in weighed.iter().enumerate() {
        let mv = if i == 0 { "start".to_string() } else { format!("{i}. {}", record.moves[i - 1].mv) };
        writeln!(out, "{mv:<24} {:.3}  {}", w.value, crate::ai::standing(variant, w.value))?;
    }
    let worst = crate::ai::mistakes(&positions, &moves, &weighed, top);
    if worst.is_empty() {
        writeln!(out, "no move lost {:.0}% or more", crate::ai::MISTAKE * 100.0)?;
    }
    for m in worst {
        writeln!(
            out,
            "mistake: {}. {} by {}: the best move kept {:.0}%, this one {:.0}% (lost {:.0}%)",
            m.ply,
            record.moves[m.ply - 1].mv,
            variant.side_name(positions[m.ply - 1].side_to_move()),
            m.before * 100.0,
            m.after * 100.0,
            m.loss * 100.0
        )?;
    }
    Ok(())
}

/// `perft`, one first move at a time: progress on standard error for long counts, the count
/// after each first move with `divide`, and a clean stop on Ctrl-C (what was counted so far
/// is said on standard error, nothing on standard output).
fn perft(game: &AnyGame, depth: u32, divide: bool, out: &mut dyn Write) -> Result<(), CliError> {
    if depth == 0 {
        writeln!(out, "1")?;
        return Ok(());
    }
    let moves = game.legal_moves();
    let mut progress = Progress::new();
    let mut total = 0u64;
    for (i, mv) in moves.iter().enumerate() {
        let mut next = game.clone();
        next.play_unchecked(mv);
        let Some(n) = next.perft_until(depth - 1, &STOP) else {
            progress.done();
            return Err(CliError(format!(
                "perft stopped by Ctrl-C after {i} of {} first moves ({total} sequences counted so far)",
                moves.len()
            )));
        };
        total += n;
        if divide {
            writeln!(out, "{mv} {n}")?;
        }
        progress.show(
            || {
                format!(
                    "perft {depth}: {} {}/{} first moves, {total} so far",
                    bar(i as u64 + 1, moves.len() as u64),
                    i + 1,
                    moves.len()
                )
            },
            i + 1 == moves.len(),
        );
    }
    progress.done();
    if divide {
        writeln!(out)?;
    }
    writeln!(out, "{total}")?;
    Ok(())
}

fn arity(command: &str, wanted: &str) -> CliError {
    CliError(format!("'{command}' takes {wanted}"))
}

fn parse_position(text: &str) -> Result<AnyGame, CliError> {
    text.parse::<AnyGame>().map_err(CliError::from)
}

fn run_match(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let Some((variant, flags)) = args.split_first() else {
        return Err(arity("match", "a variant and --a, --b, --games, --seed (and maybe --threads)"));
    };
    let variant: Variant = variant.parse().map_err(CliError)?;
    let (mut a, mut b, mut games, mut seed) = (None, None, None, None);
    let mut threads = [1, 1];
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| CliError(format!("{} needs a value", quote(flag))))?;
        match flag.as_str() {
            "--a" => a = Some(value.clone()),
            "--b" => b = Some(value.clone()),
            "--games" => {
                games = Some(crate::rules::number::<u32>(value).filter(|n| (1..=MAX_GAMES).contains(n)).ok_or_else(
                    || CliError(format!("--games '{}' is not a number of games from 1 to {MAX_GAMES}", quote(value))),
                )?)
            }
            "--seed" => {
                seed = Some(crate::rules::number::<u64>(value).ok_or_else(|| {
                    CliError(format!("--seed '{}' is not a whole number (0 to {})", quote(value), u64::MAX))
                })?)
            }
            "--threads" => threads = [crate::ai::parse_threads(value).map_err(CliError)?; 2],
            "--a-threads" => threads[0] = crate::ai::parse_threads(value).map_err(CliError)?,
            "--b-threads" => threads[1] = crate::ai::parse_threads(value).map_err(CliError)?,
            other => return Err(CliError(format!("unknown option '{}' for match", quote(other)))),
        }
    }
    let a = a.ok_or_else(|| CliError("match needs --a <player>".into()))?;
    let b = b.ok_or_else(|| CliError("match needs --b <player>".into()))?;
    let games = games.ok_or_else(|| CliError("match needs --games N".into()))?;
    let seed = seed.ok_or_else(|| CliError("match needs --seed S (runs repeat for a given seed)".into()))?;
    // Check the player names before playing anything.
    players::by_name(&a, 0).map_err(CliError)?;
    players::by_name(&b, 0).map_err(CliError)?;
    // Games are independent and seeded by their number: two threads, one per core, give the
    // same results as one. With --threads (or --a-threads, --b-threads for one player) the
    // computer thinks on that many threads itself, and the games are played one at a time.
    let play = |g: u32, clock: &mut Clock| {
        play_game_showing(variant, &a, &b, g.is_multiple_of(2), game_seed(seed, g), threads, clock, &mut |_| true)
    };
    let started = std::time::Instant::now();
    // Tallies as games end, for the progress bar. After a Ctrl-C the games in play stop at
    // their next move and are not counted.
    let tally = std::sync::Mutex::new([0u32; 3]);
    let finished = |score: &Result<Score, CliError>| {
        if let Ok(s) = score {
            tally.lock().unwrap_or_else(|e| e.into_inner())[*s as usize] += 1;
        }
    };
    // Two lanes of games (one per core), or one where each search takes several threads.
    let lanes = if threads.iter().any(|&t| t > 1) { 1 } else { 2 };
    let lane = |k: u32| {
        let mut mine = Vec::new();
        let mut clock = Clock::default();
        for g in (0..games).filter(|g| g % lanes == k) {
            if STOP.load(Ordering::Relaxed) {
                break;
            }
            let score = play(g, &mut clock);
            if STOP.load(Ordering::Relaxed) {
                break; // a game cut short by Ctrl-C is not counted
            }
            finished(&score);
            mine.push((g, score));
        }
        (mine, clock)
    };
    let mut clock = Clock::default();
    let scores: Vec<Result<Score, CliError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..lanes).map(|k| scope.spawn(move || lane(k))).collect();
        let mut progress = Progress::new();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            let [w, d, l] = *tally.lock().unwrap_or_else(|e| e.into_inner());
            let n = w + d + l;
            progress.show(
                || {
                    format!(
                        "match {} {n}/{games} games, a: {w} wins, {d} draws, {l} losses",
                        bar(n as u64, games as u64)
                    )
                },
                false,
            );
        }
        progress.done();
        let mut all: Vec<(u32, Result<Score, CliError>)> = Vec::new();
        for worker in workers {
            let (mine, lane_clock) = worker.join().unwrap_or_default();
            all.extend(mine);
            clock.add(&lane_clock);
        }
        all.sort_by_key(|(g, _)| *g);
        all.into_iter().map(|(_, s)| s).collect()
    });
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for score in scores {
        match score? {
            Score::Win => wins += 1,
            Score::Draw => draws += 1,
            Score::Loss => losses += 1,
        }
    }
    if STOP.load(Ordering::Relaxed) {
        return Err(CliError(format!(
            "match stopped by Ctrl-C after {} of {games} games: a {wins} wins, {draws} draws, {losses} losses",
            wins + draws + losses
        )));
    }
    writeln!(out, "{variant}: {a} (a) vs {b} (b), {games} games, seed {seed}, sides alternating")?;
    writeln!(out, "a: {wins} wins, {draws} draws, {losses} losses")?;
    let n = games.max(1) as f64;
    let share = |k: f64| k / n * 100.0;
    let (low, high) = wilson(wins as f64, n);
    writeln!(
        out,
        "a's wins {:.1}% (95% interval {:.1}% to {:.1}%), score with draws as half {:.1}%, {:.1} s",
        share(wins as f64),
        low * 100.0,
        high * 100.0,
        share(wins as f64 + draws as f64 / 2.0),
        started.elapsed().as_secs_f64()
    )?;
    // Each player's time a move (with two lanes, each game had a core to itself).
    let thinker = |k: usize| {
        let on = if threads[k] > 1 { format!(" on {} threads", threads[k]) } else { String::new() };
        format!("{:.3} s a move over {} moves{on}", clock.mean(k), clock.moves[k])
    };
    writeln!(out, "thinking: a {}, b {}", thinker(0), thinker(1))?;
    Ok(())
}
