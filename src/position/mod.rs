//! Positions: a checked board, the side to move and the turn count.

pub mod setup;

pub use setup::{Placement, place};

use crate::notation::fen;
use crate::rules::Rules;

/// The variant's start position (`setup.fen`), which was checked when the rules compiled.
#[must_use]
pub fn start_placement(rules: &Rules) -> Placement {
    let parsed =
        fen::parse(rules.setup_fen()).expect("setup.fen was checked when the rules compiled");
    place(rules, &parsed).expect("setup.fen was checked when the rules compiled")
}
