//! Which set is on the table and what the sets tell the other rooms: the doughnut view, the
//! showpiece the broadcast frames, whether a new set is unpacked as people see it done.

use crate::rules::Variant;
use bevy::prelude::*;

/// CTOR's field is shown on the doughnut instead of flat (`D`; see `torus::doughnut`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DoughnutView(pub bool);

/// What stands above the board for the broadcast to frame whole, when it does: a centre and
/// a reach (CTOR's doughnut, which turns each move to the front itself).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Showpiece(pub Option<(Vec3, f32)>);

/// New games at the table are set up as people see it done: the pine set comes out of its box
/// (the window and the menu; off-screen pictures and the table's own tests show it laid out).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unpacking(pub bool);

/// The set on the table.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Room {
    /// Stones on a chequered board: Ordo, Ordo X, Crossings.
    #[default]
    Stones,
    /// The pine Volterra set: tiles stacked into towers, two turned pawns.
    Pine,
    /// CTOR's torus: two-sided discs, the field and its border ring.
    Torus,
}

impl Room {
    /// The set a variant is played with.
    pub fn of(variant: Variant) -> Room {
        match variant {
            Variant::Ordo | Variant::OrdoX | Variant::Crossings => Room::Stones,
            Variant::Volterra | Variant::VolterraFree => Room::Pine,
            Variant::Ctor8 | Variant::Ctor10 => Room::Torus,
        }
    }

    /// How far the set reaches past the board's squares, in squares (the torus's border ring).
    pub fn margin(self) -> f32 {
        // CTOR's border ring; the pine set's box beside the board.
        match self {
            Room::Torus => 3.0,
            Room::Pine => 2.0,
            Room::Stones => 0.0,
        }
    }

    /// Whether letters and numbers go along the board's edges (CTOR numbers its squares).
    pub fn coordinates(self) -> bool {
        self != Room::Torus
    }
}

/// A run condition: this set is on the table.
pub fn on_table(room: Room) -> impl Fn(Res<Room>) -> bool + Clone {
    move |on: Res<Room>| *on == room
}
