//! tablero: a 3D tabletop simulator for CTOR, Crossings, Volterra and Ordo.
//!
//! The rules engine ([`rules`]), the headless command line ([`cli`]) and the random players
//! build without Bevy; the 3D table lives behind the default feature `gui`.

pub mod cli;
pub mod rules;
