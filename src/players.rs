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

/// A player named on the command line: `random` (more kinds come with the computer opponent).
pub fn by_name(name: &str, seed: u64) -> Result<Box<dyn Player + Send>, String> {
    match name {
        "random" => Ok(Box::new(RandomPlayer::new(seed))),
        other => Err(format!("unknown player '{other}' (available: random)")),
    }
}
