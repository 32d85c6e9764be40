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
    // One reading of player kinds for records and the command line.
    let kind: Kind = name.parse()?;
    kind.player(seed, threads).ok_or_else(|| UnknownPlayer(name.to_string()))
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

/// Who plays a side: a person, or one of the computer's players. One name everywhere: records,
/// the command line, the menu, a host's seats and the wire write it as `human`,
/// `computer:random` (the command line's `random` is short for it), `ai:<level>`,
/// `ai:baseline` or `ai:uct[:N | :Ns | :Nms]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A person (`human`).
    Person,
    /// The seeded random mover.
    Random,
    /// The computer opponent at a level (an index into `ai::LEVELS`).
    Ai(usize),
    /// The yardstick of the levels, not a level of the menu.
    Baseline,
    /// The sparring partner: a standard UCT robot with its budget.
    Uct(crate::ai::uct::Budget),
}

impl Kind {
    /// Reads a player kind as records write it (the command line's `random` is read by
    /// [`Kind::from_str`]).
    pub fn parse(kind: &str) -> Option<Kind> {
        match kind {
            "human" => Some(Kind::Person),
            "computer:random" => Some(Kind::Random),
            "ai:baseline" => Some(Kind::Baseline),
            n if n.starts_with("ai:uct") => crate::ai::uct::Budget::parse(n).map(Kind::Uct),
            other => other
                .strip_prefix("ai:")
                .and_then(|n| crate::ai::levels::LEVELS.iter().position(|l| l.name == n))
                .map(Kind::Ai),
        }
    }

    /// The kind as records write it.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// Every choice of the menu, in its order: a person, the random mover, each level.
    pub fn all() -> Vec<Kind> {
        let mut v = vec![Kind::Person, Kind::Random];
        v.extend((0..crate::ai::levels::LEVELS.len()).map(Kind::Ai));
        v
    }

    /// A record's player kind (records are checked on reading: an unknown kind never loads).
    pub fn from_record(kind: &str) -> Kind {
        Kind::parse(kind).unwrap_or(Kind::Person)
    }

    /// As the table's panels say it: `person`, `computer (easy)`.
    pub fn label(self) -> String {
        match self {
            Kind::Person => "person".into(),
            Kind::Random => "computer (random)".into(),
            Kind::Ai(l) => format!("computer ({})", crate::ai::levels::LEVELS[l].name),
            Kind::Baseline => "computer (baseline)".into(),
            Kind::Uct(_) => "computer (uct)".into(),
        }
    }

    /// The player that chooses for this kind; none for a person.
    pub fn player(self, seed: u64, threads: usize) -> Option<Box<dyn Player + Send>> {
        Some(match self {
            Kind::Person => return None,
            Kind::Random => Box::new(RandomPlayer::new(seed)),
            Kind::Ai(level) => Box::new(AiPlayer::new(crate::ai::LEVELS[level].on(threads), seed)),
            Kind::Baseline => Box::new(BaselinePlayer::new(seed)),
            Kind::Uct(budget) => Box::new(UctPlayer::new(budget, seed)),
        })
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::ai::uct::Budget;
        match self {
            Kind::Person => f.write_str("human"),
            Kind::Random => f.write_str("computer:random"),
            Kind::Ai(l) => write!(f, "ai:{}", crate::ai::levels::LEVELS[*l].name),
            Kind::Baseline => f.write_str("ai:baseline"),
            Kind::Uct(Budget::Playouts(crate::ai::uct::BUDGET)) => f.write_str("ai:uct"),
            Kind::Uct(Budget::Playouts(n)) => write!(f, "ai:uct:{n}"),
            Kind::Uct(Budget::Time(t)) => write!(f, "ai:uct:{}ms", t.as_millis().max(1)),
        }
    }
}

impl std::str::FromStr for Kind {
    type Err = UnknownPlayer;

    /// A kind as records write it, or `random` for the random mover.
    fn from_str(text: &str) -> Result<Kind, UnknownPlayer> {
        match text {
            "random" => Ok(Kind::Random),
            _ => Kind::parse(text).ok_or_else(|| UnknownPlayer(text.to_string())),
        }
    }
}

impl serde::Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
