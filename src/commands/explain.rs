//! `kickoff explain VARIANT`: the rules in plain English.

use crate::commands::{Exit, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::render::explain::explain;
use kickoff::text::printable;

/// Prints the rules of `variant`.
pub fn run(variant: &str, options: LoadOptions) -> Exit {
    match load_variant(variant, options) {
        Ok(def) => {
            print!("{}", printable(&explain(&def.rules)));
            Exit::Success
        }
        Err(exit) => exit,
    }
}
