//! The screens around the table: the menu, the table's panel (HUD), the rules panel, the
//! settings, the tips, and the keyboard's way of playing.

pub mod choice;
pub mod guide;
pub mod hud;
pub mod keyboard;
pub mod menu;
pub mod prefs;
pub mod seats;
pub mod tips;
