//! `kickoff completions SHELL` and `kickoff manpage`: kickoff described for shells and `man`,
//! from the command line's own definition.

use std::path::Path;

use clap::CommandFactory;

use crate::cli::Cli;
use crate::commands::Exit;
use kickoff::text::{printable, printable_path};

/// Prints the completion script of `shell`.
pub fn completions(shell: clap_complete::Shell) -> Exit {
    clap_complete::generate(shell, &mut Cli::command(), "kickoff", &mut std::io::stdout());
    Exit::Success
}

/// kickoff's command line as the manual pages describe it: built, so that each subcommand
/// knows its full name (`kickoff-play`) and the global options, without the `help` subcommand.
fn documented() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// Prints the manual page of kickoff, or of one of its subcommands, in roff.
pub fn manpage(subcommand: Option<&str>) -> Exit {
    let command = documented();
    let page = match subcommand {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> =
                    command.get_subcommands().map(clap::Command::get_name).collect();
                eprintln!("error: kickoff has no subcommand {}", printable(name));
                eprintln!("  = help: the subcommands are: {}", names.join(", "));
                return Exit::Usage;
            }
        },
    };
    match clap_mangen::Man::new(page).render(&mut std::io::stdout()) {
        Ok(()) => Exit::Success,
        Err(e) => {
            eprintln!("error: cannot write the manual page: {e}");
            Exit::Failure
        }
    }
}

/// Writes kickoff.1 and one kickoff-SUBCOMMAND.1 per subcommand into `dir`, and names them.
pub fn write_manpages(dir: &Path) -> Exit {
    let mut written = Vec::new();
    let command = documented();
    for page in std::iter::once(command.clone()).chain(command.get_subcommands().cloned()) {
        match clap_mangen::Man::new(page).generate_to(dir) {
            Ok(path) => written.push(path),
            Err(e) => {
                eprintln!("error: cannot write a manual page into {}: {e}", printable_path(dir));
                return Exit::Usage;
            }
        }
    }
    eprintln!("wrote {} manual pages into {}", written.len(), printable_path(dir));
    Exit::Success
}
