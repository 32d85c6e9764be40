//! The one test binary for everything Bevy: the table driven headless through the same
//! observers a real pick triggers, and the off-screen render of every variant.
mod abuse;
mod broadcast;
#[path = "../common/mod.rs"]
mod common;
mod doughnut;
mod eval;
mod face;
mod feed;
mod keyboard;
mod photo;
mod pine_box;
mod prefs;
mod render;
mod saving;
mod seat;
mod sound;
mod table;
mod team;
