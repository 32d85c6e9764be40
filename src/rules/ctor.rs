//! CTOR on an N × N torus (N = 8 or 10): Put, Move, Landing and End of turn, the automatic
//! replace cascade, the allowance table and opening turns, secret squares as hidden
//! information, the sand-glass timeout, team data, the auxiliary border, and the notation.

use super::{Cell, Effect, Game, MoveError, Outcome, PositionError, Reason, Side, Variant, illegal, syntax};
use std::fmt;
use std::str::FromStr;

/// Squares are numbered 1…N² row by row from the top left, as on the kit's record sheets.
pub type Square = u16;

/// Discs of one colour: bit `sq - 1`.
type Bb = u128;

/// The last turn number: a game that reaches it ends there, the discs counted (the counter
/// cannot go further).
pub const MAX_TURN: u32 = u32::MAX;

/// How many of its 8 neighbours a disc needs of the other colour to be turned over.
pub const REPLACE_AT: u32 = 5;
/// Secret squares per team.
pub const SECRETS: usize = 5;
/// The sand-glass settings of the kit, in seconds.
pub const TIMERS: [u8; 4] = [5, 10, 15, 30];

/// What a team may still do in a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Allowance {
    pub puts: u8,
    pub steps: u8,
    pub landings: u8,
}

impl fmt::Display for Allowance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}M{}L{}", self.puts, self.steps, self.landings)
    }
}

impl Allowance {
    fn fits_in(&self, full: &Allowance) -> bool {
        self.puts <= full.puts && self.steps <= full.steps && self.landings <= full.landings
    }
}

/// The two teams: their sizes (1 to 3 players), the turn power (which row of the allowance
/// table the game plays), and, for team play, the members' names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Teams {
    /// Players in the black team (first) and the white team.
    pub sizes: [u8; 2],
    /// Names of the members, in the order they take the team's Puts (may be empty).
    pub members: [Vec<String>; 2],
    /// The seed's "selected turn power": the row of the allowance table (1, 2 or 3), when it is
    /// not the larger team's (`None`). It stays when members join or leave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<u8>,
}

impl Default for Teams {
    fn default() -> Teams {
        Teams::new([1, 1])
    }
}

/// The seed's allowance table: the normal turn of rows 1, 2 and 3.
const ROWS: [Allowance; 3] = [
    Allowance { puts: 2, steps: 2, landings: 1 },
    Allowance { puts: 2, steps: 2, landings: 0 },
    Allowance { puts: 3, steps: 3, landings: 0 },
];

impl Teams {
    /// Teams of these sizes, playing the row of the larger team.
    pub fn new(sizes: [u8; 2]) -> Teams {
        Teams { sizes, members: [Vec::new(), Vec::new()], power: None }
    }

    /// Teams of these sizes playing row `power` of the table (stored only where it is not the
    /// larger team's row, so that one format has one written form).
    pub fn with_power(sizes: [u8; 2], power: u8) -> Result<Teams, TeamsError> {
        let mut t = Teams::new(sizes);
        if power != t.row() {
            t.power = Some(power);
        }
        t.check()?;
        Ok(t)
    }

    /// The row of the allowance table the game plays: the chosen turn power, else the larger
    /// team's size.
    pub fn row(&self) -> u8 {
        self.power.unwrap_or(self.sizes[0].max(self.sizes[1]))
    }

    /// Whether the sizes and the power make a game: teams of 1 to 3, a row from 1 to 3, and no
    /// team with more members than Puts a turn (the seed: "to add a player to the team, the
    /// number of players in this team must be less than the number of Put operations").
    pub fn check(&self) -> Result<(), TeamsError> {
        if !self.sizes.iter().all(|s| (1..=3).contains(s)) {
            return Err(TeamsError::Size(self.sizes));
        }
        let row = self.row();
        if !(1..=3).contains(&row) {
            return Err(TeamsError::Power(row));
        }
        let puts = ROWS[row as usize - 1].puts;
        if let Some(big) = self.sizes.iter().copied().find(|s| *s > puts) {
            return Err(TeamsError::TooBig { big, row, puts });
        }
        Ok(())
    }

    /// The allowance of a normal turn, from the seed's table: the chosen row (by default the
    /// larger team's), with no Landing when the teams are unequal (tablero's reading);
    /// `landing` overrides the Landing column.
    pub fn allowance(&self, landing: Option<u8>) -> Allowance {
        let mut a = ROWS[(self.row().clamp(1, 3) - 1) as usize];
        if self.sizes[0] != self.sizes[1] {
            a.landings = 0;
        }
        if let Some(l) = landing {
            a.landings = l;
        }
        a
    }
}

impl fmt::Display for Teams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.sizes[0], self.sizes[1])
    }
}

/// Rule options. The position string carries those that change the legal moves, as trailing
/// fields (`landing=N`, `power=R`, `landing-back`, `opening=old`); the sand-glass lives in the
/// record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Options {
    /// Landings per normal turn, instead of the table's.
    pub landing: Option<u8>,
    /// The sand-glass: seconds per turn (5, 10, 15 or 30), after which the turn ends.
    pub timer: Option<u8>,
    /// A Landing puts its disc back on one of the two squares it emptied (the seed's only
    /// example), instead of on any empty square.
    #[serde(default)]
    pub landing_back: bool,
    /// The opening as tablero read it before 2026-12-03: the third turn a Put-only turn of 3
    /// only where the normal row has 3 Puts. Set for games begun under that reading (records
    /// of format 1, positions whose third turn does not fit the opening), so that they replay
    /// and go on as they were played.
    #[serde(default)]
    pub old_opening: bool,
}

/// The state of one secret square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SecretState {
    /// Not yet hit.
    Hidden,
    /// The opponent put a disc on it this turn: it works when the owner's turn starts.
    Pending,
    /// It worked and is known to both teams.
    Revealed,
}

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CtorMove {
    Put(Square),
    Move(Square, Square),
    /// Two own discs off (`a < b`), one on `dest`.
    Landing(Square, Square, Square),
    /// End of turn.
    End,
    /// The sand-glass ran out: the turn ends (only with a turn timer).
    Timeout,
}

impl fmt::Display for CtorMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CtorMove::Put(s) => write!(f, "P{s}"),
            CtorMove::Move(a, b) => write!(f, "M{a}-{b}"),
            CtorMove::Landing(a, b, d) => write!(f, "L{a},{b}>{d}"),
            CtorMove::End => write!(f, "E"),
            CtorMove::Timeout => write!(f, "T"),
        }
    }
}

/// The result of a blind team Put: the accepted choices, and the members who must choose again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlindPut {
    pub accepted: Vec<(u8, Square)>,
    pub choose_again: Vec<u8>,
}

/// A CTOR game: the public position, the options, and the hidden secret squares.
///
/// ```
/// use tablero::rules::{Game, ctor::{Ctor, Options, Teams}};
/// let g = Ctor::new(8, Teams::default(), Options::default());
/// assert_eq!(g.legal_moves().len(), 65); // 64 Puts and End of turn
/// assert_eq!(g.perft(2), 129);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ctor {
    n: u8,
    discs: [Bb; 2],
    side: Side,
    turn: u32,
    left: Allowance,
    teams: Teams,
    /// Consecutive finished turns without an operation (2 ends the game).
    idle: u8,
    options: Options,
    secrets: [Vec<(Square, SecretState)>; 2],
    /// Turns that ended because the sand-glass ran out.
    timeouts: Vec<u32>,
    /// Operations in the current turn, in order: for the record of team Puts.
    puts_this_turn: u8,
}

/// The 8 neighbours of every square on an N × N torus, as masks.
fn neighbour_masks(n: u8) -> Vec<Bb> {
    let n = n as i32;
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let mut m: Bb = 0;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if (dr, dc) != (0, 0) {
                        m |= 1 << (((r + dr).rem_euclid(n)) * n + (c + dc).rem_euclid(n));
                    }
                }
            }
            m
        })
        .collect()
}

thread_local! {
    static MASKS: [Vec<Bb>; 2] = [neighbour_masks(8), neighbour_masks(10)];
}

fn with_masks<R>(n: u8, f: impl FnOnce(&[Bb]) -> R) -> R {
    MASKS.with(|m| f(&m[if n == 8 { 0 } else { 1 }]))
}

/// A random square of a set, if it has any.
fn random_square(bb: Bb, rng: &mut impl rand::Rng) -> Option<Square> {
    let n = bb.count_ones();
    (n > 0).then(|| bits(bb).nth(rng.random_range(0..n) as usize).expect("n bits"))
}

fn bits(mut bb: Bb) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let i = bb.trailing_zeros() as Square;
            bb &= bb - 1;
            i + 1
        })
    })
}

impl Ctor {
    /// The empty field at the start of the game.
    pub fn new(n: u8, teams: Teams, options: Options) -> Ctor {
        assert!(n == 8 || n == 10, "CTOR is played on 8 × 8 or 10 × 10");
        let mut g = Ctor {
            n,
            discs: [0; 2],
            side: Side::First,
            turn: 1,
            left: Allowance::default(),
            teams,
            idle: 0,
            options,
            secrets: [Vec::new(), Vec::new()],
            timeouts: Vec::new(),
            puts_this_turn: 0,
        };
        g.settle_opening();
        g.left = g.allowance(1);
        g
    }

    pub fn size(&self) -> u8 {
        self.n
    }

    pub fn teams(&self) -> &Teams {
        &self.teams
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Marks a game begun under the old reading of the opening ([`Options::old_opening`]).
    pub fn set_old_opening(&mut self) {
        self.options.old_opening = true;
        self.settle_opening();
    }

    /// The old reading of the opening changes nothing where the row has 3 Puts, nor once the
    /// third turn is over, so it is dropped there: a position has one state for one string.
    fn settle_opening(&mut self) {
        if self.turn > 3 || !self.old_opening_applies() {
            self.options.old_opening = false;
        }
    }

    /// Sets the sand-glass (an option the position string does not carry).
    pub fn set_timer(&mut self, timer: Option<u8>) {
        self.options.timer = timer;
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// What the side to move may still do this turn.
    pub fn left(&self) -> Allowance {
        self.left
    }

    pub fn timeouts(&self) -> &[u32] {
        &self.timeouts
    }

    fn squares(&self) -> Square {
        self.n as Square * self.n as Square
    }

    fn full_mask(&self) -> Bb {
        (1 << self.squares()) - 1
    }

    fn bit(sq: Square) -> Bb {
        1 << (sq - 1)
    }

    /// The disc on a square (1…N²).
    pub fn disc(&self, sq: Square) -> Option<Side> {
        if sq == 0 || sq > self.squares() {
            return None;
        }
        [Side::First, Side::Second].into_iter().find(|s| self.discs[s.index()] & Self::bit(sq) != 0)
    }

    pub fn count(&self, side: Side) -> u32 {
        self.discs[side.index()].count_ones()
    }

    /// The square's cell: file from the left, rank from the bottom.
    pub fn cell(&self, sq: Square) -> Cell {
        let i = sq - 1;
        let n = self.n as Square;
        Cell::new((i % n) as u8, (self.n - 1) - (i / n) as u8)
    }

    /// The square at a cell of the main field.
    pub fn square(&self, c: Cell) -> Option<Square> {
        (c.file < self.n && c.rank < self.n)
            .then(|| (self.n - 1 - c.rank) as Square * self.n as Square + c.file as Square + 1)
    }

    /// The 8 neighbours of a square across the wrap.
    pub fn neighbours(&self, sq: Square) -> Vec<Square> {
        with_masks(self.n, |m| bits(m[sq as usize - 1]).collect())
    }

    /// The 4 orthogonal neighbours of a square across the wrap.
    pub fn orthogonal(&self, sq: Square) -> [Square; 4] {
        let n = self.n as i32;
        let i = sq as i32 - 1;
        let (r, c) = (i / n, i % n);
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .map(|(dr, dc)| ((r + dr).rem_euclid(n) * n + (c + dc).rem_euclid(n) + 1) as Square)
    }

    /// The auxiliary border: every cell of the ring (file, rank in -1…N, outside the field) with
    /// the main-field square it duplicates. 4N + 4 cells; a corner square has 3 duplicates.
    pub fn border(&self) -> Vec<((i8, i8), Square)> {
        let n = self.n as i8;
        let mut out = Vec::with_capacity(4 * n as usize + 4);
        for rank in -1..=n {
            for file in -1..=n {
                if (0..n).contains(&file) && (0..n).contains(&rank) {
                    continue;
                }
                let c = Cell::new(file.rem_euclid(n) as u8, rank.rem_euclid(n) as u8);
                out.push(((file, rank), self.square(c).expect("wrapped into the field")));
            }
        }
        out
    }

    /// The border cells that show a square.
    pub fn duplicates(&self, sq: Square) -> Vec<(i8, i8)> {
        self.border().into_iter().filter(|(_, s)| *s == sq).map(|(at, _)| at).collect()
    }

    /// The allowance of a turn, the opening turns included. The seed: "the team that plays
    /// first puts 1 disc, the second team puts 2 discs, and then the first team may put 3
    /// discs; after this the game returns to the normal rules (the table)".
    pub fn allowance(&self, turn: u32) -> Allowance {
        if self.is_opening(turn) {
            return Ctor::opening_allowance(turn);
        }
        self.teams.allowance(self.options.landing)
    }

    /// An opening turn's allowance: as many Puts as the turn's number, nothing else.
    fn opening_allowance(turn: u32) -> Allowance {
        Allowance { puts: turn.min(3) as u8, steps: 0, landings: 0 }
    }

    /// Whether a turn is one of the opening turns (Puts only: 1, then 2, then up to 3).
    pub fn is_opening(&self, turn: u32) -> bool {
        turn <= 2 || (turn == 3 && !self.old_opening_applies())
    }

    /// Whether the old reading of the opening (see [`Options::old_opening`]) changes this
    /// game: only where the normal row has fewer than 3 Puts.
    fn old_opening_applies(&self) -> bool {
        self.options.old_opening && self.teams.allowance(self.options.landing).puts != 3
    }

    /// Whether the current turn has had an operation.
    pub fn had_operation(&self) -> bool {
        self.left != self.allowance(self.turn)
    }

    /// Sets a team's secret squares (before the game).
    pub fn set_secrets(&mut self, team: Side, squares: &[Square]) -> Result<(), SecretsError> {
        if squares.len() != SECRETS {
            return Err(SecretsError::Count(squares.len()));
        }
        for (i, &sq) in squares.iter().enumerate() {
            if sq == 0 || sq > self.squares() {
                return Err(SecretsError::OffField { square: sq, squares: self.squares() });
            }
            if squares[..i].contains(&sq) {
                return Err(SecretsError::Twice(sq));
            }
        }
        self.secrets[team.index()] = squares.iter().map(|&s| (s, SecretState::Hidden)).collect();
        Ok(())
    }

    /// Tells a spectator's copy of the game one of `team`'s secret squares learned from the
    /// feed: one already revealed (given as `Hidden` at the start, it works again exactly when
    /// it worked, since it was hit at the same moment), or one about to work (`Pending`, just
    /// before the move that ends the turn). No count is checked: a spectator knows only some.
    pub fn know_secret(&mut self, team: Side, sq: Square, state: SecretState) {
        let list = &mut self.secrets[team.index()];
        match list.iter_mut().find(|s| s.0 == sq) {
            Some(s) => s.1 = state,
            None => list.push((sq, state)),
        }
    }

    /// A team's secret squares with their states.
    pub fn secrets(&self, team: Side) -> &[(Square, SecretState)] {
        &self.secrets[team.index()]
    }

    /// The game as `team` may see it: the other team's secrets that have not worked are gone.
    pub fn view(&self, team: Side) -> Ctor {
        let mut v = self.clone();
        v.secrets[team.other().index()].retain(|(_, st)| *st == SecretState::Revealed);
        v
    }

    /// The member of the side to move who performs its next Put (the team's Puts are shared
    /// in turn among its members).
    pub fn put_member(&self) -> u8 {
        self.puts_this_turn % self.teams.sizes[self.side.index()].max(1)
    }

    /// Resolves a blind team Put: members choose squares at the same time, in the order given;
    /// a member whose square is taken (by the field or by an earlier member) must choose again.
    pub fn resolve_blind_put(&self, choices: &[(u8, Square)]) -> BlindPut {
        let mut accepted: Vec<(u8, Square)> = Vec::new();
        let mut choose_again = Vec::new();
        for &(member, sq) in choices {
            let free = self.disc(sq).is_none() && sq >= 1 && sq <= self.squares();
            if free && !accepted.iter().any(|(_, s)| *s == sq) && accepted.len() < self.left.puts as usize {
                accepted.push((member, sq));
            } else {
                choose_again.push(member);
            }
        }
        BlindPut { accepted, choose_again }
    }

    fn over(&self) -> Option<Outcome> {
        let full = (self.discs[0] | self.discs[1]) == self.full_mask();
        if !full && self.idle < 2 && self.turn < MAX_TURN {
            return None;
        }
        let (b, w) = (self.count(Side::First), self.count(Side::Second));
        let winner = match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        };
        let reason = if full {
            Reason::FullField
        } else if self.idle >= 2 {
            Reason::IdleTurns
        } else {
            Reason::TurnLimit
        };
        Some(Outcome { winner, reason })
    }

    /// Records a change of a square and of its border duplicates.
    fn changed(&self, sq: Square, effects: &mut Vec<Effect>) {
        let side = self.disc(sq);
        for (file, rank) in self.duplicates(sq) {
            effects.push(Effect::Border { file, rank, side });
        }
    }

    fn set(&mut self, sq: Square, side: Option<Side>, effects: &mut Vec<Effect>) {
        let b = Self::bit(sq);
        self.discs[0] &= !b;
        self.discs[1] &= !b;
        if let Some(s) = side {
            self.discs[s.index()] |= b;
        }
        self.changed(sq, effects);
    }

    /// Runs the replace cascade for the side to move and returns its effects (the rules run it
    /// by themselves at the start of a turn and after each operation).
    pub fn replace_cascade(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        self.cascade(&mut effects);
        effects
    }

    /// The replace cascade for the side to move: opponent discs with 5 or more of their 8
    /// neighbours in the mover's colour turn over, a turned disc counting at once. Squares are
    /// scanned in number order, again until none turns, so each flip is justified when it happens.
    fn cascade(&mut self, effects: &mut Vec<Effect>) {
        let (me, them) = (self.side.index(), self.side.other().index());
        let n = self.n;
        loop {
            let mut changed = false;
            for sq in bits(self.discs[them]) {
                let hits = with_masks(n, |m| (m[sq as usize - 1] & self.discs[me]).count_ones());
                if hits >= REPLACE_AT {
                    self.set(sq, Some(self.side), effects);
                    effects.push(Effect::Flipped { at: self.cell(sq), to: self.side });
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// A disc of the mover's was put on `sq` (Put or Landing): the opponent's secret there, if
    /// any, will work at the start of the opponent's next turn.
    fn hit_secret(&mut self, sq: Square) {
        for s in self.secrets[self.side.other().index()].iter_mut() {
            if s.0 == sq && s.1 == SecretState::Hidden {
                s.1 = SecretState::Pending;
            }
        }
    }

    fn end_turn(&mut self, effects: &mut Vec<Effect>) {
        self.idle = if self.had_operation() { 0 } else { self.idle + 1 };
        self.side = self.side.other();
        self.turn = self.turn.saturating_add(1);
        self.settle_opening();
        self.left = self.allowance(self.turn);
        self.puts_this_turn = 0;
        if self.idle >= 2 {
            return;
        }
        // Just before the owner's turn starts, its secret squares that were hit turn over.
        let me = self.side;
        let pending: Vec<Square> =
            self.secrets[me.index()].iter().filter(|s| s.1 == SecretState::Pending).map(|s| s.0).collect();
        for sq in pending {
            if self.disc(sq) == Some(me.other()) {
                self.set(sq, Some(me), effects);
                effects.push(Effect::Flipped { at: self.cell(sq), to: me });
            }
            effects.push(Effect::SecretRevealed { at: self.cell(sq), owner: me });
            for s in self.secrets[me.index()].iter_mut().filter(|s| s.0 == sq) {
                s.1 = SecretState::Revealed;
            }
        }
        self.cascade(effects);
    }

    /// A random legal operation, cheaply, for playouts: mostly Puts while Puts are left, then
    /// Moves, now and then a Landing, and the end of the turn.
    pub fn random_move(&self, rng: &mut impl rand::Rng) -> Option<CtorMove> {
        if self.over().is_some() {
            return None;
        }
        let own = self.discs[self.side.index()];
        let empty = self.full_mask() & !(self.discs[0] | self.discs[1]);
        if self.left.puts > 0 && empty != 0 && rng.random_bool(0.85) {
            return random_square(empty, rng).map(CtorMove::Put);
        }
        if self.left.steps > 0 && own != 0 && rng.random_bool(0.5) {
            let a = random_square(own, rng)?;
            let to: Vec<Square> = self.orthogonal(a).into_iter().filter(|b| empty & Self::bit(*b) != 0).collect();
            if !to.is_empty() {
                return Some(CtorMove::Move(a, to[rng.random_range(0..to.len())]));
            }
        }
        if rng.random_bool(0.1)
            && let Some(l) = self.random_landing(rng)
        {
            return Some(l);
        }
        Some(CtorMove::End)
    }

    /// A random legal Landing, if one is allowed.
    pub fn random_landing(&self, rng: &mut impl rand::Rng) -> Option<CtorMove> {
        let own = self.discs[self.side.index()];
        let empty = self.full_mask() & !(self.discs[0] | self.discs[1]);
        if self.over().is_some() || self.left.landings == 0 || own.count_ones() < 2 {
            return None;
        }
        let a = random_square(own, rng)?;
        let b = random_square(own & !Self::bit(a), rng)?;
        let d = random_square(self.landing_targets(a, b, empty), rng)?;
        Some(CtorMove::Landing(a.min(b), a.max(b), d))
    }

    /// Where a Landing that takes `a` and `b` off may put its disc: any empty square (the two
    /// just emptied included), or with `landing-back` only those two.
    fn landing_targets(&self, a: Square, b: Square, empty: Bb) -> Bb {
        let emptied = Self::bit(a) | Self::bit(b);
        if self.options.landing_back { emptied } else { empty | emptied }
    }

    /// Whether ending the turn is all the side to move can still do (no Put, Move or Landing
    /// is left to it), in a game not over.
    pub fn only_end_left(&self) -> bool {
        self.over().is_none() && Game::count_moves(self) == 1
    }

    /// Every legal operation except the Landings (which can number tens of thousands).
    pub fn moves_without_landings(&self) -> Vec<CtorMove> {
        let mut g = self.clone();
        g.left.landings = 0;
        if self.over().is_some() {
            return Vec::new();
        }
        g.legal_moves()
    }

    fn parse_square(&self, s: &str, text: &str) -> Result<Square, MoveError> {
        let sq: Square =
            super::number(s).ok_or_else(|| syntax(text, format!("'{}' is not a square number", super::quote(s))))?;
        if sq == 0 || sq > self.squares() {
            return Err(syntax(text, format!("square {sq} is not on the field (1 to {})", self.squares())));
        }
        Ok(sq)
    }

    fn parse_move_text(&self, text: &str) -> Result<CtorMove, MoveError> {
        let body = &text.get(1..).unwrap_or("");
        match text.chars().next() {
            Some('E') if body.is_empty() => Ok(CtorMove::End),
            Some('T') if body.is_empty() => Ok(CtorMove::Timeout),
            Some('P') => Ok(CtorMove::Put(self.parse_square(body, text)?)),
            Some('M') => {
                let (a, b) = body.split_once('-').ok_or_else(|| syntax(text, "a Move is written M<from>-<to>"))?;
                Ok(CtorMove::Move(self.parse_square(a, text)?, self.parse_square(b, text)?))
            }
            Some('L') => {
                let (pair, d) =
                    body.split_once('>').ok_or_else(|| syntax(text, "a Landing is written L<a>,<b>><dest>"))?;
                let (a, b) =
                    pair.split_once(',').ok_or_else(|| syntax(text, "a Landing is written L<a>,<b>><dest>"))?;
                let (a, b, d) = (self.parse_square(a, text)?, self.parse_square(b, text)?, self.parse_square(d, text)?);
                if a == b {
                    return Err(syntax(text, "a Landing takes two different discs off"));
                }
                Ok(CtorMove::Landing(a.min(b), a.max(b), d))
            }
            _ => Err(syntax(text, "expected P<sq>, M<from>-<to>, L<a>,<b>><dest> or E")),
        }
    }

    fn why_illegal(&self, mv: &CtorMove) -> String {
        if let Some(o) = self.over() {
            return format!("the game is over ({})", o.reason);
        }
        let name = self.variant().side_name(self.side);
        let opening = if self.is_opening(self.turn) { " (an opening turn only puts)" } else { "" };
        match *mv {
            CtorMove::Put(sq) if self.left.puts == 0 => format!("no Put left this turn{opening}, so not P{sq}"),
            CtorMove::Put(sq) => format!("square {sq} is not empty"),
            CtorMove::Move(..) if self.left.steps == 0 => format!("no Move step left this turn{opening}"),
            CtorMove::Move(a, _) if self.disc(a) != Some(self.side) => format!("square {a} holds no {name} disc"),
            CtorMove::Move(a, b) if !self.orthogonal(a).contains(&b) => format!("{b} is not orthogonally next to {a}"),
            CtorMove::Move(_, b) => format!("square {b} is not empty"),
            CtorMove::Landing(..) if self.left.landings == 0 => format!("no Landing left this turn{opening}"),
            CtorMove::Landing(a, b, _) if self.disc(a) != Some(self.side) || self.disc(b) != Some(self.side) => {
                format!("a Landing takes two {name} discs off, and {a} and {b} are not both {name}")
            }
            CtorMove::Landing(a, b, d) if self.options.landing_back => {
                format!("with landing-back the disc goes back on {a} or {b}, not {d}")
            }
            CtorMove::Landing(_, _, d) => format!("square {d} is not empty"),
            CtorMove::Timeout => "there is no sand-glass in this game".into(),
            CtorMove::End => "the turn cannot end now".into(),
        }
    }
}

impl Game for Ctor {
    type Move = CtorMove;

    fn variant(&self) -> Variant {
        if self.n == 8 { Variant::Ctor8 } else { Variant::Ctor10 }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self) -> Vec<CtorMove> {
        let mut out = Vec::new();
        if self.over().is_some() {
            return out;
        }
        let own = self.discs[self.side.index()];
        let empty = self.full_mask() & !(self.discs[0] | self.discs[1]);
        if self.left.puts > 0 {
            out.extend(bits(empty).map(CtorMove::Put));
        }
        if self.left.steps > 0 {
            for a in bits(own) {
                for b in self.orthogonal(a) {
                    // On 8 × 8 and 10 × 10 the four orthogonal neighbours are distinct.
                    if empty & Self::bit(b) != 0 {
                        out.push(CtorMove::Move(a, b));
                    }
                }
            }
        }
        if self.left.landings > 0 {
            let discs: Vec<Square> = bits(own).collect();
            for (i, &a) in discs.iter().enumerate() {
                for &b in &discs[i + 1..] {
                    for d in bits(self.landing_targets(a, b, empty)) {
                        out.push(CtorMove::Landing(a, b, d));
                    }
                }
            }
        }
        out.push(CtorMove::End);
        out
    }

    /// Counts without listing: a Landing count alone can run to tens of thousands.
    fn count_moves(&self) -> u64 {
        if self.over().is_some() {
            return 0;
        }
        let own = self.discs[self.side.index()];
        let empty = self.full_mask() & !(self.discs[0] | self.discs[1]);
        let mut n = 1u64;
        if self.left.puts > 0 {
            n += empty.count_ones() as u64;
        }
        if self.left.steps > 0 {
            n += bits(own)
                .map(|a| self.orthogonal(a).iter().filter(|&&b| empty & Self::bit(b) != 0).count() as u64)
                .sum::<u64>();
        }
        if self.left.landings > 0 {
            let k = own.count_ones() as u64;
            let targets = if self.options.landing_back { 2 } else { empty.count_ones() as u64 + 2 };
            n += k * k.saturating_sub(1) / 2 * targets;
        }
        n
    }

    fn play_unchecked(&mut self, mv: &CtorMove) -> Vec<Effect> {
        let mut effects = Vec::new();
        let me = self.side;
        match *mv {
            CtorMove::Put(sq) => {
                self.set(sq, Some(me), &mut effects);
                effects.insert(0, Effect::Placed { at: self.cell(sq), side: me });
                self.hit_secret(sq);
                self.left.puts -= 1;
                self.puts_this_turn += 1;
            }
            CtorMove::Move(a, b) => {
                effects.push(Effect::Moved { from: self.cell(a), to: self.cell(b) });
                self.set(a, None, &mut effects);
                self.set(b, Some(me), &mut effects);
                self.left.steps -= 1;
            }
            CtorMove::Landing(a, b, d) => {
                effects.push(Effect::Removed { at: self.cell(a) });
                effects.push(Effect::Removed { at: self.cell(b) });
                self.set(a, None, &mut effects);
                self.set(b, None, &mut effects);
                effects.push(Effect::Placed { at: self.cell(d), side: me });
                self.set(d, Some(me), &mut effects);
                self.hit_secret(d);
                self.left.landings -= 1;
            }
            CtorMove::End => {
                self.end_turn(&mut effects);
                return effects;
            }
            CtorMove::Timeout => {
                self.timeouts.push(self.turn);
                self.end_turn(&mut effects);
                return effects;
            }
        }
        self.cascade(&mut effects);
        effects
    }

    /// A timeout is accepted whenever the game has a sand-glass and is not over; every other
    /// operation must be among the legal moves.
    fn play(&mut self, mv: &CtorMove) -> Result<Vec<Effect>, MoveError> {
        let ok = match mv {
            CtorMove::Timeout => self.options.timer.is_some() && self.over().is_none(),
            _ => self.legal_moves().contains(mv),
        };
        if !ok {
            return Err(illegal(&mv.to_string(), self.why_illegal(mv)));
        }
        Ok(self.play_unchecked(mv))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over()
    }

    fn parse_move(&self, text: &str) -> Result<CtorMove, MoveError> {
        let text = text.trim_matches(' ');
        let mv = self.parse_move_text(text)?;
        let ok = match mv {
            CtorMove::Timeout => self.options.timer.is_some() && self.over().is_none(),
            CtorMove::End => self.over().is_none(),
            _ => self.legal_moves().contains(&mv),
        };
        if ok { Ok(mv) } else { Err(illegal(text, self.why_illegal(&mv))) }
    }
}

impl fmt::Display for Ctor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.variant().name())?;
        let n = self.n as usize;
        super::write_grid(f, n, n, ['B', 'W'], |row, col| self.disc((row * n + col + 1) as Square))?;
        let side = if self.side == Side::First { 'b' } else { 'w' };
        write!(f, " {side} {} {} {} {}", self.turn, self.left, self.teams, self.idle)?;
        if let Some(l) = self.options.landing {
            write!(f, " landing={l}")?;
        }
        if let Some(p) = self.teams.power {
            write!(f, " power={p}")?;
        }
        if self.options.landing_back {
            write!(f, " landing-back")?;
        }
        // Up to the end of the third turn, where it changes the moves, unless the `left` field
        // says it by itself: a third turn that does not fit the opening's Puts reads under the
        // old reading, but one part played under it may fit them (`P1M0L0`). After the third
        // turn the reading changes nothing and the game no longer carries it.
        if self.options.old_opening && (self.turn < 3 || self.left.fits_in(&Ctor::opening_allowance(self.turn))) {
            write!(f, " opening=old")?;
        }
        Ok(())
    }
}

fn parse_allowance(s: &str) -> Option<Allowance> {
    let rest = s.strip_prefix('P')?;
    let (p, rest) = rest.split_once('M')?;
    let (m, l) = rest.split_once('L')?;
    let num = |t: &str| (t.len() <= 2).then(|| super::number::<u8>(t)).flatten();
    Some(Allowance { puts: num(p)?, steps: num(m)?, landings: num(l)? })
}

impl FromStr for Ctor {
    type Err = PositionError;
    /// `ctor8|ctor10 <board> <side> <turn> <left> <teams> <idle>` and the options, each at most
    /// once in any order: `landing=N`, `power=R`, `landing-back`, `opening=old`.
    fn from_str(s: &str) -> Result<Ctor, PositionError> {
        let words = super::words(s)?;
        let text = words[..words.len().min(7)].join(" ");
        let mut options = Options::default();
        let mut power = None;
        let mut seen: Vec<&str> = Vec::new();
        for &o in words.iter().skip(7) {
            let name = o.split('=').next().unwrap_or(o);
            if seen.contains(&name) {
                return Err(PositionError::Invalid(format!("option '{}' is given twice", super::quote(name))));
            }
            seen.push(name);
            let digit =
                |prefix: &str, most: u8| o.strip_prefix(prefix).and_then(super::number::<u8>).filter(|v| *v <= most);
            if o.starts_with("landing=") {
                options.landing = Some(digit("landing=", 9).ok_or_else(|| {
                    PositionError::Invalid(format!(
                        "unknown option '{}' (landing=N takes N from 0 to 9)",
                        super::quote(o)
                    ))
                })?);
            } else if o.starts_with("power=") {
                power = Some(digit("power=", 3).filter(|p| *p >= 1).ok_or_else(|| {
                    PositionError::Invalid(format!(
                        "unknown option '{}' (power=R takes a row R of 1, 2 or 3)",
                        super::quote(o)
                    ))
                })?);
            } else if o == "landing-back" {
                options.landing_back = true;
            } else if o == "opening=old" {
                options.old_opening = true;
            } else {
                return Err(PositionError::Invalid(format!(
                    "unknown option '{}' (the options are landing=N, power=R, landing-back and opening=old)",
                    super::quote(o)
                )));
            }
        }
        let f = super::fields(&text, &["ctor8", "ctor10"], &["board", "side", "turn", "left", "teams", "idle"])?;
        let n: u8 = if f[0] == "ctor8" { 8 } else { 10 };
        let cells = super::read_grid(f[1], n as usize, n as usize, ['B', 'W'], &|row| {
            format!("rank {} from the top", row + 1)
        })?;
        let mut discs = [0 as Bb; 2];
        for (i, side) in cells.iter().enumerate() {
            if let Some(side) = side {
                discs[side.index()] |= 1 << i;
            }
        }
        let side = super::read_side(f[2], ["b", "w"])?;
        let turn: u32 = super::number(f[3]).filter(|t| *t >= 1).ok_or_else(|| {
            PositionError::Invalid(format!(
                "turn field is '{}', expected a turn number from 1 to {MAX_TURN}",
                super::quote(f[3])
            ))
        })?;
        if (turn % 2 == 1) != (side == Side::First) {
            return Err(PositionError::Invalid(format!(
                "turn {turn} is {}'s, but the side field says {}",
                if turn % 2 == 1 { "black" } else { "white" },
                f[2]
            )));
        }
        let left = parse_allowance(f[4]).ok_or_else(|| {
            PositionError::Invalid(format!(
                "left field is '{}', expected P<puts>M<steps>L<landings> like P2M2L1",
                super::quote(f[4])
            ))
        })?;
        let sizes: Vec<u8> = f[5].split('v').map(|t| super::number::<u8>(t).unwrap_or(0)).collect();
        let teams = match sizes[..] {
            [a, b] if (1..=3).contains(&a) && (1..=3).contains(&b) => match power {
                Some(p) => {
                    Teams::with_power([a, b], p).map_err(|e| PositionError::Invalid(format!("teams field: {e}")))?
                }
                None => Teams::new([a, b]),
            },
            _ => {
                return Err(PositionError::Invalid(format!(
                    "teams field is '{}', expected sizes from 1 to 3 like 1v1, 2v2 or 1v2",
                    super::quote(f[5])
                )));
            }
        };
        let idle: u8 = match f[6] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            other => {
                return Err(PositionError::Invalid(format!(
                    "idle field is '{}', expected 0 or 1 (2 once two turns in a row had no operation)",
                    super::quote(other)
                )));
            }
        };
        let mut g = Ctor {
            n,
            discs,
            side,
            turn,
            left,
            teams,
            idle,
            options,
            secrets: [Vec::new(), Vec::new()],
            timeouts: Vec::new(),
            puts_this_turn: 0,
        };
        let mut full = g.allowance(turn);
        // A third turn written under the old reading of the opening (a normal turn where the
        // row has 2 Puts) reads as it was written.
        if !left.fits_in(&full) && turn == 3 && !g.options.old_opening {
            g.options.old_opening = true;
            full = g.allowance(turn);
            if !left.fits_in(&full) {
                g.options.old_opening = false;
                full = g.allowance(turn);
            }
        }
        if !left.fits_in(&full) {
            return Err(PositionError::Invalid(format!("left field {left} is above the turn's allowance {full}")));
        }
        g.settle_opening();
        if turn == 1 && idle > 0 {
            return Err(PositionError::Invalid("idle field is 1 on turn 1, which follows no turn".into()));
        }
        if idle == 2 && g.had_operation() {
            return Err(PositionError::Invalid(
                "the game ended after two idle turns, yet this turn has had an operation".into(),
            ));
        }
        g.puts_this_turn = full.puts - left.puts;
        Ok(g)
    }
}

/// Team sizes and a turn power that make no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeamsError {
    #[error("teams of {} and {}: a team has 1, 2 or 3 players", .0[0], .0[1])]
    Size([u8; 2]),
    #[error("turn power {0}: the allowance table has rows 1, 2 and 3")]
    Power(u8),
    #[error(
        "a team of {big} under turn power {row}, which gives {puts} Puts a turn: a team has at most as many players as Puts"
    )]
    TooBig { big: u8, row: u8, puts: u8 },
}

/// Secret squares a team may not choose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SecretsError {
    #[error("{0} secret squares given, a team chooses {SECRETS}")]
    Count(usize),
    #[error("secret square {square} is not on the field (1 to {squares})")]
    OffField { square: Square, squares: Square },
    #[error("secret square {0} is chosen twice")]
    Twice(Square),
}
