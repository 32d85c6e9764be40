//! The tree search (UCT, Monte Carlo) over the shared game trait: Ordo, Crossings and CTOR
//! below master, Ordo X's two lower levels, and Volterra's free setup. Playouts are cut off at
//! the level's depth and scored by [`evaluate`] (its own weights: see there why). Its guard (the
//! baseline's two-move minimax over the root moves) keeps it from walking into a loss the
//! baseline sees.

use super::eval::evaluate;
use super::{Level, Line};
use crate::rules::ctor::{Ctor, CtorMove};
use crate::rules::ordo::Rules;
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};

/// The moves the search considers: all of them, except where there are too many for its
/// budget. CTOR's Landings (tens of thousands, rarely much different): a seeded sample.
/// Ordo X's turns (about 2000 at the start, sideways moves times forward ones): at the root
/// the `width` that look best one turn ahead, deeper (and at the root when `width` is 0) a
/// seeded sample of [`ORDO_X_SAMPLE`] drawn as the playouts draw their moves.
fn candidates(game: &AnyGame, rng: &mut StdRng, width: usize) -> Vec<AnyMove> {
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
        AnyGame::Ordo(g) if g.rules() == Rules::X && width > 0 => {
            let scored = ranked(game, || rng.random_range(0.0..1e-6), evaluate);
            // A turn that wins at once is played without further thought.
            let wins = scored.iter().take_while(|(v, ..)| *v >= 1.0).count();
            scored.into_iter().take(if wins > 0 { 1 } else { width }).map(|(_, mv, _)| mv).collect()
        }
        AnyGame::Ordo(g) if g.rules() == Rules::X => {
            let mut moves = Vec::new();
            for _ in 0..ORDO_X_SAMPLE {
                if let Some(mv) = game.random_move(rng)
                    && !moves.contains(&mv)
                {
                    moves.push(mv);
                }
            }
            moves
        }
        _ => game.legal_moves(),
    }
}

/// Every turn of the side to move with the position it leads to, scored one turn ahead by
/// `value` (such as [`evaluate`]) for the mover plus a seeded sliver of `noise` (equal turns
/// are ordered differently from seed to seed), best first.
pub(super) fn ranked(
    game: &AnyGame,
    mut noise: impl FnMut() -> f64,
    value: fn(&AnyGame, Side) -> f64,
) -> Vec<(f64, AnyMove, AnyGame)> {
    let side = game.side_to_move();
    let mut out: Vec<(f64, AnyMove, AnyGame)> = Vec::new();
    game.successors(&mut |mv, next| out.push((value(&next, side) + noise(), mv, next)));
    // Sorted by index, then taken in that order: the entries are large to move about.
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&a, &b| out[b].0.total_cmp(&out[a].0));
    let mut taken: Vec<Option<(f64, AnyMove, AnyGame)>> = out.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| taken[i].take()).collect()
}

/// Ordo X: turns sampled at each deeper node of the tree.
const ORDO_X_SAMPLE: usize = 24;

use super::tree::{Node, back, expand, root, select};

pub(super) fn mcts(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> (Option<AnyMove>, u64, Vec<Line>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut root_moves = candidates(game, &mut rng, level.width);
    if level.guard && root_moves.len() > 1 {
        root_moves = guarded(game, root_moves);
    } else if root_moves.len() > 1 {
        root_moves = sure(game, root_moves);
    }
    if root_moves.len() == 1 {
        let mv = root_moves.into_iter().next().expect("one move");
        let mut next = game.clone();
        next.play_unchecked(&mv);
        let line = Line { mv: mv.clone(), score: evaluate(&next, game.side_to_move()), pv: vec![mv.clone()], work: 0 };
        return (Some(mv), 0, vec![line]);
    }
    // One tree per thread over the same root moves: the first goes on with the seed's own
    // generator (so one thread plays as it always has), the others from seeds of their own.
    let trees: Vec<(Vec<Node>, u64)> = if level.threads <= 1 {
        vec![grow(game, root_moves, level, rng, stop)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..level.threads)
                .map(|k| {
                    let moves = root_moves.clone();
                    let rng = if k == 0 { rng.clone() } else { StdRng::seed_from_u64(tree_seed(seed, k)) };
                    scope.spawn(crate::background::as_this_thread(move || grow(game, moves, level, rng, stop)))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a search thread does not panic")).collect()
        })
    };
    let done = trees.iter().map(|t| t.1).sum();
    // Each root move's visits and value added up over the trees; its line from the tree
    // that visited it most. Ties go to the move first in the root's order.
    let mut merged: Vec<(u64, f64, Vec<AnyMove>, u32, AnyMove)> = Vec::new();
    for (nodes, _) in &trees {
        for &c in &nodes[0].children {
            let n = &nodes[c];
            let mv = n.mv.clone().expect("a child has a move");
            let pv = principal(nodes, c);
            match merged.iter_mut().find(|m| m.4 == mv) {
                Some(m) => {
                    m.0 += n.visits as u64;
                    m.1 += n.value;
                    if n.visits > m.3 {
                        m.2 = pv;
                        m.3 = n.visits;
                    }
                }
                None => merged.push((n.visits as u64, n.value, pv, n.visits, mv)),
            }
        }
    }
    // Most visited first; of equals, the one met last (as a single tree always chose).
    merged.reverse();
    merged.sort_by_key(|m| std::cmp::Reverse(m.0));
    let lines: Vec<Line> = merged
        .into_iter()
        .map(|(visits, value, pv, _, mv)| Line {
            mv,
            score: if visits > 0 { value / visits as f64 } else { 0.5 },
            pv,
            work: visits,
        })
        .collect();
    (lines.first().map(|l| l.mv.clone()), done, lines)
}

/// A random playout, cut off after `depth` moves; it ends where no move is left. With
/// `greedy` above 1, each CTOR Put is the best of that many random Puts for the mover's lead
/// in discs (replacements included), so that the playouts flip discs as players do.
pub(super) fn playout(state: &mut AnyGame, depth: u32, greedy: u32, rng: &mut StdRng) {
    for _ in 0..depth {
        let Some(mut mv) = state.random_move(rng) else { break };
        if greedy > 1
            && let (AnyGame::Ctor(g), AnyMove::Ctor(first @ CtorMove::Put(_))) = (&*state, &mv)
        {
            mv = AnyMove::Ctor(best_put(g, *first, greedy, rng));
        }
        state.play_unchecked(&mv);
    }
}

/// The best for the mover's lead in discs of `first` and `k - 1` more random Puts (the first
/// found of equals).
fn best_put(g: &Ctor, first: CtorMove, k: u32, rng: &mut StdRng) -> CtorMove {
    let me = g.side_to_move();
    let lead = |m: &CtorMove| {
        let mut next = g.clone();
        next.play_unchecked(m);
        next.count(me) as i32 - next.count(me.other()) as i32
    };
    let mut best = (lead(&first), first);
    for _ in 1..k {
        if let Some(m @ CtorMove::Put(_)) = g.random_move(rng) {
            let v = lead(&m);
            if v > best.0 {
                best = (v, m);
            }
        }
    }
    best.1
}

/// The seed of thread `k`'s tree (or share) in a search seeded `seed`.
pub(super) fn tree_seed(seed: u64, k: usize) -> u64 {
    seed ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// The line a tree expects after its root's child `c`: the most visited reply each time.
fn principal(nodes: &[Node], c: usize) -> Vec<AnyMove> {
    let mut pv = Vec::new();
    let mut at = Some(c);
    while let Some(i) = at {
        pv.extend(nodes[i].mv.clone());
        at = nodes[i].children.iter().copied().filter(|&k| nodes[k].visits > 0).max_by_key(|&k| nodes[k].visits);
    }
    pv
}

/// One tree of the tree search (UCT) over `root_moves`, grown for the level's playouts or
/// until `stop`; the nodes and the playouts done.
fn grow(
    game: &AnyGame,
    root_moves: Vec<AnyMove>,
    level: Level,
    mut rng: StdRng,
    stop: &AtomicBool,
) -> (Vec<Node>, u64) {
    let mut nodes = root(game, root_moves);
    let mut done = 0;
    let playouts = if matches!(game, AnyGame::Ctor(_)) { level.ctor_playouts } else { level.playouts };
    for _ in 0..playouts {
        crate::background::pause_point();
        if stop.load(Ordering::Relaxed) {
            break;
        }
        done += 1;
        let mut state = game.clone();
        let at = select(&nodes, &mut state, 1.2);
        let at = expand(&mut nodes, at, &mut state, &mut rng, |g, rng| candidates(g, rng, 0));
        playout(&mut state, level.depth, level.greedy, &mut rng);
        back(&mut nodes, at, evaluate(&state, Side::First));
    }
    (nodes, done)
}

/// The root moves a player who looks one move ahead keeps: a move that wins at once alone,
/// else those after which the opponent cannot win at once, and of those, in Crossings, the ones
/// after which the opponent cannot cross unanswered (a crossing wins a move later): the least
/// dangerous there are. The levels without the guard see this much, so that even easy, however
/// loosely it plays, never misses a win in one nor walks into a loss in one. Where the
/// candidates are a sample of the turns (Ordo X), every turn is looked at: a win among them is
/// played, and if no turn of the sample is among the least dangerous, as many of those as the
/// sample had take its place. CTOR, whose game ends on a count, keeps all.
fn sure(game: &AnyGame, candidates: Vec<AnyMove>) -> Vec<AnyMove> {
    if matches!(game, AnyGame::Ctor(_)) {
        return candidates;
    }
    let me = game.side_to_move();
    let sampled = matches!(game, AnyGame::Ordo(g) if g.rules() == Rules::X);
    let pool = if sampled { game.legal_moves() } else { candidates.clone() };
    // Each move with its danger: 0 none (or a draw), 1 an unanswered crossing, 2 a win at once
    // for the opponent, 3 the game lost by the move itself.
    let mut rated = Vec::with_capacity(pool.len());
    for mv in pool {
        let mut next = game.clone();
        next.play_unchecked(&mv);
        let danger = match next.outcome() {
            Some(o) if o.winner == Some(me) => return vec![mv],
            Some(o) if o.winner.is_none() => 0,
            Some(_) => 3,
            None if wins_at_once(&next) => 2,
            None if crosses_unanswered(&next) => 1,
            None => 0,
        };
        rated.push((danger, mv));
    }
    let least = rated.iter().map(|r| r.0).min().unwrap_or(0);
    let safe: Vec<AnyMove> = rated.into_iter().filter(|r| r.0 == least).map(|r| r.1).collect();
    if !sampled {
        return safe;
    }
    let kept: Vec<AnyMove> = candidates.iter().filter(|m| safe.contains(m)).cloned().collect();
    if kept.is_empty() { safe.into_iter().take(candidates.len()).collect() } else { kept }
}

/// Crossings: whether the side to move can cross with a stone where the other side has no
/// crossing in reply (which wins, a move later). False elsewhere.
fn crosses_unanswered(game: &AnyGame) -> bool {
    let AnyGame::Crossings(g) = game else { return false };
    let me = g.side_to_move();
    let mut found = false;
    game.successors(&mut |_, after| {
        if found {
            return;
        }
        let AnyGame::Crossings(a) = &after else { return };
        if a.crossed(me) > g.crossed(me) && after.outcome().is_none() {
            let them = me.other();
            let mut answered = false;
            after.successors(&mut |_, reply| {
                if let AnyGame::Crossings(r) = &reply {
                    answered |= r.crossed(them) > a.crossed(them);
                }
            });
            found |= !answered;
        }
    });
    found
}

/// Whether the side to move can win with its next move (Ordo's cheap test, which lists no turns;
/// elsewhere every move is tried).
pub(super) fn wins_at_once(game: &AnyGame) -> bool {
    match game {
        AnyGame::Ordo(g) => g.wins_at_once(),
        _ => {
            let me = game.side_to_move();
            let mut won = false;
            game.successors(&mut |_, after| won |= after.outcome().is_some_and(|o| o.winner == Some(me)));
            won
        }
    }
}

/// Moves the guard looks ahead after a root move: two in Ordo and Crossings (where
/// captures and crossings decide), one in CTOR (whose turns are several operations).
fn guard_depth(game: &AnyGame) -> u32 {
    match game {
        AnyGame::Ctor(_) => 1,
        _ => 2,
    }
}

/// The root moves that a plain two-move minimax (the baseline's) does not find more than half
/// a piece worse than the best.
fn guarded(game: &AnyGame, moves: Vec<AnyMove>) -> Vec<AnyMove> {
    let me = game.side_to_move();
    let depth = guard_depth(game);
    // The best-looking first, so that the bar (half a piece below the best so far) rises
    // early: a move below it is cut off as soon as that is certain, and one above it gets its
    // exact value. What is kept is the same as with every value exact.
    let mut valued: Vec<(f64, usize, AnyMove, AnyGame)> = moves
        .into_iter()
        .enumerate()
        .map(|(i, mv)| {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            (super::eval::baseline(&next, me), i, mv, next)
        })
        .collect();
    valued.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = f64::NEG_INFINITY;
    let mut kept: Vec<(f64, usize, AnyMove)> = Vec::new();
    for (_, i, mv, next) in valued {
        let v = super::baseline::value_above(&next, depth, me, best - 0.5);
        if v >= best - 0.5 {
            best = best.max(v);
            kept.push((v, i, mv));
        }
    }
    kept.retain(|k| k.0 >= best - 0.5);
    kept.sort_by_key(|k| k.1);
    kept.into_iter().map(|k| k.2).collect()
}
