//! Computer opponents, tuned per game. Ordo, Crossings and CTOR use Monte Carlo tree search
//! (UCT) over the shared game trait, with playouts cut off at a depth and scored by a per-game
//! evaluation; so do Ordo X's two lower levels, while its upper ones use a selective
//! alpha-beta over the best-looking turns (hard: two turns over the 6 best; master: deepened
//! within a budget of positions over the 10 best, and over every turn late in the game).
//! Master in Ordo Classic and Crossings is a full-width alpha-beta four moves deep instead
//! ([`crate::deep`]). Volterra's play is short and sharp (a turn can end
//! the game at once), where random playouts say little: it uses alpha-beta over complete turns
//! with an evaluation of the towers; its free setup, whose worth shows only many moves later,
//! uses the tree search.
//! Levels are fixed budgets of playouts or positions, never of time, so a level plays the same
//! for a given seed on any machine. A CTOR player decides from its own team's view only.

pub mod levels;
pub(crate) mod share;

pub use levels::{LEVELS, Level};
pub(crate) use share::share_out;

use crate::rules::ctor::{Ctor, CtorMove};
use crate::rules::ordo::Rules;
use crate::rules::volterra::{Phase, Volterra, VolterraMove};
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

impl Level {
    /// This level thinking on `threads` threads at once, each with the level's whole budget
    /// and its own fixed seed, merged in a fixed order: with more threads it sees more in the
    /// same time, and plays the same for a given seed and number of threads on any machine.
    /// The tree search grows one tree per thread and adds up their root moves' visits; the
    /// alpha-beta searches share out the root moves.
    pub fn on(self, threads: usize) -> Level {
        Level { threads: threads.clamp(1, MAX_THREADS), ..self }
    }
}

/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// Reads a number of threads given on the command line or to the engine.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    crate::rules::number::<usize>(text)
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| format!("threads '{}' is not a number from 1 to {MAX_THREADS}", crate::rules::quote(text)))
}

/// The cores of this machine (the app's computer thinks on all of them).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)
}

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
fn ranked(
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
            let near = level.slack as f64 / 100.0 + opening_slack(&game);
            let (mv, work, lines) = AlphaBeta::choose(v, level, near, seed, stop);
            Search { mv: mv.map(AnyMove::Volterra), work, unit: "positions", lines }
        }
        AnyGame::Ordo(g) if g.rules() == Rules::Classic && level.deep > 0 => deep_search(&game, level, seed, stop),
        AnyGame::Crossings(_) if level.deep > 0 => deep_search(&game, level, seed, stop),
        AnyGame::Ordo(g) if g.rules() == Rules::X && level.beam > 0 => {
            let (mv, work, lines) = Beam::choose_on(&game, level, seed, stop);
            Search { mv, work, unit: "positions", lines }
        }
        _ => {
            let (mv, work, lines) = mcts(&game, level, seed, stop);
            Search { mv, work, unit: "playouts", lines }
        }
    }
}

/// [`crate::deep`]'s full-width alpha-beta, `level.deep` moves deep within the level's
/// positions, its values turned into the mover's expected result.
fn deep_search(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> Search {
    let near = DEEP_NEAR + opening_slack(game);
    let found = crate::deep::choose(game, level.deep, level.positions, near, level.threads, seed, stop);
    let lines =
        found.lines.into_iter().map(|(mv, v, pv)| Line { mv, score: crate::deep::chance(v), pv, work: 0 }).collect();
    Search { mv: found.mv, work: found.positions, unit: "positions", lines }
}

/// Root moves of the full-width alpha-beta within this many stones of the best are played
/// alike, the seed choosing.
const DEEP_NEAR: f64 = 0.01;

/// Variety by the seed in the first moves: at the start, the alpha-beta searches play alike
/// the root moves up to this much below the best by their own search (in stones for Ordo and
/// Crossings, in tiles for Volterra), less and less as the game leaves its start.
pub const OPENING_SLACK: f64 = 0.3;
/// Squares whose piece differs from the start by which the opening slack is spent: in Ordo
/// and Crossings a move changes two or three (about six moves a side); Volterra's 20 cells
/// and two pawns change three or four a turn, and its games are short (about two turns a
/// side).
const OPENING_SPAN: f64 = 24.0;
const OPENING_SPAN_VOLTERRA: f64 = 8.0;

/// How much further below the best a root move may be and still be played in `game`: the
/// opening slack, shrinking with each square that differs from the variant's start; none in
/// a position far from it (a position set up by hand, a free setup laid out, CTOR).
pub fn opening_slack(game: &AnyGame) -> f64 {
    let start = game.variant().initial();
    let (files, ranks) = game.board_size();
    let cells = (0..ranks).flat_map(|r| (0..files).map(move |f| Cell::new(f, r)));
    let (changed, span) = match (game, &start) {
        (AnyGame::Ctor(_), _) => return 0.0,
        (AnyGame::Volterra(v), AnyGame::Volterra(s)) => (
            cells.filter(|c| v.tower(*c) != s.tower(*c)).count()
                + [Side::First, Side::Second].iter().filter(|side| v.pawn(**side) != s.pawn(**side)).count(),
            OPENING_SPAN_VOLTERRA,
        ),
        _ => (cells.filter(|c| game.piece_at(*c) != start.piece_at(*c)).count(), OPENING_SPAN),
    };
    OPENING_SLACK * (1.0 - changed as f64 / span).max(0.0)
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
                    scope.spawn(move || grow(game, moves, level, rng, stop))
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
fn playout(state: &mut AnyGame, depth: u32, greedy: u32, rng: &mut StdRng) {
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
fn tree_seed(seed: u64, k: usize) -> u64 {
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
        playout(&mut state, level.depth, level.greedy, &mut rng);
        let first_value = evaluate(&state, Side::First);
        // Backpropagation.
        let mut node = Some(at);
        while let Some(i) = node {
            nodes[i].visits += 1;
            nodes[i].value += if nodes[i].mover == Side::First { first_value } else { 1.0 - first_value };
            node = nodes[i].parent;
        }
    }
    (nodes, done)
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

/// A quick hash for the search's sets of positions (not proof against chosen keys, which a
/// search never meets): each word mixed in with a rotate and a multiply.
#[derive(Default)]
struct Quick(u64);

impl Hasher for Quick {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Alpha-beta (negamax) over complete Volterra turns. Turns that lead to the same position
/// (a step and a build in either order often do) are searched once; inner nodes try first the
/// replies that look best. A win counts more the sooner it comes.
struct AlphaBeta<'a> {
    positions: u64,
    budget: u64,
    /// Whether the search met a position whose game goes on at the depth it stops (if an
    /// iteration met none, every line it searched ended, and a deeper one would say the same).
    horizon: bool,
    /// Root turns within this many tiles of the best are equally good; the seed picks one.
    near: f64,
    stop: &'a AtomicBool,
}

/// A finished game, in tiles: more than any count of towers can reach.
const WON: f64 = 1000.0;
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
        let mut seen: HashSet<Volterra, BuildHasherDefault<Quick>> = HashSet::default();
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
    fn choose(
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

/// Ordo X's selective alpha-beta: at each node every turn is looked at one turn ahead with
/// the evaluation, and only the `width` best are searched further. Values are the evaluation's
/// [0, 1] for the side to move. Random playouts say little in Ordo X (most turns are
/// sideways moves that change little); looking at the opponent's best replies says more.
///
/// Master (a level with `deep` > 0) searches this way with its own evaluation ([`stones`]),
/// every turn where a side has at most [`ORDO_X_FULL`] of them (late in the game, when a
/// lone stone can run to the goal row and no turn may be left out), and deepens from `beam`
/// turns up to `beam` + `deep` within the level's positions: an iteration that would pass
/// them is dropped, so the endgame, whose turns are few, is searched much deeper.
struct Beam<'a> {
    width: usize,
    /// Every turn is searched at a node with at most this many (0: the `width` best always).
    full: usize,
    value: fn(&AnyGame, Side) -> f64,
    /// Master: turns after which the opponent wins at once are left out, and the best turn
    /// one turn ahead is the best that leaves no such win (see [`lets_win`]).
    safe: bool,
    /// Master: a turn's value one turn ahead counts the pieces the opponent can then take at
    /// once (see [`Beam::sharpened`]).
    threats: bool,
    positions: u64,
    budget: u64,
    stop: &'a AtomicBool,
}

/// Whether the side to move in `next` (the opponent of the turn that led there) has a turn
/// that wins at once: Ordo's cheap test, which lists no turns.
fn lets_win(next: &AnyGame) -> bool {
    matches!(next, AnyGame::Ordo(g) if g.wins_at_once())
}

/// A node's turns (best-looking first) that its search may choose from, tested one at a time
/// as they are asked for: with `safe`, those that do not let the opponent win at once.
fn kept(safe: bool, turns: &[(f64, AnyMove, AnyGame)]) -> impl Iterator<Item = &(f64, AnyMove, AnyGame)> {
    turns.iter().filter(move |c| !safe || !lets_win(&c.2))
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

/// Master's evaluation of an Ordo X position for `side`, in [0, 1]: the full-width search's
/// stones (material, average advance, the furthest stone; see [`crate::deep`]) as a chance;
/// a reached goal row or a side without stones decides. A stone counts more than a rank of
/// advance here, as in the baseline's evaluation ([`evaluate`] counts a quarter for a stone
/// against 0.4 for a rank of the furthest stone).
fn stones(game: &AnyGame, side: Side) -> f64 {
    if let AnyGame::Ordo(g) = game
        && let Some(o) = g.finished()
    {
        return if o.winner == Some(side) { 1.0 } else { 0.0 };
    }
    crate::deep::chance(crate::deep::quick(game, side))
}

impl Beam<'_> {
    fn for_level(level: Level, stop: &AtomicBool) -> Beam<'_> {
        if level.deep > 0 {
            let budget = level.positions.saturating_mul(ORDO_X_POSITIONS);
            Beam {
                width: level.width,
                full: ORDO_X_FULL,
                value: stones,
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
                safe: false,
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
        crate::deep::chance(crate::deep::quick(next, mover) - lost + THREAT_NEXT * threatened as f64)
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
            if (full && chosen[width - 1].0 >= v) || (self.safe && lets_win(&turn.2)) {
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
    fn choose_on(game: &AnyGame, level: Level, seed: u64, stop: &AtomicBool) -> (Option<AnyMove>, u64, Vec<Line>) {
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

/// The cells a move changes, for showing a hint.
pub fn hint_cells(game: &AnyGame, mv: &AnyMove) -> Vec<Cell> {
    (0..mv.parts().len())
        .flat_map(|k| game.move_paths(mv, k))
        .flat_map(|(a, b)| [a, b])
        .chain(game.click_cell(mv))
        .collect()
}

/// The level that weighs positions for the evaluation bar and the review: strong enough to
/// see the tactics, fast enough to answer within a few tenths of a second.
pub const EVAL_LEVEL: usize = 2;

/// Who stands better, from the computer's view: the first side's expected result, from 0
/// (lost) to 1 (won), as the search at [`EVAL_LEVEL`] sees it (a game over counts as it
/// ended). For CTOR it sees only the public position: no secret square, the mover's own
/// included.
pub fn evaluation(game: &AnyGame) -> f64 {
    weigh(game).value
}

/// A position as the review weighs it: the first side's expected result, and what the mover
/// expects after each move the search weighed (the best first).
#[derive(Clone, Debug, PartialEq)]
pub struct Weighed {
    pub value: f64,
    pub moves: Vec<(AnyMove, f64)>,
}

/// [`evaluation`], with the mover's expectation after each move weighed.
pub fn weigh(game: &AnyGame) -> Weighed {
    if game.outcome().is_some() {
        return Weighed { value: evaluate(game, Side::First), moves: Vec::new() };
    }
    // What everyone may know: CTOR's secret squares (the mover's own too) are left out, so that
    // the bar, the live feed and the review tell nothing about them.
    let public;
    let game = match game {
        AnyGame::Ctor(_) => {
            public = game.to_string().parse::<AnyGame>().unwrap_or_else(|_| game.clone());
            &public
        }
        _ => game,
    };
    let s = search(game, LEVELS[EVAL_LEVEL], 0);
    let best = s.lines.iter().find(|l| Some(&l.mv) == s.mv.as_ref()).map_or(0.5, |l| l.score);
    // The tree search's best move's average leans towards the side to move: it is the best of
    // many noisy averages. Fresh playouts after that move, which chose nothing, do not lean.
    let mover = match (&s.mv, s.unit) {
        (Some(mv), "playouts") => {
            let mut after = game.clone();
            after.play_unchecked(mv);
            fresh(&after, game.side_to_move(), LEVELS[EVAL_LEVEL])
        }
        _ => best,
    };
    let value = if game.side_to_move() == Side::First { mover } else { 1.0 - mover };
    // The tree search's estimate of a move it barely tried says little.
    let moves =
        s.lines.iter().filter(|l| s.unit != "playouts" || l.work >= 8).map(|l| (l.mv.clone(), l.score)).collect();
    Weighed { value, moves }
}

/// Playouts after which the evaluation is measured afresh.
const FRESH: u32 = 256;

/// The average result for `side` of [`FRESH`] seeded random playouts from `game` (a public
/// position, see [`weigh`]), cut off at the level's depth and scored by [`evaluate`], as the
/// tree search's are.
fn fresh(game: &AnyGame, side: Side, level: Level) -> f64 {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    let mut total = 0.0;
    for _ in 0..FRESH {
        let mut state = game.clone();
        playout(&mut state, level.depth, level.greedy, &mut rng);
        total += evaluate(&state, side);
    }
    total / FRESH as f64
}

/// The evaluation in words: who stands better and how much, for a bar's label.
pub fn standing(variant: crate::rules::Variant, first: f64) -> String {
    let (side, chance) = if first >= 0.5 { (Side::First, first) } else { (Side::Second, 1.0 - first) };
    let pct = (chance * 100.0).round();
    match chance {
        c if c >= 0.999 => format!("{} wins", variant.side_name(side)),
        c if c < 0.53 => "even".into(),
        c if c < 0.65 => format!("{} slightly better ({pct:.0}%)", variant.side_name(side)),
        c if c < 0.85 => format!("{} better ({pct:.0}%)", variant.side_name(side)),
        _ => format!("{} winning ({pct:.0}%)", variant.side_name(side)),
    }
}

/// A move the review found costly: its number (1 for the first move), what the mover's
/// expected result was before and after it, and the loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub ply: usize,
    pub before: f64,
    pub after: f64,
    pub loss: f64,
}

/// Moves that cost less than this (a tenth of the game) are not marked.
pub const MISTAKE: f64 = 0.1;

/// Each position of a game weighed (the start, then after each move), until `stop` (a
/// shorter list); `progress` hears how many are done.
pub fn review(positions: &[AnyGame], stop: &AtomicBool, progress: &mut dyn FnMut(usize)) -> Vec<Weighed> {
    let mut out = Vec::with_capacity(positions.len());
    for game in positions {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        out.push(weigh(game));
        progress(out.len());
    }
    out
}

/// The moves that lost most by the review (`weighed[i]` is `positions[i]`'s), the worst first,
/// at most `top`, each losing at least [`MISTAKE`] (`moves[i]` leads from `positions[i]` to the
/// next). A move's loss is measured within one search,
/// the one before it: what the best move promised the mover, less what the move played did
/// (both seen from the same side, so the search's lean towards the side to move cancels out);
/// a move that search did not weigh is measured by the position after it.
pub fn mistakes(positions: &[AnyGame], moves: &[AnyMove], weighed: &[Weighed], top: usize) -> Vec<Mistake> {
    let mut out: Vec<Mistake> = (1..weighed.len().min(positions.len()).min(moves.len() + 1))
        .filter_map(|ply| {
            let (game, w) = (&positions[ply - 1], &weighed[ply - 1]);
            let mover = game.side_to_move();
            let mine = |v: f64| if mover == Side::First { v } else { 1.0 - v };
            let best = w.moves.first().map_or(mine(w.value), |m| m.1);
            let after = w.moves.iter().find(|(mv, _)| *mv == moves[ply - 1]).map_or(mine(weighed[ply].value), |m| m.1);
            (best - after >= MISTAKE).then_some(Mistake { ply, before: best, after, loss: best - after })
        })
        .collect();
    out.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
    out.truncate(top);
    out
}
