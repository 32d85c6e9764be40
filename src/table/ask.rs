//! A seat's questions to the other side (an undo, a rematch) and their answers, as a hosted
//! game has them: asked, withdrawn by the next move, and carried out when the answer is yes.

use super::intent::{illegal, refuse};
use super::{Outcome, Question, Refused, Table, TeamRound};
use crate::record::Record;
use crate::rules::{Game, Side};

impl Table {
    /// A question of `side` to the other side, if it may be asked now.
    pub(super) fn ask(&mut self, side: Side, what: Question) -> Result<Outcome, Refused> {
        let over = self.game.outcome().is_some();
        match what {
            Question::Undo if over => return refuse("the game is over: ask for a rematch"),
            Question::Undo if self.seats().is_some_and(|s| s.iter().any(|t| t.len() >= 2)) => {
                return refuse("in team play moves are not taken back");
            }
            Question::Undo if self.taken_back_to(side).is_none() => {
                return refuse("this seat has no move to take back");
            }
            Question::Rematch if !over => return refuse("a rematch is asked once the game is over"),
            _ => {}
        }
        self.asked = Some((side, what));
        Ok(Outcome::default())
    }

    /// `side`'s answer to the other side's question.
    pub(super) fn answer(&mut self, side: Side, yes: bool) -> Result<Outcome, Refused> {
        let Some((by, what)) = self.asked.filter(|(by, _)| *by != side) else {
            return refuse("the other side has asked nothing");
        };
        self.asked = None;
        match (yes, what) {
            (false, _) => Ok(Outcome::default()),
            (true, Question::Undo) => {
                if let Some(keep) = self.taken_back_to(by) {
                    self.jump(keep);
                    self.redo.clear();
                }
                Ok(Outcome::rebuilt())
            }
            (true, Question::Rematch) => self.rematch(),
        }
    }

    /// A new game from the same start (without the secret squares, which are chosen again),
    /// with the same players, in a new record in the same folder as this one.
    fn rematch(&mut self) -> Result<Outcome, Refused> {
        let plain = Record { secrets: None, ..self.record.clone() };
        let start = plain.start_game().map_err(illegal)?;
        let mut record = Record::new(&start, self.record.players.clone().map(|p| (p.name, p.kind)));
        record.options = self.record.options.clone();
        record.team = self.record.team.clone();
        if let Some(team) = &mut record.team {
            team.changes.clear();
        }
        // A new game is a new record: its time after the last one's.
        record.created_ms = record.created_ms.max(self.record.created_ms.saturating_add(1));
        let path = self.record_path.as_ref().map(|p| {
            let dir = p.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
            crate::record::new_file_in(&dir, &record)
        });
        let mut fresh = Table::resume(record, None).map_err(illegal)?;
        fresh.apart = self.apart;
        fresh.save_when_asked = self.save_when_asked;
        fresh.seat = self.seat;
        fresh.round = TeamRound::default();
        if let Some(path) = path {
            fresh.save_to(path);
        }
        fresh.settle();
        *self = fresh;
        Ok(Outcome::rebuilt())
    }

    /// The moves kept when `side` takes back its last move: up to just before it, or before
    /// the first move of its turn where a turn is several moves (Ordo X, Volterra). None if
    /// `side` has not moved.
    pub fn taken_back_to(&self, side: Side) -> Option<usize> {
        let movers: Vec<Side> = self.history.iter().map(|(before, _)| before.side_to_move()).collect();
        let mut keep = movers.iter().rposition(|s| *s == side)?;
        while keep > 0 && movers[keep - 1] == side {
            keep -= 1;
        }
        Some(keep)
    }
}
