//! Ordo X's upper levels: a selective alpha-beta over the best-looking turns (Ordo X has about
//! 2000 turns at the start, too many for a full-width search or for playouts to tell apart).

use super::eval::{chance, evaluate, in_stones, ordo_x};
use super::mcts::{ranked, tree_seed, wins_at_once};
use super::{Level, Line, share_out};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};

/// Ordo X's selective alpha-beta: at each node every turn is looked at one turn ahead with
/// the evaluation, and only the `width` best are searched further. Values are the evaluation's
/// [0, 1] for the side to move. Random playouts say little in Ordo X (most turns are
/// sideways moves that change little); looking at the opponent's best replies says more.
///
/// Master (a level with `deep` > 0) searches this way with its own evaluation ([`ordo_x`]: in stones, as the full-width alpha-beta weighs, because it searches as deep),
/// every turn where a side has at most [`ORDO_X_FULL`] of them (late in the game, when a
/// lone stone can run to the goal row and no turn may be left out), and deepens from `beam`
/// turns up to `beam` + `deep` within the level's positions: an iteration that would pass
/// them is dropped, so the endgame, whose turns are few, is searched much deeper.
pub(super) struct Beam<'a> {
    width: usize,
    /// Every turn is searched at a node with at most this many (0: the `width` best always).
    full: usize,
    value: fn(&AnyGame, Side) -> f64,
    /// Turns after which the opponent wins at once are left out, and the best turn one turn
    /// ahead is the best that leaves no such win (see [`wins_at_once`]): every level.
    safe: bool,
    /// Master: a turn's value one turn ahead counts the pieces the opponent can then take at
    /// once (see [`Beam::sharpened`]).
    threats: bool,
    positions: u64,
    budget: u64,
    stop: &'a AtomicBool,
}

/// A node's turns (best-looking first) that its search may choose from, tested one at a time
/// as they are asked for: with `safe`, those that do not let the opponent win at once.
fn kept(safe: bool, turns: &[(f64, AnyMove, AnyGame)]) -> impl Iterator<Item = &(f64, AnyMove, AnyGame)> {
    turns.iter().filter(move |c| !safe || !wins_at_once(&c.2))
}

/// Ordo X, master: a single piece the opponent can take at once counts this much of a
/// piece (it may be taken back; pieces cut off with it count whole).
const THREAT_ONE: f64 = 0.5;

/// Ordo X, master: in choosing the turns searched, each piece the mover could take next (if it
/// moved again) adds this much of a piece to a turn: a turn that threatens much is searched.
const THREAT_NEXT: f64 = 0.3;

/// Ordo X, master: at most this many of a node's best-looking turns are sharpened, to choose
/// the ones searched (all of them at the root) or the best one turn ahead.
const SHARPENED: usize = 32;

/// Ordo X, master: a side with at most this many turns has all of them searched.
const ORDO_X_FULL: usize = 200;

/// Ordo X, master: its budget is this many times the level's positions, as a position here
/// (a turn looked at one turn ahead) costs a fraction of one of the full-width search's.
const ORDO_X_POSITIONS: u64 = 4;

/// A finished game's value for the loser is this much for each turn it comes later (and a
/// win is worth as much less), so that a win sooner counts more and a loss is put off.
const LATER: f64 = 1e-9;
/// More turns than any search goes.
const DEEPEST: u32 = 64;

/// `v`, the side to move's value of a position with `depth` turns left to search, graded by
/// [`LATER`] if the game is decided there.
fn graded(v: f64, depth: u32) -> f64 {
    let later = LATER * (DEEPEST - depth.min(DEEPEST)) as f64;
    if v <= 0.0 {
        later
    } else if v >= 1.0 {
        1.0 - later
    } else {
        v
    }
}

impl Beam<'_> {
    fn for_level(level: Level, stop: &AtomicBool) -> Beam<'_> {
        if level.deep > 0 {
            let budget = level.positions.saturating_mul(ORDO_X_POSITIONS);
            Beam {
                width: level.width,
                full: ORDO_X_FULL,
                value: ordo_x,
                safe: true,
                threats: true,
                positions: 0,
                budget,
                stop,
            }
        } else {
            Beam {
                width: level.width,
                full: 0,
                value: evaluate,
                // Every level leaves out the turns that let the opponent win at once.
                safe: true,
                threats: false,
                positions: 0,
                budget: u64::MAX,
                stop,
            }
        }
    }

    /// The turns of the side to move, best-looking first, with the positions they lead to and
    /// their value one turn ahead; ties ordered by the seed.
    fn ordered(&mut self, game: &AnyGame, rng: &mut StdRng) -> Vec<(f64, AnyMove, AnyGame)> {
        let out = ranked(game, || rng.random::<f64>() * 1e-9, self.value);
        self.positions += out.len() as u64;
        out
    }

    /// `turn`'s value one turn ahead for its mover (`turn.0`), with `threats` less the
    /// pieces the opponent can then take at once (see
    /// [`crate::rules::ordo::Ordo::capture_threat`]), a single piece counted [`THREAT_ONE`]
    /// as it may be taken back: never more than `turn.0`. With `ahead` (to choose the turns
    /// searched, not to value a position), plus [`THREAT_NEXT`] for each piece the mover
    /// could take next if it moved again: a turn that threatens much may be worth more.
    fn sharpened(&self, turn: &(f64, AnyMove, AnyGame), ahead: bool) -> f64 {
        let (value, _, next) = turn;
        let AnyGame::Ordo(g) = next else { return *value };
        if !self.threats || g.finished().is_some() {
            return *value;
        }
        let taken = g.capture_threat();
        let threatened = if ahead { g.passed().capture_threat() } else { 0 };
        if taken == 0 && threatened == 0 {
            return *value;
        }
        let mover = next.side_to_move().other();
        let lost = if taken == 0 { 0.0 } else { taken as f64 - (1.0 - THREAT_ONE) };
        // `value` is the chance of `quick` alone (and a sliver of noise): without a threat of
        // the mover's this is never more.
        chance(in_stones(next, mover) - lost + THREAT_NEXT * threatened as f64)
    }

    /// The `width` turns of a node (best-looking first) that its search goes on with: with
    /// `safe`, those that do not let the opponent win at once; with `threats`, the best by
    /// [`Beam::sharpest`] (what they threaten counted), best first.
    fn picked<'t>(
        &self,
        turns: &'t [(f64, AnyMove, AnyGame)],
        width: usize,
        walk: usize,
    ) -> Vec<&'t (f64, AnyMove, AnyGame)> {
        if !self.threats || width == 0 || width >= turns.len() {
            return kept(self.safe, turns).take(width).collect();
        }
        self.sharpest(turns, width, walk, true).into_iter().map(|c| c.1).collect()
    }

    /// The `width` best of `turns` (best-looking first) by their [`Beam::sharpened`] values
    /// (with `ahead`, what they threaten counted), with those values, best first: with `safe`,
    /// only turns that do not let the opponent win at once; only the first `walk` are
    /// sharpened, and without `ahead` the turns are looked at in order until `width` of them
    /// are at least as good as the next one looks (a sharpened value is never more).
    fn sharpest<'t>(
        &self,
        turns: &'t [(f64, AnyMove, AnyGame)],
        width: usize,
        walk: usize,
        ahead: bool,
    ) -> Vec<(f64, &'t (f64, AnyMove, AnyGame))> {
        // The `width` best sharpened turns so far that do not let the opponent win, best
        // first (that dearer test is made only for a turn that would be among them).
        let mut chosen: Vec<(f64, &(f64, AnyMove, AnyGame))> = Vec::with_capacity(width + 1);
        for (i, turn) in turns.iter().enumerate() {
            let full = chosen.len() == width;
            // Done when the width-th best so far beats what this turn looks at best.
            if full && ((!ahead && chosen[width - 1].0 >= turn.0) || i >= walk) {
                break;
            }
            let v = if i < walk { self.sharpened(turn, ahead) } else { turn.0 };
            if (full && chosen[width - 1].0 >= v) || (self.safe && wins_at_once(&turn.2)) {
                continue;
            }
            let at = chosen.partition_point(|c| c.0 >= v);
            chosen.insert(at, (v, turn));
            chosen.truncate(width);
        }
        chosen
    }

    /// How many of a node's `turns` (best-looking first) are searched.
    fn width(&self, turns: usize) -> usize {
        if turns <= self.full { turns } else { self.width.max(1) }
    }

    fn negamax(&mut self, game: &AnyGame, depth: u32, mut alpha: f64, beta: f64, rng: &mut StdRng) -> Option<f64> {
        crate::background::pause_point();
        if self.stop.load(Ordering::Relaxed) || self.positions >= self.budget {
            return None;
        }
        let side = game.side_to_move();
        if depth == 0 || game.outcome().is_some() {
            return Some(graded((self.value)(game, side), depth));
        }
        let children = self.ordered(game, rng);
        if depth == 1 {
            // Every turn was just looked at one turn ahead: the best of them is the value
            // (a win there comes with no turn left); with `safe`, the best that does not let
            // the opponent win at once, and a loss if every turn does.
            if children.is_empty() {
                return Some((self.value)(game, side));
            }
            // The best that `sharpest` picks (with `threats`, a turn's value can only drop).
            let best = self.sharpest(&children, 1, SHARPENED, false).first().map(|c| c.0);
            return Some(best.map_or(graded(0.0, 0), |b| graded(b, 0)));
        }
        let mut best = f64::NEG_INFINITY;
        let width = self.width(children.len());
        let mut searched = 0;
        for (_, _, next) in self.picked(&children, width, SHARPENED) {
            searched += 1;
            let v = 1.0 - self.negamax(next, depth - 1, 1.0 - beta, 1.0 - alpha, rng)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if searched == 0 {
            // Every turn lets the opponent win at once (the turn after this one).
            return Some(graded(0.0, depth - 2));
        }
        Some(best)
    }

    /// The best of the `width` best-looking root turns, `level.beam` turns deep (master:
    /// deepening, see [`Beam`]), shared out among the level's threads (turn i to thread i mod
    /// threads, each with its own bound and, for master, the whole budget); a deeper iteration
    /// counts only if every thread finished it.
    pub(super) fn choose_on(
        game: &AnyGame,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> (Option<AnyMove>, u64, Vec<Line>) {
        let mut first = Beam::for_level(level, stop);
        let mut rng = StdRng::seed_from_u64(seed);
        if stop.load(Ordering::Relaxed) {
            return (None, 0, Vec::new());
        }
        let ordered = first.ordered(game, &mut rng);
        let width = first.width(ordered.len());
        // Master: the best-looking turns that do not let the opponent win at once (all of
        // them lose if none is left, and the search then puts the loss off).
        let mut root: Vec<&(f64, AnyMove, AnyGame)> = first.picked(&ordered, width, usize::MAX);
        if root.is_empty() {
            root = ordered.iter().take(width).collect();
        }
        let mut children: Vec<(usize, AnyMove, AnyGame)> =
            root.into_iter().enumerate().map(|(i, (_, mv, next))| (i, mv.clone(), next.clone())).collect();
        let looked = first.positions;
        let threads = level.threads.clamp(1, children.len().max(1));
        // Each thread's searcher with its own seed (the first thread's is the level's).
        let mut searchers: Vec<(Beam, StdRng)> = (0..threads)
            .map(|k| {
                let rng = if k == 0 { rng.clone() } else { StdRng::seed_from_u64(tree_seed(seed, k)) };
                (Beam::for_level(level, stop), rng)
            })
            .collect();
        let shallowest = level.beam.max(1);
        let deepest = if level.deep > 0 { shallowest + level.deep } else { shallowest };
        let mut decided: Option<Vec<(usize, f64, AnyMove)>> = None;
        for beam in shallowest..=deepest {
            let depth = beam - 1;
            let values = share_out(&mut searchers, &children, |(b, r), share| Some(b.share(share, depth, r)))
                .unwrap_or_default();
            // A turn cut short by the budget or the stop has no value.
            let finished = values.iter().all(|v| v.is_finite());
            // A deeper iteration cut short still says which of the turns it finished is best,
            // if it finished the one the last iteration found best (it goes first).
            if !finished && decided.is_some() && !values.first().is_some_and(|v| v.is_finite()) {
                break;
            }
            let mut valued: Vec<(usize, f64, AnyMove)> = children
                .iter()
                .zip(&values)
                .filter(|(_, v)| v.is_finite())
                .map(|((i, mv, _), v)| (*i, *v, mv.clone()))
                .collect();
            // The best value; of equals, the turn that looked best before.
            valued.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            // The turns it did not finish follow, as the last iteration valued them (`children`
            // are in that iteration's order, best first).
            if let Some(before) = &decided {
                let later = before.iter().zip(&values).filter(|(_, v)| !v.is_finite());
                valued.extend(later.map(|(b, _)| b.clone()));
            }
            // The next iteration tries this one's best first.
            let mut rank = vec![usize::MAX; children.len()];
            for (r, v) in valued.iter().enumerate() {
                rank[v.0] = r;
            }
            children.sort_by_key(|c| rank[c.0]);
            for (i, c) in children.iter_mut().enumerate() {
                c.0 = i;
            }
            for (r, v) in valued.iter_mut().enumerate() {
                v.0 = r;
            }
            // A win, or a loss whatever is played, needs no deeper look.
            let sure = valued.first().is_some_and(|v| v.1 >= 1.0 - 1e-6 || v.1 <= 1e-6);
            decided = Some(valued);
            if !finished || sure {
                break;
            }
        }
        let work = looked + searchers.iter().map(|s| s.0.positions).sum::<u64>();
        let valued = decided.unwrap_or_default();
        let mv = valued.first().map(|v| v.2.clone());
        // Below the best, a value is only a bound: at most this good.
        let lines =
            valued.into_iter().map(|(_, v, mv)| Line { mv: mv.clone(), score: v, pv: vec![mv], work: 0 }).collect();
        (mv, work, lines)
    }

    /// Values the root turns given, in their order, each against the best of them so far;
    /// from the budget's end or `stop` on, minus infinity (no value).
    fn share(&mut self, children: Vec<&(usize, AnyMove, AnyGame)>, depth: u32, rng: &mut StdRng) -> Vec<f64> {
        let mut best = f64::NEG_INFINITY;
        let mut out = vec![f64::NEG_INFINITY; children.len()];
        for (slot, (_, _, next)) in out.iter_mut().zip(children) {
            let Some(v) = self.negamax(next, depth, f64::NEG_INFINITY, 1.0 - best, rng) else { break };
            *slot = 1.0 - v;
            best = best.max(1.0 - v);
        }
        out
    }
}
