//! What a position is worth, per game, for every search and the baseline.
//!
//! One count per game, [`material`]: a side's stones and how far they have come on average
//! from their own home row (Ordo, Crossings, where a crossed stone counts three more), its tiles
//! and tallest tower (Volterra), its discs (CTOR). The baseline plays on it as it is
//! ([`baseline`]); the full-width alpha-beta adds Ordo's furthest stone and cut groups
//! ([`in_stones`]); Ordo X's master turns that into a chance ([`chance`]). Two searches weigh
//! differently, each for a reason given where it is defined: the tree search's playouts
//! ([`evaluate`]) and Volterra's alpha-beta ([`towers`]).
//!
//! A finished game is worth [`WON`] in the searches that count in stones or tiles, and 1 (0 for
//! a loss) in those that count a chance.

use crate::rules::ordo::{Ordo, cut_points};
use crate::rules::volterra::Volterra;
use crate::rules::{AnyGame, Game, Side};

/// A finished game, in stones or tiles: more than any evaluation reaches.
pub const WON: f64 = 10_000.0;

/// Ordo: what each rank of the furthest stone's advance is worth, in stones, beside the
/// average advance (a stone near the goal row is a threat of its own).
pub(crate) const FURTHEST: f64 = 0.3;

/// Ordo Classic: what each of a side's pieces that the other can take and so cut its group
/// costs, in stones (a cut group must reconnect at once or lose). Measured against
/// `ai:baseline`: 0.4 won 97 and 98 of 100 (seeds 21, 22) where none won 94 and 94, and 0.8
/// won 95 (seed 21).
pub(crate) const CUT: f64 = 0.4;

/// A side's stones on a board `FILES` wide and `RANKS` deep (square `rank * FILES + file`): how
/// many, the sum of their advances from the side's own home row, and the furthest.
struct Stones {
    count: u32,
    advance: u32,
    furthest: u32,
}

/// A bitboard: how many squares of one of its rows are set.
trait Bits: Copy {
    fn in_row<const FILES: u32>(self, rank: u32) -> u32;
}

impl Bits for u64 {
    fn in_row<const FILES: u32>(self, rank: u32) -> u32 {
        ((self >> (rank * FILES)) & ((1 << FILES) - 1)).count_ones()
    }
}

impl Bits for u128 {
    fn in_row<const FILES: u32>(self, rank: u32) -> u32 {
        ((self >> (rank * FILES)) & ((1 << FILES) - 1)).count_ones()
    }
}

#[inline]
fn stones_of<B: Bits, const FILES: u32, const RANKS: u32>(bits: B, side: Side) -> Stones {
    let mut s = Stones { count: 0, advance: 0, furthest: 0 };
    // Row by row: a search weighs every position it meets, so this is counted, not walked.
    for rank in 0..RANKS {
        let n = bits.in_row::<FILES>(rank);
        let advance = if side == Side::First { rank } else { RANKS - 1 - rank };
        s.count += n;
        s.advance += n * advance;
        if n > 0 {
            s.furthest = s.furthest.max(advance);
        }
    }
    s
}

#[inline]
fn ordo(g: &crate::rules::ordo::Ordo, side: Side) -> Stones {
    stones_of::<u128, 10, 8>(g.pieces(side), side)
}

#[inline]
fn crossings(g: &crate::rules::crossings::Crossings, side: Side) -> Stones {
    stones_of::<u64, 8, 8>(g.stones(side), side)
}

impl Stones {
    /// The average advance.
    fn average(&self) -> f64 {
        if self.count > 0 { self.advance as f64 / self.count as f64 } else { 0.0 }
    }

    /// The stones and their average advance.
    fn material(&self) -> f64 {
        self.count as f64 + self.average()
    }
}

/// `side`'s material (not the difference): see the module's summary. It does not look for the
/// end of the game.
pub fn material(game: &AnyGame, side: Side) -> f64 {
    match game {
        AnyGame::Ordo(g) => ordo(g, side).material(),
        AnyGame::Crossings(g) => {
            let st = crossings(g, side);
            st.count as f64 + 3.0 * g.crossed(side) as f64 + st.average()
        }
        AnyGame::Volterra(g) => {
            let h = g.heights(side);
            h.iter().map(|&x| x as f64).sum::<f64>() + h.first().copied().unwrap_or(0) as f64
        }
        AnyGame::Ctor(g) => g.count(side) as f64,
    }
}

/// The baseline's evaluation: [`WON`] for a won game (minus for a lost one, 0 for a draw), else
/// `side`'s [`material`] less the opponent's.
pub fn baseline(game: &AnyGame, side: Side) -> f64 {
    if let Some(o) = game.outcome() {
        return match o.winner {
            Some(w) if w == side => WON,
            Some(_) => -WON,
            None => 0.0,
        };
    }
    material(game, side) - material(game, side.other())
}

/// The full-width alpha-beta's evaluation of a position that is not over, from `side`'s view,
/// in stones: [`material`], and in Ordo the furthest stone's advance at [`FURTHEST`] a rank
/// less [`CUT`] for each piece whose capture would cut its group; one side's less the other's.
/// It does not look for the end of the game: the search does.
pub(crate) fn in_stones(game: &AnyGame, side: Side) -> f64 {
    weigh(game, side, |g, s| g.exposed_cuts(s))
}

/// [`in_stones`] with `cuts` for Ordo's count of the pieces whose capture would cut a group.
fn weigh(game: &AnyGame, side: Side, mut cuts: impl FnMut(&Ordo, Side) -> u32) -> f64 {
    let mut of = |s: Side| match game {
        AnyGame::Ordo(g) => {
            let st = ordo(g, s);
            st.material() + FURTHEST * st.furthest as f64 - CUT * cuts(g, s) as f64
        }
        _ => material(game, s),
    };
    of(side) - of(side.other())
}

/// The cut points of the Ordo groups a search has met, each found once: most of an Ordo
/// evaluation's time goes to them, and a search asks for the same group again and again (the
/// side that did not move keeps its pieces, and each deeper iteration meets the positions of
/// the last). A fixed table of the latest group in each slot, so it never grows.
pub(crate) struct Cuts {
    slots: Vec<(u128, u128)>,
}

impl Cuts {
    const SLOTS: u32 = 12;

    pub(crate) fn new() -> Cuts {
        // (0, 0) is right for an empty side, so an unused slot is never wrong.
        Cuts { slots: vec![(0, 0); 1 << Self::SLOTS] }
    }

    /// The cut points of the group `own` ([`cut_points`]).
    fn points(&mut self, own: u128) -> u128 {
        let h = ((own as u64) ^ ((own >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.slots[(h >> (64 - Self::SLOTS)) as usize];
        if slot.0 != own {
            *slot = (own, cut_points(own));
        }
        slot.1
    }

    /// [`in_stones`], the same value, with the cut points kept.
    pub(crate) fn in_stones(&mut self, game: &AnyGame, side: Side) -> f64 {
        weigh(game, side, |g, s| (g.in_reach(s) & self.points(g.pieces(s))).count_ones())
    }
}

/// A value in stones as the mover's expected result, from 0 (lost) to 1 (won).
pub fn chance(value: f64) -> f64 {
    if value >= WON / 2.0 {
        1.0
    } else if value <= -WON / 2.0 {
        0.0
    } else {
        1.0 / (1.0 + (-value / 2.0).exp())
    }
}

/// Ordo X master's evaluation for `side`, in [0, 1]: [`in_stones`] as a [`chance`]; a reached
/// goal row or a side without stones decides.
pub(crate) fn ordo_x(game: &AnyGame, side: Side) -> f64 {
    if let AnyGame::Ordo(g) = game
        && let Some(o) = g.finished()
    {
        return if o.winner == Some(side) { 1.0 } else { 0.0 };
    }
    chance(in_stones(game, side))
}

/// The tree search's quick guess of how good the position is for `side`, in [0, 1]: its
/// playouts are cut off and scored many thousand times a move, so it weighs few things, and
/// lightly (a stone a quarter and a rank of the furthest stone 0.4 in Ordo; a crossed stone 1.5,
/// a stone 0.3 and each rank of advance 0.05 in Crossings; Volterra's [`towers`]; a disc 0.15 in
/// CTOR), as the levels were measured with.
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
            let (mine, theirs) = (ordo(g, side), ordo(g, other));
            0.25 * (mine.count as f64 - theirs.count as f64)
                + 0.4 * (mine.furthest as i32 - theirs.furthest as i32) as f64
        }
        AnyGame::Crossings(g) => {
            let (mine, theirs) = (crossings(g, side), crossings(g, other));
            1.5 * (g.crossed(side) as f64 - g.crossed(other) as f64)
                + 0.3 * (mine.count as f64 - theirs.count as f64)
                + 0.05 * (mine.advance as f64 - theirs.advance as f64)
        }
        AnyGame::Volterra(g) => towers(g, side),
        AnyGame::Ctor(g) => 0.15 * (g.count(side) as f64 - g.count(other) as f64),
    };
    1.0 / (1.0 + (-score).exp())
}

/// Volterra's towers as the final count sees them, for `side`, in tiles: the differences of
/// the two sides' heights tallest first, each weighted half the one before (the first
/// difference decides at the end). Volterra's alpha-beta and the tree search weigh by it rather
/// than by [`material`], because a game ends on the count of towers, tallest first.
pub(crate) fn towers(g: &Volterra, side: Side) -> f64 {
    let (mine, theirs) = (g.heights(side), g.heights(side.other()));
    let at = |v: &Vec<u8>, i: usize| v.get(i).copied().unwrap_or(0) as f64;
    (0..mine.len().max(theirs.len())).map(|i| (at(&mine, i) - at(&theirs, i)) * 0.5f64.powi(i as i32)).sum()
}
