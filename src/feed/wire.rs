//! The live feed on the wire: `/state` and each event of `/events`, as typed messages that the
//! feed writes and a spectator reads, one definition for both ends. docs/streaming.md shows
//! them as JSON; a field is added here, never renamed, so that an overlay written for an
//! earlier tablero keeps working.

use crate::rules::Effect;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the table is doing, as the feed shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The game is being played (or is over).
    Play,
    /// CTOR's teams are choosing their secret squares.
    Secrets,
    /// A record is being watched.
    Replay,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Play => "play",
            Phase::Secrets => "secrets",
            Phase::Replay => "replay",
        }
    }
}

/// The whole picture (`/state`): before any game only `seq`, `game: null` and `phase: "none"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The number of the last event (0 before any).
    pub seq: u64,
    /// Tells one game from the next (its record's `created_ms`).
    pub game: Option<u64>,
    #[serde(with = "phase_or_none")]
    pub phase: Option<Phase>,
    #[serde(flatten)]
    pub shown: Option<Shown>,
}

/// The game a feed shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    pub variant: String,
    pub title: String,
    /// The public start position (CTOR's secret squares are never in it).
    pub start: String,
    /// The sides' names, first side first.
    pub sides: [String; 2],
    pub players: [Player; 2],
    pub started_ms: u64,
    pub moves: Vec<MoveLine>,
    /// The last move's notation.
    pub last: Option<String>,
    pub after: After,
    pub eval: Option<Eval>,
}

/// A side's player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub side: String,
    pub name: String,
    /// As records name it: `human`, `ai:<level>`, `computer:random`.
    pub kind: String,
}

/// A move of the game shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveLine {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub by: String,
    pub at_ms: u64,
    pub think_ms: u64,
}

/// The table after the last change: what the state and every move event carry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct After {
    pub position: String,
    /// The side to move, none once the game is over.
    pub to_move: Option<String>,
    pub score: Score,
    pub clocks: Clocks,
    pub result: Option<Ended>,
    /// CTOR's secret squares that have worked (public from then on).
    pub revealed: Vec<Revealed>,
}

/// The score as the game counts it (discs, stones off the board, towers).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub what: String,
    /// By side name.
    pub sides: BTreeMap<String, Vec<u32>>,
    pub text: String,
}

/// Each side's thinking time, and the sand-glass.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Clocks {
    /// By side name.
    pub used_ms: BTreeMap<String, u64>,
    /// The side whose clock runs.
    pub running: Option<String>,
    pub since_ms: u64,
    pub sand: Option<Sand>,
}

/// CTOR's sand-glass while it runs: seconds a turn, and when this turn's runs out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sand {
    pub seconds: u8,
    pub ends_ms: u64,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ended {
    /// The winning side's name; none for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub text: String,
}

/// A secret square that has worked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Revealed {
    pub owner: String,
    pub square: u16,
}

/// The computer's evaluation of the position after `ply` moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    pub ply: usize,
    /// The first side's expected result, 0 to 1.
    pub first: f64,
    /// By side name.
    pub chances: BTreeMap<String, f64>,
    pub text: String,
}

/// One event of `/events`: its number and what happened (`type` on the wire).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    #[serde(flatten)]
    pub what: What,
}

/// What an event says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum What {
    /// A move played.
    Move(Moved),
    /// A move undone played again.
    Redo(Moved),
    /// The last move taken back.
    Undo(Undone),
    /// Another game (or the same game started over): the whole picture.
    NewGame(NewGame),
    /// The game is over.
    Result(Ended),
    Phase(PhaseChanged),
    Eval(Eval),
    /// Events were missed: read `/state` again.
    Resync(Resync),
    /// A kind of event a later tablero sends; a spectator goes on without it.
    #[serde(other)]
    Other,
}

impl What {
    /// The event's name, as the SSE `event:` line gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            What::Move(_) => "move",
            What::Redo(_) => "redo",
            What::Undo(_) => "undo",
            What::NewGame(_) => "new_game",
            What::Result(_) => "result",
            What::Phase(_) => "phase",
            What::Eval(_) => "eval",
            What::Resync(_) => "resync",
            What::Other => "other",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub by: String,
    pub at_ms: u64,
    /// What the move changed, part by part (the rules' own effects).
    pub parts: Vec<Vec<Effect>>,
    pub after: After,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Undone {
    /// The moves left.
    pub ply: usize,
    pub undone: String,
    pub last: Option<String>,
    pub after: After,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NewGame {
    pub game: u64,
    pub state: Box<State>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseChanged {
    pub phase: Phase,
    pub after: After,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resync {
    pub reason: String,
}

/// `phase` is `"none"` before the feed has a game.
mod phase_or_none {
    use super::Phase;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(phase: &Option<Phase>, s: S) -> Result<S::Ok, S::Error> {
        match phase {
            Some(p) => p.serialize(s),
            None => s.serialize_str("none"),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Phase>, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "none" => Ok(None),
            _ => Phase::deserialize(serde::de::value::StrDeserializer::<D::Error>::new(&text)).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_reads_back_as_written_and_an_unknown_kind_is_other() {
        let e = Event { seq: 7, what: What::Resync(Resync { reason: "gone".into() }) };
        let text = serde_json::to_string(&e).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["type"], "resync");
        assert_eq!(v["seq"], 7);
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), e);
        let later: Event = serde_json::from_str(r#"{"seq":3,"type":"chat","text":"hi"}"#).unwrap();
        assert_eq!(later, Event { seq: 3, what: What::Other });
    }

    #[test]
    fn a_state_before_any_game_has_only_its_number_and_phase_none() {
        let s = State { seq: 0, game: None, phase: None, shown: None };
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v, serde_json::json!({ "seq": 0, "game": null, "phase": "none" }));
        assert_eq!(serde_json::from_value::<State>(v).unwrap(), s);
    }
}
