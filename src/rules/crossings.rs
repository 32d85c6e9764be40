//! Crossings (Robert Abbott) on an 8 × 8 board held in two 64-bit bitboards.
//! Owns single steps, phalanx moves and their capture test, crossing and locking, the
//! crossing/counter-crossing win, the three draw rules, and the Crossings notation.

use super::{Cell, Effect, Game, MoveError, Outcome, PositionError, Reason, Side, Variant, illegal, syntax};
use std::fmt;
use std::str::FromStr;

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
/// Stones per side in the full set.
pub const MAX_STONES: u32 = 16;
/// Consecutive moves without capture or crossing that draw the game.
pub const QUIET_LIMIT: u32 = 100;
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// Rule options for a Crossings game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Options {
    /// A phalanx of L stones moves exactly L squares (instead of 1 to L).
    pub exact: bool,
}

fn bit(sq: u8) -> u64 {
    1 << sq
}

fn cell(sq: u8) -> Cell {
    Cell::new(sq % 8, sq / 8)
}

/// The square one step from `sq` in a direction, if it is on the board.
fn step(sq: u8, (dx, dy): (i8, i8), n: i8) -> Option<u8> {
    let (f, r) = ((sq % 8) as i8 + dx * n, (sq / 8) as i8 + dy * n);
    ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as u8)
}

/// A move: a single stone (`rear == front`) or the phalanx from `rear` to `front`; `to` is
/// where the front stone lands, capturing the enemy stone there if `capture`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrossingsMove {
    pub rear: u8,
    pub front: u8,
    pub to: u8,
    pub capture: bool,
}

impl CrossingsMove {
    /// The move in words: the phalanx or the stone, and where it goes.
    pub fn describe(&self) -> String {
        super::line_in_words(cell(self.rear), cell(self.front), cell(self.to), self.capture)
    }

    pub fn is_phalanx(&self) -> bool {
        self.rear != self.front
    }

    /// Unit direction and distance travelled.
    fn direction(&self) -> ((i8, i8), i8) {
        let (dx, dy) = ((self.to % 8) as i8 - (self.front % 8) as i8, (self.to / 8) as i8 - (self.front / 8) as i8);
        ((dx.signum(), dy.signum()), dx.abs().max(dy.abs()))
    }

    /// Each moving stone's square and landing square, front stone first.
    pub fn paths(&self) -> Vec<(Cell, Cell)> {
        let (d, k) = self.direction();
        self.stones().into_iter().map(|sq| (cell(sq), cell(step(sq, d, k).expect("on the board")))).collect()
    }

    /// The moving stones, front first.
    fn stones(&self) -> Vec<u8> {
        let (d, _) = self.direction();
        let mut out = vec![self.front];
        let mut sq = self.front;
        while sq != self.rear {
            sq = step(sq, d, -1).expect("a phalanx lies on the board");
            out.push(sq);
        }
        out
    }
}

impl fmt::Display for CrossingsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        if self.is_phalanx() {
            write!(f, "{}:{}{sep}{}", cell(self.rear), cell(self.front), cell(self.to))
        } else {
            write!(f, "{}{sep}{}", cell(self.front), cell(self.to))
        }
    }
}

/// A Crossings position with the history needed for the repetition draw.
///
/// ```
/// use tablero::rules::{Game, crossings::{Crossings, Options}};
/// let start = Crossings::initial(Options::default());
/// assert_eq!(start.legal_moves().len(), 60);
/// assert_eq!(Crossings::initial(Options { exact: true }).legal_moves().len(), 40);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crossings {
    stones: [u64; 2],
    side: Side,
    quiet: u32,
    options: Options,
    /// Positions (stones, side to move) since the last capture or crossing, the current one last.
    history: Vec<([u64; 2], Side)>,
}

impl Crossings {
    pub fn initial(options: Options) -> Crossings {
        let mut pos: Crossings =
            "crossings BBBBBBBB/BBBBBBBB/......../......../......../......../RRRRRRRR/RRRRRRRR r 0"
                .parse()
                .expect("the initial position parses");
        pos.options = options;
        pos
    }

    pub fn options(&self) -> Options {
        self.options
    }

    pub fn stones(&self, side: Side) -> u64 {
        self.stones[side.index()]
    }

    /// Moves since the last capture or crossing.
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    /// The opponent's home row, where a side's stones cross.
    pub fn goal_row(side: Side) -> u64 {
        if side == Side::First { RANK_8 } else { RANK_1 }
    }

    /// The stones of a side that have crossed and are locked.
    pub fn locked(&self, side: Side) -> u64 {
        self.stones(side) & Self::goal_row(side)
    }

    /// Whether the stone on `c` has crossed and is locked there.
    pub fn is_locked(&self, c: Cell) -> bool {
        c.file < 8
            && c.rank < 8
            && [Side::First, Side::Second].iter().any(|s| self.locked(*s) & bit(c.rank * 8 + c.file) != 0)
    }

    pub fn crossed(&self, side: Side) -> u32 {
        self.locked(side).count_ones()
    }

    pub fn stone_at(&self, c: Cell) -> Option<Side> {
        if c.file > 7 || c.rank > 7 {
            return None;
        }
        let b = bit(c.rank * 8 + c.file);
        [Side::First, Side::Second].into_iter().find(|s| self.stones(*s) & b != 0)
    }

    /// The outcome that needs no move generation.
    fn finished(&self) -> Option<Outcome> {
        let (me, them) = (self.side, self.side.other());
        // After a move, an opponent with more crossed stones than the mover wins.
        if self.crossed(me) > self.crossed(them) {
            return Some(Outcome { winner: Some(me), reason: Reason::UnansweredCrossing });
        }
        let now = (self.stones, self.side);
        if self.history.iter().filter(|h| **h == now).count() >= 3 {
            return Some(Outcome { winner: None, reason: Reason::Repetition });
        }
        if self.quiet >= QUIET_LIMIT {
            return Some(Outcome { winner: None, reason: Reason::QuietMoves });
        }
        None
    }

    fn generate(&self, out: &mut Vec<CrossingsMove>) {
        let me = self.side;
        let own = self.stones(me);
        let enemy = self.stones(me.other());
        let enemy_locked = self.locked(me.other());
        let movable = own & !self.locked(me);
        let occupied = own | enemy;
        let mut rest = movable;
        while rest != 0 {
            let front = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            for d in DIRECTIONS {
                if let Some(to) = step(front, d, 1)
                    && occupied & bit(to) == 0
                {
                    out.push(CrossingsMove { rear: front, front, to, capture: false });
                }
                // Phalanxes with this stone in front: the own movable stones behind it.
                let mut rear = front;
                let mut len: i8 = 1;
                while let Some(prev) = step(rear, d, -1)
                    && movable & bit(prev) != 0
                {
                    rear = prev;
                    len += 1;
                    for k in 1..=len {
                        let Some(to) = step(front, d, k) else { break };
                        let b = bit(to);
                        if own & b != 0 {
                            break;
                        }
                        let fits = !self.options.exact || k == len;
                        if enemy & b == 0 {
                            if fits {
                                out.push(CrossingsMove { rear, front, to, capture: false });
                            }
                            continue;
                        }
                        // An enemy stone: capturable if unlocked and its run onward is shorter.
                        let mut run = 0;
                        while let Some(sq) = step(to, d, run)
                            && enemy & bit(sq) != 0
                        {
                            run += 1;
                        }
                        // A capture ends where the enemy stone stands, so even with `exact` it
                        // may be shorter than L (the seed: "the group's move stops there and
                        // the enemy stone is captured"); only a move onto empty squares is
                        // exactly L long.
                        if enemy_locked & b == 0 && run < len {
                            out.push(CrossingsMove { rear, front, to, capture: true });
                        }
                        break;
                    }
                }
            }
        }
    }

    fn why_illegal(&self, mv: &CrossingsMove) -> String {
        if let Some(o) = self.finished() {
            return format!("the game is over ({})", o.reason);
        }
        let name = self.variant().side_name(self.side);
        if self.stones(self.side) & bit(mv.front) == 0 {
            return format!("{name} has no stone on {}", cell(mv.front));
        }
        if self.locked(self.side) & bit(mv.front) != 0 {
            return format!("the stone on {} has crossed and is locked", cell(mv.front));
        }
        if !mv.is_phalanx() && (self.stones(self.side.other()) & bit(mv.to) != 0) {
            return "a single stone never captures".into();
        }
        if mv.capture && self.stones(self.side.other()) & bit(mv.to) == 0 {
            return format!("there is no enemy stone to capture on {}", cell(mv.to));
        }
        "no such move here".into()
    }
}

impl Game for Crossings {
    type Move = CrossingsMove;

    fn variant(&self) -> Variant {
        Variant::Crossings
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self) -> Vec<CrossingsMove> {
        let mut out = Vec::new();
        if self.finished().is_none() {
            self.generate(&mut out);
        }
        out
    }

    fn play_unchecked(&mut self, mv: &CrossingsMove) -> Vec<Effect> {
        let (me, them) = (self.side.index(), self.side.other().index());
        let mut effects = Vec::new();
        if mv.capture {
            effects.push(Effect::Captured { at: cell(mv.to) });
            self.stones[them] &= !bit(mv.to);
        }
        let (d, k) = mv.direction();
        let stones = mv.stones();
        let mut crossed = false;
        for &sq in &stones {
            self.stones[me] &= !bit(sq);
        }
        for &sq in &stones {
            let to = step(sq, d, k).expect("a legal move stays on the board");
            self.stones[me] |= bit(to);
            effects.push(Effect::Moved { from: cell(sq), to: cell(to) });
        }
        for &sq in &stones {
            let to = step(sq, d, k).expect("a legal move stays on the board");
            if Self::goal_row(self.side) & bit(to) != 0 {
                effects.push(Effect::Locked { at: cell(to) });
                crossed = true;
            }
        }
        self.side = self.side.other();
        if mv.capture || crossed {
            self.quiet = 0;
            self.history.clear();
        } else {
            self.quiet += 1;
        }
        self.history.push((self.stones, self.side));
        effects
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.finished() {
            return Some(o);
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves.is_empty().then_some(Outcome { winner: None, reason: Reason::NoLegalMove })
    }

    fn parse_move(&self, text: &str) -> Result<CrossingsMove, MoveError> {
        let wanted = parse_move_text(text.trim_matches(' '))?;
        if let Some(mv) = self.legal_moves().into_iter().find(|m| *m == wanted) {
            return Ok(mv);
        }
        Err(illegal(text.trim_matches(' '), self.why_illegal(&wanted)))
    }
}

fn parse_square(s: &str, text: &str) -> Result<u8, MoveError> {
    let c: Cell = s.parse().map_err(|e: crate::rules::BadSquare| syntax(text, e.to_string()))?;
    if c.file > 7 || c.rank > 7 {
        return Err(syntax(text, format!("{c} is off the 8 × 8 board")));
    }
    Ok(c.rank * 8 + c.file)
}

fn parse_move_text(text: &str) -> Result<CrossingsMove, MoveError> {
    let (line, rest) = match text.split_once(':') {
        Some((rear, rest)) => (Some(rear), rest),
        None => (None, text),
    };
    let (from, to, capture) = if let Some((a, b)) = rest.split_once('x') {
        (a, b, true)
    } else if let Some((a, b)) = rest.split_once('-') {
        (a, b, false)
    } else {
        return Err(syntax(text, "expected from-to, rear:front-dest or rear:frontxdest"));
    };
    let front = parse_square(from, text)?;
    let to = parse_square(to, text)?;
    let rear = match line {
        Some(r) => parse_square(r, text)?,
        None => front,
    };
    if line.is_some() && rear == front {
        return Err(syntax(text, "a single stone is written from-to, without its square twice"));
    }
    if capture && rear == front {
        return Err(syntax(text, "a single stone never captures; a phalanx capture is written rear:frontxdest"));
    }
    let mv = CrossingsMove { rear, front, to, capture };
    // The phalanx and its travel must lie on one axis, rear behind front.
    let ok_axis = |a: u8, b: u8| {
        let (dx, dy) = ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
        (dx, dy) != (0, 0) && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
    };
    if !ok_axis(front, to) {
        return Err(syntax(text, "a move goes along a rank, a file or a diagonal"));
    }
    if rear != front {
        let (d, _) = mv.direction();
        let (bx, by) = ((front % 8) as i8 - (rear % 8) as i8, (front / 8) as i8 - (rear / 8) as i8);
        if !ok_axis(rear, front) || (bx.signum(), by.signum()) != d {
            return Err(syntax(text, "a phalanx moves along its own line, front stone first"));
        }
    }
    Ok(mv)
}

impl fmt::Display for Crossings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "crossings ")?;
        super::write_grid(f, 8, 8, ['R', 'B'], |row, col| self.stone_at(Cell::new(col as u8, 7 - row as u8)))?;
        write!(f, " {} {}", if self.side == Side::First { 'r' } else { 'b' }, self.quiet)?;
        if self.options.exact {
            write!(f, " exact")?;
        }
        Ok(())
    }
}

impl FromStr for Crossings {
    type Err = PositionError;
    /// `crossings <board> <side> <quiet> [exact]`.
    fn from_str(s: &str) -> Result<Crossings, PositionError> {
        let (text, option) = super::trailing_option(s, 4)?;
        let options = match option {
            None => Options::default(),
            Some("exact") => Options { exact: true },
            Some(other) => {
                return Err(PositionError::Invalid(format!(
                    "unknown option '{}' (the only option is exact)",
                    super::quote(other)
                )));
            }
        };
        let f = super::fields(&text, &["crossings"], &["board", "side", "quiet"])?;
        let cells = super::read_grid(f[1], 8, 8, ['R', 'B'], &|row| format!("rank {}", 8 - row))?;
        let mut stones = [0u64; 2];
        for (i, side) in cells.iter().enumerate() {
            if let Some(side) = side {
                stones[side.index()] |= bit((7 - i / 8) as u8 * 8 + (i % 8) as u8);
            }
        }
        let side = super::read_side(f[2], ["r", "b"])?;
        let quiet: u32 = super::number(f[3]).ok_or_else(|| {
            PositionError::Invalid(format!(
                "quiet field is '{}', expected a number of moves from 0",
                super::quote(f[3])
            ))
        })?;
        for (s, name) in [(Side::First, "red"), (Side::Second, "black")] {
            let n = stones[s.index()].count_ones();
            if n > MAX_STONES {
                return Err(PositionError::Invalid(format!("{name} has {n} stones, at most {MAX_STONES} exist")));
            }
        }
        let pos = Crossings { stones, side, quiet, options, history: vec![(stones, side)] };
        let (a, b) = (pos.crossed(Side::First), pos.crossed(Side::Second));
        if a.abs_diff(b) > 1 {
            return Err(PositionError::Invalid(format!(
                "red has crossed {a} stones and black {b}: a game ends as soon as one side leads by a crossing that is not answered"
            )));
        }
        Ok(pos)
    }
}
