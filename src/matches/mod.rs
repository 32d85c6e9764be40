//! Matches between players without a table: one game at a time, seeded by its number so that
//! runs repeat, each player's thinking time, the result line, the statistics of a match, and
//! Ctrl-C stopping a long run cleanly. The command line, the engine and the feed use it.

use crate::players::{self, UnknownPlayer};
use crate::rules::MoveError;
use crate::rules::{AnyGame, AnyMove, Game, Outcome, Side, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
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
    play_from(variant.initial(), a, b, a_first, seed, threads, clock, shown).map(|(score, _)| score)
}

/// Plies of an opening of a match with `--openings`: turns, each ending where the side to move
/// changes (a CTOR turn of several operations is one).
pub const OPENING_PLIES: usize = 4;

/// Opening `k` of a match seeded `seed`: [`OPENING_PLIES`] turns of seeded random moves from
/// the variant's start, drawn again (the next seed) where they would end the game or leave it
/// decided: where the side to move wins by force within three of its turns ([`decided`]), the
/// game would not be played but given to whoever begins, once from each side.
pub fn opening(variant: Variant, seed: u64, k: u32) -> AnyGame {
    let mut attempt = 0u64;
    loop {
        let mut rng = StdRng::seed_from_u64(game_seed(seed ^ 0x6F70_656E_696E_6773, k).wrapping_add(attempt));
        let mut game = variant.initial();
        let mut turns = 0;
        // A turn is at most a few dozen operations; a bound keeps a strange game from looping.
        for _ in 0..256 {
            if turns == OPENING_PLIES || game.outcome().is_some() {
                break;
            }
            let side = game.side_to_move();
            let Some(mv) = game.random_move(&mut rng) else { break };
            game.play_unchecked(&mv);
            if game.side_to_move() != side {
                turns += 1;
            }
        }
        if turns == OPENING_PLIES && game.outcome().is_none() && !decided(&game) {
            return game;
        }
        attempt += 1;
    }
}

/// Moves played at most to tell whether an opening is [`decided`]; past them it is taken as
/// open (a bound in moves, so that an opening is the same on any machine).
const DECIDED_BUDGET: u64 = 300_000;

/// Whether the side to move wins by force within three of its turns: a turn after which every
/// reply leaves it a turn after which every reply leaves it a turn that wins (or wins sooner),
/// as far as [`DECIDED_BUDGET`] moves tell. Only Volterra is searched, whose turns can end the
/// game from the start; the other games are not decided so early (a stone has the board to
/// cross, CTOR's field is to be filled).
pub fn decided(game: &AnyGame) -> bool {
    if !matches!(game, AnyGame::Volterra(_)) {
        return false;
    }
    let mut budget = DECIDED_BUDGET;
    wins_within(game, game.side_to_move(), 3, &mut budget) == Some(true)
}

/// Whether `side` wins by force within `turns` of its turns from `game`; `None` once `budget`
/// moves are spent.
fn wins_within(game: &AnyGame, side: Side, turns: u32, budget: &mut u64) -> Option<bool> {
    if let Some(o) = game.outcome() {
        return Some(o.winner == Some(side));
    }
    if turns == 0 {
        return Some(false);
    }
    let ours = game.side_to_move() == side;
    for mv in game.legal_moves() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut next = game.clone();
        next.play_unchecked(&mv);
        let left = if ours && next.side_to_move() != side { turns - 1 } else { turns };
        let wins = wins_within(&next, side, left, budget)?;
        if ours && wins {
            return Some(true);
        }
        if !ours && !wins {
            return Some(false);
        }
    }
    // No move of ours won; every reply of theirs left us a win.
    Some(!ours)
}

/// [`play_game_showing`] from `start` (an opening): the score and the plies played.
#[allow(clippy::too_many_arguments)]
pub fn play_from(
    start: AnyGame,
    a: &str,
    b: &str,
    a_first: bool,
    seed: u64,
    threads: [usize; 2],
    clock: &mut Clock,
    shown: &mut dyn FnMut(&AnyMove) -> bool,
) -> Result<(Score, usize), MatchError> {
    let mut pa = players::by_name_on(a, seed.wrapping_mul(2), threads[0])?;
    let mut pb = players::by_name_on(b, seed.wrapping_mul(2).wrapping_add(1), threads[1])?;
    let a_side = if a_first { Side::First } else { Side::Second };
    let mut game = start;
    for ply in 0..MATCH_PLY_LIMIT {
        if STOP.load(Ordering::Relaxed) {
            return Err(MatchError::Stopped);
        }
        if let Some(outcome) = game.outcome() {
            let score = match outcome.winner {
                None => Score::Draw,
                Some(s) if s == a_side => Score::Win,
                Some(_) => Score::Loss,
            };
            return Ok((score, ply));
        }
        let k = if game.side_to_move() == a_side { 0 } else { 1 };
        let player = if k == 0 { &mut pa } else { &mut pb };
        let thinking = std::time::Instant::now();
        let mv = player.choose(&game).ok_or(MatchError::NoMove)?;
        clock.time[k] += thinking.elapsed();
        clock.moves[k] += 1;
        game.play(&mv)?;
        if !shown(&mv) {
            return Ok((Score::Draw, ply + 1));
        }
    }
    Ok((Score::Draw, MATCH_PLY_LIMIT))
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

/// One game of a match, as it ended.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// The game's number, from 0.
    pub game: u32,
    /// The opening it started from (with `--openings`).
    pub opening: Option<u32>,
    pub a_first: bool,
    pub score: Score,
    /// Plies played after the opening.
    pub plies: usize,
    /// Each player's thinking in this game.
    pub clock: Clock,
}

/// A match of `games` games between players `a` and `b` (names as [`players::by_name`] reads
/// them), sides alternating, each game seeded by [`game_seed`]: the tally, each player's
/// thinking time and the games one by one, with a progress bar on standard error. With
/// `openings` N, game g starts from [`opening`] (g / 2) mod N, A first in the even games, so
/// that each opening is played from both sides. Games are independent and seeded by their
/// number: two lanes, one per core, give the same results as one; with more than one thread for
/// a player the computer thinks on that many threads itself, and the games are played one at a
/// time.
pub fn play_match(
    variant: Variant,
    [a, b]: [&str; 2],
    games: u32,
    seed: u64,
    threads: [usize; 2],
    openings: Option<u32>,
) -> Result<(Tally, Clock, Vec<Played>), MatchError> {
    // Check the player names before playing anything.
    players::by_name(a, 0)?;
    players::by_name(b, 0)?;
    // Each opening found once (a Volterra opening is searched for a forced win), when the
    // first of its two games begins.
    let openings = openings.filter(|n| *n > 0);
    let starts: Vec<std::sync::OnceLock<AnyGame>> =
        (0..openings.map_or(0, |n| n.min(games.div_ceil(2)))).map(|_| std::sync::OnceLock::new()).collect();
    let play = |g: u32| -> Result<Played, MatchError> {
        let a_first = g.is_multiple_of(2);
        let opening_k = openings.map(|n| (g / 2) % n);
        let start = opening_k.map_or_else(
            || variant.initial(),
            |k| starts[k as usize].get_or_init(|| opening(variant, seed, k)).clone(),
        );
        let mut clock = Clock::default();
        let (score, plies) = play_from(start, a, b, a_first, game_seed(seed, g), threads, &mut clock, &mut |_| true)?;
        Ok(Played { game: g, opening: opening_k, a_first, score, plies, clock })
    };
    // Tallies as games end, for the progress bar. After a Ctrl-C the games in play stop at
    // their next move and are not counted.
    let tally = std::sync::Mutex::new(Tally::default());
    let lanes = if threads.iter().any(|&t| t > 1) { 1 } else { 2 };
    let lane = |k: u32| {
        let mut mine = Vec::new();
        for g in (0..games).filter(|g| g % lanes == k) {
            if STOP.load(Ordering::Relaxed) {
                break;
            }
            let played = play(g);
            if STOP.load(Ordering::Relaxed) {
                break; // a game cut short by Ctrl-C is not counted
            }
            if let Ok(p) = &played {
                tally.lock().unwrap_or_else(|e| e.into_inner()).add(p.score);
            }
            mine.push((g, played));
        }
        mine
    };
    let results: Vec<Result<Played, MatchError>> = std::thread::scope(|scope| {
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
        let mut all: Vec<(u32, Result<Played, MatchError>)> = Vec::new();
        for worker in workers {
            all.extend(worker.join().unwrap_or_default());
        }
        all.sort_by_key(|(g, _)| *g);
        all.into_iter().map(|(_, s)| s).collect()
    });
    let mut tally = Tally::default();
    let mut clock = Clock::default();
    let mut played = Vec::new();
    for result in results {
        let p = result?;
        tally.add(p.score);
        clock.add(&p.clock);
        played.push(p);
    }
    if STOP.load(Ordering::Relaxed) {
        return Err(MatchError::MatchStopped { games, tally });
    }
    Ok((tally, clock, played))
}
