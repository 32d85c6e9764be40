//! Volterra (Julien Griffon) on a 4 × 5 grid of tile towers, and its free-setup variant.
//! Owns pawn steps, builds (one or two tiles, the free-side rule, `build-near-source`),
//! splitting into parts, the end and the tallest-first scoring, and the Volterra notation.

use super::{Cell, Effect, Game, MoveError, Outcome, PositionError, Reason, Side, Variant, illegal, syntax};
use std::fmt;
use std::str::FromStr;

pub const FILES: u8 = 4;
pub const RANKS: u8 = 5;
const CELLS: usize = 20;
/// Tiles of each colour in the set.
pub const TILES_PER_COLOUR: u32 = 10;

/// Rule options for a Volterra game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Options {
    /// A build's destination must be next to the source tower instead of next to the pawn.
    pub build_near_source: bool,
}

/// A stack of tiles on one cell: `height` tiles, bit i of `dark` set when tile i (from the
/// bottom) is dark. Height 0 is a hole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tower {
    pub height: u8,
    pub dark: u32,
}

impl Tower {
    /// The colour of tile `i` from the bottom: the side that owns that colour.
    pub fn tile(&self, i: u8) -> Side {
        if self.dark >> i & 1 == 1 { Side::Second } else { Side::First }
    }

    /// The owner: the colour of the top tile.
    pub fn owner(&self) -> Option<Side> {
        (self.height > 0).then(|| self.tile(self.height - 1))
    }

    pub fn is_hole(&self) -> bool {
        self.height == 0
    }

    /// The tiles from the bottom up.
    pub fn tiles(&self) -> Vec<Side> {
        (0..self.height).map(|i| self.tile(i)).collect()
    }
}

fn cell(i: u8) -> Cell {
    Cell::new(i % FILES, i / FILES)
}

fn index(c: Cell) -> Option<u8> {
    (c.file < FILES && c.rank < RANKS).then(|| c.rank * FILES + c.file)
}

/// Whether two cells touch, corners included.
const fn adjacent(a: u8, b: u8) -> bool {
    let (ax, ay, bx, by) = ((a % FILES) as i8, (a / FILES) as i8, (b % FILES) as i8, (b / FILES) as i8);
    a != b && (ax - bx).abs() <= 1 && (ay - by).abs() <= 1
}

/// The cells touching each cell, corners included, as bit masks (bit i for cell i).
const NEIGHBOURS: [u32; CELLS] = {
    let mut masks = [0u32; CELLS];
    let mut a = 0;
    while a < CELLS {
        let mut b = 0;
        while b < CELLS {
            if adjacent(a as u8, b as u8) {
                masks[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    masks
};

/// The cells of a bit mask, lowest first.
fn cells_of(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            i
        })
    })
}

/// The top one or two tiles of `source`, as a tower of their own.
fn lifted(source: Tower, two: bool) -> Tower {
    let n = if two { 2 } else { 1 };
    Tower { height: n, dark: (source.dark >> (source.height - n)) & ((1 << n) - 1) }
}

/// One of the two actions of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The mover's pawn steps from one tower to a neighbouring one.
    Step { from: u8, to: u8 },
    /// The top one or two tiles of `src` go onto `dst`.
    Build { src: u8, dst: u8, two: bool },
}

impl Action {
    /// The cells it goes from and to: the pawn's step, or the build's source and destination.
    pub fn path(&self) -> (Cell, Cell) {
        match *self {
            Action::Step { from, to } => (cell(from), cell(to)),
            Action::Build { src, dst, .. } => (cell(src), cell(dst)),
        }
    }
}

impl Action {
    /// The action in words, for the chooser.
    pub fn describe(&self) -> String {
        match *self {
            Action::Step { from, to } => format!("the pawn steps {} to {}", cell(from), cell(to)),
            Action::Build { src, dst, two } => {
                format!("lift {} from {} onto {}", if two { "two tiles" } else { "one tile" }, cell(src), cell(dst))
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Step { from, to } => write!(f, "P{}-{}", cell(from), cell(to)),
            Action::Build { src, dst, two } => write!(f, "{}{}{}", cell(src), if two { '=' } else { '-' }, cell(dst)),
        }
    }
}

/// A move: a complete turn of two actions in the order played, or a free-setup placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VolterraMove {
    Turn(Action, Action),
    /// Free setup: lay a tile of the mover's colour on an empty cell.
    Lay(u8),
    /// Free setup: put the mover's pawn on a tower of its colour.
    Place(u8),
}

impl fmt::Display for VolterraMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VolterraMove::Turn(a, b) => write!(f, "{a},{b}"),
            VolterraMove::Lay(c) => write!(f, "+{}", cell(*c)),
            VolterraMove::Place(c) => write!(f, "@{}", cell(*c)),
        }
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Free setup: tiles are laid one at a time.
    Laying,
    /// Free setup: the grid is full, pawns are put on it.
    PlacingPawns,
    Play,
}

/// A Volterra position.
///
/// ```
/// use tablero::rules::{Game, volterra::{Options, Volterra}};
/// assert_eq!(Volterra::initial(Options::default()).legal_moves().len(), 86);
/// assert_eq!(Volterra::initial(Options { build_near_source: true }).legal_moves().len(), 54);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Volterra {
    towers: [Tower; CELLS],
    pawns: [Option<u8>; 2],
    side: Side,
    free: bool,
    options: Options,
}

impl Volterra {
    pub fn initial(options: Options) -> Volterra {
        let mut v: Volterra =
            "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l".parse().expect("the initial position parses");
        v.options = options;
        v
    }

    /// The empty grid of the free-setup variant, light to lay the first tile.
    pub fn free_setup(options: Options) -> Volterra {
        Volterra { towers: [Tower::default(); CELLS], pawns: [None; 2], side: Side::First, free: true, options }
    }

    /// The same start with `first` to play first. The seed: "each player chooses a colour and
    /// the starting player is designated". For the start positions only (the initial grid, or
    /// the empty grid of the free setup, where the first player also lays first and puts their
    /// pawn first).
    pub fn first_player(self, first: Side) -> Volterra {
        Volterra { side: first, ..self }
    }

    pub fn options(&self) -> Options {
        self.options
    }

    pub fn tower(&self, c: Cell) -> Option<Tower> {
        index(c).map(|i| self.towers[i as usize])
    }

    pub fn pawn(&self, side: Side) -> Option<Cell> {
        self.pawns[side.index()].map(cell)
    }

    /// The position after one action of the side to move (still to move), and its effects:
    /// what the table shows while the second action is chosen.
    pub fn after_action(&self, action: &Action) -> (Volterra, Vec<Effect>) {
        let mut next = self.clone();
        let effects = next.act(action);
        (next, effects)
    }

    /// Why the side to move cannot use the tower on `c` as a build source now, if it is its own.
    pub fn why_not_source(&self, c: Cell) -> Option<String> {
        let i = index(c)?;
        let t = self.towers[i as usize];
        if t.owner() != Some(self.side) || self.phase() != Phase::Play {
            return None;
        }
        let pawn = self.pawns[self.side.index()]?;
        Some(if self.has_pawn(i) {
            return None;
        } else if !adjacent(pawn, i) {
            format!("the tower on {c} is not next to your pawn")
        } else if !self.has_free_side(i) {
            format!("the tower on {c} has no free side (no hole or edge beside it)")
        } else {
            format!("the tower on {c} cannot be used now")
        })
    }

    pub fn phase(&self) -> Phase {
        if self.pawns.iter().all(Option::is_some) {
            Phase::Play
        } else if self.towers.iter().any(Tower::is_hole) {
            Phase::Laying
        } else {
            Phase::PlacingPawns
        }
    }

    fn has_pawn(&self, i: u8) -> bool {
        self.pawns.contains(&Some(i))
    }

    /// A tower with at least one orthogonal neighbour that is a hole or off the grid.
    pub fn has_free_side(&self, i: u8) -> bool {
        let (x, y) = (i % FILES, i / FILES);
        x == 0
            || y == 0
            || x == FILES - 1
            || y == RANKS - 1
            || [i - 1, i + 1, i - FILES, i + FILES].iter().any(|&n| self.towers[n as usize].is_hole())
    }

    /// The heights of a side's towers, tallest first.
    pub fn heights(&self, side: Side) -> Vec<u8> {
        let mut h: Vec<u8> = self.towers.iter().filter(|t| t.owner() == Some(side)).map(|t| t.height).collect();
        h.sort_unstable_by(|a, b| b.cmp(a));
        h
    }

    fn steps(&self, out: &mut Vec<Action>) {
        let Some(from) = self.pawns[self.side.index()] else {
            return;
        };
        for to in cells_of(NEIGHBOURS[from as usize]) {
            if self.towers[to as usize].owner() == Some(self.side) && !self.has_pawn(to) {
                out.push(Action::Step { from, to });
            }
        }
    }

    fn builds(&self, out: &mut Vec<Action>) {
        let Some(pawn) = self.pawns[self.side.index()] else {
            return;
        };
        for src in cells_of(NEIGHBOURS[pawn as usize]) {
            let t = self.towers[src as usize];
            if t.owner() != Some(self.side) || self.has_pawn(src) || !self.has_free_side(src) {
                continue;
            }
            let near = if self.options.build_near_source { src } else { pawn };
            for dst in cells_of(NEIGHBOURS[near as usize]) {
                if dst != src && !self.towers[dst as usize].is_hole() && !self.has_pawn(dst) {
                    out.push(Action::Build { src, dst, two: false });
                    if t.height >= 2 {
                        out.push(Action::Build { src, dst, two: true });
                    }
                }
            }
        }
    }

    /// Plays one action for the side to move (the side does not change), and says what it did.
    fn act(&mut self, action: &Action) -> Vec<Effect> {
        let mut effects = vec![match *action {
            Action::Step { from, to } => Effect::PawnMoved { side: self.side, from: cell(from), to: cell(to) },
            Action::Build { src, dst, two } => {
                let (s, d) = (self.towers[src as usize], self.towers[dst as usize]);
                Effect::Stacked {
                    from: cell(src),
                    to: cell(dst),
                    tiles: lifted(s, two).tiles(),
                    from_height: s.height,
                    to_height: d.height,
                }
            }
        }];
        let removed = self.act_quietly(action);
        effects.extend(cells_of(removed).map(|i| Effect::Removed { at: cell(i) }));
        effects
    }

    /// Plays one action for the side to move (the side does not change); returns the cells
    /// whose towers were removed because the build cut them off from both pawns.
    fn act_quietly(&mut self, action: &Action) -> u32 {
        match *action {
            Action::Step { to, .. } => {
                self.pawns[self.side.index()] = Some(to);
                0
            }
            Action::Build { src, dst, two } => {
                let (s, d) = (self.towers[src as usize], self.towers[dst as usize]);
                let lifted = lifted(s, two);
                let rest = s.height - lifted.height;
                self.towers[src as usize] = Tower { height: rest, dark: s.dark & ((1u32 << rest) - 1) };
                self.towers[dst as usize] =
                    Tower { height: d.height + lifted.height, dark: d.dark | (lifted.dark << d.height) };
                self.split()
            }
        }
    }

    /// Removes every 8-connected part of occupied cells that holds no pawn; returns the cells
    /// removed.
    fn split(&mut self) -> u32 {
        let occupied = (0..CELLS).filter(|&i| !self.towers[i].is_hole()).fold(0u32, |m, i| m | 1 << i);
        let mut kept = self.pawns.iter().flatten().fold(0u32, |m, &p| m | 1 << p) & occupied;
        loop {
            let grown = cells_of(kept).fold(kept, |m, i| m | NEIGHBOURS[i as usize]) & occupied;
            if grown == kept {
                break;
            }
            kept = grown;
        }
        let removed = occupied & !kept;
        for i in cells_of(removed) {
            self.towers[i as usize] = Tower::default();
        }
        removed
    }

    /// Whether the side to move has a complete turn (stops at the first one found).
    pub fn has_turn(&self) -> bool {
        self.each_turn_until(|_, _, second| !second.is_empty())
    }

    /// Each first action of a turn with the position after it and the second actions that
    /// can follow it, in the order of [`Game::legal_moves`].
    fn each_turn(&self, mut f: impl FnMut(Action, &Volterra, &[Action])) {
        self.each_turn_until(|a, next, second| {
            f(a, next, second);
            false
        });
    }

    /// [`Self::each_turn`] until `f` says to stop; whether it did.
    fn each_turn_until(&self, mut f: impl FnMut(Action, &Volterra, &[Action]) -> bool) -> bool {
        let mut first = Vec::new();
        self.steps(&mut first);
        self.builds(&mut first);
        let mut second = Vec::new();
        for a in first {
            let mut next = self.clone();
            next.act_quietly(&a);
            second.clear();
            match a {
                Action::Step { .. } => next.builds(&mut second),
                Action::Build { .. } => next.steps(&mut second),
            }
            if f(a, &next, &second) {
                return true;
            }
        }
        false
    }

    /// Every complete turn: step then build, or build then step.
    fn turns(&self) -> Vec<VolterraMove> {
        let mut out = Vec::new();
        self.each_turn(|a, _, second| out.extend(second.iter().map(|b| VolterraMove::Turn(a, *b))));
        out
    }

    fn why_illegal(&self, mv: &VolterraMove) -> String {
        let name = self.variant().side_name(self.side);
        match (self.phase(), mv) {
            (Phase::Laying, VolterraMove::Lay(c)) => format!("{} is not an empty cell", cell(*c)),
            (Phase::Laying, _) => {
                format!("the grid is being filled: {name} lays a tile with +cell")
            }
            (Phase::PlacingPawns, VolterraMove::Place(c)) => {
                format!("{} is not a tower of {name}'s colour without a pawn", cell(*c))
            }
            (Phase::PlacingPawns, _) => format!("{name} puts the pawn on a tower with @cell"),
            (Phase::Play, VolterraMove::Turn(a, b)) => {
                if self.outcome().is_some() {
                    return "the game is over".into();
                }
                if matches!(
                    (a, b),
                    (Action::Step { .. }, Action::Step { .. }) | (Action::Build { .. }, Action::Build { .. })
                ) {
                    return "a turn is one pawn step and one build, in either order".into();
                }
                let mut pos = self.clone();
                for (k, action) in [a, b].into_iter().enumerate() {
                    let mut options = Vec::new();
                    pos.steps(&mut options);
                    pos.builds(&mut options);
                    if !options.contains(action) {
                        let which = if k == 0 { "first" } else { "second" };
                        return match *action {
                            Action::Step { from, .. } if pos.pawns[self.side.index()] != Some(from) => {
                                format!("{name}'s pawn is not on {}", cell(from))
                            }
                            Action::Step { to, .. } => format!(
                                "the {which} action: the pawn steps only to a neighbouring tower of {name}'s colour without a pawn, not {}",
                                cell(to)
                            ),
                            Action::Build { src, .. }
                                if pos.towers[src as usize].owner() == Some(self.side) && !pos.has_free_side(src) =>
                            {
                                format!("the tower on {} has no free side", cell(src))
                            }
                            _ => format!("the {which} action {action} is not a legal build here"),
                        };
                    }
                    pos.act_quietly(action);
                }
                "not a legal turn here".into()
            }
            (Phase::Play, _) => "setup is over: a turn is a pawn step and a build".into(),
        }
    }
}

impl Game for Volterra {
    type Move = VolterraMove;

    fn variant(&self) -> Variant {
        if self.free { Variant::VolterraFree } else { Variant::Volterra }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self) -> Vec<VolterraMove> {
        match self.phase() {
            Phase::Laying => {
                (0..CELLS as u8).filter(|&i| self.towers[i as usize].is_hole()).map(VolterraMove::Lay).collect()
            }
            Phase::PlacingPawns => (0..CELLS as u8)
                .filter(|&i| self.towers[i as usize].owner() == Some(self.side) && !self.has_pawn(i))
                .map(VolterraMove::Place)
                .collect(),
            Phase::Play => self.turns(),
        }
    }

    /// Counts without listing: the turns after each first action.
    fn count_moves(&self) -> u64 {
        if self.phase() != Phase::Play {
            return self.legal_moves().len() as u64;
        }
        let mut n = 0;
        self.each_turn(|_, _, second| n += second.len() as u64);
        n
    }

    /// Each turn from the position after its first action, which the turns sharing that
    /// action share.
    fn successors(&self, f: &mut dyn FnMut(VolterraMove, Volterra)) {
        if self.phase() != Phase::Play {
            return super::each_played(self, f);
        }
        self.each_turn(|a, mid, second| {
            for b in second {
                let mut next = mid.clone();
                next.act_quietly(b);
                next.side = next.side.other();
                f(VolterraMove::Turn(a, *b), next);
            }
        });
    }

    fn play_unchecked(&mut self, mv: &VolterraMove) -> Vec<Effect> {
        self.play_parts_unchecked(mv).concat()
    }

    fn play_parts_unchecked(&mut self, mv: &VolterraMove) -> Vec<Vec<Effect>> {
        let effects = match *mv {
            VolterraMove::Turn(a, b) => {
                let first = self.act(&a);
                let second = self.act(&b);
                self.side = self.side.other();
                return vec![first, second];
            }
            VolterraMove::Lay(i) => {
                self.towers[i as usize] = Tower { height: 1, dark: if self.side == Side::Second { 1 } else { 0 } };
                vec![Effect::Placed { at: cell(i), side: self.side }]
            }
            VolterraMove::Place(i) => {
                self.pawns[self.side.index()] = Some(i);
                vec![Effect::PawnPlaced { at: cell(i), side: self.side }]
            }
        };
        self.side = self.side.other();
        vec![effects]
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase() != Phase::Play || self.has_turn() {
            return None;
        }
        let (a, b) = (self.heights(Side::First), self.heights(Side::Second));
        let n = a.len().max(b.len());
        let at = |v: &Vec<u8>, i: usize| v.get(i).copied().unwrap_or(0);
        for i in 0..n {
            if at(&a, i) != at(&b, i) {
                let winner = if at(&a, i) > at(&b, i) { Side::First } else { Side::Second };
                return Some(Outcome { winner: Some(winner), reason: Reason::TallerTowers });
            }
        }
        Some(Outcome { winner: None, reason: Reason::EqualTowers })
    }

    fn parse_move(&self, text: &str) -> Result<VolterraMove, MoveError> {
        let text = text.trim_matches(' ');
        let wanted = parse_move_text(text)?;
        if self.legal_moves().contains(&wanted) {
            return Ok(wanted);
        }
        Err(illegal(text, self.why_illegal(&wanted)))
    }
}

fn parse_cell(s: &str, text: &str) -> Result<u8, MoveError> {
    let c: Cell = s.parse().map_err(|e: crate::rules::BadSquare| syntax(text, e.to_string()))?;
    index(c).ok_or_else(|| syntax(text, format!("{c} is off the 4 × 5 grid")))
}

fn parse_action(s: &str, text: &str) -> Result<Action, MoveError> {
    if let Some(step) = s.strip_prefix('P') {
        let (a, b) = step.split_once('-').ok_or_else(|| syntax(text, "a pawn step is written Pfrom-to"))?;
        return Ok(Action::Step { from: parse_cell(a, text)?, to: parse_cell(b, text)? });
    }
    let (a, b, two) = if let Some((a, b)) = s.split_once('=') {
        (a, b, true)
    } else if let Some((a, b)) = s.split_once('-') {
        (a, b, false)
    } else {
        return Err(syntax(text, "expected a pawn step Pfrom-to or a build src-dst (one tile) or src=dst (two tiles)"));
    };
    Ok(Action::Build { src: parse_cell(a, text)?, dst: parse_cell(b, text)?, two })
}

fn parse_move_text(text: &str) -> Result<VolterraMove, MoveError> {
    if let Some(c) = text.strip_prefix('+') {
        return Ok(VolterraMove::Lay(parse_cell(c, text)?));
    }
    if let Some(c) = text.strip_prefix('@') {
        return Ok(VolterraMove::Place(parse_cell(c, text)?));
    }
    let parts: Vec<&str> = text.split(',').collect();
    let [a, b] = parts[..] else {
        return Err(syntax(text, "a turn is two actions joined by ',' (for example Pb3-a4,a3-b4)"));
    };
    Ok(VolterraMove::Turn(parse_action(a, text)?, parse_action(b, text)?))
}

impl fmt::Display for Volterra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.variant().name())?;
        for rank in (0..RANKS).rev() {
            for file in 0..FILES {
                let i = rank * FILES + file;
                let t = self.towers[i as usize];
                if t.is_hole() {
                    write!(f, "-")?;
                }
                for s in t.tiles() {
                    write!(f, "{}", if s == Side::First { 'L' } else { 'D' })?;
                }
                for (s, ch) in [(Side::First, 'l'), (Side::Second, 'd')] {
                    if self.pawns[s.index()] == Some(i) {
                        write!(f, "{ch}")?;
                    }
                }
                if file + 1 < FILES {
                    write!(f, ",")?;
                }
            }
            if rank > 0 {
                write!(f, "/")?;
            }
        }
        write!(f, " {}", if self.side == Side::First { 'l' } else { 'd' })?;
        if self.options.build_near_source {
            write!(f, " build-near-source")?;
        }
        Ok(())
    }
}

impl FromStr for Volterra {
    type Err = PositionError;
    /// `volterra|volterra-free <board> <side> [build-near-source]`.
    fn from_str(s: &str) -> Result<Volterra, PositionError> {
        let (text, option) = super::trailing_option(s, 3)?;
        let options = match option {
            None => Options::default(),
            Some("build-near-source") => Options { build_near_source: true },
            Some(other) => {
                return Err(PositionError::Invalid(format!(
                    "unknown option '{}' (the only option is build-near-source)",
                    super::quote(other)
                )));
            }
        };
        let f = super::fields(&text, &["volterra", "volterra-free"], &["board", "side"])?;
        let free = f[0] == "volterra-free";
        let ranks: Vec<&str> = f[1].split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(PositionError::Invalid(format!(
                "the board has {} ranks, expected 5 separated by '/'",
                ranks.len()
            )));
        }
        let mut towers = [Tower::default(); CELLS];
        let mut pawns = [None; 2];
        let mut tiles = [0u32; 2];
        for (r, row) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - r as u8;
            let cells: Vec<&str> = row.split(',').collect();
            if cells.len() != FILES as usize {
                return Err(PositionError::Invalid(format!(
                    "rank {} has {} cells, expected 4 separated by ','",
                    rank + 1,
                    cells.len()
                )));
            }
            for (file, text) in cells.iter().enumerate() {
                let i = rank * FILES + file as u8;
                let name = cell(i);
                let (stack, pawn) = match text.char_indices().find(|(_, c)| c.is_ascii_lowercase()) {
                    Some((k, _)) => (&text[..k], &text[k..]),
                    None => (*text, ""),
                };
                if stack == "-" {
                    if !pawn.is_empty() {
                        return Err(PositionError::Invalid(format!("a pawn stands on the hole {name}")));
                    }
                    continue;
                }
                if stack.is_empty() {
                    let why = if pawn.is_empty() { "is empty (write - for a hole)" } else { "has a pawn but no tiles" };
                    return Err(PositionError::Invalid(format!("cell {name} {why}")));
                }
                let mut t = Tower::default();
                for ch in stack.chars() {
                    let side = match ch {
                        'L' => Side::First,
                        'D' => Side::Second,
                        other => {
                            return Err(PositionError::Invalid(format!(
                                "unknown character '{}' in cell {name} (expected L, D, then l or d for a pawn, or -)",
                                super::quote(&other.to_string())
                            )));
                        }
                    };
                    tiles[side.index()] += 1;
                    if tiles[side.index()] > TILES_PER_COLOUR {
                        let colour = if side == Side::First { "light" } else { "dark" };
                        return Err(PositionError::Invalid(format!(
                            "more than {TILES_PER_COLOUR} {colour} tiles (by cell {name}): the set has {TILES_PER_COLOUR} of each"
                        )));
                    }
                    t.dark |= (side == Side::Second) as u32 * (1 << t.height);
                    t.height += 1;
                }
                for ch in pawn.chars() {
                    let side = match ch {
                        'l' => Side::First,
                        'd' => Side::Second,
                        other => {
                            return Err(PositionError::Invalid(format!(
                                "unknown character '{}' in cell {name} (expected l or d for a pawn)",
                                super::quote(&other.to_string())
                            )));
                        }
                    };
                    let colour = if side == Side::First { "light" } else { "dark" };
                    if pawns[side.index()].is_some() {
                        return Err(PositionError::Invalid(format!("two {colour} pawns (the second on {name})")));
                    }
                    if t.owner() != Some(side) {
                        return Err(PositionError::Invalid(format!(
                            "the {colour} pawn on {name} stands on a tower of the other colour"
                        )));
                    }
                    pawns[side.index()] = Some(i);
                }
                towers[i as usize] = t;
            }
        }
        let side = match f[2] {
            "l" => Side::First,
            "d" => Side::Second,
            other => {
                return Err(PositionError::Invalid(format!(
                    "side field is '{}', expected l or d",
                    super::quote(other)
                )));
            }
        };
        let pos = Volterra { towers, pawns, side, free, options };
        let missing: Vec<&str> = [(Side::First, "light"), (Side::Second, "dark")]
            .iter()
            .filter(|(s, _)| pawns[s.index()].is_none())
            .map(|(_, n)| *n)
            .collect();
        if !missing.is_empty() {
            if !free {
                return Err(PositionError::Invalid(format!("the {} pawn is missing", missing.join(" and "))));
            }
            // Free setup: tiles alternate from the first player (light unless the players
            // chose dark), then the first player's pawn, then the second's. Who began shows
            // only while the counts are uneven, so either side may be on move when they are even.
            let fewer = |a: u32, b: u32| {
                if a < b {
                    Some(Side::First)
                } else if b < a {
                    Some(Side::Second)
                } else {
                    None
                }
            };
            let (expected, why) = match pos.phase() {
                Phase::Laying if pawns.iter().any(Option::is_some) => {
                    return Err(PositionError::Invalid("a pawn stands on the grid before it is full".into()));
                }
                Phase::Laying => (fewer(tiles[0], tiles[1]), "tiles are laid alternately"),
                _ => (
                    match pawns {
                        [None, Some(_)] => Some(Side::First),
                        [Some(_), None] => Some(Side::Second),
                        _ => None,
                    },
                    "the first player puts their pawn first, then the second",
                ),
            };
            if towers.iter().any(|t| t.height > 1) {
                return Err(PositionError::Invalid(
                    "a tower of several tiles before setup is over: setup lays one tile per cell".into(),
                ));
            }
            if pos.phase() == Phase::Laying && tiles[0].abs_diff(tiles[1]) > 1 {
                return Err(PositionError::Invalid(format!(
                    "{} light and {} dark tiles: in setup they are laid alternately",
                    tiles[0], tiles[1]
                )));
            }
            if expected.is_some_and(|e| e != side) {
                return Err(PositionError::Invalid(format!("side field is '{}', but {why}", super::quote(f[2]))));
            }
        }
        Ok(pos)
    }
}
