//! Positions: a checked board, the side to move and the turn count.

pub mod setup;

pub use setup::{Placement, place};
