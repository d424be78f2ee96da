//! `kickoff definition VARIANT [--resolved]`: a definition's text, as written or resolved.

use std::io::IsTerminal;

use crate::commands::{CommandResult, load_variant, unloadable};
use kickoff::definition::{LoadOptions, own_text};
use kickoff::text::printable;

/// The arguments of `kickoff definition`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// Print what its chain of `extends` resolves to instead, as one complete file.
    #[arg(long)]
    pub resolved: bool,
}

/// Prints the definition's own file, or with `--resolved` the one file its chain amounts to.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    if args.resolved {
        print!("{}", load_variant(&args.variant, options)?.resolved_toml());
        return Ok(());
    }
    let text = own_text(&args.variant).map_err(|e| unloadable(&e))?;
    // Redirected, the text is copied exactly; on a terminal, a file's escape sequences are
    // shown, not obeyed.
    if std::io::stdout().is_terminal() {
        print!("{}", printable(&text));
    } else {
        print!("{text}");
    }
    Ok(())
}
