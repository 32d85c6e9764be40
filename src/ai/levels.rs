//! The computer's levels: each a named strength, the searches' budgets and margins. Records,
//! players and the table name them from here, below every search.

/// A named strength: how many playouts a move gets and how deep each one goes (tree search);
/// how many turns ahead alpha-beta looks, within a budget of positions, and how far below the
/// best a turn may be and still be played (the seed chooses among those).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub playouts: u32,
    pub depth: u32,
    /// Alpha-beta (Volterra): the most turns searched; the search deepens a turn at a time
    /// while the next iteration looks likely to fit `volterra_positions` and some line
    /// searched has not ended (master's 20 reach the game's end in most endgames).
    pub plies: u32,
    /// The full-width alpha-beta (Ordo, Crossings) and Ordo X's selective one: positions
    /// searched at most; a deeper iteration that would pass it is dropped.
    pub positions: u64,
    /// Volterra's alpha-beta: positions searched at most, the same way. Larger than
    /// `positions`, as a Volterra position costs a fraction of an Ordo one.
    pub volterra_positions: u64,
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
    /// Ordo Classic and Crossings: moves ahead of a full-width alpha-beta (see
    /// [`crate::ai::deep`]) within `positions`; 0 for the tree search. Ordo X: how many turns
    /// past `beam` the selective alpha-beta may deepen within its budget (see `Beam`), with
    /// master's evaluation; 0 for exactly `beam` turns.
    pub deep: u32,
    /// CTOR: each Put of a playout is the best of this many random Puts for the mover's
    /// lead in discs; 1 for plain random playouts.
    pub greedy: u32,
    /// CTOR: the tree search's playouts a move, in place of `playouts`. A CTOR game is long and
    /// one playout says little of a position: at Ordo's 48 playouts easy beat the random mover
    /// only 31 of 40 times in CTOR 8 × 8, at 96, 39 of 40.
    pub ctor_playouts: u32,
    /// Threads the search runs on (see [`Level::on`]); 1 for every named level.
    pub threads: usize,
}

/// The levels, weakest first. Volterra's gaps between depths are uneven (with the table of
/// positions, three turns ahead beat two only 40 of 60 times, one turn ahead beat one played
/// loosely 46 of 60), so its levels are one turn ahead played loosely, two turns, four turns
/// within 300 000 positions, and for master at least four turns, deeper as far as its budget
/// allows.
pub const LEVELS: [Level; 4] = [
    Level {
        name: "easy",
        playouts: 48,
        depth: 16,
        plies: 1,
        positions: 10_000,
        volterra_positions: 10_000,
        slack: 1000,
        width: 0,
        beam: 0,
        guard: false,
        deep: 0,
        greedy: 1,
        ctor_playouts: 96,
        threads: 1,
    },
    Level {
        name: "medium",
        playouts: 192,
        depth: 24,
        plies: 2,
        positions: 10_000,
        volterra_positions: 10_000,
        slack: 5,
        width: 32,
        beam: 0,
        guard: false,
        deep: 0,
        greedy: 1,
        ctor_playouts: 256,
        threads: 1,
    },
    Level {
        name: "hard",
        playouts: 768,
        depth: 32,
        plies: 4,
        positions: 50_000,
        volterra_positions: 300_000,
        slack: 5,
        width: 6,
        beam: 2,
        guard: false,
        deep: 0,
        greedy: 4,
        ctor_playouts: 768,
        threads: 1,
    },
    Level {
        name: "master",
        playouts: 2048,
        depth: 40,
        plies: 20,
        positions: 600_000,
        volterra_positions: 2_400_000,
        slack: 5,
        width: 10,
        beam: 3,
        guard: true,
        deep: 4,
        greedy: 8,
        ctor_playouts: 2048,
        threads: 1,
    },
];
