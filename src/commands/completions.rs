//! `kickoff completions SHELL` and `kickoff manpage`: kickoff described for shells and `man`,
//! from the command line's own definition.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::commands::Exit;

/// Prints the completion script of `shell`.
pub fn completions(shell: clap_complete::Shell) -> Exit {
    clap_complete::generate(shell, &mut Cli::command(), "kickoff", &mut std::io::stdout());
    Exit::Success
}

/// Prints the manual page in roff.
pub fn manpage() -> Exit {
    match clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout()) {
        Ok(()) => Exit::Success,
        Err(e) => {
            eprintln!("error: cannot write the manual page: {e}");
            Exit::Failure
        }
    }
}
