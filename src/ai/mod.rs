//! Computer opponents, tuned per game. Ordo, Crossings and CTOR use Monte Carlo tree search
//! (UCT) over the shared game trait, with playouts cut off at a depth and scored by a per-game
//! evaluation; so do Ordo X's two lower levels, while its upper ones use a selective
//! alpha-beta over the best-looking turns (hard: two turns over the 6 best; master: deepened
//! within a budget of positions over the 10 best, and over every turn late in the game).
//! Master in Ordo Classic and Crossings is a full-width alpha-beta four moves deep instead
//! ([`deep`]). Volterra's play is short and sharp (a turn can end
//! the game at once), where random playouts say little: it uses alpha-beta over complete turns
//! with an evaluation of the towers; its free setup, whose worth shows only many moves later,
//! uses the tree search.
//! Levels are fixed budgets of playouts or positions, never of time, so a level plays the same
//! for a given seed on any machine. A CTOR player decides from its own team's view only.

pub mod baseline;
mod beam;
pub mod deep;
pub mod eval;
pub mod levels;
mod mcts;
pub(crate) mod share;
mod tree;
pub mod uct;
mod volterra;
pub mod weigh;

pub use eval::evaluate;
pub use levels::{LEVELS, Level};
pub(crate) use share::share_out;
pub use weigh::{EVAL_LEVEL, MISTAKE, Mistake, Weighed, evaluation, hint_cells, mistakes, review, standing, weigh};

use crate::rules::ordo::Rules;
use crate::rules::volterra::Phase;
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use beam::Beam;
use mcts::mcts;
use std::sync::atomic::AtomicBool;
use volterra::AlphaBeta;

impl Level {
    /// This level thinking on `threads` threads at once, each with the level's whole budget
    /// and its own fixed seed, merged in a fixed order: with more threads it sees more in the
    /// same time, and plays the same for a given seed and number of threads on any machine.
    /// The tree search grows one tree per thread and adds up their root moves' visits; the
    /// alpha-beta searches share out the root moves.
    pub fn on(self, threads: usize) -> Level {
        Level { threads: threads.clamp(1, MAX_THREADS), ..self }
    }
}

/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// Reads a number of threads given on the command line or to the engine.
pub fn parse_threads(text: &str) -> Result<usize, ThreadsError> {
    crate::rules::number::<usize>(text)
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| ThreadsError(text.to_string()))
}

/// A number of threads that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("threads '{}' is not a number from 1 to {MAX_THREADS}", crate::rules::quote(.0))]
pub struct ThreadsError(pub String);

/// The cores of this machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)
}

/// The threads a search takes at the table: one fewer than the cores (at least one), so that
/// the window's frame keeps a core while the computer thinks. With this number (and the same
/// seed) `tablero analyse --threads N` finds the table's move: the budget is in positions.
pub fn table_threads() -> usize {
    cores().saturating_sub(1).max(1)
}

pub fn level(name: &str) -> Option<Level> {
    LEVELS.iter().copied().find(|l| l.name == name)
}

/// What a search did: the move, and how many playouts or positions it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    pub mv: Option<AnyMove>,
    pub work: u64,
    /// "playouts" or "positions".
    pub unit: &'static str,
    /// The root moves the search weighed, the best first, with what it thinks of each.
    pub lines: Vec<Line>,
}

/// What a search thinks of one root move: the mover's expected result after it, from 0 (lost)
/// to 1 (won), the line it expects (the move first), and the work spent under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub mv: AnyMove,
    pub score: f64,
    pub pv: Vec<AnyMove>,
    pub work: u64,
}

/// The move the computer plays at `level`, from `seed`. For CTOR only the mover's own view
/// of the game is used: the opponent's unrevealed secret squares are not seen.
pub fn choose(game: &AnyGame, level: Level, seed: u64) -> Option<AnyMove> {
    search(game, level, seed).mv
}

/// [`choose`], with the work it took.
pub fn search(game: &AnyGame, level: Level, seed: u64) -> Search {
    search_until(game, level, seed, &AtomicBool::new(false))
}

/// [`search`] that gives up as soon as `stop` is set (the app sets it on undo or a new game,
/// so that an abandoned search frees its core at once); what it returns then is not meant to
/// be played.
pub fn search_until(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> Search {
    let game = match game {
        AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
        other => other.clone(),
    };
    if game.outcome().is_some() {
        return Search { mv: None, work: 0, unit: "playouts", lines: Vec::new() };
    }
    match &game {
        AnyGame::Volterra(v) if v.phase() == Phase::Play => {
            let near = level.slack as f64 / 100.0 + opening_slack(&game);
            let (mv, work, lines) = AlphaBeta::choose(v, level, near, seed, stop);
            Search { mv: mv.map(AnyMove::Volterra), work, unit: "positions", lines }
        }
        AnyGame::Ordo(g) if g.rules() == Rules::Classic && level.deep > 0 => deep_search(&game, level, seed, stop),
        AnyGame::Crossings(_) if level.deep > 0 => deep_search(&game, level, seed, stop),
        AnyGame::Ordo(g) if g.rules() == Rules::X && level.beam > 0 => {
            let (mv, work, lines) = Beam::choose_on(&game, level, seed, stop);
            Search { mv, work, unit: "positions", lines }
        }
        _ => {
            let (mv, work, lines) = mcts(&game, level, seed, stop);
            Search { mv, work, unit: "playouts", lines }
        }
    }
}

/// [`deep`]'s full-width alpha-beta, `level.deep` moves deep within the level's
/// positions, its values turned into the mover's expected result.
fn deep_search(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> Search {
    let near = DEEP_NEAR + opening_slack(game);
    // Past the level's depth only in Ordo, whose long games are lost in thinned positions that
    // a deeper look wins back; Crossings wins its games at the level's depth, and deeper
    // iterations there doubled master's time a move against the partner (0.15 s to 0.33 s).
    let beyond = match game {
        AnyGame::Ordo(_) if level.positions != u64::MAX => deep::BEYOND,
        _ => 0,
    };
    let found = deep::choose(game, level.deep, beyond, level.positions, near, level.threads, seed, stop);
    let lines = found.lines.into_iter().map(|(mv, v, pv)| Line { mv, score: eval::chance(v), pv, work: 0 }).collect();
    Search { mv: found.mv, work: found.positions, unit: "positions", lines }
}

/// Root moves of the full-width alpha-beta within this many stones of the best are played
/// alike, the seed choosing.
const DEEP_NEAR: f64 = 0.01;

/// Variety by the seed in the first moves: at the start, the alpha-beta searches play alike
/// the root moves up to this much below the best by their own search (in stones for Ordo and
/// Crossings, in tiles for Volterra), less and less as the game leaves its start.
pub const OPENING_SLACK: f64 = 0.3;
/// Squares whose piece differs from the start by which the opening slack is spent: in Ordo
/// and Crossings a move changes two or three (about six moves a side); Volterra's 20 cells
/// and two pawns change three or four a turn, and its games are short (about two turns a
/// side).
const OPENING_SPAN: f64 = 24.0;
const OPENING_SPAN_VOLTERRA: f64 = 8.0;

/// How much further below the best a root move may be and still be played in `game`: the
/// opening slack, shrinking with each square that differs from the variant's start; none in
/// a position far from it (a position set up by hand, a free setup laid out, CTOR).
pub fn opening_slack(game: &AnyGame) -> f64 {
    let start = game.variant().initial();
    let (files, ranks) = game.board_size();
    let cells = (0..ranks).flat_map(|r| (0..files).map(move |f| Cell::new(f, r)));
    let (changed, span) = match (game, &start) {
        (AnyGame::Ctor(_), _) => return 0.0,
        (AnyGame::Volterra(v), AnyGame::Volterra(s)) => (
            cells.filter(|c| v.tower(*c) != s.tower(*c)).count()
                + [Side::First, Side::Second].iter().filter(|side| v.pawn(**side) != s.pawn(**side)).count(),
            OPENING_SPAN_VOLTERRA,
        ),
        _ => (cells.filter(|c| game.piece_at(*c) != start.piece_at(*c)).count(), OPENING_SPAN),
    };
    OPENING_SLACK * (1.0 - changed as f64 / span).max(0.0)
}
