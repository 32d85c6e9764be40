//! Computer opponents, tuned per game. Ordo, Crossings and CTOR use Monte Carlo tree search
//! (UCT) over the shared game trait, with playouts cut off at a depth and scored by a per-game
//! evaluation; so do Ordo X's two lower levels, while its upper ones use a selective
//! alpha-beta over the best-looking turns (bounded by its shape: at most 1 + 8 + 64 nodes are
//! widened at master). Volterra's play is short and sharp (a turn can end the game at once),
//! where random playouts say little: it uses alpha-beta over complete turns with an evaluation
//! of the towers; its free setup, whose worth shows only many moves later, uses the tree search.
//! Levels are fixed budgets of playouts or positions, never of time, so a level plays the same
//! for a given seed on any machine. A CTOR player decides from its own team's view only.

use crate::rules::ordo::Rules;
use crate::rules::volterra::{Phase, Volterra, VolterraMove};
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// A named strength: how many playouts a move gets and how deep each one goes (tree search);
/// how many turns ahead alpha-beta looks, within a budget of positions, and how far below the
/// best a turn may be and still be played (the seed chooses among those).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub playouts: u32,
    pub depth: u32,
    /// Alpha-beta: turns searched (Volterra).
    pub plies: u32,
    /// Alpha-beta: positions searched at most; a deeper iteration that would pass it is dropped.
    pub positions: u64,
    /// Alpha-beta: turns within this many hundredths of a tile of the best are played alike.
    /// Easy's ten tiles make it play almost at random, except that it never misses a turn
    /// that wins at once and never plays one that loses at once.
    pub slack: u32,
    /// Ordo X: how many root turns the tree search considers, the best-looking one turn ahead;
    /// 0 for a seeded sample, as at deeper nodes. With `beam`, the turns searched at each node.
    pub width: usize,
    /// Ordo X: turns ahead of a selective alpha-beta over the `width` best-looking turns at
    /// each node; 0 for the tree search.
    pub beam: u32,
    /// Tree search (Ordo, Crossings, CTOR): root moves are first weighed by a plain two-move minimax of material and
    /// advance (the baseline's), and those that lose more than half a piece against the best
    /// of them are not searched (a guard against the short tactics random playouts miss).
    pub guard: bool,
}

/// The levels, weakest first. Volterra's gaps between depths are uneven (four turns ahead
/// beats three only about 65% of the time, two beats one about 85%), so its levels are one
/// turn ahead played loosely, one turn, two turns, and four turns.
pub const LEVELS: [Level; 4] = [
    Level {
        name: "easy",
        playouts: 48,
        depth: 16,
        plies: 1,
        positions: 10_000,
        slack: 1000,
        width: 0,
        beam: 0,
        guard: false,
    },
    Level {
        name: "medium",
        playouts: 192,
        depth: 24,
        plies: 1,
        positions: 10_000,
        slack: 5,
        width: 32,
        beam: 0,
        guard: false,
    },
    Level {
        name: "hard",
        playouts: 768,
        depth: 32,
        plies: 2,
        positions: 50_000,
        slack: 5,
        width: 4,
        beam: 2,
        guard: false,
    },
    Level {
        name: "master",
        playouts: 2048,
        depth: 40,
        plies: 4,
        positions: 600_000,
        slack: 5,
        width: 8,
        beam: 3,
        guard: true,
    },
];

pub fn level(name: &str) -> Option<Level> {
    LEVELS.iter().copied().find(|l| l.name == name)
}

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
            let scored = ranked(game, || rng.random_range(0.0..1e-6));
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
/// [`evaluate`] for the mover plus a seeded sliver of `noise` (equal turns are ordered
/// differently from seed to seed), best first.
fn ranked(game: &AnyGame, mut noise: impl FnMut() -> f64) -> Vec<(f64, AnyMove, AnyGame)> {
    let side = game.side_to_move();
    let mut out: Vec<(f64, AnyMove, AnyGame)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play_unchecked(&mv);
            (evaluate(&next, side) + noise(), mv, next)
        })
        .collect();
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// Ordo X: turns sampled at each deeper node of the tree.
const ORDO_X_SAMPLE: usize = 24;

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
        AnyGame::Volterra(g) => towers(g, side),
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

/// Volterra's towers as the final count sees them, for `side`, in tiles: the differences of
/// the two sides' heights tallest first, each weighted half the one before (the first
/// difference decides at the end).
fn towers(g: &Volterra, side: Side) -> f64 {
    let (mine, theirs) = (g.heights(side), g.heights(side.other()));
    let at = |v: &Vec<u8>, i: usize| v.get(i).copied().unwrap_or(0) as f64;
    (0..mine.len().max(theirs.len())).map(|i| (at(&mine, i) - at(&theirs, i)) * 0.5f64.powi(i as i32)).sum()
}

/// What a search did: the move, and how many playouts or positions it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    pub mv: Option<AnyMove>,
    pub work: u64,
    /// "playouts" or "positions".
    pub unit: &'static str,
    /// The root moves the search weighed, the best first, with what it thinks of each.
    pub lines: Vec<Line>,
}

/// What a search thinks of one root move: the mover's expected result after it, from 0 (lost)
/// to 1 (won), the line it expects (the move first), and the work spent under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub mv: AnyMove,
    pub score: f64,
    pub pv: Vec<AnyMove>,
    pub work: u64,
}

/// The move the computer plays at `level`, from `seed`. For CTOR only the mover's own view
/// of the game is used: the opponent's unrevealed secret squares are not seen.
pub fn choose(game: &AnyGame, level: Level, seed: u64) -> Option<AnyMove> {
    search(game, level, seed).mv
}

/// [`choose`], with the work it took.
pub fn search(game: &AnyGame, level: Level, seed: u64) -> Search {
    search_until(game, level, seed, &AtomicBool::new(false))
}

/// [`search`] that gives up as soon as `stop` is set (the app sets it on undo or a new game,
/// so that an abandoned search frees its core at once); what it returns then is not meant to
/// be played.
pub fn search_until(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> Search {
    let game = match game {
        AnyGame::Ctor(g) => AnyGame::Ctor(g.view(g.side_to_move())),
        other => other.clone(),
    };
    if game.outcome().is_some() {
        return Search { mv: None, work: 0, unit: "playouts", lines: Vec::new() };
    }
    match &game {
        AnyGame::Volterra(v) if v.phase() == Phase::Play => {
            let near = level.slack as f64 / 100.0;
            let (mv, work, lines) =
                AlphaBeta { positions: 0, budget: level.positions, near, stop }.choose(v, level.plies, seed);
            Search { mv: mv.map(AnyMove::Volterra), work, unit: "positions", lines }
        }
        AnyGame::Ordo(g) if g.rules() == Rules::X && level.beam > 0 => {
            let mut beam = Beam { width: level.width, positions: 0, stop };
            let mut rng = StdRng::seed_from_u64(seed);
            let (mv, lines) = beam.choose(&game, level.beam, &mut rng);
            Search { mv, work: beam.positions, unit: "positions", lines }
        }
        _ => {
            let (mv, work, lines) = mcts(&game, level, seed, stop);
            Search { mv, work, unit: "playouts", lines }
        }
    }
}

fn mcts(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> (Option<AnyMove>, u64, Vec<Line>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut root_moves = candidates(game, &mut rng, level.width);
    if level.guard && root_moves.len() > 1 {
        root_moves = guarded(game, root_moves);
    }
    if root_moves.len() == 1 {
        let mv = root_moves.into_iter().next().expect("one move");
        let mut next = game.clone();
        next.play_unchecked(&mv);
        let line = Line { mv: mv.clone(), score: evaluate(&next, game.side_to_move()), pv: vec![mv.clone()], work: 0 };
        return (Some(mv), 0, vec![line]);
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
    let mut done = 0;
    for _ in 0..level.playouts {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        done += 1;
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
            let untried = if state.outcome().is_some() { Vec::new() } else { candidates(&state, &mut rng, 0) };
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
    // The root's children, most visited first, each with the line below it.
    let chosen = nodes[0].children.iter().copied().max_by_key(|&c| nodes[c].visits);
    let mut order: Vec<usize> = nodes[0].children.clone();
    order.sort_by_key(|&c| (Some(c) != chosen, std::cmp::Reverse(nodes[c].visits)));
    let lines: Vec<Line> = order
        .iter()
        .map(|&c| {
            let mut pv = Vec::new();
            let mut at = Some(c);
            while let Some(i) = at {
                pv.extend(nodes[i].mv.clone());
                at =
                    nodes[i].children.iter().copied().filter(|&k| nodes[k].visits > 0).max_by_key(|&k| nodes[k].visits);
            }
            let n = &nodes[c];
            Line {
                mv: n.mv.clone().expect("a child has a move"),
                score: if n.visits > 0 { n.value / n.visits as f64 } else { 0.5 },
                pv,
                work: n.visits as u64,
            }
        })
        .collect();
    (lines.first().map(|l| l.mv.clone()), done, lines)
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
            (crate::baseline::evaluate(&next, me), i, mv, next)
        })
        .collect();
    valued.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = f64::NEG_INFINITY;
    let mut kept: Vec<(f64, usize, AnyMove)> = Vec::new();
    for (_, i, mv, next) in valued {
        let v = crate::baseline::value_above(&next, depth, me, best - 0.5);
        if v >= best - 0.5 {
            best = best.max(v);
            kept.push((v, i, mv));
        }
    }
    kept.retain(|k| k.0 >= best - 0.5);
    kept.sort_by_key(|k| k.1);
    kept.into_iter().map(|k| k.2).collect()
}

/// Alpha-beta (negamax) over complete Volterra turns. Turns that lead to the same position
/// (a step and a build in either order often do) are searched once; inner nodes try first the
/// replies that look best. A win counts more the sooner it comes.
struct AlphaBeta<'a> {
    positions: u64,
    budget: u64,
    /// Root turns within this many tiles of the best are equally good; the seed picks one.
    near: f64,
    stop: &'a AtomicBool,
}

/// A finished game, in tiles: more than any count of towers can reach.
const WON: f64 = 1000.0;
/// What each complete turn the side to move has is worth, in tiles.
const MOBILITY: f64 = 0.01;

impl AlphaBeta<'_> {
    /// The distinct positions after each turn of the side to move, with the turn.
    fn children(g: &Volterra) -> Vec<(VolterraMove, Volterra)> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for mv in g.legal_moves() {
            let mut next = g.clone();
            next.play_unchecked(&mv);
            if seen.insert(next.clone()) {
                out.push((mv, next));
            }
        }
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
            let turns = g.legal_moves().len();
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

    /// Iterative deepening to `plies` turns; the deepest iteration that fits the budget
    /// decides, among its turns within `near` of the best, by the seed.
    fn choose(&mut self, g: &Volterra, plies: u32, seed: u64) -> (Option<VolterraMove>, u64, Vec<Line>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut root: Vec<(f64, VolterraMove, Volterra)> =
            Self::children(g).into_iter().map(|(m, n)| (-towers(&n, n.side_to_move()), m, n)).collect();
        let mut decided: Vec<VolterraMove> = Vec::new();
        'deepen: for depth in 1..=plies.max(1) {
            root.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut best = f64::NEG_INFINITY;
            let mut values = Vec::with_capacity(root.len());
            for (_, _, next) in &root {
                // A window just below the best so far: turns near it get exact values.
                match self.negamax(next, depth - 1, f64::NEG_INFINITY, -(best - self.near)) {
                    Some(v) => {
                        best = best.max(-v);
                        values.push(-v);
                    }
                    None if decided.is_empty() && depth == 1 => {
                        values.push(f64::NEG_INFINITY);
                    }
                    None => break 'deepen,
                }
            }
            for (entry, v) in root.iter_mut().zip(values) {
                entry.0 = v;
            }
            decided = root.iter().filter(|e| e.0 >= best - self.near).map(|e| e.1).collect();
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
        (mv, self.positions, lines)
    }
}

/// Ordo X's selective alpha-beta: at each node every turn is looked at one turn ahead with
/// the evaluation, and only the `width` best are searched further. Values are the evaluation's
/// [0, 1] for the side to move. Random playouts say little in Ordo X (most turns are
/// sideways moves that change little); looking at the opponent's best replies says more.
struct Beam<'a> {
    width: usize,
    positions: u64,
    stop: &'a AtomicBool,
}

impl Beam<'_> {
    /// The turns of the side to move, best-looking first, with the positions they lead to and
    /// their value one turn ahead; ties ordered by the seed.
    fn ordered(&mut self, game: &AnyGame, rng: &mut StdRng) -> Vec<(f64, AnyMove, AnyGame)> {
        let out = ranked(game, || rng.random::<f64>() * 1e-9);
        self.positions += out.len() as u64;
        out
    }

    fn negamax(&mut self, game: &AnyGame, depth: u32, mut alpha: f64, beta: f64, rng: &mut StdRng) -> Option<f64> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.side_to_move();
        if depth == 0 || game.outcome().is_some() {
            return Some(evaluate(game, side));
        }
        let children = self.ordered(game, rng);
        if depth == 1 {
            // Every turn was just looked at one turn ahead: the best of them is the value.
            return Some(children.first().map_or(evaluate(game, side), |c| c.0));
        }
        let mut best = f64::NEG_INFINITY;
        for (_, _, next) in children.into_iter().take(self.width) {
            let v = 1.0 - self.negamax(&next, depth - 1, 1.0 - beta, 1.0 - alpha, rng)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    fn choose(&mut self, game: &AnyGame, depth: u32, rng: &mut StdRng) -> (Option<AnyMove>, Vec<Line>) {
        if self.stop.load(Ordering::Relaxed) {
            return (None, Vec::new());
        }
        let children = self.ordered(game, rng);
        let mut best: Option<(f64, AnyMove)> = None;
        let mut lines = Vec::new();
        for (_, mv, next) in children.into_iter().take(self.width.max(1)) {
            let alpha = best.as_ref().map_or(f64::NEG_INFINITY, |b| b.0);
            let Some(v) = self.negamax(&next, depth.max(1) - 1, f64::NEG_INFINITY, 1.0 - alpha, rng) else { break };
            let v = 1.0 - v;
            // Below the best, a value is only a bound: at most this good.
            lines.push(Line { mv: mv.clone(), score: v, pv: vec![mv.clone()], work: 0 });
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, mv));
            }
        }
        lines.sort_by(|a, b| b.score.total_cmp(&a.score));
        (best.map(|b| b.1), lines)
    }
}

/// The cells a move changes, for showing a hint.
pub fn hint_cells(game: &AnyGame, mv: &AnyMove) -> Vec<Cell> {
    (0..mv.parts().len())
        .flat_map(|k| game.move_paths(mv, k))
        .flat_map(|(a, b)| [a, b])
        .chain(game.click_cell(mv))
        .collect()
}
