//! The rules engine: one [`Game`] trait that every game implements, the values the games share
//! (sides, cells, effects, outcomes, errors), and [`AnyGame`], one value over all variants.
//!
//! Pure Rust, no Bevy: the command line, records, the AI and the 3D scene all drive the games
//! through this module. The scene animates from [`Effect`]s and never decides legality.

pub mod crossings;
pub mod ctor;
pub mod ordo;
pub mod volterra;

use std::fmt;
use std::str::FromStr;

/// The two sides of a game. Each game names them in its own words (see [`Variant::side_name`]):
/// the first side is the one that moves first from the initial position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    ///
    /// ```
    /// use tablero::rules::Side;
    /// assert_eq!(Side::First.other(), Side::Second);
    /// ```
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A square or cell of a board: `file` from the left, `rank` from the bottom (the first side's
/// edge), both from 0. Printed in the games' notation as `a1`.
///
/// ```
/// use tablero::rules::Cell;
/// assert_eq!(Cell::new(2, 3).to_string(), "c4");
/// assert_eq!("j8".parse::<Cell>().unwrap(), Cell::new(9, 7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub file: u8,
    pub rank: u8,
}

impl Cell {
    pub const fn new(file: u8, rank: u8) -> Cell {
        Cell { file, rank }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

impl FromStr for Cell {
    type Err = BadSquare;
    /// Parses `a1` … `z99`; whether the cell is on a given board is for the game to check.
    fn from_str(s: &str) -> Result<Cell, BadSquare> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_lowercase() || !b[1..].iter().all(u8::is_ascii_digit) {
            return Err(BadSquare::Shape(s.to_string()));
        }
        let rank: u8 = s[1..].parse().map_err(|_| BadSquare::Shape(s.to_string()))?;
        if rank == 0 || b[1] == b'0' {
            return Err(BadSquare::RankZero(s.to_string()));
        }
        Ok(Cell::new(b[0] - b'a', rank - 1))
    }
}

/// Text that is not a square's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadSquare {
    #[error("'{}' is not a square (expected a letter and a number, like c4)", quote(.0))]
    Shape(String),
    #[error("'{}' is not a square (ranks count from 1)", quote(.0))]
    RankZero(String),
}

/// What a move changed, in the order it happened, so that the 3D scene can animate exactly that.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Effect {
    /// The piece on `from` went to `to`. A line of pieces moving together gives one `Moved` per
    /// piece, front piece first.
    Moved { from: Cell, to: Cell },
    /// The enemy piece on `at` was captured by the mover (it is taken off before the capturing
    /// piece lands there).
    Captured { at: Cell },
    /// A piece on `at` left the game without being captured itself (an Ordo X sub-group cut off
    /// by a capture).
    Removed { at: Cell },
    /// The piece that arrived on `at` is locked there for the rest of the game (a Crossings
    /// stone that crossed).
    Locked { at: Cell },
    /// A new piece of `side`'s colour was put on `at` (a Volterra tile laid in free setup).
    Placed { at: Cell, side: Side },
    /// `side`'s pawn was put on the tower at `at` (Volterra free setup).
    PawnPlaced { at: Cell, side: Side },
    /// `side`'s pawn stepped from `from` to `to` (Volterra).
    PawnMoved { side: Side, from: Cell, to: Cell },
    /// Tiles were lifted off the tower at `from` and put on the tower at `to` (Volterra):
    /// `tiles` are their colours from the bottom up, the heights are those before the lift.
    Stacked { from: Cell, to: Cell, tiles: Vec<Side>, from_height: u8, to_height: u8 },
    /// The disc on `at` was turned over and now shows `to`'s colour (CTOR).
    Flipped { at: Cell, to: Side },
    /// `owner`'s secret square `at` worked and is now revealed (CTOR).
    SecretRevealed { at: Cell, owner: Side },
    /// The CTOR border cell at (`file`, `rank`), one of them -1 or N (outside the field), now
    /// shows `side`'s disc (`None`: empty), like the square it duplicates.
    Border { file: i8, rank: i8, side: Option<Side> },
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Reason {
    /// A piece reached the opponent's home row (Ordo).
    HomeRow,
    /// The opponent has no pieces left.
    AllCaptured,
    /// The player to move was disconnected and has no move that reconnects (Ordo Classic).
    NoReconnection,
    /// The player to move has no legal move.
    NoLegalMove,
    /// A crossing was not answered by a counter-crossing (Crossings).
    UnansweredCrossing,
    /// The same position with the same player to move occurred three times.
    Repetition,
    /// The quiet-move limit was reached without a capture or a crossing.
    QuietMoves,
    /// No complete turn is left and the towers were compared, tallest first (Volterra).
    TallerTowers,
    /// No complete turn is left and both players own identical tower heights (Volterra).
    EqualTowers,
    /// Every square of the field is occupied and the discs were counted (CTOR).
    FullField,
    /// Two consecutive turns had no operation and the discs were counted (CTOR).
    IdleTurns,
    /// The turn counter reached its end, turn 4294967295, and the discs were counted (CTOR).
    TurnLimit,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::HomeRow => "reached the opponent's home row",
            Reason::AllCaptured => "captured every opposing piece",
            Reason::NoReconnection => "disconnected with no reconnecting move",
            Reason::NoLegalMove => "no legal move",
            Reason::UnansweredCrossing => "crossing not answered by a counter-crossing",
            Reason::Repetition => "threefold repetition",
            Reason::QuietMoves => "100 moves without capture or crossing",
            Reason::TallerTowers => "taller towers when no complete turn was left",
            Reason::EqualTowers => "identical towers when no complete turn was left",
            Reason::FullField => "more discs on the full field",
            Reason::IdleTurns => "more discs after two turns without an operation",
            Reason::TurnLimit => "more discs when the turn counter ran out",
        })
    }
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

/// A position string that cannot be a position of the game; the message names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("bad position: the position is empty")]
    Empty,
    #[error("bad position: {0}")]
    Variant(#[from] UnknownVariant),
    /// What the game's rules or its notation refuse, in words.
    #[error("bad position: {0}")]
    Invalid(String),
}

impl PositionError {
    /// The message without its `bad position: `.
    pub fn detail(&self) -> String {
        match self {
            PositionError::Empty => "the position is empty".into(),
            PositionError::Variant(v) => v.to_string(),
            PositionError::Invalid(why) => why.clone(),
        }
    }
}

/// A name that is no variant's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{}' (expected one of: {})", quote(.0), Variant::ALL.map(|v| v.name()).join(", "))]
pub struct UnknownVariant(pub String);

/// A move that cannot be played: unreadable, or not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the game's notation.
    Syntax { text: String, why: String },
    /// The text is a move, but not a legal one in this position.
    Illegal { text: String, why: String },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text, why } => write!(f, "unreadable move '{}': {why}", quote(text)),
            MoveError::Illegal { text, why } => write!(f, "illegal move '{}': {why}", quote(text)),
        }
    }
}

impl std::error::Error for MoveError {}

/// User text as a message repeats it: on one line (control characters and any whitespace
/// but a plain space escaped, like `\n` or `\u{3000}`) and cut after 40 characters, so that
/// every message stays one short line whatever was typed.
///
/// ```
/// assert_eq!(tablero::rules::quote("c2-c3\nc3-c4"), "c2-c3\\nc3-c4");
/// ```
pub fn quote(text: &str) -> String {
    let mut out = one_line(&text.chars().take(40).collect::<String>());
    if text.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

/// A message on one line: control characters and whitespace other than a plain space escaped.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch != ' ' && (ch.is_control() || ch.is_whitespace()) {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}

/// A whole number written as the notation writes numbers: ASCII digits only, no sign, no
/// leading zero (but `0` itself), within `T`'s range.
pub(crate) fn number<T: FromStr>(s: &str) -> Option<T> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits && (s == "0" || !s.starts_with('0'))).then(|| s.parse().ok()).flatten()
}

/// The fields of a position string: separated by spaces (a run of them counts as one), on one
/// line. Any other whitespace or control character is refused, naming it.
pub(crate) fn words(s: &str) -> Result<Vec<&str>, PositionError> {
    if let Some(ch) = s.chars().find(|c| *c != ' ' && (c.is_whitespace() || c.is_control())) {
        return Err(PositionError::Invalid(format!(
            "the position holds '{}': its fields are separated by plain spaces, on one line",
            quote(&ch.to_string())
        )));
    }
    Ok(s.split(' ').filter(|w| !w.is_empty()).collect())
}

pub(crate) fn syntax(text: &str, why: impl Into<String>) -> MoveError {
    MoveError::Syntax { text: text.to_string(), why: why.into() }
}

pub(crate) fn illegal(text: &str, why: impl Into<String>) -> MoveError {
    MoveError::Illegal { text: text.to_string(), why: why.into() }
}

/// How a line of stones moving together, or one stone alone, is said in words (Ordo's and
/// Crossings' choosers).
pub(crate) fn line_in_words(rear: Cell, front: Cell, to: Cell, capture: bool) -> String {
    let verb = if capture { "captures on" } else { "to" };
    if rear == front {
        format!("{front} alone {verb} {to}")
    } else {
        format!("the line {rear}–{front}, front {verb} {to}")
    }
}

/// Each legal move of `game` with the position after playing it: [`Game::successors`] the
/// plain way.
pub fn each_played<G: Game>(game: &G, f: &mut dyn FnMut(G::Move, G)) {
    for mv in game.legal_moves() {
        let mut next = game.clone();
        next.play_unchecked(&mv);
        f(mv, next);
    }
}

/// The shape every game has. Positions parse with `FromStr` and print with `Display` in the
/// notation of docs/notation.md, and round-trip.
pub trait Game: Clone + fmt::Debug + fmt::Display {
    /// A move as the rules know it: rich enough to show and animate without recomputation.
    type Move: Clone + fmt::Debug + fmt::Display + PartialEq;

    fn variant(&self) -> Variant;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;

    /// Every legal move, in a fixed order; empty once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays a move known to come from [`Game::legal_moves`] of this position, returning its effects.
    fn play_unchecked(&mut self, mv: &Self::Move) -> Vec<Effect>;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Reads a move in the game's notation and finds it among the legal moves.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Plays a move after checking that it is legal; an illegal move changes nothing.
    fn play(&mut self, mv: &Self::Move) -> Result<Vec<Effect>, MoveError> {
        if !self.legal_moves().contains(mv) {
            let why = match self.outcome() {
                Some(_) => "the game is over".to_string(),
                None => "not among the legal moves".to_string(),
            };
            return Err(illegal(&mv.to_string(), why));
        }
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal and returns its effects part by part, in the order the
    /// parts are played (an Ordo X turn's sideways and forward steps, a Volterra turn's two
    /// actions; every other move has one part).
    fn play_parts_unchecked(&mut self, mv: &Self::Move) -> Vec<Vec<Effect>> {
        vec![self.play_unchecked(mv)]
    }

    /// Reads and plays one move given as text.
    fn play_text(&mut self, text: &str) -> Result<Vec<Effect>, MoveError> {
        let mv = self.parse_move(text)?;
        Ok(self.play_unchecked(&mv))
    }

    /// The number of legal moves; games may count faster than they list.
    fn count_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Each legal move with the position after it, in the order of [`Game::legal_moves`]:
    /// the searches' way, where nothing is described; games may find them faster than by
    /// playing each move.
    fn successors(&self, f: &mut dyn FnMut(Self::Move, Self)) {
        each_played(self, f)
    }

    /// The number of move sequences of length `depth` (a move that ends the game has no
    /// continuations).
    fn perft(&self, depth: u32) -> u64 {
        self.perft_until(depth, &std::sync::atomic::AtomicBool::new(false)).unwrap_or(0)
    }

    /// [`Game::perft`] that gives up (`None`) soon after `stop` is set, for long counts that a
    /// person may interrupt.
    fn perft_until(&self, depth: u32, stop: &std::sync::atomic::AtomicBool) -> Option<u64> {
        match depth {
            0 => Some(1),
            1 => Some(self.count_moves()),
            _ => {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return None;
                }
                let mut sum = 0u64;
                for mv in self.legal_moves() {
                    let mut next = self.clone();
                    next.play_unchecked(&mv);
                    sum += next.perft_until(depth - 1, stop)?;
                }
                Some(sum)
            }
        }
    }
}

/// Every variant tablero plays, by its notation name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    Ordo,
    OrdoX,
    Crossings,
    Volterra,
    VolterraFree,
    Ctor8,
    Ctor10,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::Ordo,
        Variant::OrdoX,
        Variant::Crossings,
        Variant::Volterra,
        Variant::VolterraFree,
        Variant::Ctor8,
        Variant::Ctor10,
    ];

    /// The variant's name in position strings and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Ordo => "ordo",
            Variant::OrdoX => "ordo-x",
            Variant::Crossings => "crossings",
            Variant::Volterra => "volterra",
            Variant::VolterraFree => "volterra-free",
            Variant::Ctor8 => "ctor8",
            Variant::Ctor10 => "ctor10",
        }
    }

    /// The game's title, as the menu and the table's panel show it.
    pub fn title(self) -> &'static str {
        match self {
            Variant::Ordo => "Ordo Classic",
            Variant::OrdoX => "Ordo X",
            Variant::Crossings => "Crossings",
            Variant::Volterra => "Volterra",
            Variant::VolterraFree => "Volterra, free setup",
            Variant::Ctor8 => "CTOR 8x8",
            Variant::Ctor10 => "CTOR 10x10",
        }
    }

    /// The game's own name for a side.
    pub fn side_name(self, side: Side) -> &'static str {
        match (self, side) {
            (Variant::Ordo | Variant::OrdoX, Side::First) => "white",
            (Variant::Ordo | Variant::OrdoX, Side::Second) => "blue",
            (Variant::Crossings, Side::First) => "red",
            (Variant::Crossings, Side::Second) => "black",
            (Variant::Volterra | Variant::VolterraFree, Side::First) => "light",
            (Variant::Volterra | Variant::VolterraFree, Side::Second) => "dark",
            (Variant::Ctor8 | Variant::Ctor10, Side::First) => "black",
            (Variant::Ctor8 | Variant::Ctor10, Side::Second) => "white",
        }
    }

    /// The initial position of the variant.
    pub fn initial(self) -> AnyGame {
        match self {
            Variant::Ordo => AnyGame::Ordo(ordo::Ordo::initial(ordo::Rules::Classic)),
            Variant::OrdoX => AnyGame::Ordo(ordo::Ordo::initial(ordo::Rules::X)),
            Variant::Crossings => AnyGame::Crossings(crossings::Crossings::initial(crossings::Options::default())),
            Variant::Volterra => AnyGame::Volterra(volterra::Volterra::initial(volterra::Options::default())),
            Variant::VolterraFree => AnyGame::Volterra(volterra::Volterra::free_setup(volterra::Options::default())),
            Variant::Ctor8 => AnyGame::Ctor(ctor::Ctor::new(8, ctor::Teams::default(), ctor::Options::default())),
            Variant::Ctor10 => AnyGame::Ctor(ctor::Ctor::new(10, ctor::Teams::default(), ctor::Options::default())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// One value over every game, so that the command line, records and the app handle any game
/// the same way.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyGame {
    Ordo(ordo::Ordo),
    Crossings(crossings::Crossings),
    Volterra(volterra::Volterra),
    Ctor(ctor::Ctor),
}

/// A move of any game.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyMove {
    Ordo(ordo::OrdoMove),
    Crossings(crossings::CrossingsMove),
    Volterra(volterra::VolterraMove),
    Ctor(ctor::CtorMove),
}

macro_rules! each_game {
    ($value:expr, $g:ident => $body:expr) => {
        match $value {
            AnyGame::Ordo($g) => $body,
            AnyGame::Crossings($g) => $body,
            AnyGame::Volterra($g) => $body,
            AnyGame::Ctor($g) => $body,
        }
    };
}

macro_rules! each_move {
    ($game:expr, $mv:expr, $g:ident, $m:ident => $body:expr) => {
        match ($game, $mv) {
            (AnyGame::Ordo($g), AnyMove::Ordo($m)) => $body,
            (AnyGame::Crossings($g), AnyMove::Crossings($m)) => $body,
            (AnyGame::Volterra($g), AnyMove::Volterra($m)) => $body,
            (AnyGame::Ctor($g), AnyMove::Ctor($m)) => $body,
            #[allow(unreachable_patterns)]
            _ => panic!("a move of one game played in another"),
        }
    };
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each_game!(self, g => g.fmt(f))
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Ordo(m) => m.fmt(f),
            AnyMove::Crossings(m) => m.fmt(f),
            AnyMove::Volterra(m) => m.fmt(f),
            AnyMove::Ctor(m) => m.fmt(f),
        }
    }
}

impl AnyMove {
    /// The move's parts as written: an Ordo X turn may have two, joined by `,` in notation.
    pub fn parts(&self) -> Vec<String> {
        self.to_string().split(',').map(str::to_string).collect()
    }

    /// For part `k`, each moving stone's square and landing square (empty for moves that move
    /// no stone across the board, like a CTOR Put).
    pub fn paths(&self, k: usize) -> Vec<(Cell, Cell)> {
        match self {
            AnyMove::Ordo(m) => m.steps().nth(k).map(|s| s.paths()).unwrap_or_default(),
            AnyMove::Crossings(m) if k == 0 => m.paths(),
            AnyMove::Volterra(volterra::VolterraMove::Turn(a, b)) => match k {
                0 => vec![a.path()],
                1 => vec![b.path()],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Part `k` of the move in words, with its notation, for the chooser that offers several
    /// moves landing on one square.
    pub fn describe(&self, k: usize) -> String {
        let words = match self {
            AnyMove::Ordo(m) => m.steps().nth(k).map(|s| s.describe()),
            AnyMove::Crossings(m) if k == 0 => Some(m.describe()),
            AnyMove::Volterra(volterra::VolterraMove::Turn(a, b)) => [a, b].get(k).map(|a| a.describe()),
            _ => None,
        };
        let part = self.parts().get(k).cloned().unwrap_or_default();
        match words {
            Some(w) => format!("{w}  ({part})"),
            None => part,
        }
    }

    /// The cell of a move made by one click on it (a Volterra setup tile or pawn).
    pub fn click_cell(&self) -> Option<Cell> {
        match self {
            AnyMove::Volterra(volterra::VolterraMove::Lay(i) | volterra::VolterraMove::Place(i)) => {
                Some(Cell::new(i % volterra::FILES, i / volterra::FILES))
            }
            _ => None,
        }
    }
}

impl AnyGame {
    /// The position after the first `k` parts of a move, and what those parts changed, for
    /// showing a move being chosen; `None` where a game has no such in-between position.
    pub fn preview(&self, mv: &AnyMove, k: usize) -> Option<(AnyGame, Vec<Effect>)> {
        match (self, mv, k) {
            (_, _, 0) => Some((self.clone(), Vec::new())),
            (AnyGame::Ordo(g), AnyMove::Ordo(m), 1) if m.then.is_some() => {
                let (next, effects) = g.after_first_part(m);
                Some((AnyGame::Ordo(next), effects))
            }
            (AnyGame::Volterra(g), AnyMove::Volterra(volterra::VolterraMove::Turn(a, _)), 1) => {
                let (next, effects) = g.after_action(a);
                Some((AnyGame::Volterra(next), effects))
            }
            _ => None,
        }
    }

    /// The piece on a cell: a stone, a CTOR disc, or the owner of a Volterra tower.
    pub fn piece_at(&self, c: Cell) -> Option<Side> {
        match self {
            AnyGame::Ordo(g) => g.piece_at(c),
            AnyGame::Crossings(g) => g.stone_at(c),
            AnyGame::Volterra(g) => g.tower(c).and_then(|t| t.owner()),
            AnyGame::Ctor(g) => g.square(c).and_then(|sq| g.disc(sq)),
        }
    }

    /// For part `k` of a move of this game, each moving piece's cell and landing cell.
    pub fn move_paths(&self, mv: &AnyMove, k: usize) -> Vec<(Cell, Cell)> {
        match (self, mv) {
            (AnyGame::Ctor(g), AnyMove::Ctor(ctor::CtorMove::Move(a, b))) if k == 0 => vec![(g.cell(*a), g.cell(*b))],
            _ => mv.paths(k),
        }
    }

    /// The cell of a move made by one click on it: a Volterra setup tile or pawn, a CTOR Put.
    pub fn click_cell(&self, mv: &AnyMove) -> Option<Cell> {
        match (self, mv) {
            (AnyGame::Ctor(g), AnyMove::Ctor(ctor::CtorMove::Put(sq))) => Some(g.cell(*sq)),
            _ => mv.click_cell(),
        }
    }

    /// The two discs and the destination of a CTOR Landing.
    pub fn landing_cells(&self, mv: &AnyMove) -> Option<(Cell, Cell, Cell)> {
        match (self, mv) {
            (AnyGame::Ctor(g), AnyMove::Ctor(ctor::CtorMove::Landing(a, b, d))) => {
                Some((g.cell(*a), g.cell(*b), g.cell(*d)))
            }
            _ => None,
        }
    }

    /// Whether the piece on `c` is locked there for the rest of the game (a Crossings stone
    /// that has crossed).
    pub fn locked_at(&self, c: Cell) -> bool {
        match self {
            AnyGame::Crossings(g) => g.is_locked(c),
            _ => false,
        }
    }

    /// Whether moves may end on the mover's own pieces (Volterra builds and steps go onto
    /// towers of one's colour; stones never land on their own side's stones).
    pub fn lands_on_own(&self) -> bool {
        matches!(self, AnyGame::Volterra(_))
    }

    /// A random legal move, cheaper than listing them all where a game can (playouts).
    pub fn random_move(&self, rng: &mut rand::rngs::StdRng) -> Option<AnyMove> {
        use rand::seq::IndexedRandom;
        match self {
            AnyGame::Ordo(g) => g.random_move(rng).map(AnyMove::Ordo),
            AnyGame::Ctor(g) => g.random_move(rng).map(AnyMove::Ctor),
            _ => self.legal_moves().choose(rng).cloned(),
        }
    }

    /// Files and ranks of the board.
    pub fn board_size(&self) -> (u8, u8) {
        match self {
            AnyGame::Ordo(_) => (10, 8),
            AnyGame::Crossings(_) => (8, 8),
            AnyGame::Volterra(_) => (4, 5),
            AnyGame::Ctor(g) => (g.size(), g.size()),
        }
    }

    /// The score as the game counts it, `start` being where the game began: CTOR's discs,
    /// Volterra's towers (tallest first), and for Ordo and Crossings the pieces taken off the
    /// board since the start.
    pub fn tally(&self, start: &AnyGame) -> Tally {
        let pieces = |g: &AnyGame, s: Side| {
            let (f, r) = g.board_size();
            (0..r).flat_map(|r| (0..f).map(move |f| Cell::new(f, r))).filter(|c| g.piece_at(*c) == Some(s)).count()
        };
        let (what, sides) = match self {
            AnyGame::Ctor(g) => ("discs", [Side::First, Side::Second].map(|s| vec![g.count(s)])),
            AnyGame::Volterra(g) => (
                "towers, tallest first",
                [Side::First, Side::Second].map(|s| g.heights(s).iter().map(|&h| h as u32).collect()),
            ),
            _ => (
                "off the board",
                [Side::First, Side::Second].map(|s| vec![pieces(start, s).saturating_sub(pieces(self, s)) as u32]),
            ),
        };
        Tally { what, sides, names: [Side::First, Side::Second].map(|s| self.variant().side_name(s)) }
    }
}

/// A game's score as it counts it ([`AnyGame::tally`]): what is counted, and each side's
/// numbers (one number, or Volterra's tower heights).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub what: &'static str,
    pub sides: [Vec<u32>; 2],
    pub names: [&'static str; 2],
}

impl fmt::Display for Tally {
    /// `discs: black 12, white 10`; `towers, tallest first: light 3 2 | dark 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |i: usize| self.sides[i].iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
        let between = if self.sides.iter().any(|s| s.len() != 1) { " |" } else { "," };
        write!(f, "{}: {} {}{between} {} {}", self.what, self.names[0], list(0), self.names[1], list(1))
    }
}

impl AnyGame {
    /// What every command and the table's Paste take for a position: a position string, or a
    /// variant's name alone (`ordo`, `ctor10`, …) for its start.
    /// Read as written, as positions are: nothing around the name.
    pub fn read(text: &str) -> Result<AnyGame, PositionError> {
        match text.parse::<Variant>() {
            Ok(v) => Ok(v.initial()),
            Err(_) => text.parse(),
        }
    }
}

impl FromStr for AnyGame {
    type Err = PositionError;
    /// Reads a position string of any variant; the first field names the variant.
    fn from_str(s: &str) -> Result<AnyGame, PositionError> {
        let first = *words(s)?.first().ok_or(PositionError::Empty)?;
        let variant: Variant = first.parse()?;
        Ok(match variant {
            Variant::Ordo | Variant::OrdoX => AnyGame::Ordo(s.parse()?),
            Variant::Crossings => AnyGame::Crossings(s.parse()?),
            Variant::Volterra | Variant::VolterraFree => AnyGame::Volterra(s.parse()?),
            Variant::Ctor8 | Variant::Ctor10 => AnyGame::Ctor(s.parse()?),
        })
    }
}

impl Game for AnyGame {
    type Move = AnyMove;

    fn variant(&self) -> Variant {
        each_game!(self, g => g.variant())
    }

    fn side_to_move(&self) -> Side {
        each_game!(self, g => g.side_to_move())
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Ordo(g) => g.legal_moves().into_iter().map(AnyMove::Ordo).collect(),
            AnyGame::Crossings(g) => g.legal_moves().into_iter().map(AnyMove::Crossings).collect(),
            AnyGame::Volterra(g) => g.legal_moves().into_iter().map(AnyMove::Volterra).collect(),
            AnyGame::Ctor(g) => g.legal_moves().into_iter().map(AnyMove::Ctor).collect(),
        }
    }

    /// # Panics
    /// If the move belongs to another game: [`Game::play`] refuses such a move instead.
    fn play_unchecked(&mut self, mv: &AnyMove) -> Vec<Effect> {
        each_move!(self, mv, g, m => g.play_unchecked(m))
    }

    fn play_parts_unchecked(&mut self, mv: &AnyMove) -> Vec<Vec<Effect>> {
        each_move!(self, mv, g, m => g.play_parts_unchecked(m))
    }

    fn play(&mut self, mv: &AnyMove) -> Result<Vec<Effect>, MoveError> {
        match (self, mv) {
            (AnyGame::Ordo(g), AnyMove::Ordo(m)) => g.play(m),
            (AnyGame::Crossings(g), AnyMove::Crossings(m)) => g.play(m),
            (AnyGame::Volterra(g), AnyMove::Volterra(m)) => g.play(m),
            (AnyGame::Ctor(g), AnyMove::Ctor(m)) => g.play(m),
            (_, m) => Err(illegal(&m.to_string(), "a move of another game")),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        each_game!(self, g => g.outcome())
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        match self {
            AnyGame::Ordo(g) => g.parse_move(text).map(AnyMove::Ordo),
            AnyGame::Crossings(g) => g.parse_move(text).map(AnyMove::Crossings),
            AnyGame::Volterra(g) => g.parse_move(text).map(AnyMove::Volterra),
            AnyGame::Ctor(g) => g.parse_move(text).map(AnyMove::Ctor),
        }
    }

    fn count_moves(&self) -> u64 {
        each_game!(self, g => g.count_moves())
    }

    fn successors(&self, f: &mut dyn FnMut(AnyMove, AnyGame)) {
        match self {
            AnyGame::Ordo(g) => g.successors(&mut |m, n| f(AnyMove::Ordo(m), AnyGame::Ordo(n))),
            AnyGame::Crossings(g) => g.successors(&mut |m, n| f(AnyMove::Crossings(m), AnyGame::Crossings(n))),
            AnyGame::Volterra(g) => g.successors(&mut |m, n| f(AnyMove::Volterra(m), AnyGame::Volterra(n))),
            AnyGame::Ctor(g) => g.successors(&mut |m, n| f(AnyMove::Ctor(m), AnyGame::Ctor(n))),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        each_game!(self, g => g.perft(depth))
    }

    fn perft_until(&self, depth: u32, stop: &std::sync::atomic::AtomicBool) -> Option<u64> {
        each_game!(self, g => g.perft_until(depth, stop))
    }
}

/// Splits off an optional option field after the `fields` fields of a position (the variant
/// counted): the position without it, and the option's text if there is one.
pub(crate) fn trailing_option(s: &str, fields: usize) -> Result<(String, Option<&str>), PositionError> {
    let words = words(s)?;
    Ok(if words.len() == fields + 1 { (words[..fields].join(" "), Some(words[fields])) } else { (s.to_string(), None) })
}

/// Splits a position string into its fields after checking the variant name and field count.
pub(crate) fn fields<'a>(s: &'a str, names: &[&str], expected: &[&str]) -> Result<Vec<&'a str>, PositionError> {
    let fields = words(s)?;
    if fields.is_empty() {
        return Err(PositionError::Empty);
    }
    if !names.contains(&fields[0]) {
        return Err(PositionError::Invalid(format!(
            "variant field is '{}', expected {}",
            quote(fields[0]),
            names.join(" or ")
        )));
    }
    if fields.len() != expected.len() + 1 {
        let missing = expected.get(fields.len() - 1).map(|f| format!(": missing the {f} field")).unwrap_or_default();
        return Err(PositionError::Invalid(format!(
            "{} fields after the variant, expected {} ({}){missing}",
            fields.len() - 1,
            expected.len(),
            expected.join(", ")
        )));
    }
    Ok(fields)
}

/// Reads a board of two sides' pieces: `ranks` rows of `files` characters separated by '/',
/// the top row first, `symbols` for the first and second side and `.` for empty. Returns the
/// cells row by row from the top; `row_name` names a row (0 = top) in messages.
pub(crate) fn read_grid(
    text: &str,
    files: usize,
    ranks: usize,
    symbols: [char; 2],
    row_name: &dyn Fn(usize) -> String,
) -> Result<Vec<Option<Side>>, PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return Err(PositionError::Invalid(format!(
            "the board has {} ranks, expected {ranks} separated by '/'",
            rows.len()
        )));
    }
    let mut cells = Vec::with_capacity(files * ranks);
    for (r, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != files {
            return Err(PositionError::Invalid(format!("{} has {len} squares, expected {files}", row_name(r))));
        }
        for ch in row.chars() {
            cells.push(match ch {
                c if c == symbols[0] => Some(Side::First),
                c if c == symbols[1] => Some(Side::Second),
                '.' => None,
                other => {
                    return Err(PositionError::Invalid(format!(
                        "unknown character '{}' on {} (expected {}, {} or .)",
                        quote(&other.to_string()),
                        row_name(r),
                        symbols[0],
                        symbols[1]
                    )));
                }
            });
        }
    }
    Ok(cells)
}

/// Writes a board the way [`read_grid`] reads it; `at(row, column)` gives each cell, row 0 on top.
pub(crate) fn write_grid(
    f: &mut fmt::Formatter<'_>,
    files: usize,
    ranks: usize,
    symbols: [char; 2],
    at: impl Fn(usize, usize) -> Option<Side>,
) -> fmt::Result {
    for row in 0..ranks {
        if row > 0 {
            f.write_str("/")?;
        }
        for col in 0..files {
            let ch = match at(row, col) {
                Some(Side::First) => symbols[0],
                Some(Side::Second) => symbols[1],
                None => '.',
            };
            write!(f, "{ch}")?;
        }
    }
    Ok(())
}

/// Reads the side-to-move field, written with the first or the second letter.
pub(crate) fn read_side(token: &str, letters: [&str; 2]) -> Result<Side, PositionError> {
    match token {
        t if t == letters[0] => Ok(Side::First),
        t if t == letters[1] => Ok(Side::Second),
        other => Err(PositionError::Invalid(format!(
            "side field is '{}', expected {} or {}",
            quote(other),
            letters[0],
            letters[1]
        ))),
    }
}
