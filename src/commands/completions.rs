//! `kickoff completions SHELL`: kickoff described for a shell, from the command line's own
//! definition.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::commands::CommandResult;

/// The arguments of `kickoff completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// Prints the completion script of the shell.
pub fn run(args: &Args) -> CommandResult {
    clap_complete::generate(args.shell, &mut Cli::command(), "kickoff", &mut std::io::stdout());
    Ok(())
}
