//! What a change at the table did, as it travels from the seats' host to its seats: an
//! intent's [`Outcome`] in the notation ([`Change`]), one serde enum for both ends, and a seat's
//! table following them ([`super::Intent::Follow`]).

use super::{By, Outcome, Played, Table};
use crate::rules::Game;
use serde::{Deserialize, Serialize};

/// One change to the game, as the host's table made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Change {
    /// A move played after `ply` moves.
    Played {
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
    },
    /// Moves taken back: `ply` moves are left.
    Back { ply: usize },
    /// Another game (a rematch): `game` tells it from the last (its record's `created_ms`).
    NewGame { game: u64 },
}

/// Where a table's game stands, to tell what an intent changed: its record's `created_ms` and
/// the moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub game: u64,
    pub ply: usize,
}

impl Table {
    /// Where the game stands now.
    pub fn mark(&self) -> Mark {
        Mark { game: self.record.created_ms, ply: self.history.len() }
    }

    /// What `out` did to the game that stood at `before`, as changes to pass on.
    pub fn changes(&self, before: Mark, out: &Outcome) -> Vec<Change> {
        if self.record.created_ms != before.game {
            return vec![Change::NewGame { game: self.record.created_ms }];
        }
        let now = self.history.len();
        let base = now.saturating_sub(out.played.len());
        let mut changes = Vec::new();
        if base < before.ply {
            changes.push(Change::Back { ply: base });
        }
        // Moves that came without being played one by one (a jump forward), then those played.
        let from = base.min(before.ply);
        changes.extend(
            self.history[from..now]
                .iter()
                .enumerate()
                .map(|(i, (_, mv))| Change::Played { ply: from + i, mv: mv.to_string() }),
        );
        changes
    }

    /// A seat's table follows the host's changes: a move played where it follows the game here
    /// (one this seat made already is passed over), moves taken back. Where they do not follow
    /// (a new game, a move the game here does not have), the host's `moves` are taken as they
    /// are ([`Table::hosted`]).
    pub(super) fn follow_changes(&mut self, changes: &[Change], moves: &[String]) -> Outcome {
        let mut out = Outcome::default();
        for change in changes {
            let followed = match change {
                Change::Played { ply, mv } if *ply < self.history.len() => self.history[*ply].1.to_string() == *mv,
                Change::Played { ply, mv } if *ply == self.history.len() => {
                    match self.game.parse_move(mv).ok().and_then(|m| self.play_as(&m, None).ok().map(|p| (m, p))) {
                        Some((mv, parts)) => {
                            out.played.push(Played { mv, by: By::History, parts });
                            true
                        }
                        None => false,
                    }
                }
                Change::Back { ply } if *ply <= self.history.len() => {
                    self.jump(*ply);
                    self.redo.clear();
                    out.played.clear();
                    out.rebuilt = true;
                    true
                }
                _ => false,
            };
            if !followed {
                let mut rest = self.hosted(moves);
                rest.rebuilt |= out.rebuilt;
                out.played.append(&mut rest.played);
                return Outcome { rebuilt: rest.rebuilt, played: out.played, ..Outcome::default() };
            }
        }
        // Moves the changes did not bring (none, unless some were missed) come from the list.
        if self.history.len() < moves.len() {
            let mut rest = self.hosted(moves);
            out.played.append(&mut rest.played);
            out.rebuilt |= rest.rebuilt;
        }
        out
    }
}
