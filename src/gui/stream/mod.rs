//! Streaming the table: the broadcast window with its director and overlays, films of
//! finished games, the live feed, and the evaluation bar.

pub mod broadcast;
pub mod eval;
pub mod feed;
pub mod film;
