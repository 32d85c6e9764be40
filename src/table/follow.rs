//! A spectator's table follows another table's live feed (`tablero watch`): the feed's state
//! read as a table, and its events played here as moves; what does not follow from the game
//! here waits for the next state read, which replaces it.

use super::{By, Outcome, Played, PlayerKind, Table, TableError};
use crate::feed::wire::{Event, State, What};
use crate::record::PlayerInfo;
use crate::rules::ctor::SecretState;
use crate::rules::{AnyGame, AnyMove, Effect, Game, Side};

impl Table {
    /// The spectator's table from a feed's `/state`: the start, with the secret squares
    /// revealed so far (they work again exactly when they worked), and every move played.
    pub fn from_feed_state(state: &State) -> Result<Table, TableError> {
        let shown = state.shown.as_ref().ok_or(TableError::NoGameYet)?;
        let mut game: AnyGame = shown.start.parse()?;
        if let AnyGame::Ctor(g) = &mut game {
            for r in &shown.after.revealed {
                if let Some(owner) = owner_of(&r.owner, g.variant()) {
                    g.know_secret(owner, r.square, SecretState::Hidden);
                }
            }
        }
        let players = shown.players.clone().map(|p| PlayerInfo { name: p.name, kind: p.kind });
        let kinds = [0, 1].map(|i| PlayerKind::from_record(&players[i].kind));
        let mut table = Table::new(game, kinds, 1);
        table.spectator = true;
        table.record.players = players;
        for (i, m) in shown.moves.iter().enumerate() {
            let mv = table.game.parse_move(&m.mv).map_err(|err| TableError::FeedMove {
                n: i + 1,
                text: m.mv.clone(),
                err,
            })?;
            table.play_as(&mv, None)?;
        }
        Ok(table)
    }

    /// The host's moves (a seat's table): played here where they follow ours; ours ahead of
    /// the host (a move of this seat not yet there) wait; anything else is laid out afresh.
    pub(super) fn hosted(&mut self, moves: &[String]) -> Outcome {
        let ours: Vec<String> = self.history.iter().map(|(_, m)| m.to_string()).collect();
        let mut out = Outcome::default();
        if ours.len() >= moves.len() && ours[..moves.len()] == *moves {
            return out;
        }
        if moves.len() > ours.len() && moves[..ours.len()] == *ours {
            for text in &moves[ours.len()..] {
                let Ok(mv) = self.game.parse_move(text) else { break };
                let Ok(parts) = self.play_as(&mv, None) else { break };
                out.played.push(Played { mv, by: By::History, parts });
            }
            if self.history.len() == moves.len() {
                return out;
            }
        }
        // Not our game: the host's, from its start.
        let mut game = self.start.clone();
        self.history.clear();
        self.redo.clear();
        self.members.clear();
        for text in moves {
            let Ok(mv) = game.parse_move(text) else { break };
            let before = game.clone();
            game.play_unchecked(&mv);
            self.history.push((before, mv));
        }
        self.game = game;
        self.sync_record();
        Outcome { rebuilt: true, ..Outcome::default() }
    }

    /// The feed's state, read again: the moves it has beyond ours are played (animated) if it
    /// continues the game here; otherwise it replaces the game here.
    pub(super) fn feed_state(&mut self, fresh: Table) -> Outcome {
        let mut out = Outcome::default();
        if self.feed_stale || !self.catch_up(&fresh, &mut out) {
            *self = fresh;
            return Outcome { rebuilt: true, ..Outcome::default() };
        }
        self.feed_stale = false;
        out
    }

    /// If the feed's game (`fresh`) continues the game here, plays the moves it has beyond
    /// ours; false if it does not (it is to replace ours).
    fn catch_up(&mut self, fresh: &Table, out: &mut Outcome) -> bool {
        let ours = &self.history;
        if self.start.to_string() != fresh.start.to_string()
            || fresh.history.len() < ours.len()
            || fresh.record.players != self.record.players
            || ours.iter().zip(&fresh.history).any(|((_, a), (_, b))| a != b)
        {
            return false;
        }
        // Secrets revealed since: the fresh replay knows them; ours must too before playing on.
        if fresh.history.len() > ours.len() && matches!(self.game, AnyGame::Ctor(_)) {
            return false;
        }
        let missing: Vec<AnyMove> = fresh.history[ours.len()..].iter().map(|(_, m)| m.clone()).collect();
        for mv in missing {
            let Ok(parts) = self.play_as(&mv, None) else { return false };
            out.played.push(Played { mv, by: By::History, parts });
        }
        self.game == fresh.game
    }

    /// One event from the feed, played here; out of step if it does not follow from the game
    /// here (the feed's state is then read again, and events wait for it).
    pub(super) fn feed_event(&mut self, event: &Event) -> Outcome {
        if self.feed_stale {
            return Outcome::default();
        }
        let mut out = Outcome::default();
        if !self.follow_event(&event.what, &mut out) {
            self.feed_stale = true;
            out.out_of_step = true;
        }
        out
    }

    fn follow_event(&mut self, what: &What, out: &mut Outcome) -> bool {
        match what {
            What::Move(m) | What::Redo(m) => {
                let Ok(mv) = self.game.parse_move(&m.mv) else { return false };
                // A secret square that works with this move: the spectator learns it now, just
                // before, so that the rules here turn the same discs as at the feed's table.
                if let AnyGame::Ctor(g) = &mut self.game {
                    for e in m.parts.iter().flatten() {
                        if let Effect::SecretRevealed { at, owner } = e
                            && let Some(sq) = g.square(*at)
                        {
                            g.know_secret(*owner, sq, SecretState::Pending);
                        }
                    }
                }
                let Ok(ours) = self.play_as(&mv, None) else { return false };
                if ours != m.parts || self.game.to_string() != m.after.position {
                    return false;
                }
                out.played.push(Played { mv, by: By::History, parts: ours });
                true
            }
            What::Undo(u) => {
                if !self.undo() || self.history.len() != u.ply || self.game.to_string() != u.after.position {
                    return false;
                }
                out.rebuilt = true;
                true
            }
            What::NewGame(n) => match Table::from_feed_state(&n.state) {
                Ok(t) => {
                    *self = t;
                    out.rebuilt = true;
                    true
                }
                Err(_) => false,
            },
            // The table knows the result and the phase from its own rules.
            _ => true,
        }
    }
}

fn owner_of(name: &str, v: crate::rules::Variant) -> Option<Side> {
    [Side::First, Side::Second].into_iter().find(|s| v.side_name(*s) == name)
}
