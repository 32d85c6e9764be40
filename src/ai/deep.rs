//! Master's search in Ordo Classic and Crossings: a full-width alpha-beta (negamax) over the
//! rules, deepened one move at a time within a budget of positions, with a transposition
//! table, the best-looking moves tried first, and captures searched on past the horizon
//! (a quiescence search), so that it sees every trap a shallower search walks into.
//!
//! Values are in stones, for the side to move. A finished game counts more than any
//! evaluation, a win sooner more than a win later. Root moves within a sliver of the best (wider
//! in the opening: [`super::opening_slack`]) are played alike, the seed choosing, so games differ
//! from seed to seed; the search itself does
//! not depend on time, so a level plays the same for a seed on any machine.

use super::eval::{WON, in_stones};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the search found: the move, the positions it looked at, and each root move with its
/// value in the deepest finished iteration, in stones for the mover, and the line it expects
/// (the best first).
pub struct Found {
    pub mv: Option<AnyMove>,
    pub positions: u64,
    pub lines: Vec<(AnyMove, f64, Vec<AnyMove>)>,
}

/// How good a child looks for ordering: a win at once first, then the evaluation.
fn order(next: &AnyGame, side: Side) -> f64 {
    let goal = match next {
        AnyGame::Ordo(g) => {
            let row: u128 = if side == Side::First { 0x3FF << 70 } else { 0x3FF };
            g.pieces(side) & row != 0
        }
        _ => false,
    };
    if goal { WON } else { in_stones(next, side) }
}

/// A move the quiescence search follows: a capture, or a stone reaching the goal row.
fn tactical(game: &AnyGame, mv: &AnyMove) -> bool {
    match mv {
        AnyMove::Ordo(m) => m.steps().any(|s| {
            let rank = s.to / 10;
            s.capture
                || (game.side_to_move() == Side::First && rank == 7)
                || (game.side_to_move() == Side::Second && rank == 0)
        }),
        AnyMove::Crossings(m) => m.capture,
        _ => false,
    }
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    best: u16,
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

struct Searcher<'a> {
    positions: u64,
    budget: u64,
    stop: &'a AtomicBool,
    table: HashMap<u64, Entry>,
}

impl Searcher<'_> {
    fn key(game: &AnyGame) -> u64 {
        let mix = |a: u64, b: u64| {
            (a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(27).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        };
        match game {
            AnyGame::Ordo(g) => mix(
                mix(
                    g.pieces(Side::First) as u64,
                    (g.pieces(Side::First) >> 64) as u64 ^ ((g.side_to_move() as u64) << 40),
                ),
                mix(g.pieces(Side::Second) as u64, (g.pieces(Side::Second) >> 64) as u64),
            ),
            AnyGame::Crossings(g) => mix(
                mix(g.stones(Side::First), g.side_to_move() as u64 | (g.quiet() as u64) << 8),
                g.stones(Side::Second),
            ),
            other => {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                other.to_string().hash(&mut h);
                h.finish()
            }
        }
    }

    fn over(&self) -> bool {
        self.positions >= self.budget || self.stop.load(Ordering::Relaxed)
    }

    /// A finished game's value for the side to move, `ply` moves from the root.
    fn finished(game: &AnyGame, ply: u32) -> Option<f64> {
        let o = game.outcome()?;
        let side = game.side_to_move();
        Some(match o.winner {
            Some(w) if w == side => WON - ply as f64,
            Some(_) => -WON + ply as f64,
            None => 0.0,
        })
    }

    /// Counts a position searched: its legal moves, or its value if the game is over there;
    /// `None` once over budget or stopped.
    fn visit(&mut self, game: &AnyGame, ply: u32) -> Option<Result<Vec<AnyMove>, f64>> {
        if self.over() {
            return None;
        }
        self.positions += 1;
        let moves = game.legal_moves();
        Some(if moves.is_empty() { Err(Self::finished(game, ply).unwrap_or(0.0)) } else { Ok(moves) })
    }

    /// Captures (and moves that reach the goal row) searched on until the position is quiet;
    /// the side to move may also stand pat.
    fn quiesce(&mut self, game: &AnyGame, mut alpha: f64, beta: f64, ply: u32, left: u32) -> Option<f64> {
        let moves = match self.visit(game, ply)? {
            Ok(moves) => moves,
            Err(over) => return Some(over),
        };
        let stand = in_stones(game, game.side_to_move());
        if left == 0 || stand >= beta {
            return Some(stand);
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for mv in moves.iter().filter(|m| tactical(game, m)) {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = -self.quiesce(&next, -beta, -alpha, ply + 1, left - 1)?;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    fn negamax(&mut self, game: &AnyGame, depth: u32, mut alpha: f64, mut beta: f64, ply: u32) -> Option<f64> {
        if depth == 0 {
            return self.quiesce(game, alpha, beta, ply, 4);
        }
        let moves = match self.visit(game, ply)? {
            Ok(moves) => moves,
            Err(over) => return Some(over),
        };
        let key = Self::key(game);
        let mut first = None;
        if let Some(e) = self.table.get(&key) {
            first = Some(e.best as usize);
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return Some(e.value),
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return Some(e.value);
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let side = game.side_to_move();
        let mut children: Vec<(f64, usize, AnyGame)> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let mut next = game.clone();
                next.play_unchecked(mv);
                let key = if Some(i) == first { f64::INFINITY } else { order(&next, side) };
                (key, i, next)
            })
            .collect();
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut best = f64::NEG_INFINITY;
        let mut best_i = 0;
        for (_, i, next) in &children {
            let v = -self.negamax(next, depth - 1, -beta, -alpha, ply + 1)?;
            if v > best {
                best = v;
                best_i = *i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // Values of wins depend on the ply they are found at: keep them out of the table.
        if best.abs() < WON / 2.0 {
            self.table.insert(key, Entry { depth, value: best, bound, best: best_i as u16 });
        }
        Some(best)
    }
}

/// The principal line after a root move, as the table remembers it: the move, then each
/// position's best reply, up to `depth` moves.
fn principal(searcher: &Searcher, mv: &AnyMove, next: &AnyGame, depth: u32) -> Vec<AnyMove> {
    let mut pv = vec![mv.clone()];
    let mut at = next.clone();
    while (pv.len() as u32) < depth.max(1) {
        let Some(e) = searcher.table.get(&Searcher::key(&at)) else { break };
        let Some(reply) = at.legal_moves().into_iter().nth(e.best as usize) else { break };
        at.play_unchecked(&reply);
        pv.push(reply);
    }
    pv
}

/// One thread's values of its share of the root moves at one depth, each exact from just
/// below the best of the share so far (`near` below it) and at most that below; `None` once
/// over budget or stopped.
fn share<'g>(
    searcher: &mut Searcher,
    moves: impl Iterator<Item = &'g (f64, u64, AnyMove, AnyGame)>,
    depth: u32,
    near: f64,
) -> Option<Vec<f64>> {
    let mut best = f64::NEG_INFINITY;
    let mut values = Vec::new();
    for (_, _, _, next) in moves {
        let floor = best - near - 1e-9;
        let v = -searcher.negamax(next, depth - 1, f64::NEG_INFINITY, -floor, 1)?;
        best = best.max(v);
        values.push(v);
    }
    Some(values)
}

/// The move the search plays: iterative deepening to `depth` moves within `budget` positions
/// (an iteration that would pass it is dropped, and the last finished one decides), among the
/// root moves within `near` stones of the best, by the seed. On several `threads` each
/// iteration's root moves are shared out (move i to thread i mod threads), each thread with
/// its own table and the whole budget; an iteration counts only if every thread finished it,
/// so the move depends on the seed and the number of threads, never on timing.
pub fn choose(
    game: &AnyGame,
    depth: u32,
    budget: u64,
    near: f64,
    threads: usize,
    seed: u64,
    stop: &AtomicBool,
) -> Found {
    let mut rng = StdRng::seed_from_u64(seed);
    let side = game.side_to_move();
    // Root moves with a seeded key that orders equals differently from seed to seed.
    let mut root: Vec<(f64, u64, AnyMove, AnyGame)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            (order(&next, side), rng.random::<u64>(), mv, next)
        })
        .collect();
    let threads = threads.clamp(1, root.len().max(1));
    let mut searchers: Vec<Searcher> =
        (0..threads).map(|_| Searcher { positions: 0, budget, stop, table: HashMap::new() }).collect();
    let mut done = 0;
    let mut decided: Vec<AnyMove> = Vec::new();
    for d in 1..=depth.max(1) {
        if root.len() <= 1 {
            break;
        }
        root.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        let shared = super::share_out(&mut searchers, &root, |s, moves| share(s, moves.into_iter(), d, near));
        let Some(values) = shared else { break };
        for (entry, v) in root.iter_mut().zip(values) {
            entry.0 = v;
        }
        done = d;
        let best = root.iter().map(|e| e.0).fold(f64::NEG_INFINITY, f64::max);
        decided = root.iter().filter(|e| e.0 >= best - near - 1e-9).map(|e| e.2.clone()).collect();
        // A win or a loss that cannot be avoided needs no deeper look.
        if best.abs() >= WON / 2.0 {
            break;
        }
    }
    let mv = if decided.is_empty() {
        root.iter().max_by(|a, b| a.0.total_cmp(&b.0)).map(|e| e.2.clone())
    } else {
        Some(decided[rng.random_range(0..decided.len())].clone())
    };
    // The root moves by their value in the deepest iteration (below the best, only a bound),
    // each with its line from the table of the thread that searched it.
    let order_of: Vec<usize> = {
        let mut idx: Vec<usize> = (0..root.len()).collect();
        idx.sort_by(|&a, &b| root[b].0.total_cmp(&root[a].0).then(root[b].1.cmp(&root[a].1)));
        idx
    };
    let lines = order_of
        .into_iter()
        .map(|i| {
            let (v, _, mv, next) = &root[i];
            let pv = if done > 0 { principal(&searchers[i % threads], mv, next, done) } else { vec![mv.clone()] };
            (mv.clone(), *v, pv)
        })
        .collect();
    Found { mv, positions: searchers.iter().map(|s| s.positions).sum(), lines }
}
