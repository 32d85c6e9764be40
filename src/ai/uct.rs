//! `ai:uct`: a standard UCT player, the kind of Monte Carlo tree search robot game sites deploy,
//! kept as a sparring partner for the levels (like `ai:baseline`), not a level of the menu.
//! Plain UCB1 selection with exploration [`EXPLORATION`], one expansion a playout, uniformly
//! random playouts cut after [`CUTOFF`] plies and scored by each game's material and advance
//! (the baseline's [`super::eval::baseline`], squashed to 0..1), and a budget of playout moves
//! (the plies played in playouts, [`BUDGET`] unless asked) or of time. Nothing of master's: no
//! guard, no evaluation weights, no table between moves. CTOR's Landings (tens of thousands) are
//! sampled, as everywhere in tablero.

use super::eval::baseline;
use super::tree::{back, expand, root, select};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::{Duration, Instant};

/// UCB1's exploration constant.
pub const EXPLORATION: f64 = 0.75;
/// Plies a playout is played before it is scored.
pub const CUTOFF: usize = 99;
/// Playout moves a move, unless asked.
pub const BUDGET: u64 = 550_000;

/// What the search may spend on a move: playout moves, or time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Playouts(u64),
    Time(Duration),
}

impl Budget {
    /// `ai:uct` (the default), `ai:uct:N` (N playout moves), `ai:uct:Ns` or `ai:uct:Nms` (time).
    pub fn parse(name: &str) -> Option<Budget> {
        let rest = name.strip_prefix("ai:uct")?;
        if rest.is_empty() {
            return Some(Budget::Playouts(BUDGET));
        }
        let n = rest.strip_prefix(':')?;
        if let Some(ms) = n.strip_suffix("ms") {
            return ms.parse().ok().filter(|m| *m > 0).map(|m| Budget::Time(Duration::from_millis(m)));
        }
        if let Some(s) = n.strip_suffix('s') {
            return s
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0 && *s < 1e6)
                .map(|s| Budget::Time(Duration::from_secs_f64(s)));
        }
        n.parse().ok().filter(|n| *n > 0).map(Budget::Playouts)
    }
}

/// The moves a node offers: every legal move, CTOR's Landings a seeded sample.
fn moves(game: &AnyGame, rng: &mut StdRng) -> Vec<AnyMove> {
    match game {
        AnyGame::Ctor(g) => {
            let mut out: Vec<AnyMove> = g.moves_without_landings().into_iter().map(AnyMove::Ctor).collect();
            for _ in 0..16 {
                if let Some(l) = g.random_landing(rng).map(AnyMove::Ctor)
                    && !out.contains(&l)
                {
                    out.push(l);
                }
            }
            out
        }
        _ => game.legal_moves(),
    }
}

/// A position's score for `side`, 0 to 1: the result if the game is over, else its material
/// and advance against the opponent's, squashed.
fn score(game: &AnyGame, side: Side) -> f64 {
    if let Some(o) = game.outcome() {
        return match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    1.0 / (1.0 + (-baseline(game, side)).exp())
}

/// The move UCT chooses, and the playout moves it played, from `seed`: the same position,
/// budget of playout moves and seed give the same move on any machine.
pub fn choose(game: &AnyGame, budget: Budget, seed: u64) -> (Option<AnyMove>, u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    if game.outcome().is_some() {
        return (None, 0);
    }
    let root_moves = moves(game, &mut rng);
    if root_moves.len() <= 1 {
        return (root_moves.into_iter().next(), 0);
    }
    let mut nodes = root(game, root_moves);
    let started = Instant::now();
    let mut spent = 0u64;
    let mut playouts = 0u64;
    loop {
        let over = match budget {
            Budget::Playouts(n) => spent >= n,
            // The clock is read every 64 playouts.
            Budget::Time(t) => playouts % 64 == 0 && started.elapsed() >= t,
        };
        if over && playouts > 0 {
            break;
        }
        playouts += 1;
        let mut state = game.clone();
        let at = select(&nodes, &mut state, EXPLORATION);
        let at = expand(&mut nodes, at, &mut state, &mut rng, moves);
        // Playout: random moves, cut after CUTOFF plies.
        let mut plies = 0;
        while plies < CUTOFF && state.outcome().is_none() {
            let Some(mv) = state.random_move(&mut rng) else { break };
            state.play_unchecked(&mv);
            plies += 1;
        }
        // (A playout from an ended game counts as one move, so that a budget always ends.)
        spent += plies.max(1) as u64;
        back(&mut nodes, at, score(&state, Side::First));
    }
    // The root's most visited move (ties: the first tried).
    let best = nodes[0].children.iter().copied().max_by_key(|&c| (nodes[c].visits, std::cmp::Reverse(c)));
    (best.and_then(|c| nodes[c].mv.clone()), spent)
}
