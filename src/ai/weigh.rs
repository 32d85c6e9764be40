//! The table's use of the computer: the cells a hint shows, the evaluation bar's weighing of a
//! position, and the review of a finished game (`tablero review`, the broadcast's marks).

use super::eval::evaluate;
use super::mcts::playout;
use super::{LEVELS, Level, search};
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::atomic::{AtomicBool, Ordering};

/// The cells a move changes, for showing a hint.
pub fn hint_cells(game: &AnyGame, mv: &AnyMove) -> Vec<Cell> {
    (0..mv.parts().len())
        .flat_map(|k| game.move_paths(mv, k))
        .flat_map(|(a, b)| [a, b])
        .chain(game.click_cell(mv))
        .collect()
}

/// The level that weighs positions for the evaluation bar, the review and the hint: master,
/// the strongest opponent's own search, so that what the bar and a hint say is as good as the
/// computer that plays (about a second a position on one core).
pub const EVAL_LEVEL: usize = 3;

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
    // The tree search's estimate of a move it barely tried says little; an alpha-beta's value
    // of a move below the best is only a bound (it stopped at the first reply that refuted
    // it), so such a move is measured by the position after it.
    let exact = |l: &super::Line| match s.unit {
        "playouts" => l.work >= 8,
        _ => l.score >= best - 1e-9,
    };
    let moves = s.lines.iter().filter(|l| exact(l)).map(|l| (l.mv.clone(), l.score)).collect();
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
