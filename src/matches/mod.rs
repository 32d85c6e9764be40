//! Matches between players without a table: one game at a time, seeded by its number so that
//! runs repeat, each player's thinking time, the result line, the statistics of a match, and
//! Ctrl-C stopping a long run cleanly. The command line, the engine and the feed use it.

use crate::players::{self, UnknownPlayer};
use crate::rules::MoveError;
use crate::rules::{AnyMove, Game, Outcome, Side, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub mod progress;

use progress::{Progress, bar};

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
pub fn play_game(variant: Variant, a: &str, b: &str, a_first: bool, seed: u64) -> Result<Score, MatchError> {
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
) -> Result<Score, MatchError> {
    let mut pa = players::by_name_on(a, seed.wrapping_mul(2), threads[0])?;
    let mut pb = players::by_name_on(b, seed.wrapping_mul(2).wrapping_add(1), threads[1])?;
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut game = variant.initial();
    for _ in 0..MATCH_PLY_LIMIT {
        if STOP.load(Ordering::Relaxed) {
            return Err(MatchError::Stopped);
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
        let mv = player.choose(&game).ok_or(MatchError::NoMove)?;
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

/// Why a game or a match of computer players did not finish.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Player(#[from] UnknownPlayer),
    #[error("the game was stopped by Ctrl-C")]
    Stopped,
    #[error("a player found no move in a game that is not over")]
    NoMove,
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("match stopped by Ctrl-C after {} of {games} games: a {} wins, {} draws, {} losses", .tally.played(), .tally.wins, .tally.draws, .tally.losses)]
    MatchStopped { games: u32, tally: Tally },
}

/// What a match came to for its player a.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn played(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }
}

/// A match of `games` games between players `a` and `b` (names as [`players::by_name`] reads
/// them), sides alternating, each game seeded by [`game_seed`]: the tally and each player's
/// thinking time, with a progress bar on standard error. Games are independent and seeded by
/// their number: two lanes, one per core, give the same results as one; with more than one
/// thread for a player the computer thinks on that many threads itself, and the games are
/// played one at a time.
pub fn play_match(
    variant: Variant,
    [a, b]: [&str; 2],
    games: u32,
    seed: u64,
    threads: [usize; 2],
) -> Result<(Tally, Clock), MatchError> {
    // Check the player names before playing anything.
    players::by_name(a, 0)?;
    players::by_name(b, 0)?;
    let play = |g: u32, clock: &mut Clock| {
        play_game_showing(variant, a, b, g.is_multiple_of(2), game_seed(seed, g), threads, clock, &mut |_| true)
    };
    // Tallies as games end, for the progress bar. After a Ctrl-C the games in play stop at
    // their next move and are not counted.
    let tally = std::sync::Mutex::new(Tally::default());
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
            if let Ok(s) = &score {
                tally.lock().unwrap_or_else(|e| e.into_inner()).add(*s);
            }
            mine.push((g, score));
        }
        (mine, clock)
    };
    let mut clock = Clock::default();
    let scores: Vec<Result<Score, MatchError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..lanes).map(|k| scope.spawn(move || lane(k))).collect();
        let mut progress = Progress::new();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            let t = *tally.lock().unwrap_or_else(|e| e.into_inner());
            let n = t.played();
            progress.show(
                || {
                    format!(
                        "match {} {n}/{games} games, a: {} wins, {} draws, {} losses",
                        bar(n as u64, games as u64),
                        t.wins,
                        t.draws,
                        t.losses
                    )
                },
                false,
            );
        }
        progress.done();
        let mut all: Vec<(u32, Result<Score, MatchError>)> = Vec::new();
        for worker in workers {
            let (mine, lane_clock) = worker.join().unwrap_or_default();
            all.extend(mine);
            clock.add(&lane_clock);
        }
        all.sort_by_key(|(g, _)| *g);
        all.into_iter().map(|(_, s)| s).collect()
    });
    let mut tally = Tally::default();
    for score in scores {
        tally.add(score?);
    }
    if STOP.load(Ordering::Relaxed) {
        return Err(MatchError::MatchStopped { games, tally });
    }
    Ok((tally, clock))
}
