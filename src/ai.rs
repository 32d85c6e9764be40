//! Computer opponents: Monte Carlo tree search (UCT) over the shared game trait, with
//! playouts cut off at a depth and scored by a per-game evaluation. Levels are fixed playout
//! budgets, so a level plays the same for a given seed on any machine. A CTOR player decides
//! from its own team's view only.

use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A named strength: how many playouts a move gets, and how deep each one goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub playouts: u32,
    pub depth: u32,
}

/// The levels, weakest first.
pub const LEVELS: [Level; 4] = [
    Level { name: "easy", playouts: 48, depth: 16 },
    Level { name: "medium", playouts: 192, depth: 24 },
    Level { name: "hard", playouts: 768, depth: 32 },
    Level { name: "master", playouts: 2048, depth: 40 },
];

pub fn level(name: &str) -> Option<Level> {
    LEVELS.iter().copied().find(|l| l.name == name)
}

/// The moves the search considers: all of them, except CTOR's Landings, of which a seeded
/// sample (they can number tens of thousands and rarely differ much).
fn candidates(game: &AnyGame, rng: &mut StdRng) -> Vec<AnyMove> {
    match game {
        AnyGame::Ctor(g) => {
            let mut moves: Vec<AnyMove> = g.moves_without_landings().into_iter().map(AnyMove::Ctor).collect();
            for _ in 0..24 {
                if let Some(l) = g.random_landing(rng)
                    && !moves.contains(&AnyMove::Ctor(l))
                {
                    moves.push(AnyMove::Ctor(l));
                }
            }
            moves
        }
        _ => game.legal_moves(),
    }
}

/// A quick guess of how good the position is for `side`, in [0, 1].
pub fn evaluate(game: &AnyGame, side: Side) -> f64 {
    if let Some(o) = game.outcome() {
        return match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let other = side.other();
    let score = match game {
        AnyGame::Ordo(g) => {
            let advance = |s: Side| {
                let bb = g.pieces(s);
                let mut best = 0i32;
                for sq in 0..80u32 {
                    if bb >> sq & 1 == 1 {
                        let rank = (sq / 10) as i32;
                        best = best.max(if s == Side::First { rank } else { 7 - rank });
                    }
                }
                best
            };
            0.25 * (g.pieces(side).count_ones() as f64 - g.pieces(other).count_ones() as f64)
                + 0.4 * (advance(side) - advance(other)) as f64
        }
        AnyGame::Crossings(g) => {
            let advance = |s: Side| {
                let bb = g.stones(s);
                (0..64u32)
                    .filter(|sq| bb >> sq & 1 == 1)
                    .map(|sq| if s == Side::First { sq / 8 } else { 7 - sq / 8 } as f64)
                    .sum::<f64>()
            };
            1.5 * (g.crossed(side) as f64 - g.crossed(other) as f64)
                + 0.3 * (g.stones(side).count_ones() as f64 - g.stones(other).count_ones() as f64)
                + 0.05 * (advance(side) - advance(other))
        }
        AnyGame::Volterra(g) => {
            let weight = |s: Side| g.heights(s).iter().map(|h| (*h as f64).powi(2)).sum::<f64>();
            0.15 * (weight(side) - weight(other))
        }
        AnyGame::Ctor(g) => 0.15 * (g.count(side) as f64 - g.count(other) as f64),
    };
    1.0 / (1.0 + (-score).exp())
}

struct Node {
    mv: Option<AnyMove>,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<AnyMove>,
    visits: u32,
    /// Total value for the side that made the move into this node.
    value: f64,
    mover: Side,
}

/// The move the computer plays at `level`, from `seed`. For CTOR only the mover's own view
/// of the game is used: the opponent's unrevealed secret squares are not seen.
pub fn choose(game: &AnyGame, level: Level, seed: u64) -> Option<AnyMove> {
    let game = match game {
        AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
        other => other.clone(),
    };
    if game.outcome().is_some() {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let root_moves = candidates(&game, &mut rng);
    if root_moves.len() == 1 {
        return root_moves.into_iter().next();
    }
    let mut nodes = vec![Node {
        mv: None,
        parent: None,
        children: Vec::new(),
        untried: root_moves,
        visits: 0,
        value: 0.0,
        mover: game.side_to_move().other(),
    }];
    for _ in 0..level.playouts {
        let mut state = game.clone();
        let mut at = 0;
        // Selection: descend by UCT while the node is fully expanded.
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            let ln = (nodes[at].visits.max(1) as f64).ln();
            at = *nodes[at]
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb =
                        |i: usize| nodes[i].value / nodes[i].visits as f64 + 1.2 * (ln / nodes[i].visits as f64).sqrt();
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("a node with children");
            state.play_unchecked(nodes[at].mv.as_ref().expect("a child has a move"));
        }
        // Expansion.
        if !nodes[at].untried.is_empty() {
            let i = rng.random_range(0..nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(i);
            let mover = state.side_to_move();
            state.play_unchecked(&mv);
            let untried = if state.outcome().is_some() { Vec::new() } else { candidates(&state, &mut rng) };
            nodes.push(Node {
                mv: Some(mv),
                parent: Some(at),
                children: Vec::new(),
                untried,
                visits: 0,
                value: 0.0,
                mover,
            });
            let child = nodes.len() - 1;
            nodes[at].children.push(child);
            at = child;
        }
        // Playout, cut off at the level's depth; it ends where no move is left.
        for _ in 0..level.depth {
            let Some(mv) = state.random_move(&mut rng) else { break };
            state.play_unchecked(&mv);
        }
        let first_value = evaluate(&state, Side::First);
        // Backpropagation.
        let mut node = Some(at);
        while let Some(i) = node {
            nodes[i].visits += 1;
            nodes[i].value += if nodes[i].mover == Side::First { first_value } else { 1.0 - first_value };
            node = nodes[i].parent;
        }
    }
    nodes[0].children.iter().max_by_key(|&&c| nodes[c].visits).and_then(|&c| nodes[c].mv.clone())
}

/// The cells a move changes, for showing a hint.
pub fn hint_cells(game: &AnyGame, mv: &AnyMove) -> Vec<Cell> {
    (0..mv.parts().len())
        .flat_map(|k| game.move_paths(mv, k))
        .flat_map(|(a, b)| [a, b])
        .chain(game.click_cell(mv))
        .collect()
}
