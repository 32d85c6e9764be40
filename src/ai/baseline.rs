//! `ai:baseline`: the yardstick the computer's levels are measured against, not a level the
//! menu offers. It is the design of the best public Ordo robot that can be run: plain
//! minimax with alpha-beta pruning, two moves deep (in Ordo, Ordo X, Crossings and Volterra a
//! move is a whole turn; in CTOR, whose turns are several operations, two operations), and an
//! evaluation of material and how far the pieces have advanced on average:
//!
//! - Ordo and Ordo X: stones, and the average rank of the stones counted from their own home
//!   row;
//! - Crossings: stones, stones that crossed (each worth three), and the average advance;
//! - Volterra (the nearest equivalent of material): the tiles under each side's towers, and
//!   its tallest tower;
//! - CTOR: discs on the field; its Landings (tens of thousands a position) are left out, as a
//!   plain search could not afford them: Puts, Moves and the end of the turn.
//!
//! A finished game counts more than any evaluation, a win sooner more than a win later. Moves
//! of equal value are told apart by the seed, so that games with different seeds differ; the
//! order in which moves are tried (the best-looking first at the root) changes only the speed,
//! never the move chosen.

use super::eval::{WON, baseline as evaluate};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Moves ahead.
pub const DEPTH: u32 = 2;

/// The baseline's move, from `seed` (for CTOR from the mover's own view only).
pub fn choose(game: &AnyGame, seed: u64) -> Option<AnyMove> {
    let game = match game {
        AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
        other => other.clone(),
    };
    if game.outcome().is_some() {
        return None;
    }
    let me = game.side_to_move();
    let mut rng = StdRng::seed_from_u64(seed);
    // Root moves, the best-looking first (only for speed: alpha-beta's value does not depend
    // on the order), each with a random key that breaks ties.
    let mut root: Vec<(f64, u64, AnyMove, AnyGame)> = moves(&game)
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            (evaluate(&next, me), rng.random::<u64>(), mv, next)
        })
        .collect();
    root.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<(f64, u64, AnyMove)> = None;
    let mut alpha = f64::NEG_INFINITY;
    for (_, key, mv, next) in root {
        let v = minimax(&next, DEPTH - 1, alpha, f64::INFINITY, me);
        let better = match &best {
            None => true,
            Some((bv, bk, _)) => v > *bv || (v == *bv && key > *bk),
        };
        if better {
            best = Some((v, key, mv));
        }
        // Equal values must still be searched exactly for the seed's tie-break: prune only
        // what is strictly worse.
        alpha = alpha.max(v - 1e-9);
    }
    best.map(|(_, _, mv)| mv)
}

/// The moves the baseline considers: every legal move, but CTOR's Landings.
fn moves(game: &AnyGame) -> Vec<AnyMove> {
    match game {
        AnyGame::Ctor(g) => g.moves_without_landings().into_iter().map(AnyMove::Ctor).collect(),
        other => other.legal_moves(),
    }
}

/// The value for `me` of `game` searched `depth` more moves, as the baseline sees it, where
/// only values from `floor` up matter: below it the answer is some value below it (found
/// sooner).
pub fn value_above(game: &AnyGame, depth: u32, me: Side, floor: f64) -> f64 {
    minimax(game, depth, floor, f64::INFINITY, me)
}

/// The value for `me` of `game` searched `depth` more moves (whoever moves), alpha-beta.
fn minimax(game: &AnyGame, depth: u32, mut alpha: f64, mut beta: f64, me: Side) -> f64 {
    if depth == 0 || game.outcome().is_some() {
        let v = evaluate(game, me);
        // A win sooner is worth more than a win later (and a loss later less bad).
        return if v.abs() >= WON { v * (1.0 + depth as f64 * 0.01) } else { v };
    }
    let maximising = game.side_to_move() == me;
    let mut value = if maximising { f64::NEG_INFINITY } else { f64::INFINITY };
    for mv in moves(game) {
        let mut next = game.clone();
        next.play_unchecked(&mv);
        let v = minimax(&next, depth - 1, alpha, beta, me);
        if maximising {
            value = value.max(v);
            alpha = alpha.max(v);
        } else {
            value = value.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    value
}
