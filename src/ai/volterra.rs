//! Volterra's search once the pieces are set up: alpha-beta over complete turns, valued by
//! [`towers`] (the final count, tallest first), with a table of the positions searched.
//! Volterra's play is short and sharp (a turn can end the game at once), where random
//! playouts say little.

use super::eval::{WON, towers};
use super::{Level, Line, share_out};
use crate::rules::volterra::{Volterra, VolterraMove};
use crate::rules::{AnyMove, Game};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::{FxHashSet, FxHasher};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

/// What the search learnt of a position: its value `depth` turns ahead, whether that value is
/// exact or a bound, the best turn found (searched first when the position comes again, in a
/// deeper iteration or by another order of turns), and whether some line under it went on past
/// the depth.
#[derive(Clone, Copy)]
struct Known {
    key: u64,
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<VolterraMove>,
    open: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least the value (the search was cut off above it).
    Lower,
    /// At most the value (no turn reached the window).
    Upper,
}

/// Slots of the table of positions of each searching thread (a position in one slot, by its
/// hash; a deeper search replaces a shallower one): at most 2^18 slots of 48 bytes, 12 MB.
const SLOTS: usize = 1 << 18;

/// A position's 64-bit hash, its key in the table.
fn key_of(g: &Volterra) -> u64 {
    let mut h = FxHasher::default();
    g.hash(&mut h);
    h.finish()
}

/// A value found `from` turns ahead, seen `to` turns ahead: a win or loss that comes k turns
/// later counts `WON + depth left at it`, so it moves with the depth.
fn moved(v: f64, from: u32, to: u32) -> f64 {
    let shift = to as f64 - from as f64;
    if v > WON / 2.0 {
        v + shift
    } else if v < -WON / 2.0 {
        v - shift
    } else {
        v
    }
}

/// Alpha-beta (negamax) over complete Volterra turns. Turns that lead to the same position
/// (a step and a build in either order often do) are searched once; inner nodes try first the
/// turn a table of positions kept from earlier iterations names, then the two that last cut
/// the search off at that depth, then the replies that look best; every turn after the first
/// gets a null window first (searched again only where it may be better). A win counts more
/// the sooner it comes.
pub(super) struct AlphaBeta<'a> {
    positions: u64,
    budget: u64,
    /// Whether the search met a position whose game goes on at the depth it stops (if an
    /// iteration met none, every line it searched ended, and a deeper one would say the same).
    horizon: bool,
    /// Root turns within this many tiles of the best are equally good; the seed picks one.
    near: f64,
    stop: &'a AtomicBool,
    /// Positions already searched (see [`Known`]).
    known: Vec<Option<Known>>,
    /// Whether a leaf counts the turns of the side to move (see [`MOBILITY`]).
    mobility: bool,
    /// At each depth, the last two turns that cut the search off there, tried early.
    killers: [[Option<VolterraMove>; 2]; KILLER_DEPTHS],
}

/// Depths that keep their killer turns (deeper than any iteration).
const KILLER_DEPTHS: usize = 32;

/// What each complete turn of the side to move at a leaf is worth, in tiles, for the levels
/// that look at most [`SHALLOW`] turns ahead.
const MOBILITY: f64 = 0.01;
/// Levels that look this many turns ahead or fewer weigh the turns at their leaves: they
/// cannot see the game end coming, and a side with few turns is near it.
const SHALLOW: u32 = 2;

/// The null window's width, in tiles: below any difference of two values.
const NULL: f64 = 1e-7;

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
        crate::background::pause_point();
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
            // Whether the game goes on, not how many turns it has: counting them all costs as
            // much as searching a turn deeper, which is worth more where the level goes deeper.
            if self.mobility {
                let turns = g.count_moves();
                self.horizon |= turns > 0;
                return Some(if turns > 0 { towers(g, side) + MOBILITY * turns as f64 } else { finished() });
            }
            let open = g.has_turn();
            self.horizon |= open;
            return Some(if open { towers(g, side) } else { finished() });
        }
        let key = key_of(g);
        let slot = key as usize % self.known.len();
        let mut first = None;
        if let Some(k) = self.known[slot].filter(|k| k.key == key) {
            first = k.best;
            if k.depth >= depth {
                let v = moved(k.value, k.depth, depth);
                let fits = match k.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if fits {
                    self.horizon |= k.open;
                    return Some(v);
                }
            }
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
        // The best turn of an earlier search of this position first.
        if let Some(at) = first.and_then(|m| children.iter().position(|c| c.0 == m)) {
            children[..=at].rotate_right(1);
        }
        // Then the turns that last cut the search off at this depth.
        let skip = usize::from(first.is_some());
        if (depth as usize) < KILLER_DEPTHS {
            for killer in self.killers[depth as usize].into_iter().flatten() {
                if let Some(at) = children.iter().skip(skip).position(|c| c.0 == killer) {
                    children[skip..=skip + at].rotate_right(1);
                }
            }
        }
        let outer = std::mem::replace(&mut self.horizon, false);
        let alpha0 = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        for (i, (mv, next)) in children.iter().enumerate() {
            let searched = if i > 0 {
                // A null window: is this turn better than the best so far? Searched again
                // with the whole window only where it is.
                match self.negamax(next, depth - 1, -alpha - NULL, -alpha) {
                    Some(v) if -v > alpha && -v < beta => self.negamax(next, depth - 1, -beta, -alpha),
                    other => other,
                }
            } else {
                self.negamax(next, depth - 1, -beta, -alpha)
            };
            let Some(v) = searched else {
                self.horizon |= outer;
                return None;
            };
            let v = -v;
            if v > best {
                best = v;
                best_move = Some(*mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                if (depth as usize) < KILLER_DEPTHS {
                    let k = &mut self.killers[depth as usize];
                    if k[0] != Some(*mv) {
                        k[1] = k[0];
                        k[0] = Some(*mv);
                    }
                }
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let open = self.horizon;
        self.horizon |= outer;
        if self.known[slot].is_none_or(|k| k.key == key || k.depth <= depth) {
            self.known[slot] = Some(Known { key, depth, value: best, bound, best: best_move, open });
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
        // A slot for every eight positions of the budget, at most [`SLOTS`].
        let slots = (level.volterra_positions / 8).next_power_of_two().clamp(1024, SLOTS as u64) as usize;
        let mut searchers: Vec<AlphaBeta> = (0..threads)
            .map(|_| AlphaBeta {
                positions: 0,
                budget: level.volterra_positions,
                horizon: false,
                near,
                stop,
                known: vec![None; slots],
                killers: [[None; 2]; KILLER_DEPTHS],
                mobility: level.plies <= SHALLOW,
            })
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
