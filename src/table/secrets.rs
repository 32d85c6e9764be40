//! CTOR's secret squares chosen at one table, behind hand-over screens: each person's team in
//! turn (a computer's team at once, from an explicit seed), then the first team starts. The
//! table makes no move meanwhile ([`super::Mode::Secrets`]).

use super::{Outcome, PlayerKind, Refused, Step, Table, refuse};
use crate::rules::ctor::{SECRETS, SecretState};
use crate::rules::{AnyGame, Cell, Game, Side, Variant};

/// Where the choosing of the secret squares stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SecretPhase {
    /// No secret squares, or not chosen yet.
    #[default]
    Off,
    /// The screen waits for this team alone to look.
    HandOver(Side),
    /// This team chooses its squares.
    Choosing(Side, Vec<Cell>),
    /// Both chose: the screen waits for the first team to start.
    Ready,
    Done,
}

impl SecretPhase {
    /// Whether the secret squares are being chosen (no move is made meanwhile).
    pub fn setting_up(&self) -> bool {
        matches!(self, SecretPhase::HandOver(_) | SecretPhase::Choosing(..) | SecretPhase::Ready)
    }

    /// What the players are asked to do while the secret squares are chosen.
    pub fn prompt(&self, variant: Variant) -> Option<String> {
        let name = |s: Side| variant.side_name(s);
        match self {
            SecretPhase::HandOver(s) => Some(format!("hand the screen to {}: only {} may look", name(*s), name(*s))),
            SecretPhase::Choosing(s, chosen) => {
                Some(format!("{}: choose 5 secret squares ({} chosen), then Done", name(*s), chosen.len()))
            }
            SecretPhase::Ready => {
                Some(format!("secret squares chosen: hand the screen to {} to start", name(Side::First)))
            }
            SecretPhase::Off | SecretPhase::Done => None,
        }
    }
}

impl Table {
    /// Starts choosing the secret squares if the game at the table is a CTOR game that has not
    /// begun and has none chosen yet.
    pub(super) fn begin_secrets(&mut self) {
        if self.secrets == SecretPhase::Off
            && self.replay.is_none()
            && self.history.is_empty()
            && matches!(self.game, AnyGame::Ctor(_))
        {
            self.secrets = self.next_secrets(None);
        }
    }

    /// The next step of the choosing after `after` chose (or at the start): a person's team
    /// gets the screen; a computer's team chooses at once.
    fn next_secrets(&mut self, after: Option<Side>) -> SecretPhase {
        let people = self.players.contains(&PlayerKind::Person);
        let done = if people { SecretPhase::Ready } else { SecretPhase::Done };
        let mut side = match after {
            // A seat of a hosted game chooses its own team's squares only: the host has the
            // other team's.
            Some(_) if self.seat.is_some() => return SecretPhase::Done,
            None => Side::First,
            Some(Side::First) => Side::Second,
            Some(Side::Second) => return done,
        };
        loop {
            if self.players[side.index()] == PlayerKind::Person {
                return SecretPhase::HandOver(side);
            }
            if let AnyGame::Ctor(g) = &mut self.game {
                let squares = crate::team::random_secrets(g, 0x5eed + side.index() as u64 + g.turn() as u64);
                let _ = g.set_secrets(side, &squares);
            }
            self.sync_record();
            if side == Side::Second {
                return done;
            }
            side = Side::Second;
        }
    }

    /// A team's secret squares set before the first move.
    pub(super) fn set_secrets(&mut self, side: Side, squares: &[u16]) -> Result<Outcome, Refused> {
        if !self.history.is_empty() || self.replay.is_some() {
            return refuse("secret squares are set before the first move");
        }
        let AnyGame::Ctor(g) = &mut self.game else { return refuse("only CTOR has secret squares") };
        g.set_secrets(side, squares).map_err(super::illegal)?;
        self.sync_record();
        Ok(Outcome::default())
    }

    /// The hand-over screens' buttons.
    pub(super) fn secret_step(&mut self, step: Step) -> Result<Outcome, Refused> {
        match (step, self.secrets.clone()) {
            (Step::Proceed, SecretPhase::HandOver(side)) => self.secrets = SecretPhase::Choosing(side, Vec::new()),
            (Step::Proceed, SecretPhase::Ready) => self.secrets = SecretPhase::Done,
            (Step::Done, SecretPhase::Choosing(side, chosen)) if chosen.len() == SECRETS => {
                if let AnyGame::Ctor(g) = &mut self.game {
                    let squares: Vec<u16> = chosen.iter().filter_map(|c| g.square(*c)).collect();
                    let _ = g.set_secrets(side, &squares);
                }
                self.sync_record();
                self.secrets = self.next_secrets(Some(side));
            }
            // Any other step does not belong to this screen: nothing changes.
            _ => {}
        }
        Ok(Outcome::default())
    }

    /// The choosing team's click on a square: chosen, or taken back.
    pub(super) fn secret_click(&mut self, c: Cell) -> Result<Outcome, Refused> {
        let SecretPhase::Choosing(_, chosen) = &mut self.secrets else { return Ok(Outcome::default()) };
        if let Some(i) = chosen.iter().position(|x| *x == c) {
            chosen.remove(i);
        } else if chosen.len() < SECRETS {
            chosen.push(c);
        }
        Ok(Outcome::default())
    }

    /// The secret squares a viewer at the table may see now, each with whether everyone may
    /// (revealed): revealed ones always; the choosing team's choice; the team on turn's own
    /// when it asks (`show_own`). Never the other team's unrevealed squares.
    pub fn visible_secrets(&self, show_own: bool) -> Vec<(Cell, bool)> {
        let AnyGame::Ctor(g) = &self.game else { return Vec::new() };
        if let SecretPhase::Choosing(_, chosen) = &self.secrets {
            return chosen.iter().map(|c| (*c, false)).collect();
        }
        if self.secrets != SecretPhase::Done {
            return Vec::new();
        }
        let on_turn = g.side_to_move();
        let mut out = Vec::new();
        for side in [Side::First, Side::Second] {
            for (sq, state) in g.secrets(side) {
                let own_view = side == on_turn && show_own && self.players[side.index()] == PlayerKind::Person;
                let revealed = *state == SecretState::Revealed;
                if revealed || own_view {
                    out.push((g.cell(*sq), revealed));
                }
            }
        }
        out
    }
}
