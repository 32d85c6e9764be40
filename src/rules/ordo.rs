//! Ordo (Dieter Stein), Classic and Ordo X, on a 10 × 8 board held in two 128-bit bitboards.
//! Owns the connection rule, ordo (line) moves, Classic's reconnection and Ordo X's sub-group
//! removal and sideways-then-forward turns, and the Ordo notation.

use super::{Cell, Effect, Game, MoveError, Outcome, PositionError, Reason, Side, Variant, illegal, syntax};
use std::fmt;
use std::str::FromStr;

/// A set of squares: bit `rank * 10 + file`.
pub type Bb = u128;

const FILES: i8 = 10;
const RANKS: i8 = 8;
const BOARD: Bb = (1 << 80) - 1;
const FILE_A: Bb = {
    let mut m = 0;
    let mut r = 0;
    while r < RANKS {
        m |= 1 << (r * FILES);
        r += 1;
    }
    m
};
const FILE_J: Bb = FILE_A << 9;
const RANK_1: Bb = (1 << 10) - 1;
const RANK_8: Bb = RANK_1 << 70;
/// The most pieces a side can have.
pub const MAX_PIECES: u32 = 20;

/// Classic Ordo or Ordo X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    Classic,
    X,
}

/// One step in a single direction, with the board's edges cut off (no wrap between files).
fn shift1(bb: Bb, dx: i8, dy: i8) -> Bb {
    let bb = match dx {
        1 => (bb & !FILE_J) << 1,
        -1 => (bb & !FILE_A) >> 1,
        _ => bb,
    };
    match dy {
        1 => (bb << 10) & BOARD,
        -1 => bb >> 10,
        _ => bb,
    }
}

/// The squares next to `bb` in all 8 directions, and `bb` itself.
fn dilate(bb: Bb) -> Bb {
    let row = bb | ((bb & !FILE_J) << 1) | ((bb & !FILE_A) >> 1);
    row | ((row << 10) & BOARD) | (row >> 10)
}

/// The group (8-connected) of `bb` that contains its lowest square.
fn first_group(bb: Bb) -> Bb {
    let mut group = bb & bb.wrapping_neg();
    loop {
        let next = dilate(group) & bb;
        if next == group {
            return group;
        }
        group = next;
    }
}

/// Whether taking the piece on `sq` would cut the group `own` (one group) in two.
fn cuts_group(own: Bb, sq: u8) -> bool {
    // A piece whose neighbours in the group hang together among themselves cannot cut it (any
    // way through it goes round it); only the others need the whole group checked.
    let without = own & !bit(sq);
    !is_connected(dilate(bit(sq)) & without) && !is_connected(without)
}

/// The pieces of the group `own` whose loss would cut it in two (its cut points); none where
/// `own` is not one group or has fewer than three pieces. It depends on `own` alone, so a
/// search may keep it while the other side moves.
pub fn cut_points(own: Bb) -> Bb {
    if own.count_ones() < 3 || !is_connected(own) {
        return 0;
    }
    squares(own).filter(|&sq| cuts_group(own, sq)).fold(0, |acc, sq| acc | bit(sq))
}

/// Whether the pieces `bb` form one group (no pieces, or one piece, count as one group).
pub fn is_connected(bb: Bb) -> bool {
    bb == 0 || first_group(bb) == bb
}

/// The groups of `bb`, in the order of their lowest squares.
pub fn groups(mut bb: Bb) -> Vec<Bb> {
    let mut out = Vec::new();
    while bb != 0 {
        let g = first_group(bb);
        out.push(g);
        bb &= !g;
    }
    out
}

fn bit(sq: u8) -> Bb {
    1 << sq
}

fn cell(sq: u8) -> Cell {
    Cell::new(sq % 10, sq / 10)
}

fn square(c: Cell) -> Option<u8> {
    (c.file < 10 && c.rank < 8).then(|| c.rank * 10 + c.file)
}

fn squares(mut bb: Bb) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            sq
        })
    })
}

/// One movement: a single piece (`first == last`) or an ordo from `first` to `last`, the
/// lower end first; `to` is where `first` lands. `keep` is Ordo X's tie choice after a
/// capture: the lowest square of the sub-group that stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub first: u8,
    pub last: u8,
    pub to: u8,
    pub capture: bool,
    pub keep: Option<u8>,
}

impl Step {
    /// The unit direction and the distance.
    fn direction(&self) -> (i8, i8, i8) {
        let (fx, fy) = ((self.first % 10) as i8, (self.first / 10) as i8);
        let (tx, ty) = ((self.to % 10) as i8, (self.to / 10) as i8);
        let (dx, dy) = (tx - fx, ty - fy);
        (dx.signum(), dy.signum(), dx.abs().max(dy.abs()))
    }

    /// The squares of the moving piece or ordo.
    fn line(&self) -> Bb {
        let (a, b) = (self.first, self.last);
        if a == b {
            return bit(a);
        }
        let stride = if a / 10 == b / 10 { 1 } else { 10 };
        (a..=b).step_by(stride).fold(0, |m, sq| m | bit(sq))
    }

    /// The squares the moving pieces land on.
    fn moved_line(&self) -> Bb {
        // A step never leaves the board or wraps round an edge: a plain shift.
        let line = self.line();
        if self.to >= self.first { line << (self.to - self.first) } else { line >> (self.first - self.to) }
    }

    /// The square a piece on `sq` of this step lands on.
    fn dest(&self, sq: u8) -> u8 {
        (sq as i16 + self.to as i16 - self.first as i16) as u8
    }

    /// Each moving piece's square and landing square, front piece first.
    pub fn paths(&self) -> Vec<(Cell, Cell)> {
        let (dx, dy, _) = self.direction();
        let mut line: Vec<u8> = squares(self.line()).collect();
        line.sort_by_key(|&sq| -((sq % 10) as i16 * dx as i16 + (sq / 10) as i16 * dy as i16));
        line.into_iter().map(|sq| (cell(sq), cell(self.dest(sq)))).collect()
    }

    pub fn is_ordo(&self) -> bool {
        self.first != self.last
    }

    /// A sideways step ends on the rank it started on.
    pub fn is_sideways(&self) -> bool {
        self.first / 10 == self.to / 10
    }
}

impl Step {
    /// The step in words: the line or the stone, where it goes, the group it keeps.
    pub fn describe(&self) -> String {
        let mut text = super::line_in_words(cell(self.first), cell(self.last), cell(self.to), self.capture);
        if let Some(k) = self.keep {
            text.push_str(&format!(", keeping the enemy group on {}", cell(k)));
        }
        text
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_ordo() {
            write!(f, "{}:{}-{}", cell(self.first), cell(self.last), cell(self.to))?;
        } else {
            let sep = if self.capture { 'x' } else { '-' };
            write!(f, "{}{sep}{}", cell(self.first), cell(self.to))?;
        }
        if let Some(k) = self.keep {
            write!(f, "^{}", cell(k))?;
        }
        Ok(())
    }
}

/// A move: one step, or in Ordo X a sideways step followed by a forward one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrdoMove {
    pub first: Step,
    pub then: Option<Step>,
}

impl OrdoMove {
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        std::iter::once(&self.first).chain(self.then.as_ref())
    }
}

impl fmt::Display for OrdoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first)?;
        if let Some(t) = &self.then {
            write!(f, ",{t}")?;
        }
        Ok(())
    }
}

/// A single piece's slide onto an enemy piece: from where, the square taken and the squares
/// passed on the way.
struct Hit {
    from: u8,
    at: Bb,
    path: Bb,
}

impl Hit {
    /// Whether the capture keeps the group of `own` (the capturer's pieces) whole.
    fn joined(&self, own: Bb) -> bool {
        is_connected((own & !bit(self.from)) | self.at)
    }
}

/// Adds Ordo X's capture `step` once for each sub-group of `enemy` it may keep: where the
/// capture splits the group into several largest parts, the capturer chooses which stays.
fn with_tie_choices(step: Step, enemy: Bb, out: &mut Vec<Step>) {
    let parts = groups(enemy & !bit(step.to));
    let largest = largest(&parts);
    let tied = parts.iter().filter(|g| g.count_ones() == largest);
    if parts.len() > 1 && tied.clone().count() > 1 {
        out.extend(tied.map(|g| Step { keep: Some(g.trailing_zeros() as u8), ..step }));
    } else {
        out.push(step);
    }
}

/// The pieces an Ordo X capture on `at` takes from `enemy`: that one and every smaller
/// sub-group it cuts off.
fn taken_by(enemy: Bb, at: Bb) -> u32 {
    let rest = enemy & !at;
    1 + rest.count_ones() - largest(&groups(rest))
}

/// The size of the largest of `parts`.
fn largest(parts: &[Bb]) -> u32 {
    parts.iter().map(|g| g.count_ones()).max().unwrap_or(0)
}

/// Which steps to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Classic: everything the mover may do (backward moves too when disconnected).
    Classic,
    /// Ordo X: forward and diagonally forward steps.
    Forward,
    /// Ordo X: sideways steps.
    Sideways,
}

/// An Ordo or Ordo X position.
///
/// ```
/// use tablero::rules::{Game, ordo::{Ordo, Rules}};
/// let start = Ordo::initial(Rules::Classic);
/// assert_eq!(start.legal_moves().len(), 56);
/// let after = start.clone();
/// assert_eq!(after.to_string().parse::<Ordo>().unwrap(), start);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ordo {
    pieces: [Bb; 2],
    side: Side,
    rules: Rules,
}

impl Ordo {
    pub fn initial(rules: Rules) -> Ordo {
        let name = if rules == Rules::Classic { "ordo" } else { "ordo-x" };
        format!("{name} ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w")
            .parse()
            .expect("the initial position parses")
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pieces of a side.
    pub fn pieces(&self, side: Side) -> Bb {
        self.pieces[side.index()]
    }

    /// The side of the piece on a cell, if any.
    pub fn piece_at(&self, c: Cell) -> Option<Side> {
        let b = bit(square(c)?);
        [Side::First, Side::Second].into_iter().find(|s| self.pieces(*s) & b != 0)
    }

    /// The position after the first part of a move, the same side still to move: what the
    /// table shows while a player chooses an Ordo X turn's forward part.
    pub fn after_first_part(&self, mv: &OrdoMove) -> (Ordo, Vec<Effect>) {
        let mut next = self.clone();
        let effects = next.apply_step(&mv.first);
        (next, effects)
    }

    /// Whether the side to move is cut into several groups (Classic, after a capture).
    pub fn is_disconnected(&self) -> bool {
        !is_connected(self.pieces(self.side))
    }

    /// Classic: how many of `side`'s pieces the other side could take with one slide (forward,
    /// diagonally forward or sideways, onto the first piece in the way) and whose loss would cut
    /// `side`'s group in two: the places where the group can be split. 0 in Ordo X, or where
    /// `side` is already cut. A search weighs it; it is not a rule.
    pub fn exposed_cuts(&self, side: Side) -> u32 {
        let own = self.pieces(side);
        squares(self.exposed(side)).filter(|&sq| cuts_group(own, sq)).count() as u32
    }

    /// Classic: the pieces of `side` the other side could take with one slide (forward,
    /// diagonally forward or sideways, onto the first piece in the way), where `side` is one
    /// group of three pieces or more; none in Ordo X. [`Self::exposed_cuts`] counts those among
    /// them that are [`cut_points`].
    pub fn exposed(&self, side: Side) -> Bb {
        let own = self.pieces(side);
        if own.count_ones() < 3 || !is_connected(own) {
            return 0;
        }
        self.in_reach(side)
    }

    /// Classic: the pieces of `side` the other side could take with one slide, whatever
    /// `side`'s group (none in Ordo X): [`Self::exposed`] without asking whether `side` is one
    /// group, for a search that knows the group's [`cut_points`] (none where it is not).
    pub fn in_reach(&self, side: Side) -> Bb {
        if self.rules != Rules::Classic {
            return 0;
        }
        let own = self.pieces(side);
        let enemy = self.pieces(side.other());
        let empty = BOARD & !(own | enemy);
        let f = Self::forward(side.other());
        // The first of `side`'s pieces on each line the other side's pieces slide along,
        // all of them at once on whole bitboards.
        let mut targets: Bb = 0;
        for (dx, dy) in [(0, f), (-1, f), (1, f), (-1, 0), (1, 0)] {
            let mut ray = shift1(enemy, dx, dy);
            while ray != 0 {
                targets |= ray & own;
                ray = shift1(ray & empty, dx, dy);
            }
        }
        targets
    }

    fn forward(side: Side) -> i8 {
        if side == Side::First { 1 } else { -1 }
    }

    fn goal_row(side: Side) -> Bb {
        if side == Side::First { RANK_8 } else { RANK_1 }
    }

    /// The same pieces with the other side to move, as if the side to move passed (no rule
    /// allows it: a search asks what the side that just moved threatens).
    pub fn passed(&self) -> Ordo {
        Ordo { side: self.side.other(), ..self.clone() }
    }

    /// The game is over before the side to move moves: the last mover reached the home row
    /// or took every piece. Cheaper than [`Game::outcome`], which also asks whether the side
    /// to move has a legal move.
    pub fn finished(&self) -> Option<Outcome> {
        let last = self.side.other();
        if self.pieces(last) & Self::goal_row(last) != 0 {
            return Some(Outcome { winner: Some(last), reason: Reason::HomeRow });
        }
        if self.pieces(self.side) == 0 {
            return Some(Outcome { winner: Some(last), reason: Reason::AllCaptured });
        }
        None
    }

    /// Gives `emit` the candidate steps of the side to move, connected or not, with `capture`
    /// set, each piece's single steps together, until `emit` says stop: those of the pieces in
    /// `movers` and of the ordos with a piece among them.
    fn pseudo_steps(&self, kind: Kind, movers: Bb, mut emit: impl FnMut(Step) -> bool) {
        let side = self.side;
        let own = self.pieces(side);
        let enemy = self.pieces(side.other());
        let empty = BOARD & !own & !enemy;
        let f = Self::forward(side);
        let disconnected = kind == Kind::Classic && !is_connected(own);
        let forwardish = [(0, f), (-1, f), (1, f)];
        let sideways = [(-1, 0), (1, 0)];
        let back = [(0, -f), (-1, -f), (1, -f)];
        let classic =
            [forwardish[0], forwardish[1], forwardish[2], sideways[0], sideways[1], back[0], back[1], back[2]];
        let (single, horizontal, vertical): (&[(i8, i8)], &[(i8, i8)], &[(i8, i8)]) = match kind {
            Kind::Classic if disconnected => (&classic, &[(0, f), (0, -f)], &sideways),
            Kind::Classic => (&classic[..5], &[(0, f)], &sideways),
            Kind::Forward => (&forwardish, &forwardish, &forwardish),
            Kind::Sideways => (&sideways, &sideways, &sideways),
        };
        for from in squares(own & movers) {
            for &(dx, dy) in single {
                let mut at = bit(from);
                loop {
                    at = shift1(at, dx, dy);
                    if at == 0 || at & own != 0 {
                        break;
                    }
                    let to = at.trailing_zeros() as u8;
                    let capture = at & enemy != 0;
                    if !emit(Step { first: from, last: from, to, capture, keep: None }) {
                        return;
                    }
                    if capture {
                        break;
                    }
                }
            }
        }
        // Ordos: every contiguous run of two or more own pieces along a rank or a file.
        for (stride, dirs) in [(1u8, horizontal), (10u8, vertical)] {
            if dirs.is_empty() {
                continue;
            }
            for first in squares(own) {
                let mut line = bit(first);
                let mut last = first;
                loop {
                    let next = last + stride;
                    let same_row = stride == 10 || next / 10 == first / 10;
                    if next >= 80 || !same_row || own & bit(next) == 0 {
                        break;
                    }
                    last = next;
                    line |= bit(last);
                    if line & movers == 0 {
                        continue;
                    }
                    for &(dx, dy) in dirs.iter() {
                        let mut at = line;
                        let mut dist = 0i16;
                        loop {
                            at = shift1(at, dx, dy);
                            dist += 1;
                            // Every square passed or entered must be empty, or vacated by the
                            // ordo itself (only possible in Ordo X, moving along its own line).
                            if at.count_ones() != line.count_ones() || at & !(empty | line) != 0 {
                                break;
                            }
                            let to = (first as i16 + dist * (dx as i16 + 10 * dy as i16)) as u8;
                            if !emit(Step { first, last, to, capture: false, keep: None }) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Moves the pieces of a step for the side to move, without checks.
    fn shift_pieces(&mut self, step: &Step) {
        let s = self.side.index();
        self.pieces[s] = (self.pieces[s] & !step.line()) | step.moved_line();
        if step.capture {
            self.pieces[1 - s] &= !bit(step.to);
        }
    }

    /// The legal steps of a kind, Ordo X's tie choices expanded.
    fn steps(&self, kind: Kind) -> Vec<Step> {
        let mut out = Vec::with_capacity(64);
        self.each_step(
            kind,
            |_| true,
            |step| {
                out.push(step);
                true
            },
        );
        out
    }

    /// Gives `f` each legal step of a kind that `keep` keeps, in the order of [`Self::steps`]
    /// (Ordo X's tie choices expanded), until `f` says stop; only the kept candidates are
    /// checked for the connection rule, the costly part.
    fn each_step(&self, kind: Kind, keep: impl Fn(&Step) -> bool, mut f: impl FnMut(Step) -> bool) {
        let own = self.pieces(self.side);
        let enemy = self.pieces(self.side.other());
        // For single pieces: the groups of the other pieces, computed once per piece; the
        // piece's destination must then touch every one of them.
        let mut others_of = u8::MAX;
        let mut others: Vec<Bb> = Vec::new();
        let mut ties = Vec::new();
        self.pseudo_steps(kind, BOARD, |step| {
            if !keep(&step) {
                return true;
            }
            let connected = if step.is_ordo() {
                is_connected((own & !step.line()) | step.moved_line())
            } else {
                if step.first != others_of {
                    others_of = step.first;
                    others = groups(own & !bit(step.first));
                }
                let reach = dilate(bit(step.to));
                others.iter().all(|g| reach & g != 0)
            };
            if !connected {
                true
            } else if self.rules == Rules::X && step.capture {
                ties.clear();
                with_tie_choices(step, enemy, &mut ties);
                ties.iter().all(|&t| f(t))
            } else {
                f(step)
            }
        });
    }

    /// Classic: the legal moves whose step `keep` keeps, in the order of [`Game::legal_moves`],
    /// only those checked for the connection rule (a search that follows captures past its
    /// horizon lists only the captures). Every legal move in Ordo X, whose turns have two steps.
    pub fn moves_where(&self, keep: impl Fn(&Step) -> bool) -> Vec<OrdoMove> {
        if self.rules == Rules::X {
            return self.legal_moves();
        }
        if self.finished().is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.each_step(Kind::Classic, keep, |first| {
            out.push(OrdoMove { first, then: None });
            true
        });
        out
    }

    /// Plays one step for the side to move (the side does not change) and returns its effects.
    fn apply_step(&mut self, step: &Step) -> Vec<Effect> {
        let mut effects = Vec::new();
        if step.capture {
            effects.push(Effect::Captured { at: cell(step.to) });
        }
        effects.extend(step.paths().into_iter().map(|(from, to)| Effect::Moved { from, to }));
        let removed = self.apply_step_quietly(step);
        effects.extend(squares(removed).map(|sq| Effect::Removed { at: cell(sq) }));
        effects
    }

    /// Plays one step for the side to move (the side does not change); returns the squares of
    /// the opponent's pieces removed because an Ordo X capture split their group.
    fn apply_step_quietly(&mut self, step: &Step) -> Bb {
        self.shift_pieces(step);
        if self.rules == Rules::X && step.capture {
            let o = self.side.other().index();
            let parts = groups(self.pieces[o]);
            if parts.len() > 1 {
                let stay = match step.keep {
                    Some(k) => parts.iter().copied().find(|g| g & bit(k) != 0).unwrap_or(0),
                    None => parts
                        .iter()
                        .copied()
                        .max_by_key(|g| (g.count_ones(), std::cmp::Reverse(g.trailing_zeros())))
                        .unwrap_or(0),
                };
                let removed = self.pieces[o] & !stay;
                self.pieces[o] = stay;
                return removed;
            }
        }
        0
    }

    /// Each legal turn of Ordo X, in the order of [`Game::legal_moves`], with the position
    /// its last step is played from and that step (`None` where a sideways step took the last
    /// piece and the position given is the end of the turn): turns that begin with the same
    /// sideways step share the position after it.
    fn each_x_turn(&self, mut f: impl FnMut(OrdoMove, &Ordo, Option<Step>)) {
        for first in self.steps(Kind::Forward) {
            f(OrdoMove { first, then: None }, self, Some(first));
        }
        for first in self.steps(Kind::Sideways) {
            let mut next = self.clone();
            next.apply_step_quietly(&first);
            if next.pieces(self.side.other()) == 0 {
                f(OrdoMove { first, then: None }, &next, None);
                continue;
            }
            for then in next.steps(Kind::Forward) {
                f(OrdoMove { first, then: Some(then) }, &next, Some(then));
            }
        }
    }

    /// Counts legal moves without listing them (Ordo X's turns multiply quickly).
    fn count(&self) -> u64 {
        if self.finished().is_some() {
            return 0;
        }
        match self.rules {
            Rules::Classic => self.steps(Kind::Classic).len() as u64,
            Rules::X => {
                let mut n = self.steps(Kind::Forward).len() as u64;
                for step in self.steps(Kind::Sideways) {
                    let mut next = self.clone();
                    next.apply_step(&step);
                    n += if next.pieces(self.side.other()) == 0 { 1 } else { next.steps(Kind::Forward).len() as u64 };
                }
                n
            }
        }
    }

    /// Whether the side to move has a legal move: [`Self::count`] > 0, stopping at the first
    /// (the outcome is asked after every move of a playout).
    pub fn has_move(&self) -> bool {
        if self.finished().is_some() {
            return false;
        }
        match self.rules {
            Rules::Classic => {
                let mut any = false;
                self.each_step(
                    Kind::Classic,
                    |_| true,
                    |_| {
                        any = true;
                        false
                    },
                );
                any
            }
            Rules::X => {
                !self.steps(Kind::Forward).is_empty()
                    || self.steps(Kind::Sideways).iter().any(|step| {
                        let mut next = self.clone();
                        next.apply_step(step);
                        next.pieces(self.side.other()) == 0 || !next.steps(Kind::Forward).is_empty()
                    })
            }
        }
    }

    /// Whether the side to move has a turn that wins at once: a piece onto the goal row, or
    /// the opponent's last piece taken (as [`Self::finished`] sees it; not a Classic capture
    /// that leaves the opponent no reconnection, nor a turn that leaves no move). Much
    /// cheaper than listing the turns: only the steps that would win are checked for the
    /// connection rule (in Ordo X after each sideways step, whose follow-ups are not listed).
    pub fn wins_at_once(&self) -> bool {
        if self.finished().is_some() {
            return false;
        }
        match self.rules {
            Rules::Classic => self.has_winning_step(Kind::Classic),
            Rules::X => {
                self.has_winning_step(Kind::Forward)
                    || self.steps(Kind::Sideways).iter().any(|step| {
                        let mut next = self.clone();
                        next.apply_step(step);
                        next.pieces(self.side.other()) == 0 || next.has_winning_step(Kind::Forward)
                    })
            }
        }
    }

    /// Ordo X: the most of the opponent's pieces the side to move can take in one turn by
    /// capturing: the captured pieces and every smaller sub-group a capture cuts off, over the
    /// turns that are one forward step; a sideways capture (with each tie choice) and a
    /// forward step after it; or a single piece's sideways step that joins a forward capture
    /// to the group, where that capture takes more than the others. Not counted: a sideways
    /// step that opens the way for a forward capture, or an ordo's that joins it. Much
    /// cheaper than listing the turns: only the slides that end on an enemy piece are followed.
    /// 0 in Classic, where cut-off pieces may reconnect.
    pub fn capture_threat(&self) -> u32 {
        if self.rules != Rules::X || self.finished().is_some() {
            return 0;
        }
        let own = self.pieces(self.side);
        let enemy = self.pieces(self.side.other());
        let mut best = self.best_capture(Kind::Forward);
        let mut sideways = Vec::new();
        for hit in self.hits(Kind::Sideways).into_iter().filter(|h| h.joined(own)) {
            let to = hit.at.trailing_zeros() as u8;
            with_tie_choices(
                Step { first: hit.from, last: hit.from, to, capture: true, keep: None },
                enemy,
                &mut sideways,
            );
        }
        for step in sideways {
            let mut next = self.clone();
            next.apply_step_quietly(&step);
            let taken = enemy.count_ones() - next.pieces(self.side.other()).count_ones();
            if next.pieces(self.side.other()) == 0 {
                best = best.max(taken);
            } else if !next.steps(Kind::Forward).is_empty() {
                best = best.max(taken + next.best_capture(Kind::Forward));
            }
        }
        // A forward capture that would leave the capturing piece alone, made possible by
        // another piece stepping sideways next to the square taken.
        let occupied = own | enemy;
        for hit in self.hits(Kind::Forward) {
            if hit.joined(own) {
                continue;
            }
            let gain = taken_by(enemy, hit.at);
            if gain <= best {
                continue;
            }
            let joins = squares(dilate(hit.at) & !hit.at & !occupied & !hit.path).any(|next_to| {
                let row = RANK_1 << (10 * (next_to / 10));
                squares(own & row & !bit(hit.from)).any(|from| {
                    let (a, b) = (from.min(next_to), from.max(next_to));
                    let slide = ((1u128 << (b + 1)) - (1u128 << a)) & !bit(from);
                    let moved = (own & !bit(from)) | bit(next_to);
                    slide & occupied == 0 && is_connected(moved) && is_connected((moved & !bit(hit.from)) | hit.at)
                })
            });
            if joins {
                best = gain;
            }
        }
        best
    }

    /// The side to move's single-piece slides of `kind` that end on an enemy piece, whether
    /// or not they keep its group whole.
    fn hits(&self, kind: Kind) -> Vec<Hit> {
        let f = Self::forward(self.side);
        let dirs: &[(i8, i8)] = match kind {
            Kind::Sideways => &[(-1, 0), (1, 0)],
            _ => &[(0, f), (-1, f), (1, f)],
        };
        let mut out = Vec::new();
        self.each_hit(self.side, dirs, |hit| out.push(hit));
        out
    }

    /// Each slide of one of `side`'s pieces in one of `dirs` that ends on a piece of the other
    /// side, whether or not it keeps its group whole.
    fn each_hit(&self, side: Side, dirs: &[(i8, i8)], mut found: impl FnMut(Hit)) {
        let own = self.pieces(side);
        let occupied = own | self.pieces(side.other());
        for from in squares(own) {
            for &(dx, dy) in dirs {
                let mut path = 0;
                let mut at = shift1(bit(from), dx, dy);
                while at != 0 && at & occupied == 0 {
                    path |= at;
                    at = shift1(at, dx, dy);
                }
                if at & occupied & !own != 0 {
                    found(Hit { from, at, path });
                }
            }
        }
    }

    /// The most pieces a single-piece capture of `kind` by the side to move takes (see
    /// [`taken_by`]; 0 if there is no such capture).
    fn best_capture(&self, kind: Kind) -> u32 {
        let own = self.pieces(self.side);
        let enemy = self.pieces(self.side.other());
        self.hits(kind).into_iter().filter(|h| h.joined(own)).map(|h| taken_by(enemy, h.at)).max().unwrap_or(0)
    }

    /// Whether `side` has a piece with a free line to its goal row (forward or diagonally
    /// forward, over empty squares, onto an empty square or an enemy piece there), whether or
    /// not the slide would keep its group whole: in Classic what [`Self::wins_at_once`] needs
    /// for a win by the goal row (an ordo that reaches the row has such pieces; in Ordo X a
    /// sideways step may open a line first), checked on whole bitboards.
    pub fn has_runner(&self, side: Side) -> bool {
        self.runners(side) != 0
    }

    /// The pieces of `side` with a free line to its goal row ([`Self::has_runner`]). Every
    /// step that reaches the goal row moves one of them: the piece that leads the slide.
    fn runners(&self, side: Side) -> Bb {
        let own = self.pieces(side);
        let empty = BOARD & !(own | self.pieces(side.other()));
        let f = Self::forward(side);
        [-1i8, 0, 1].iter().fold(0, |found, &dx| {
            // The squares from which a slide in this direction reaches the goal row.
            let mut reach = Self::goal_row(side) & !own;
            for _ in 0..RANKS {
                reach |= shift1(reach, -dx, -f) & empty;
            }
            found | (own & shift1(reach, -dx, -f))
        })
    }

    /// Whether a legal step of `kind` reaches the goal row or takes the opponent's last piece.
    fn has_winning_step(&self, kind: Kind) -> bool {
        let own = self.pieces(self.side);
        let enemy = self.pieces(self.side.other());
        let goal = Self::goal_row(self.side);
        // Only a runner can lead a slide onto the goal row; any piece may take the last one.
        let movers = if enemy.count_ones() == 1 { own } else { self.runners(self.side) };
        if movers == 0 {
            return false;
        }
        let mut found = false;
        self.pseudo_steps(kind, movers, |step| {
            let after = step.moved_line();
            let wins = after & goal != 0 || (step.capture && enemy == bit(step.to));
            found = wins && is_connected((own & !step.line()) | after);
            !found
        });
        found
    }

    /// The legal moves that match `wanted` apart from tie choices: generates only the turns
    /// that begin with its first step.
    fn turns_like(&self, wanted: &OrdoMove) -> Vec<OrdoMove> {
        if self.finished().is_some() {
            return Vec::new();
        }
        let bare = |s: &Step| Step { keep: None, ..*s };
        let kind = match self.rules {
            Rules::Classic => Kind::Classic,
            Rules::X if wanted.first.is_sideways() => Kind::Sideways,
            Rules::X => Kind::Forward,
        };
        let mut out = Vec::new();
        for first in self.steps(kind).into_iter().filter(|s| bare(s) == bare(&wanted.first)) {
            if kind != Kind::Sideways {
                if wanted.then.is_none() {
                    out.push(OrdoMove { first, then: None });
                }
                continue;
            }
            let mut next = self.clone();
            next.apply_step(&first);
            match wanted.then {
                None if next.pieces(self.side.other()) == 0 => out.push(OrdoMove { first, then: None }),
                Some(w) if next.pieces(self.side.other()) != 0 => out.extend(
                    next.steps(Kind::Forward)
                        .into_iter()
                        .filter(|t| bare(t) == bare(&w))
                        .map(|t| OrdoMove { first, then: Some(t) }),
                ),
                _ => {}
            }
        }
        out
    }

    /// A random legal move, cheaply: Ordo X picks a step among forward and sideways steps and
    /// completes a sideways one with a random forward step, without listing every turn.
    pub fn random_move(&self, rng: &mut impl rand::Rng) -> Option<OrdoMove> {
        if self.finished().is_some() {
            return None;
        }
        if self.rules == Rules::Classic {
            let steps = self.steps(Kind::Classic);
            return (!steps.is_empty())
                .then(|| OrdoMove { first: steps[rng.random_range(0..steps.len())], then: None });
        }
        let forward = self.steps(Kind::Forward);
        let mut sideways = self.steps(Kind::Sideways);
        for _ in 0..4 {
            let n = forward.len() + sideways.len();
            if n == 0 {
                return None;
            }
            let i = rng.random_range(0..n);
            if i < forward.len() {
                return Some(OrdoMove { first: forward[i], then: None });
            }
            let first = sideways[i - forward.len()];
            let mut next = self.clone();
            next.apply_step(&first);
            if next.pieces(self.side.other()) == 0 {
                return Some(OrdoMove { first, then: None });
            }
            let follow = next.steps(Kind::Forward);
            if !follow.is_empty() {
                return Some(OrdoMove { first, then: Some(follow[rng.random_range(0..follow.len())]) });
            }
            sideways.swap_remove(i - forward.len());
        }
        self.legal_moves().get(0).copied()
    }

    /// Explains why a move that is not legal is refused.
    fn why_illegal(&self, mv: &OrdoMove) -> String {
        if let Some(o) = self.finished() {
            return format!("the game is over ({})", o.reason);
        }
        let name = self.variant().side_name(self.side);
        let own = self.pieces(self.side);
        for step in mv.steps() {
            if step.line() & !own != 0 {
                return format!("{name} has no piece on every square from {} to {}", cell(step.first), cell(step.last));
            }
        }
        let step = mv.first;
        if self.rules == Rules::X && step.is_sideways() && mv.then.is_none() {
            return "a sideways move must be followed by a forward move (join both with ',')".into();
        }
        if self.rules == Rules::X && !step.is_sideways() && mv.then.is_some() {
            return "only a sideways move may be followed by a second move".into();
        }
        if !step.is_ordo() {
            let (dx, dy) =
                ((step.to % 10) as i8 - (step.first % 10) as i8, (step.to / 10) as i8 - (step.first / 10) as i8);
            if dx != 0 && dy != 0 && dx.abs() != dy.abs() {
                return "a piece moves along a rank, a file or a diagonal".into();
            }
            if dy.signum() == -Self::forward(self.side) && !(self.rules == Rules::Classic && self.is_disconnected()) {
                return "backward moves are allowed only to reconnect a group split by a capture (Ordo Classic)".into();
            }
            if self.pieces(self.side) & bit(step.to) != 0 {
                return format!("{} is occupied by your own piece", cell(step.to));
            }
            let enemy_there = self.pieces(self.side.other()) & bit(step.to) != 0;
            if enemy_there != step.capture {
                return if enemy_there {
                    format!(
                        "{} holds an enemy piece: write a capture as {}x{}",
                        cell(step.to),
                        cell(step.first),
                        cell(step.to)
                    )
                } else {
                    format!("there is no enemy piece to capture on {}", cell(step.to))
                };
            }
        }
        let mut cands = Vec::new();
        self.pseudo_steps(
            if self.rules == Rules::Classic {
                Kind::Classic
            } else if step.is_sideways() {
                Kind::Sideways
            } else {
                Kind::Forward
            },
            BOARD,
            |c| {
                cands.push(c);
                true
            },
        );
        if cands.iter().any(|c| Step { keep: None, ..*c } == Step { keep: None, ..step }) {
            if self.is_disconnected() {
                return format!("{name} is disconnected and this move does not reconnect every piece");
            }
            return "it would split your group".into();
        }
        "no such move here".into()
    }
}

impl Game for Ordo {
    type Move = OrdoMove;

    fn variant(&self) -> Variant {
        match self.rules {
            Rules::Classic => Variant::Ordo,
            Rules::X => Variant::OrdoX,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self) -> Vec<OrdoMove> {
        if self.finished().is_some() {
            return Vec::new();
        }
        match self.rules {
            Rules::Classic => {
                self.steps(Kind::Classic).into_iter().map(|first| OrdoMove { first, then: None }).collect()
            }
            Rules::X => {
                let mut moves = Vec::new();
                self.each_x_turn(|mv, _, _| moves.push(mv));
                moves
            }
        }
    }

    /// Plays each turn's last step on a copy of the position before it (Ordo X's sideways
    /// step is played once for all the turns that begin with it).
    fn successors(&self, f: &mut dyn FnMut(OrdoMove, Ordo)) {
        if self.finished().is_some() {
            return;
        }
        let mut emit = |mv: OrdoMove, from: &Ordo, last: Option<Step>| {
            let mut next = from.clone();
            if let Some(step) = last {
                next.apply_step_quietly(&step);
            }
            next.side = next.side.other();
            f(mv, next);
        };
        match self.rules {
            Rules::Classic => {
                for first in self.steps(Kind::Classic) {
                    emit(OrdoMove { first, then: None }, self, Some(first));
                }
            }
            Rules::X => self.each_x_turn(emit),
        }
    }

    fn play_unchecked(&mut self, mv: &OrdoMove) -> Vec<Effect> {
        self.play_parts_unchecked(mv).concat()
    }

    fn play_parts_unchecked(&mut self, mv: &OrdoMove) -> Vec<Vec<Effect>> {
        let parts = mv.steps().map(|step| self.apply_step(step)).collect();
        self.side = self.side.other();
        parts
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.finished() {
            return Some(o);
        }
        if !self.has_move() {
            let reason = if self.rules == Rules::Classic && self.is_disconnected() {
                Reason::NoReconnection
            } else {
                Reason::NoLegalMove
            };
            return Some(Outcome { winner: Some(self.side.other()), reason });
        }
        None
    }

    fn parse_move(&self, text: &str) -> Result<OrdoMove, MoveError> {
        let wanted = parse_move_text(text.trim_matches(' '), self.rules)?;
        let candidates = self.turns_like(&wanted);
        for mv in &candidates {
            // Each tie choice must name a square of the group that stays.
            let mut pos = self.clone();
            let mut fits = true;
            for (got, want) in mv.steps().zip(wanted.steps()) {
                pos.apply_step(got);
                fits &= match (got.keep, want.keep) {
                    (None, None) => true,
                    (Some(_), Some(k)) => pos.pieces(self.side.other()) & bit(k) != 0,
                    _ => false,
                };
            }
            if fits {
                return Ok(*mv);
            }
        }
        let why = if candidates.is_empty() {
            self.why_illegal(&wanted)
        } else if wanted.steps().any(|s| s.keep.is_some()) {
            "the square after ^ is not in a group that can stay".to_string()
        } else {
            "this capture leaves equal largest groups: add ^square naming a square of the group that stays".to_string()
        };
        Err(illegal(text.trim_matches(' '), why))
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }
}

/// Reads the text of a move without looking at a position. Checks shape only: squares on the
/// board, an ordo along one rank or file.
fn parse_move_text(text: &str, rules: Rules) -> Result<OrdoMove, MoveError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 2 || (parts.len() == 2 && rules == Rules::Classic) {
        let why =
            if rules == Rules::Classic { "Ordo Classic moves have one part" } else { "a turn has at most two parts" };
        return Err(syntax(text, why));
    }
    let first = parse_step(parts[0], text)?;
    let then = parts.get(1).map(|p| parse_step(p, text)).transpose()?;
    Ok(OrdoMove { first, then })
}

fn parse_square(s: &str, text: &str) -> Result<u8, MoveError> {
    let c: Cell = s.parse().map_err(|e: crate::rules::BadSquare| syntax(text, e.to_string()))?;
    square(c).ok_or_else(|| syntax(text, format!("{c} is off the 10 × 8 board")))
}

fn parse_step(part: &str, text: &str) -> Result<Step, MoveError> {
    let (body, keep) = match part.split_once('^') {
        Some((b, k)) => (b, Some(parse_square(k, text)?)),
        None => (part, None),
    };
    if let Some((line, to)) = body.split_once(':').map(|(a, rest)| (a, rest)) {
        let (last, to) = to.split_once('-').ok_or_else(|| syntax(text, "an ordo move is written first:last-dest"))?;
        let (first, last, to) = (parse_square(line, text)?, parse_square(last, text)?, parse_square(to, text)?);
        let same_rank = first / 10 == last / 10;
        let same_file = first % 10 == last % 10;
        if first >= last || !(same_rank || same_file) {
            return Err(syntax(text, "an ordo is named by its two ends along one rank or file, the lower one first"));
        }
        return Ok(Step { first, last, to, capture: false, keep });
    }
    let (from, to, capture) = if let Some((a, b)) = body.split_once('x') {
        (a, b, true)
    } else if let Some((a, b)) = body.split_once('-') {
        (a, b, false)
    } else {
        return Err(syntax(text, "expected from-to, fromxto or first:last-dest"));
    };
    let (from, to) = (parse_square(from, text)?, parse_square(to, text)?);
    Ok(Step { first: from, last: from, to, capture, keep })
}

impl fmt::Display for Ordo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.variant().name())?;
        super::write_grid(f, 10, 8, ['W', 'B'], |row, col| self.piece_at(Cell::new(col as u8, 7 - row as u8)))?;
        write!(f, " {}", if self.side == Side::First { 'w' } else { 'b' })
    }
}

impl FromStr for Ordo {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Ordo, PositionError> {
        let f = super::fields(s, &["ordo", "ordo-x"], &["board", "side"])?;
        let rules = if f[0] == "ordo" { Rules::Classic } else { Rules::X };
        let cells = super::read_grid(f[1], 10, 8, ['W', 'B'], &|row| format!("rank {}", 8 - row))?;
        let mut pieces = [0 as Bb; 2];
        for (i, side) in cells.iter().enumerate() {
            if let Some(side) = side {
                pieces[side.index()] |= bit((7 - i / 10) as u8 * 10 + (i % 10) as u8);
            }
        }
        let side = super::read_side(f[2], ["w", "b"])?;
        for (s, name) in [(Side::First, "white"), (Side::Second, "blue")] {
            let n = pieces[s.index()].count_ones();
            if n > MAX_PIECES {
                return Err(PositionError::Invalid(format!("{name} has {n} pieces, at most {MAX_PIECES} exist")));
            }
        }
        let pos = Ordo { pieces, side, rules };
        // Positions no game can reach: the side to move already won, or the side that just
        // moved has no pieces.
        let (mover, last) = (side, side.other());
        let name = |s: Side| pos.variant().side_name(s);
        if pos.pieces(mover) & Self::goal_row(mover) != 0 {
            return Err(PositionError::Invalid(format!(
                "{} is to move but already has a piece on the opponent's home row",
                name(mover)
            )));
        }
        if pos.pieces(last) == 0 {
            return Err(PositionError::Invalid(format!("{} has no pieces but {} is to move", name(last), name(mover))));
        }
        if !is_connected(pos.pieces(last)) {
            return Err(PositionError::Invalid(format!(
                "{} has just moved but its pieces are not one group",
                name(last)
            )));
        }
        if rules == Rules::X && !is_connected(pos.pieces(mover)) {
            return Err(PositionError::Invalid(format!("{} is disconnected, which Ordo X never allows", name(mover))));
        }
        Ok(pos)
    }
}
