//! `kickoff show VARIANT [--fen F | --setup N]`: the board as text.

use crate::commands::{Exit, color_stdout, load_variant, parse_position};
use crate::definition::LoadOptions;
use crate::position::Position;
use crate::render::terminal::{Style, board, legend_of, status};
use crate::setup::{self, SetupNumber};

/// Prints the position.
pub fn run(
    variant: &str,
    fen: Option<&str>,
    setup_number: Option<&str>,
    options: LoadOptions,
) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let rules = &def.rules;
    let pos = match (setup_number, rules.random_setup()) {
        (Some(text), Some(random)) => {
            let number = match SetupNumber::parse(text, setup::independent_by_default(random)) {
                Ok(n) => n,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::Failure;
                }
            };
            match setup::placement(rules, random, number) {
                Ok(placement) => Position::from_placement(rules, &placement),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::Failure;
                }
            }
        }
        (Some(_), None) => {
            eprintln!("error: {variant} has no random setup (no [setup.random] in its definition)");
            return Exit::Failure;
        }
        (None, _) => match parse_position(&def, fen) {
            Ok(pos) => pos,
            Err(exit) => return exit,
        },
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
