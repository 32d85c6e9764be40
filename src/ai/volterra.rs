//! Volterra's search once the pieces are set up: alpha-beta over complete turns, valued by
//! [`towers`] (the final count, tallest first) and each side's mobility. Volterra's play is
//! short and sharp (a turn can end the game at once), where random playouts say little.

use super::eval::{WON, towers};
use super::{Level, Line, share_out};
use crate::rules::volterra::{Volterra, VolterraMove};
use crate::rules::{AnyMove, Game};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// Alpha-beta (negamax) over complete Volterra turns. Turns that lead to the same position
/// (a step and a build in either order often do) are searched once; inner nodes try first the
/// replies that look best. A win counts more the sooner it comes.
pub(super) struct AlphaBeta<'a> {
    positions: u64,
    budget: u64,
    /// Whether the search met a position whose game goes on at the depth it stops (if an
    /// iteration met none, every line it searched ended, and a deeper one would say the same).
    horizon: bool,
    /// Root turns within this many tiles of the best are equally good; the seed picks one.
    near: f64,
    stop: &'a AtomicBool,
}

/// What each complete turn the side to move has is worth, in tiles.
const MOBILITY: f64 = 0.01;
/// Volterra: an iteration is taken to need at least this many times the positions of the one
/// before it.
const GROWTH: f64 = 3.0;
/// Volterra: iterations up to this many turns are always tried (the last that fits the
/// budget decides); deeper ones only when they look likely to fit.
const TRIED: u32 = 4;

impl AlphaBeta<'_> {
    /// The distinct positions after each turn of the side to move, with the turn.
    fn children(g: &Volterra) -> Vec<(VolterraMove, Volterra)> {
        let mut seen: FxHashSet<Volterra> = FxHashSet::default();
        let mut out = Vec::new();
        g.successors(&mut |mv, next| {
            if seen.insert(next.clone()) {
                out.push((mv, next));
            }
        });
        out
    }

    /// The value of `g` for the side to move, `depth` turns ahead; `None` once over budget.
    fn negamax(&mut self, g: &Volterra, depth: u32, mut alpha: f64, beta: f64) -> Option<f64> {
        if self.positions >= self.budget || self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.positions += 1;
        let side = g.side_to_move();
        let finished = || match g.outcome().and_then(|o| o.winner) {
            Some(w) if w == side => WON + depth as f64,
            Some(_) => -WON - depth as f64,
            None => 0.0,
        };
        if depth == 0 {
            let turns = g.count_moves();
            self.horizon |= turns > 0;
            return Some(if turns > 0 { towers(g, side) + MOBILITY * turns as f64 } else { finished() });
        }
        let mut children = Self::children(g);
        if children.is_empty() {
            return Some(finished());
        }
        if depth >= 2 {
            // The replies that look best for us (worst for the opponent) first.
            let mut keyed: Vec<(f64, VolterraMove, Volterra)> =
                children.into_iter().map(|(m, n)| (towers(&n, n.side_to_move()), m, n)).collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            children = keyed.into_iter().map(|(_, m, n)| (m, n)).collect();
        }
        let mut best = f64::NEG_INFINITY;
        for (_, next) in &children {
            let v = -self.negamax(next, depth - 1, -beta, -alpha)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// The values of the root's positions `root` (the opponent to move in each), `depth`
    /// turns ahead, each searched just below the best of them so far; `None` once over budget,
    /// except where `lenient`, where a position over budget gets no value (minus infinity).
    fn values<'g>(&mut self, root: impl Iterator<Item = &'g Volterra>, depth: u32, lenient: bool) -> Option<Vec<f64>> {
        let mut best = f64::NEG_INFINITY;
        let mut values = Vec::new();
        for next in root {
            // A window just below the best so far: turns near it get exact values.
            match self.negamax(next, depth - 1, f64::NEG_INFINITY, -(best - self.near)) {
                Some(v) => {
                    best = best.max(-v);
                    values.push(-v);
                }
                None if lenient => values.push(f64::NEG_INFINITY),
                None => return None,
            }
        }
        Some(values)
    }

    /// Iterative deepening to the level's turns; the deepest iteration that fits the budget
    /// decides, among its turns within `near` of the best, by the seed. On several threads
    /// each iteration's root turns are shared out (turn i to thread i mod threads), each
    /// thread with the whole budget; an iteration counts only if every thread finished it.
    pub(super) fn choose(
        g: &Volterra,
        level: Level,
        near: f64,
        seed: u64,
        stop: &AtomicBool,
    ) -> (Option<VolterraMove>, u64, Vec<Line>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut root: Vec<(f64, VolterraMove, Volterra)> =
            Self::children(g).into_iter().map(|(m, n)| (-towers(&n, n.side_to_move()), m, n)).collect();
        let threads = level.threads.clamp(1, root.len().max(1));
        let mut searchers: Vec<AlphaBeta> = (0..threads)
            .map(|_| AlphaBeta { positions: 0, budget: level.volterra_positions, horizon: false, near, stop })
            .collect();
        let mut decided: Vec<VolterraMove> = Vec::new();
        // Positions the last three iterations took (the most any thread took).
        let mut took: [u64; 3] = [0, 0, 0];
        for depth in 1..=level.plies.max(1) {
            // Past [`TRIED`] turns, an iteration that would not finish within the budget is
            // not begun: it would take the last one's positions times the larger of the last
            // two growths (an odd and an even depth), at least [`GROWTH`].
            let used = searchers.iter().map(|s| s.positions).max().unwrap_or(0);
            if depth > TRIED && took[0] > 0 && !decided.is_empty() {
                let growth = (took[2] as f64 / took[1] as f64).max(took[1] as f64 / took[0] as f64).max(GROWTH);
                if used as f64 + took[2] as f64 * growth > level.volterra_positions as f64 {
                    break;
                }
            }
            root.sort_by(|a, b| b.0.total_cmp(&a.0));
            for s in searchers.iter_mut() {
                s.horizon = false;
            }
            let lenient = decided.is_empty() && depth == 1;
            let shared = share_out(&mut searchers, &root, |ab, share| {
                ab.values(share.into_iter().map(|e| &e.2), depth, lenient)
            });
            let Some(values) = shared else { break };
            let now = searchers.iter().map(|s| s.positions).max().unwrap_or(0);
            took = [took[1], took[2], (now - used).max(1)];
            for (entry, v) in root.iter_mut().zip(values) {
                entry.0 = v;
            }
            let best = root.iter().map(|e| e.0).fold(f64::NEG_INFINITY, f64::max);
            decided = root.iter().filter(|e| e.0 >= best - near).map(|e| e.1).collect();
            // A win found, or every line searched to the game's end: deeper says no more.
            if best >= WON || !searchers.iter().any(|s| s.horizon) {
                break;
            }
        }
        if decided.is_empty() {
            decided = root.iter().map(|e| e.1).collect();
        }
        let mv = (!decided.is_empty()).then(|| decided[rng.random_range(0..decided.len())]);
        // The root's turns by their value in the deepest iteration, in tiles, as a chance.
        root.sort_by(|a, b| b.0.total_cmp(&a.0));
        let lines = root
            .iter()
            .filter(|e| e.0.is_finite())
            .map(|e| Line {
                mv: AnyMove::Volterra(e.1),
                score: 1.0 / (1.0 + (-e.0.clamp(-50.0, 50.0)).exp()),
                pv: vec![AnyMove::Volterra(e.1)],
                work: 0,
            })
            .collect();
        (mv, searchers.iter().map(|s| s.positions).sum(), lines)
    }
}
