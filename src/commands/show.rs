//! `kickoff show VARIANT [--fen F | --setup N]`: the board as text.

use crate::cli::Start;
use crate::commands::{Exit, color_stdout, load_variant, setup_or_fen};
use kickoff::definition::LoadOptions;
use kickoff::render::terminal::{Style, board, legend_of, status};

/// Prints the position.
pub fn run(variant: &str, start: &Start, options: LoadOptions) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let rules = &def.rules;
    let pos = match setup_or_fen(&def, variant, start) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    let style = Style { color: color_stdout(), flipped: false };
    print!("{}", board(rules, &pos.placement(), &[], style));
    println!("{}", legend_of(rules, style));
    for line in status(&pos) {
        println!("{line}");
    }
    println!("{}", pos.fen());
    println!("{} to move, {} turns completed", pos.side().name(), pos.turns());
    Exit::Success
}
