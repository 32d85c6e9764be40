//! How clicks become moves, without Bevy: select a stone, see where it can go (alone or with
//! the line it belongs to), choose a target, and where several moves land there pick one
//! from a short list. Ordo X's two-part turns are chosen part by part.

use crate::rules::{AnyGame, AnyMove, Cell, Game};
use std::collections::BTreeSet;

/// What a click led to.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// Nothing to play yet; the selection changed.
    Selected,
    /// Several moves land there: the player picks one (label, part text).
    Choose(Vec<(String, String)>),
    /// A part was chosen; the next part of the same move comes next.
    NextPart,
    /// A whole move was chosen: play it.
    Play(AnyMove),
    /// The click does not fit; the reason is shown, nothing changes.
    Refused(String),
}

/// The state of a move being chosen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picker {
    /// Parts already chosen, in notation.
    pub parts: Vec<String>,
    /// The stone selected for the current part.
    pub selected: Option<Cell>,
    /// The target clicked, while the player chooses among several moves.
    pub target: Option<Cell>,
    /// CTOR: choosing a Landing (two own discs, then where one lands).
    pub landing: bool,
    /// The discs chosen for the Landing so far.
    pub landing_discs: Vec<Cell>,
}

impl Picker {
    pub fn clear(&mut self) {
        *self = Picker::default();
    }

    /// The legal moves that begin with the parts chosen so far.
    pub fn candidates(&self, game: &AnyGame) -> Vec<AnyMove> {
        game.legal_moves().into_iter().filter(|m| m.parts().starts_with(&self.parts)).collect()
    }

    /// The position the table shows while the move is chosen.
    pub fn shown(&self, game: &AnyGame) -> AnyGame {
        if self.parts.is_empty() {
            return game.clone();
        }
        self.candidates(game)
            .first()
            .and_then(|m| game.preview(m, self.parts.len()))
            .map(|(g, _)| g)
            .unwrap_or_else(|| game.clone())
    }

    fn part_moves(&self, game: &AnyGame) -> Vec<(AnyMove, String, Vec<(Cell, Cell)>)> {
        let k = self.parts.len();
        self.candidates(game)
            .into_iter()
            .filter_map(|m| {
                let part = m.parts().get(k)?.clone();
                let paths = game.move_paths(&m, k);
                Some((m, part, paths))
            })
            .collect()
    }

    /// Stones that can move in the current part.
    pub fn selectable(&self, game: &AnyGame) -> BTreeSet<Cell> {
        self.part_moves(game).into_iter().flat_map(|(_, _, p)| p.into_iter().map(|(f, _)| f)).collect()
    }

    /// Where the selected stone can land in the current part. Squares holding the mover's own
    /// stones are left out: clicking one selects it, and every line move can be chosen through
    /// its front stone instead.
    pub fn targets(&self, game: &AnyGame) -> BTreeSet<Cell> {
        let Some(s) = self.selected else { return BTreeSet::new() };
        let shown = self.shown(game);
        let side = game.side_to_move();
        self.part_moves(game)
            .into_iter()
            .flat_map(|(_, _, p)| p.into_iter().filter(move |(f, _)| *f == s).map(|(_, t)| t))
            .filter(|t| game.lands_on_own() || shown.piece_at(*t) != Some(side))
            .collect()
    }

    /// A click on a cell (a stone or an empty square).
    pub fn click(&mut self, game: &AnyGame, at: Cell) -> Pick {
        let shown = self.shown(game);
        let side = game.side_to_move();
        let name = game.variant().side_name(side);
        if game.outcome().is_some() {
            return Pick::Refused("the game is over: start a new game or undo".into());
        }
        if let AnyGame::Ctor(g) = game
            && g.only_end_left()
        {
            return Pick::Refused("nothing is left this turn but to end it: press End turn".into());
        }
        if self.landing {
            return self.click_landing(game, at);
        }
        if self.selected == Some(at) {
            self.selected = None;
            return Pick::Selected;
        }
        if self.selected.is_some() && self.targets(game).contains(&at) {
            return self.choose_target(game, at);
        }
        // Moves made by one click on a cell (Volterra's free setup, a CTOR Put).
        if self.parts.is_empty()
            && let Some(mv) = game.legal_moves().into_iter().find(|m| game.click_cell(m) == Some(at))
        {
            self.clear();
            return Pick::Play(mv);
        }
        if shown.piece_at(at) == Some(side) {
            if self.selectable(game).contains(&at) {
                self.selected = Some(at);
                self.target = None;
                return Pick::Selected;
            }
            let why = if let AnyGame::Volterra(v) = &shown
                && let Some(why) = v.why_not_source(at)
            {
                why
            } else if self.parts.is_empty() {
                format!("the {name} piece on {at} has no legal move")
            } else {
                format!("the stone on {at} cannot make the second part of this turn")
            };
            return Pick::Refused(why);
        }
        if let Some(other) = shown.piece_at(at)
            && self.selected.is_none()
        {
            return Pick::Refused(format!("that is a {} piece: {name} to move", game.variant().side_name(other)));
        }
        match self.selected {
            None => Pick::Refused(format!("select one of the {name} pieces first")),
            Some(from) => {
                // Ask the rules why the simplest move there is refused.
                let mut text = self.parts.clone();
                text.push(format!("{from}-{at}"));
                let why = match shown.parse_move(&text.join(",")) {
                    Err(e) => match e {
                        crate::rules::MoveError::Illegal { why, .. } => why,
                        crate::rules::MoveError::Syntax { why, .. } => why,
                    },
                    Ok(_) => "that move needs another part first".into(),
                };
                Pick::Refused(format!("{from} to {at}: {why}"))
            }
        }
    }

    /// Starts choosing a CTOR Landing, if one is allowed now.
    pub fn start_landing(&mut self, game: &AnyGame) -> Result<(), super::TableError> {
        if !game.legal_moves().iter().any(|m| game.landing_cells(m).is_some()) {
            return Err(super::TableError::NoLanding);
        }
        self.clear();
        self.landing = true;
        Ok(())
    }

    /// The squares the chosen pair can land on.
    pub fn landing_targets(&self, game: &AnyGame) -> BTreeSet<Cell> {
        let [a, b] = self.landing_discs[..] else { return BTreeSet::new() };
        game.legal_moves()
            .iter()
            .filter_map(|m| game.landing_cells(m))
            .filter(|(x, y, _)| (*x, *y) == (a, b) || (*x, *y) == (b, a))
            .map(|(_, _, d)| d)
            .collect()
    }

    fn click_landing(&mut self, game: &AnyGame, at: Cell) -> Pick {
        let side = game.side_to_move();
        if self.landing_discs.len() == 2 && self.landing_targets(game).contains(&at) {
            let (a, b) = (self.landing_discs[0], self.landing_discs[1]);
            let mv = game.legal_moves().into_iter().find(|m| {
                game.landing_cells(m).is_some_and(|(x, y, d)| d == at && ((x, y) == (a, b) || (x, y) == (b, a)))
            });
            if let Some(mv) = mv {
                self.clear();
                return Pick::Play(mv);
            }
        }
        if let Some(i) = self.landing_discs.iter().position(|c| *c == at) {
            self.landing_discs.remove(i);
            return Pick::Selected;
        }
        if game.piece_at(at) == Some(side) && self.landing_discs.len() < 2 {
            self.landing_discs.push(at);
            return Pick::Selected;
        }
        Pick::Refused(match self.landing_discs.len() {
            2 => format!("the pair cannot land on {at}: choose an empty square or one of the two"),
            _ => "a Landing takes two of your discs off: choose them first".into(),
        })
    }

    fn choose_target(&mut self, game: &AnyGame, at: Cell) -> Pick {
        let from = self.selected.expect("a stone is selected");
        let k = self.parts.len();
        // The parts that land there, each described by the rules, once each.
        let mut options: Vec<(String, String)> = self
            .part_moves(game)
            .into_iter()
            .filter(|(_, _, p)| p.contains(&(from, at)))
            .map(|(m, part, _)| (m.describe(k), part))
            .collect();
        options.sort_by(|a, b| a.1.cmp(&b.1));
        options.dedup_by(|a, b| a.1 == b.1);
        match options.len() {
            0 => Pick::Refused("no move lands there".into()),
            1 => self.choose_part(game, &options[0].1),
            _ => {
                self.target = Some(at);
                Pick::Choose(options)
            }
        }
    }

    /// Chooses one part (from a list offered by [`Pick::Choose`], or the only one).
    pub fn choose_part(&mut self, game: &AnyGame, part: &str) -> Pick {
        let mut parts = self.parts.clone();
        parts.push(part.to_string());
        let matching: Vec<AnyMove> = game.legal_moves().into_iter().filter(|m| m.parts().starts_with(&parts)).collect();
        if matching.is_empty() {
            return Pick::Refused(format!("{part} is not legal here"));
        }
        if let Some(done) = matching.iter().find(|m| m.parts() == parts) {
            let mv = done.clone();
            self.clear();
            return Pick::Play(mv);
        }
        self.parts = parts;
        self.selected = None;
        self.target = None;
        Pick::NextPart
    }
}
