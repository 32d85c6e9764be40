//! The headless command line of NOTATION.md: `moves`, `perft`, `play`, `match`, `bench`.
//! Output is plain text for other programs; every error is one line and exit status 2.

use crate::bench;
use crate::players;
use crate::rules::{AnyGame, Game, Outcome, Side, Variant};
use std::io::Write;

/// A failure the user caused: printed as one line, exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}

pub const USAGE: &str = "\
usage:
  tablero moves \"<position>\"                 every legal move, one per line
  tablero perft \"<position>\" <depth>         the number of move sequences of that length
  tablero play \"<position>\" <move>...        the position after the moves, and the result if the game ended
  tablero match <variant> --a <player> --b <player> --games N --seed S
                                             plays N games headless; players: random, ai:<level>
                                             (levels: easy, medium, hard, master)
  tablero check <record.json>                replays a record: the final position and the result
  tablero bench [--quick]                    perft speed of every variant (nodes per second)
  tablero bench --ai                         how long the strongest level takes per move, over a game
  tablero screenshot \"<position>\" --out <file.png> [--size WxH]   renders a position off-screen
  tablero bench-table [--frames N]           frame time and memory of the 3D table
  tablero [play \"<position>\"]                opens the 3D table (the menu, or that position)
  tablero replay <record.json>               opens a record in the 3D table to watch or play on
variants: ordo, ordo-x, crossings, volterra, volterra-free, ctor8, ctor10";

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
            let [position, depth] = rest else {
                return Err(arity("perft", "a position string (in quotes) and a depth"));
            };
            let game = parse_position(position)?;
            let depth: u32 = depth
                .parse()
                .ok()
                .filter(|d| *d <= 12)
                .ok_or_else(|| CliError(format!("depth '{depth}' is not a whole number from 0 to 12")))?;
            writeln!(out, "{}", game.perft(depth))?;
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
        "bench" => match rest {
            [] => bench::run(false, out)?,
            [flag] if flag == "--quick" => bench::run(true, out)?,
            [flag] if flag == "--ai" => bench::ai_answers(out)?,
            _ => return Err(arity("bench", "nothing, --quick or --ai")),
        },
        "help" | "--help" | "-h" => writeln!(out, "{USAGE}")?,
        other => {
            return Err(CliError(format!("unknown command '{other}' (tablero help lists the commands)")));
        }
    }
    Ok(())
}

fn arity(command: &str, wanted: &str) -> CliError {
    CliError(format!("'{command}' takes {wanted}"))
}

fn parse_position(text: &str) -> Result<AnyGame, CliError> {
    text.parse::<AnyGame>().map_err(CliError::from)
}

/// `result: white wins (reached the opponent's home row)` or `result: draw (threefold repetition)`.
pub fn result_line(variant: Variant, outcome: Outcome) -> String {
    match outcome.winner {
        Some(side) => format!("result: {} wins ({})", variant.side_name(side), outcome.reason),
        None => format!("result: draw ({})", outcome.reason),
    }
}

/// A game's end from player A's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// Plies after which a match game that has not ended is scored as a draw (random Ordo Classic
/// play could in principle shuffle sideways for ever).
pub const MATCH_PLY_LIMIT: usize = 2000;

/// Plays one game between two players; `a_first` says whether A moves first.
pub fn play_game(variant: Variant, a: &str, b: &str, a_first: bool, seed: u64) -> Result<Score, CliError> {
    let mut pa = players::by_name(a, seed.wrapping_mul(2)).map_err(CliError)?;
    let mut pb = players::by_name(b, seed.wrapping_mul(2).wrapping_add(1)).map_err(CliError)?;
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut game = variant.initial();
    for _ in 0..MATCH_PLY_LIMIT {
        if let Some(outcome) = game.outcome() {
            return Ok(match outcome.winner {
                None => Score::Draw,
                Some(s) if s == a_side => Score::Win,
                Some(_) => Score::Loss,
            });
        }
        let player = if game.side_to_move() == a_side { &mut pa } else { &mut pb };
        let mv =
            player.choose(&game).ok_or_else(|| CliError("a player found no move in a game that is not over".into()))?;
        game.play(&mv)?;
    }
    Ok(Score::Draw)
}

fn run_match(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let Some((variant, flags)) = args.split_first() else {
        return Err(arity("match", "a variant and --a, --b, --games, --seed"));
    };
    let variant: Variant = variant.parse().map_err(CliError)?;
    let (mut a, mut b, mut games, mut seed) = (None, None, None, None);
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| CliError(format!("{flag} needs a value")))?;
        match flag.as_str() {
            "--a" => a = Some(value.clone()),
            "--b" => b = Some(value.clone()),
            "--games" => {
                games = Some(
                    value
                        .parse::<u32>()
                        .map_err(|_| CliError(format!("--games '{value}' is not a number of games")))?,
                )
            }
            "--seed" => {
                seed = Some(
                    value.parse::<u64>().map_err(|_| CliError(format!("--seed '{value}' is not a whole number")))?,
                )
            }
            other => return Err(CliError(format!("unknown option '{other}' for match"))),
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
    // same results as one.
    let play = |g: u32| {
        play_game(variant, &a, &b, g % 2 == 0, seed.wrapping_add(g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    };
    let started = std::time::Instant::now();
    let scores: Vec<Result<Score, CliError>> = std::thread::scope(|scope| {
        let odd = scope.spawn(|| (0..games).filter(|g| g % 2 == 1).map(|g| (g, play(g))).collect::<Vec<_>>());
        let mut all: Vec<(u32, Result<Score, CliError>)> =
            (0..games).filter(|g| g % 2 == 0).map(|g| (g, play(g))).collect();
        all.extend(odd.join().unwrap_or_default());
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
    Ok(())
}

/// The 95% Wilson score interval of a proportion of `k` in `n`: unlike the normal
/// approximation it stays inside [0, 1] and does not shrink to a point at 0 or n.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
