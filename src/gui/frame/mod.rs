//! The frame chain at the table: keys become commands (input), clicks and the computer choose
//! moves (pick), the rules step applies them to the table's state (session), and the tweens
//! move the pieces (animate); with the words every room shares (steps, board, clock).

pub mod animate;
pub mod board;
pub mod clipboard;
pub mod clock;
pub mod computer;
pub mod input;
pub mod keymap;
pub mod remote;
pub mod session;
pub mod steps;
