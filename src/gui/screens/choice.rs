//! What the menu offers and what it has chosen: the games with their pictures, the players
//! of each side, the options, and CTOR's team seats with their names.

use crate::gui::frame::session::PlayerKind;
use crate::rules::crossings::{Crossings, Options};
use crate::rules::{AnyGame, Side, Variant};
use bevy::prelude::*;

/// The games the table offers, one card each: the variant, one line saying what it is, and
/// its picture (rendered by tablero itself: `assets/pictures.sh`).
pub const GAMES: [(Variant, &str, &[u8]); 7] = [
    (
        Variant::Ordo,
        "Keep your stones together and reach the far row.",
        include_bytes!("../../../assets/menu/ordo.png"),
    ),
    (
        Variant::OrdoX,
        "Ordo with freer lines: sideways, then forward.",
        include_bytes!("../../../assets/menu/ordo-x.png"),
    ),
    (
        Variant::Crossings,
        "Move lines of stones, capture, cross to the far row.",
        include_bytes!("../../../assets/menu/crossings.png"),
    ),
    (
        Variant::Volterra,
        "Step your pawn and build towers of pine tiles.",
        include_bytes!("../../../assets/menu/volterra.png"),
    ),
    (
        Variant::VolterraFree,
        "Lay out the tiles yourselves, then play Volterra.",
        include_bytes!("../../../assets/menu/volterra-free.png"),
    ),
    (
        Variant::Ctor8,
        "Put, move and turn discs on a torus: the small field.",
        include_bytes!("../../../assets/menu/ctor8.png"),
    ),
    (
        Variant::Ctor10,
        "CTOR on the large 10 x 10 field; 3 against 3 is its classic version.",
        include_bytes!("../../../assets/menu/ctor10.png"),
    ),
];

/// CTOR team sizes the menu offers: every format from 1 against 1 to 3 against 3 (the seed:
/// "teams may be formed by 1, 2 or 3 people", and may be unequal).
pub const TEAMS: [[u8; 2]; 9] = [[1, 1], [2, 2], [3, 3], [1, 2], [2, 1], [1, 3], [3, 1], [2, 3], [3, 2]];

/// What the menu has chosen so far.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MenuChoice {
    /// Index into the games the menu offers.
    pub game: usize,
    pub players: [PlayerKind; 2],
    pub seed: u64,
    /// Crossings: a phalanx moves exactly as many squares as it has stones.
    pub exact: bool,
    /// Volterra: a build's destination next to the source tower rather than the pawn.
    pub near_source: bool,
    /// CTOR: index into the team sizes.
    pub teams: usize,
    /// CTOR: the turn power (the allowance table's row), when not the larger team's.
    pub power: Option<u8>,
    /// CTOR: a Landing puts its disc back on one of the two squares it emptied.
    pub landing_back: bool,
    /// Volterra: who plays first (light unless chosen).
    pub first: Side,
    /// CTOR: landings per turn instead of the table's.
    pub landing: Option<u8>,
    /// CTOR: each team chooses 5 secret squares.
    pub secrets: bool,
    /// CTOR: the sand-glass, seconds per turn.
    pub timer: Option<u8>,
    /// Start hosts the game on the network: the person's side is played here, the other
    /// people's seats from other machines with their invitations.
    pub host: bool,
    /// Hosted through the relay of the settings instead of this machine's port.
    pub relay: bool,
    /// The level each side's *Computer* segment brings back (the last one chosen for it).
    pub computers: [PlayerKind; 2],
}

/// The opponent a new game starts with: the computer at medium.
pub const DEFAULT_OPPONENT: PlayerKind = PlayerKind::Ai(1);

impl Default for MenuChoice {
    fn default() -> MenuChoice {
        MenuChoice {
            game: 0,
            players: [PlayerKind::Person, DEFAULT_OPPONENT],
            seed: 1,
            exact: false,
            near_source: false,
            teams: 0,
            power: None,
            landing_back: false,
            first: Side::First,
            landing: None,
            secrets: false,
            timer: None,
            host: false,
            relay: false,
            computers: [DEFAULT_OPPONENT; 2],
        }
    }
}

impl MenuChoice {
    /// The chosen game's variant.
    pub fn variant(&self) -> Variant {
        GAMES[self.game].0
    }

    /// The initial position of the chosen game, with its options.
    pub fn game(&self) -> AnyGame {
        match self.variant() {
            Variant::Crossings => AnyGame::Crossings(Crossings::initial(Options { exact: self.exact })),
            Variant::Volterra => AnyGame::Volterra(
                crate::rules::volterra::Volterra::initial(crate::rules::volterra::Options {
                    build_near_source: self.near_source,
                })
                .first_player(self.first),
            ),
            Variant::VolterraFree => AnyGame::Volterra(
                crate::rules::volterra::Volterra::free_setup(Default::default()).first_player(self.first),
            ),
            variant @ (Variant::Ctor8 | Variant::Ctor10) => {
                use crate::rules::ctor::{Ctor, Options};
                let n = if variant == Variant::Ctor8 { 8 } else { 10 };
                let options = Options {
                    landing: self.landing,
                    timer: self.timer,
                    landing_back: self.landing_back,
                    ..Options::default()
                };
                AnyGame::Ctor(Ctor::new(n, self.ctor_teams(), options))
            }
            variant => variant.initial(),
        }
    }
}

impl MenuChoice {
    /// CTOR: the chosen team sizes and turn power (a power that does not fit the sizes, which
    /// the menu's buttons never leave, falls back to the larger team's).
    pub fn ctor_teams(&self) -> crate::rules::ctor::Teams {
        let sizes = TEAMS[self.teams];
        self.power
            .and_then(|p| crate::rules::ctor::Teams::with_power(sizes, p).ok())
            .unwrap_or_else(|| crate::rules::ctor::Teams::new(sizes))
    }

    /// The next team sizes; a chosen turn power that no longer fits is dropped.
    pub(crate) fn next_teams(&mut self) {
        self.teams = (self.teams + 1) % TEAMS.len();
        if self.power.is_some_and(|p| crate::rules::ctor::Teams::with_power(TEAMS[self.teams], p).is_err()) {
            self.power = None;
        }
    }

    /// The next turn power that fits the team sizes: the larger team's, then rows 1 to 3.
    pub(crate) fn next_power(&mut self) {
        let sizes = TEAMS[self.teams];
        let larger = sizes[0].max(sizes[1]);
        let mut p = self.power;
        loop {
            p = match p {
                None => Some(1),
                Some(3) => None,
                Some(r) => Some(r + 1),
            };
            match p {
                Some(r) if r == larger => continue,
                Some(r) if crate::rules::ctor::Teams::with_power(sizes, r).is_err() => continue,
                _ => break,
            }
        }
        self.power = p;
    }
}

/// CTOR team play: the members the menu names, beyond the sides' first (whose kind is the
/// side's player above), and who plays the Moves and Landings.
#[derive(Resource, Clone, Debug)]
pub struct MenuSeats {
    pub names: [[String; 3]; 2],
    /// Kinds of the second and third members (the first is `MenuChoice::players`).
    pub kinds: [[PlayerKind; 3]; 2],
    pub lead: crate::team::Lead,
    /// The member whose name is being typed.
    pub editing: Option<(Side, usize)>,
}

impl Default for MenuSeats {
    fn default() -> MenuSeats {
        let names = |team: &str| [1, 2, 3].map(|k| format!("{team} {k}"));
        MenuSeats {
            names: [names("Black"), names("White")],
            kinds: [[PlayerKind::Person; 3]; 2],
            lead: crate::team::Lead::Captain,
            editing: None,
        }
    }
}

impl MenuSeats {
    /// The seats of a team game with these team sizes (none when every team has one player).
    pub fn team(&self, choice: &MenuChoice) -> Option<crate::team::TeamRecord> {
        let sizes = TEAMS[choice.teams];
        if sizes.iter().all(|s| *s < 2) || !matches!(choice.variant(), Variant::Ctor8 | Variant::Ctor10) {
            return None;
        }
        let seats = [0, 1].map(|t| {
            (0..sizes[t] as usize)
                .map(|k| {
                    let kind = if k == 0 { choice.players[t] } else { self.kinds[t][k] };
                    crate::record::PlayerInfo { name: self.names[t][k].clone(), kind: kind.name() }
                })
                .collect()
        });
        Some(crate::team::TeamRecord::new(seats, self.lead))
    }
}

/// Whether a member's name is being typed in the menu (the keys then write it).
pub fn renaming(seats: Option<Res<MenuSeats>>) -> bool {
    seats.is_some_and(|s| s.editing.is_some())
}

/// A member's name or kind in the menu's team block.
/// The menu's words for a player kind.
pub fn kind_name(kind: PlayerKind) -> String {
    match kind {
        PlayerKind::Person => "person".into(),
        PlayerKind::Random => "random".into(),
        PlayerKind::Ai(l) => crate::ai::LEVELS[l].name.into(),
        PlayerKind::Baseline => "baseline".into(),
        PlayerKind::Uct(_) => "uct".into(),
    }
}
