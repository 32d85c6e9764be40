//! Players that choose moves without a person: the seeded random mover now, the computer
//! opponents later. A player sees only the game value it is handed.

use crate::rules::{AnyGame, AnyMove, Game};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// Something that picks a move in a position that is not over.
pub trait Player {
    fn choose(&mut self, game: &AnyGame) -> Option<AnyMove>;
}

/// Picks uniformly among the legal moves, from an explicit seed so that runs repeat.
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: StdRng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &AnyGame) -> Option<AnyMove> {
        game.legal_moves().choose(&mut self.rng).cloned()
    }
}

/// The computer opponent at a level: each move searched from its own seed.
pub struct AiPlayer {
    level: crate::ai::Level,
    seed: u64,
    moves: u64,
}

impl AiPlayer {
    pub fn new(level: crate::ai::Level, seed: u64) -> AiPlayer {
        AiPlayer { level, seed, moves: 0 }
    }
}

impl Player for AiPlayer {
    fn choose(&mut self, game: &AnyGame) -> Option<AnyMove> {
        self.moves += 1;
        crate::ai::choose(game, self.level, self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(self.moves))
    }
}

/// `ai:baseline` as a player.
pub struct BaselinePlayer {
    seed: u64,
    moves: u64,
}

impl BaselinePlayer {
    pub fn new(seed: u64) -> BaselinePlayer {
        BaselinePlayer { seed, moves: 0 }
    }
}

impl Player for BaselinePlayer {
    fn choose(&mut self, game: &AnyGame) -> Option<AnyMove> {
        self.moves += 1;
        crate::ai::baseline::choose(game, self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(self.moves))
    }
}

/// `ai:uct` as a player: a standard UCT robot (see [`crate::ai::uct`]), each move from its own
/// seed.
pub struct UctPlayer {
    budget: crate::ai::uct::Budget,
    seed: u64,
    moves: u64,
}

impl UctPlayer {
    pub fn new(budget: crate::ai::uct::Budget, seed: u64) -> UctPlayer {
        UctPlayer { budget, seed, moves: 0 }
    }
}

impl Player for UctPlayer {
    fn choose(&mut self, game: &AnyGame) -> Option<AnyMove> {
        self.moves += 1;
        crate::ai::uct::choose(
            game,
            self.budget,
            self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(self.moves),
        )
        .0
    }
}

/// A player named on the command line: `random`, `ai:<level>` (easy, medium, hard, master), or
/// the yardsticks `ai:baseline` and `ai:uct`.
pub fn by_name(name: &str, seed: u64) -> Result<Box<dyn Player + Send>, UnknownPlayer> {
    by_name_on(name, seed, 1)
}

/// [`by_name`], the computer's levels thinking on `threads` threads (see [`crate::ai::Level::on`]).
pub fn by_name_on(name: &str, seed: u64, threads: usize) -> Result<Box<dyn Player + Send>, UnknownPlayer> {
    use crate::record::Kind;
    // One reading of player kinds for records and the command line (`random` is short for
    // the records' `computer:random`).
    match (name, Kind::parse(name)) {
        ("random", _) | (_, Some(Kind::Random)) => Ok(Box::new(RandomPlayer::new(seed))),
        // The yardstick of the levels (see `baseline`), not a level of the menu.
        ("ai:baseline", _) => Ok(Box::new(BaselinePlayer::new(seed))),
        // The sparring partner: a standard UCT robot, `ai:uct[:N | :Ns | :Nms]`.
        (n, _) if n.starts_with("ai:uct") => match crate::ai::uct::Budget::parse(n) {
            Some(budget) => Ok(Box::new(UctPlayer::new(budget, seed))),
            None => Err(UnknownPlayer(name.to_string())),
        },
        (_, Some(Kind::Ai(level))) => Ok(Box::new(AiPlayer::new(crate::ai::LEVELS[level].on(threads), seed))),
        _ => Err(UnknownPlayer(name.to_string())),
    }
}

/// A player's name that names no player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player '{}' (available: random, ai:baseline, ai:uct[:N playout moves | :Ns], ai:{})",
    crate::rules::quote(.0),
    level_names()
)]
pub struct UnknownPlayer(pub String);

fn level_names() -> String {
    crate::ai::LEVELS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ai:")
}
