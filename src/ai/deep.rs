//! Master's search in Ordo Classic and Crossings: a full-width alpha-beta (negamax) over the
//! rules, deepened one move at a time within a budget of positions that grows where the
//! position needs it (to finish the level's depth) and past that depth where the next
//! iteration is likely to fit (a thinned board), with a transposition table, the
//! best-looking moves tried first (the table's, then killer moves), a null window after the
//! first reply (principal variation search), and captures searched on past the horizon (a
//! quiescence search that never stands pat on a cut Ordo group or on an opponent's stone free
//! to reach the goal row), so that it sees every trap a shallower search walks into.
//!
//! Values are in stones, for the side to move. A finished game counts more than any
//! evaluation, a win sooner more than a win later. Root moves within a sliver of the best (wider
//! in the opening: [`super::opening_slack`]) are played alike, the seed choosing, so games differ
//! from seed to seed; the search itself does
//! not depend on time, so a level plays the same for a seed on any machine.

use super::eval::{Cuts, WON, in_stones};
use crate::rules::ordo::{Rules, Step};
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

/// How good a child looks for ordering: a win at once first, then the evaluation (`weigh`,
/// [`in_stones`] or the search's kept values of it).
fn order(next: &AnyGame, side: Side, weigh: impl FnOnce(&AnyGame, Side) -> f64) -> f64 {
    let goal = match next {
        AnyGame::Ordo(g) => {
            let row: u128 = if side == Side::First { 0x3FF << 70 } else { 0x3FF };
            g.pieces(side) & row != 0
        }
        _ => false,
    };
    if goal { WON } else { weigh(next, side) }
}

/// A move the quiescence search follows: a capture, or a stone reaching the goal row.
fn tactical(game: &AnyGame, mv: &AnyMove) -> bool {
    match mv {
        AnyMove::Ordo(m) => m.steps().any(|s| tactical_step(game.side_to_move(), s)),
        AnyMove::Crossings(m) => m.capture,
        _ => false,
    }
}

/// An Ordo step the quiescence search follows for `side`: a capture, or onto the goal row.
fn tactical_step(side: Side, s: &Step) -> bool {
    let rank = s.to / 10;
    s.capture || (side == Side::First && rank == 7) || (side == Side::Second && rank == 0)
}

/// The moves the quiescence search follows from `game`: every legal move where the side to move
/// is [`pressed`], else the [`tactical`] ones, in the order of the legal moves (`listed`, where
/// the caller has them). In Ordo Classic only the moves kept are checked for the connection
/// rule, the costly part of listing them.
fn quiet_moves(game: &AnyGame, forced: bool, listed: Option<Vec<AnyMove>>) -> Vec<AnyMove> {
    match (game, listed) {
        (_, Some(moves)) => moves.into_iter().filter(|m| forced || tactical(game, m)).collect(),
        (AnyGame::Ordo(g), None) if g.rules() == Rules::Classic => {
            let side = g.side_to_move();
            g.moves_where(|s| forced || tactical_step(side, s)).into_iter().map(AnyMove::Ordo).collect()
        }
        (_, None) => quiet_moves(game, forced, Some(game.legal_moves())),
    }
}

/// Whether the side to move may not stand pat in the quiescence search: in Ordo Classic its
/// group was cut by the last capture (it must reconnect or lose), or, in Ordo, the opponent
/// has a stone that can reach the goal row with its next move (a run that must be stopped now).
fn pressed(game: &AnyGame) -> bool {
    match game {
        AnyGame::Ordo(g) => {
            g.is_disconnected() || (g.has_runner(g.side_to_move().other()) && g.passed().wins_at_once())
        }
        _ => false,
    }
}

/// How many times its budget of positions the search may spend to finish its level's depth.
pub const GROW: u64 = 3;
/// A depth that stands for "as deep as the budget reaches" (`go nodes`): no depth to finish,
/// so the budget never grows past what was asked.
pub const ANY_DEPTH: u32 = 64;
/// Iterations past a level's depth, where they are likely to fit (none for a level without a
/// budget, whose depth is its limit).
pub const BEYOND: u32 = 4;
/// Iterations past a level's depth go on within this share of the plain budget (1 / this),
/// so that the long thinks are kept for the crowded positions that need them to finish the
/// level's depth.
const BEYOND_SHARE: f64 = 1.5;
/// The least growth from one iteration to the next a search past its level's depth expects.
const MIN_GROWTH: f64 = 2.0;

/// The kept evaluations: 2 to this power.
const WEIGHTS: u32 = 14;

/// Plies the quiescence search goes on past the horizon at most.
const QUIESCENCE: u32 = 4;

/// The width of a null window, in stones: far below any difference the evaluation makes.
const NULL_WINDOW: f64 = 1e-6;

/// What a threat the quiescence search had no ply left to answer costs, in stones.
const PRESSED: f64 = 1.5;

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
    cuts: Cuts,
    /// The latest position weighed in each slot (its key, and [`in_stones`] for its side to
    /// move): each iteration weighs again the positions of the last, and other orders of the
    /// same moves reach the same positions.
    weights: Vec<(u64, f64)>,
    /// Two moves a ply that last cut the search off there (killer moves), tried early.
    killers: Vec<[Option<AnyMove>; 2]>,
}

impl Searcher<'_> {
    fn key(game: &AnyGame) -> u64 {
        // Each word folded in through a full mixer (SplitMix64's), so that every bit of the
        // position moves every bit of the key. (A multiply-and-rotate mix left the key's high
        // bits to a few squares, and positions a move apart shared keys: one such pair in
        // about sixteen, and the table gave one position's value to the other.)
        let mix = |h: u64, word: u64| {
            let mut z = (h ^ word).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        match game {
            AnyGame::Ordo(g) => {
                let (first, second) = (g.pieces(Side::First), g.pieces(Side::Second));
                let words =
                    [g.side_to_move() as u64, first as u64, (first >> 64) as u64, second as u64, (second >> 64) as u64];
                words.into_iter().fold(0, mix)
            }
            AnyGame::Crossings(g) => {
                let words =
                    [g.side_to_move() as u64 | (g.quiet() as u64) << 8, g.stones(Side::First), g.stones(Side::Second)];
                words.into_iter().fold(0, mix)
            }
            other => {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                other.to_string().hash(&mut h);
                h.finish()
            }
        }
    }

    /// [`in_stones`] for `side`, from the positions kept where it is there.
    fn weigh(&mut self, game: &AnyGame, side: Side) -> f64 {
        let key = Self::key(game);
        let mover = game.side_to_move();
        let i = (key >> (64 - WEIGHTS)) as usize;
        let v = if self.weights[i].0 == key {
            self.weights[i].1
        } else {
            let v = self.cuts.in_stones(game, mover);
            self.weights[i] = (key, v);
            v
        };
        // One side's count less the other's: the same value, negated, for the other side.
        if side == mover { v } else { -v }
    }

    /// Remembers `mv` as a move that cut the search off `ply` moves from the root.
    fn killer(&mut self, ply: u32, mv: &AnyMove) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let slot = &mut self.killers[ply];
        if slot[0].as_ref() != Some(mv) {
            slot[1] = slot[0].take();
            slot[0] = Some(mv.clone());
        }
    }

    fn over(&self) -> bool {
        crate::background::pause_point();
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

    /// Counts a position searched; `None` once over budget or stopped.
    fn enter(&mut self) -> Option<()> {
        if self.over() {
            return None;
        }
        self.positions += 1;
        Some(())
    }

    /// Counts a position searched: its legal moves, or its value if the game is over there;
    /// `None` once over budget or stopped.
    fn visit(&mut self, game: &AnyGame, ply: u32) -> Option<Result<Vec<AnyMove>, f64>> {
        self.enter()?;
        let moves = game.legal_moves();
        Some(if moves.is_empty() { Err(Self::finished(game, ply).unwrap_or(0.0)) } else { Ok(moves) })
    }

    /// Captures (and moves that reach the goal row) searched on until the position is quiet;
    /// the side to move may also stand pat, except where it may not leave the position as it
    /// is ([`pressed`]): an Ordo group cut by the last capture must reconnect, and a stone of
    /// the opponent's that can reach the goal row next must be stopped. There every move is
    /// searched (they are few: the reconnections, or the captures and blocks that matter);
    /// where the search ends on such a position, the threat counts as [`PRESSED`] stones.
    /// `known`: the position's [`in_stones`] for the side to move, where the caller has it.
    fn quiesce(
        &mut self,
        game: &AnyGame,
        mut alpha: f64,
        beta: f64,
        ply: u32,
        left: u32,
        known: Option<f64>,
    ) -> Option<f64> {
        self.enter()?;
        // Where the side to move has no legal move the game is over (as `visit` finds it). In
        // Ordo Classic that is asked first and the moves are listed only if they are searched.
        let (listed, has_move) = match game {
            AnyGame::Ordo(g) if g.rules() == Rules::Classic => (None, g.has_move()),
            _ => {
                let moves = game.legal_moves();
                let any = !moves.is_empty();
                (Some(moves), any)
            }
        };
        if !has_move {
            return Some(Self::finished(game, ply).unwrap_or(0.0));
        }
        let stand = match known {
            Some(v) => v,
            None => self.weigh(game, game.side_to_move()),
        };
        let forced = pressed(game);
        if left == 0 {
            return Some(if forced { stand - PRESSED } else { stand });
        }
        if !forced && stand >= beta {
            return Some(stand);
        }
        let mut best = if forced { f64::NEG_INFINITY } else { stand };
        alpha = alpha.max(best);
        let moves = quiet_moves(game, forced, listed);
        for mv in &moves {
            let mut next = game.clone();
            next.play_unchecked(mv);
            let v = -self.quiesce(&next, -beta, -alpha, ply + 1, left - 1, None)?;
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

    /// A child's value: [`Self::negamax`], or at the horizon the quiescence search with the
    /// value already known.
    fn child(
        &mut self,
        next: &AnyGame,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
        known: Option<f64>,
    ) -> Option<f64> {
        if depth == 0 {
            self.quiesce(next, alpha, beta, ply, QUIESCENCE, known)
        } else {
            self.negamax(next, depth, alpha, beta, ply)
        }
    }

    fn negamax(&mut self, game: &AnyGame, depth: u32, mut alpha: f64, mut beta: f64, ply: u32) -> Option<f64> {
        if depth == 0 {
            return self.quiesce(game, alpha, beta, ply, QUIESCENCE, None);
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
        let killers = self.killers.get(ply as usize).cloned().unwrap_or_default();
        // Each child with its ordering key and its value for the mover (which a child at the
        // horizon takes as its stand-pat value, not weighed twice).
        let mut children: Vec<(f64, usize, AnyGame, f64)> = moves
            .iter()
            .enumerate()
            .map(|(i, mv)| {
                let mut next = game.clone();
                next.play_unchecked(mv);
                let value = order(&next, side, |g, s| self.weigh(g, s));
                let key = if Some(i) == first {
                    f64::INFINITY
                } else {
                    // A killer after the table's move and a win at once, before the rest.
                    match killers.iter().position(|k| k.as_ref() == Some(mv)) {
                        Some(k) if value < WON => WON / 2.0 - k as f64,
                        _ => value,
                    }
                };
                (key, i, next, value)
            })
            .collect();
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut best = f64::NEG_INFINITY;
        let mut best_i = 0;
        for (n, (_, i, next, value)) in children.iter().enumerate() {
            let known = (*value < WON).then_some(-*value);
            // Principal variation search: the first child with the whole window, the others
            // with a null window first, searched again only if they might be better.
            let v = if n == 0 {
                -self.child(next, depth - 1, -beta, -alpha, ply + 1, known)?
            } else {
                let probe = -self.child(next, depth - 1, -alpha - NULL_WINDOW, -alpha, ply + 1, known)?;
                if probe > alpha && probe < beta {
                    -self.child(next, depth - 1, -beta, -alpha, ply + 1, known)?
                } else {
                    probe
                }
            };
            if v > best {
                best = v;
                best_i = *i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.killer(ply, &moves[*i]);
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

/// The move the search plays: iterative deepening to `depth` moves within [`GROW`] times
/// `budget` positions, then up to `beyond` moves more, each begun only where it is likely to
/// finish within [`BEYOND_SHARE`] of `budget` (an iteration that passes its budget is dropped,
/// and the last finished one decides), among the
/// root moves within `near` stones of the best, by the seed. On several `threads` each
/// iteration's root moves are shared out (move i to thread i mod threads), each thread with
/// its own table and the whole budget; an iteration counts only if every thread finished it,
/// so the move depends on the seed and the number of threads, never on timing.
pub fn choose(
    game: &AnyGame,
    depth: u32,
    beyond: u32,
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
            (order(&next, side, in_stones), rng.random::<u64>(), mv, next)
        })
        .collect();
    let threads = threads.clamp(1, root.len().max(1));
    let mut searchers: Vec<Searcher> = (0..threads)
        .map(|_| Searcher {
            positions: 0,
            budget,
            stop,
            table: HashMap::new(),
            cuts: Cuts::new(),
            weights: vec![(0, 0.0); 1 << WEIGHTS],
            killers: Vec::new(),
        })
        .collect();
    let mut done = 0;
    let mut decided: Vec<AnyMove> = Vec::new();
    // Up to the level's depth the budget grows where the position needs it (a crowded middle
    // game): the search may spend GROW times its budget to finish that depth. Past it, deeper
    // iterations go on within the plain budget (sparse positions, endgames).
    let reach = depth.max(1);
    // The positions each finished iteration took (the most any thread took).
    let mut took: Vec<u64> = Vec::new();
    for d in 1..=reach.saturating_add(beyond) {
        if root.len() <= 1 {
            break;
        }
        let grow = if depth >= ANY_DEPTH { 1 } else { GROW };
        let allowed = if d <= reach { budget.saturating_mul(grow) } else { budget };
        let used = searchers.iter().map(|s| s.positions).max().unwrap_or(0);
        if used >= allowed {
            break;
        }
        // Past the level's depth, an iteration starts only where it is likely to finish: what
        // the last one took times the larger of the last two growths (an odd and an even
        // depth), at least [`MIN_GROWTH`]. One that would not finish is thrown away whole.
        if d > reach && took.len() >= 2 {
            let n = took.len();
            let ratio = |a: u64, b: u64| a as f64 / b.max(1) as f64;
            let mut growth = ratio(took[n - 1], took[n - 2]).max(MIN_GROWTH);
            if n >= 3 {
                growth = growth.max(ratio(took[n - 2], took[n - 3]));
            }
            if used as f64 + took[n - 1] as f64 * growth > allowed as f64 / BEYOND_SHARE {
                break;
            }
        }
        for s in searchers.iter_mut() {
            s.budget = allowed;
        }
        root.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        let shared = super::share_out(&mut searchers, &root, |s, moves| share(s, moves.into_iter(), d, near));
        let Some(values) = shared else { break };
        took.push(searchers.iter().map(|s| s.positions).max().unwrap_or(0) - used);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The table trusts a key for the whole position: two positions with one key would share a
    /// value. Positions a move apart (every child of the positions along random games) and the
    /// two pairs an earlier key gave one key each (the second with the other side to move) must
    /// all have keys of their own.
    #[test]
    fn positions_a_move_apart_have_keys_of_their_own() {
        let mut seen: HashMap<u64, String> = HashMap::new();
        let mut check = |g: &AnyGame| {
            let text = g.to_string();
            if let Some(other) = seen.insert(Searcher::key(g), text.clone()) {
                assert_eq!(other, text, "two positions with one key");
            }
        };
        for pair in [
            [
                "ordo ..BB....../BB..BB..BB/BB..BBBBBB/..WB...W../...B...W../WWWWWW..W./WW..WW..WW/......WW.. w",
                "ordo ..BB....../BB..BB..BB/BB..BBBBBB/..WB...W../...WB..W../WWWWWW..W./WW..WW..WW/......WW.. w",
            ],
            [
                "ordo ..BB....../BB..BB..BB/.B...BBBBB/..BBB.WB../..BW..WW../WWWW.W..WW/WW..WW..WW/.......W.. b",
                "ordo ..BB....../BB..BB..BB/.B...BBBBB/..BBB.WB../..BW..WW../WWWW.W..WW/WW..WW..WW/W......W.. w",
            ],
        ] {
            for text in pair {
                check(&text.parse().expect("a position"));
            }
        }
        let mut rng = StdRng::seed_from_u64(3);
        let mut positions = 0;
        for variant in [Variant::Ordo, Variant::Crossings] {
            for _ in 0..20 {
                let mut game = variant.initial();
                for _ in 0..60 {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for mv in &moves {
                        let mut next = game.clone();
                        next.play_unchecked(mv);
                        check(&next);
                        positions += 1;
                    }
                    game.play_unchecked(&moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(positions > 20_000, "{positions} positions");
    }
}
