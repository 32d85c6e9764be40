//! What asks the table for a change ([`Intent`]), what the change did ([`Outcome`]) and why
//! one is refused ([`Refused`]), with the words they carry: who chose a move, the table's mode,
//! the steps of the hand-over screens.

use super::{PlayerKind, Table};
use crate::rules::{AnyMove, Cell, Effect, Side};
use std::path::PathBuf;

/// Watching a record: it plays on by itself at a pace, or is stepped through by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    pub autoplay: bool,
    /// Seconds a move while it plays on by itself.
    pub pace: f32,
}

/// Who chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Person,
    Computer,
    /// Redo, the replay's timeline, or another table's feed.
    History,
    /// The sand-glass ran out (CTOR).
    SandGlass,
    /// A CTOR team member's blind Put, revealed (its seat in the team).
    Member(u8),
}

/// What the table is doing: a live game, a record watched, or CTOR's secret squares being
/// chosen (no move is made meanwhile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    #[default]
    Live,
    Replay,
    Secrets,
}

/// A step of the hand-over screens (CTOR's secret squares and team rounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The right team, or member, looks at the screen now.
    Proceed,
    /// The chosen squares are final.
    Done,
}

/// What one side may ask the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Question {
    /// Take back the asker's last move (its turn's moves, where a turn is several).
    Undo,
    /// Once the game is over: a new one, with the same seats.
    Rematch,
}

impl Question {
    /// Said to the other side: "an undo", "a rematch".
    pub fn with_article(self) -> &'static str {
        match self {
            Question::Undo => "an undo",
            Question::Rematch => "a rematch",
        }
    }
}

/// Everything that can change the table. Whoever wants a change sends one; [`Table::apply`]
/// makes it or says why not.
#[derive(Debug)]
pub enum Intent {
    /// Play a chosen move.
    Play(AnyMove, By),
    /// The seeded random mover chooses for the side to move, as its team sees the game.
    PlayRandom,
    /// Take back the last move (against the computer: back to the person's last turn).
    Undo,
    /// Play the next undone move again (the replay's step forward).
    Redo,
    /// Go to the position after this many moves, without animation.
    Jump(usize),
    /// Replay: start or stop playing on by itself.
    TogglePlay,
    /// Replay: the next pace.
    Pace,
    /// Replay: playing on by itself stops (the record's end was reached).
    StopAutoplay,
    /// Leave the replay at the current move as a new game, saved to this file if any.
    PlayOn(Option<PathBuf>),
    /// Open pasted text: a record to replay, or a position to play from.
    Open(String),
    /// Put another table here (a game opened elsewhere).
    Replace(Box<Table>),
    /// Save this game from now on (after every move) to this file.
    SaveTo(PathBuf),
    /// Write the record now, where the table writes it only when asked
    /// ([`Table::saving_when_asked`]).
    Save,
    /// Who plays each side from now on.
    SetPlayers([PlayerKind; 2]),
    /// CTOR: this game is played with secret squares, chosen now (before the first move).
    BeginSecrets,
    /// CTOR: a team's secret squares, set before the first move (a team that chose elsewhere).
    Secrets(Side, Vec<u16>),
    /// CTOR: a step of the secret squares' hand-over screens.
    SecretStep(Step),
    /// CTOR: the team choosing its secret squares clicked a square.
    SecretClick(Cell),
    /// CTOR team play: a step of the blind round's hand-over screens.
    RoundStep(Step),
    /// CTOR team play: the member choosing clicked a square.
    RoundClick(Cell),
    /// CTOR team play: the table rests, so the next revealed Put is placed.
    PlaceNextPut,
    /// CTOR team play with the members apart ([`Table::members_apart`]): a member's blind
    /// choice, made whenever it likes during its team's round: a Put (kept unseen until every
    /// member has chosen) or End (no more Puts from this member this round).
    Blind(u8, AnyMove),
    /// `side` asks the other side a question (a seat of a hosted game: an undo, a rematch).
    Ask(Side, Question),
    /// `side` answers the other side's question: yes takes back the asker's last move (see
    /// [`Intent::TakeBack`]) or starts the rematch (a new game from the same start, with the
    /// same players, in a new record beside this one).
    Answer(Side, bool),
    /// Take back `side`'s last move and every move after it (where a turn is several moves,
    /// back before the first move of that turn); nothing is left to redo.
    TakeBack(Side),
    /// CTOR team play: the member in this seat leaves the team.
    Leave(Side, u8),
    /// CTOR team play: a player joins the team.
    Join(Side),
    /// A spectator: the feed's state, read as a table (`Table::from_feed_state`).
    FeedState(Box<Table>),
    /// A hosted game's moves as the host has them (a seat's table, `tablero join`): those
    /// beyond ours are played here; a game that does not follow from ours replaces it.
    Hosted(Vec<String>),
    /// A spectator: one event of the feed.
    FeedEvent(crate::feed::wire::Event),
    /// A hosted game's changes since this seat's table last heard (a seat's table), followed
    /// where they follow from the game here; where they do not, the host's `moves` are (as
    /// [`Intent::Hosted`]).
    Follow { changes: Vec<super::Change>, moves: Vec<String> },
}

/// A move the table played: what it changed, part by part.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub mv: AnyMove,
    pub by: By,
    pub parts: Vec<Vec<Effect>>,
}

/// What an intent did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The moves played, in order, each to animate.
    pub played: Vec<Played>,
    /// The position jumped (undo, a game opened): the scene is built again.
    pub rebuilt: bool,
    /// What the message line says now, if the intent has something to say (empty: clear it).
    pub said: Option<String>,
    /// A spectator: the feed's events no longer follow from the game here; its state is to
    /// be read again.
    pub out_of_step: bool,
}

impl Outcome {
    pub(super) fn say(text: impl Into<String>) -> Outcome {
        Outcome { said: Some(text.into()), ..Outcome::default() }
    }

    pub(super) fn rebuilt() -> Outcome {
        Outcome { rebuilt: true, said: Some(String::new()), ..Outcome::default() }
    }
}

/// Why an intent changed nothing, in words for the message line, and on what ground (which
/// the seats' host turns into a status code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String, pub Ground);

/// The ground of a refusal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ground {
    /// Not the asker's to do now: another's turn, the game over, a question not asked.
    #[default]
    NotYours,
    /// A move or a choice the rules refuse.
    Illegal,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// What opening a table from text or a feed, or starting a Landing, fails at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    Position(#[from] crate::rules::PositionError),
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    #[error("the feed has no game yet")]
    NoGameYet,
    #[error("the feed's move {n} ({}): {err}", crate::rules::quote(.text))]
    FeedMove { n: usize, text: String, err: crate::rules::MoveError },
    #[error("the game is over: start a new game or undo")]
    Over,
    #[error(transparent)]
    Move(#[from] crate::rules::MoveError),
    #[error("no Landing is possible now")]
    NoLanding,
}

pub(super) fn refuse<T>(why: impl Into<String>) -> Result<T, Refused> {
    Err(Refused(why.into(), Ground::NotYours))
}

/// A refusal of a move or a choice the rules do not allow.
pub(super) fn illegal(why: impl std::fmt::Display) -> Refused {
    Refused(why.to_string(), Ground::Illegal)
}
