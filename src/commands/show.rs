//! `kickoff show VARIANT [--fen F | --setup N]`: the board as text.

use crate::cli::Start;
use crate::commands::{CommandResult, color_stdout, load_variant, setup_or_fen};
use kickoff::definition::LoadOptions;
use kickoff::render::terminal::{Style, board, legend_of, status};

/// The arguments of `kickoff show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    #[command(flatten)]
    pub start: Start,
}

/// Prints the position.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let rules = &def.rules;
    let pos = setup_or_fen(&def, &args.variant, &args.start)?;
    let style = Style { color: color_stdout(), flipped: false };
    print!("{}", board(rules, &pos.placement(), &[], style));
    println!("{}", legend_of(rules, style));
    for line in status(&pos) {
        println!("{line}");
    }
    println!("{}", pos.fen());
    println!("{} to move, {} turns completed", pos.side().name(), pos.turns());
    Ok(())
}
