//! One module per game set: its pieces, its materials, its animation.

pub mod ctor;
pub mod volterra;
