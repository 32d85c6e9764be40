//! The tree both Monte Carlo searches grow (the levels' in `mcts`, the sparring partner's in
//! `uct`): its nodes, UCB1's descent, the expansion of one move and the backpropagation.

use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::Rng;
use rand::rngs::StdRng;

pub(super) struct Node {
    pub(super) mv: Option<AnyMove>,
    pub(super) parent: Option<usize>,
    pub(super) children: Vec<usize>,
    pub(super) untried: Vec<AnyMove>,
    pub(super) visits: u32,
    /// Total value for the side that made the move into this node.
    pub(super) value: f64,
    pub(super) mover: Side,
}

/// A tree of one node, the root of `game` with its moves to try.
pub(super) fn root(game: &AnyGame, untried: Vec<AnyMove>) -> Vec<Node> {
    vec![Node {
        mv: None,
        parent: None,
        children: Vec::new(),
        untried,
        visits: 0,
        value: 0.0,
        mover: game.side_to_move().other(),
    }]
}

/// Selection: from the root down by UCB1 (exploration `c`) while a node is fully expanded,
/// playing the moves on `state`; the node reached.
pub(super) fn select(nodes: &[Node], state: &mut AnyGame, c: f64) -> usize {
    let mut at = 0;
    while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
        let ln = (nodes[at].visits.max(1) as f64).ln();
        at = *nodes[at]
            .children
            .iter()
            .max_by(|&&a, &&b| {
                let ucb = |i: usize| nodes[i].value / nodes[i].visits as f64 + c * (ln / nodes[i].visits as f64).sqrt();
                ucb(a).total_cmp(&ucb(b))
            })
            .expect("a node with children");
        state.play_unchecked(nodes[at].mv.as_ref().expect("a child has a move"));
    }
    at
}

/// Expansion: one of the node's untried moves, drawn at random, played on `state` and added
/// with the moves `moves` offers after it (none once the game is over); the node added, or
/// `at` itself when it has nothing left to try.
pub(super) fn expand(
    nodes: &mut Vec<Node>,
    at: usize,
    state: &mut AnyGame,
    rng: &mut StdRng,
    moves: impl FnOnce(&AnyGame, &mut StdRng) -> Vec<AnyMove>,
) -> usize {
    if nodes[at].untried.is_empty() {
        return at;
    }
    let i = rng.random_range(0..nodes[at].untried.len());
    let mv = nodes[at].untried.swap_remove(i);
    let mover = state.side_to_move();
    state.play_unchecked(&mv);
    let untried = if state.outcome().is_some() { Vec::new() } else { moves(state, rng) };
    nodes.push(Node { mv: Some(mv), parent: Some(at), children: Vec::new(), untried, visits: 0, value: 0.0, mover });
    let child = nodes.len() - 1;
    nodes[at].children.push(child);
    child
}

/// Backpropagation: a playout's value for the first side, from `at` up to the root, each node
/// credited for the side that moved into it.
pub(super) fn back(nodes: &mut [Node], at: usize, first_value: f64) {
    let mut node = Some(at);
    while let Some(i) = node {
        nodes[i].visits += 1;
        nodes[i].value += if nodes[i].mover == Side::First { first_value } else { 1.0 - first_value };
        node = nodes[i].parent;
    }
}
