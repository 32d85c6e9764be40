//! How the table looks and sounds: the render profiles and the light, the player's camera,
//! photo mode, and the sounds of the pieces.

pub mod camera;
pub mod coords;
pub mod light;
pub mod photo;
pub mod render;
pub mod sound;
pub mod studio;
