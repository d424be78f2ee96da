//! `kickoff explain VARIANT`: the rules in plain English.

use crate::commands::{CommandResult, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::render::explain::explain;
use kickoff::text::printable;

/// The arguments of `kickoff explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
}

/// Prints the rules of the variant.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    print!("{}", printable(&explain(&def.rules)));
    Ok(())
}
