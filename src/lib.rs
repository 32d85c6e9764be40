//! tablero: a 3D tabletop simulator for CTOR, Crossings, Volterra and Ordo.
//!
//! The rules engine ([`rules`]), the headless command line ([`cli`]), the benchmark and the
//! players and the table's state ([`table`]) build without Bevy; the 3D table lives behind the
//! default feature `gui`.

pub mod ai;
pub mod background;
pub mod bench;
pub mod cli;
pub mod engine;
pub mod feed;
#[cfg(feature = "gui")]
pub mod gui;
pub mod hex;
pub mod link;
pub mod matches;
pub mod memory;
pub mod nats;
pub mod net;
pub mod players;
pub mod record;
pub mod retry;
pub mod rules;
pub mod settings;
pub mod sound;
pub mod table;
pub mod team;
pub mod tls;
