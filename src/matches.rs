//! Matches between players without a table: one game at a time, seeded by its number so that
//! runs repeat, each player's thinking time, the result line, the statistics of a match, and
//! Ctrl-C stopping a long run cleanly. The command line, the engine and the feed use it.

use crate::cli::error::CliError;
use crate::players;
use crate::rules::{AnyMove, Game, Outcome, Side, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set by Ctrl-C (see [`stop_on_interrupt`]): long commands stop cleanly at the next check.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C set [`STOP`] instead of killing the process, so that `perft` and `match`
/// stop cleanly and say how far they got. A second Ctrl-C ends the process at once.
pub fn stop_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
}

/// Whether the command was stopped by Ctrl-C (its exit status is then 130).
pub fn interrupted() -> bool {
    STOP.load(Ordering::Relaxed)
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

/// The seed of game `g` of a match seeded `seed` (games are independent and seeded by their
/// number, so that threads give the same results as one).
pub fn game_seed(seed: u64, g: u32) -> u64 {
    seed.wrapping_add(g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Plays one game between two players; `a_first` says whether A moves first.
pub fn play_game(variant: Variant, a: &str, b: &str, a_first: bool, seed: u64) -> Result<Score, CliError> {
    play_game_showing(variant, a, b, a_first, seed, [1, 1], &mut Clock::default(), &mut |_| true)
}

/// How long each player of a match (A, then B) took over its moves, and how many it made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    pub time: [Duration; 2],
    pub moves: [u32; 2],
}

impl Clock {
    /// Adds another clock's times and moves to this one.
    pub fn add(&mut self, other: &Clock) {
        for k in 0..2 {
            self.time[k] += other.time[k];
            self.moves[k] += other.moves[k];
        }
    }

    /// Player `k`'s mean time a move, in seconds.
    pub fn mean(&self, k: usize) -> f64 {
        self.time[k].as_secs_f64() / self.moves[k].max(1) as f64
    }
}

/// [`play_game`] that hands each move to `shown` as it is played (the live feed shows it);
/// the game goes on while `shown` says true, and ends as a draw when it says false. Each
/// player's thinking time is added to `clock`.
pub fn play_game_showing(
    variant: Variant,
    a: &str,
    b: &str,
    a_first: bool,
    seed: u64,
    threads: [usize; 2],
    clock: &mut Clock,
    shown: &mut dyn FnMut(&AnyMove) -> bool,
) -> Result<Score, CliError> {
    let mut pa = players::by_name_on(a, seed.wrapping_mul(2), threads[0]).map_err(CliError)?;
    let mut pb = players::by_name_on(b, seed.wrapping_mul(2).wrapping_add(1), threads[1]).map_err(CliError)?;
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut game = variant.initial();
    for _ in 0..MATCH_PLY_LIMIT {
        if STOP.load(Ordering::Relaxed) {
            return Err(CliError("the game was stopped by Ctrl-C".into()));
        }
        if let Some(outcome) = game.outcome() {
            return Ok(match outcome.winner {
                None => Score::Draw,
                Some(s) if s == a_side => Score::Win,
                Some(_) => Score::Loss,
            });
        }
        let k = if game.side_to_move() == a_side { 0 } else { 1 };
        let player = if k == 0 { &mut pa } else { &mut pb };
        let thinking = std::time::Instant::now();
        let mv =
            player.choose(&game).ok_or_else(|| CliError("a player found no move in a game that is not over".into()))?;
        clock.time[k] += thinking.elapsed();
        clock.moves[k] += 1;
        game.play(&mv)?;
        if !shown(&mv) {
            break;
        }
    }
    Ok(Score::Draw)
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
