//! `kickoff manpage`: kickoff described for `man`, from the command line's own definition.

use std::path::{Path, PathBuf};

use clap::CommandFactory;

use crate::cli::Cli;
use crate::commands::{CommandError, CommandResult};
use kickoff::text::{printable, printable_path};

/// The arguments of `kickoff manpage`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The subcommand whose page to print (without one, the page of kickoff itself).
    pub subcommand: Option<String>,
    /// Write kickoff.1 and one kickoff-SUBCOMMAND.1 per subcommand into this folder.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub dir: Option<PathBuf>,
}

/// Prints the manual page asked for, or writes them all into `--dir`.
pub fn run(args: &Args) -> CommandResult {
    match &args.dir {
        Some(dir) => write_manpages(dir),
        None => manpage(args.subcommand.as_deref()),
    }
}

/// kickoff's command line as the manual pages describe it: built, so that each subcommand
/// knows its full name (`kickoff-play`) and the global options, without the `help` subcommand.
fn documented() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// Prints the manual page of kickoff, or of one of its subcommands, in roff.
fn manpage(subcommand: Option<&str>) -> CommandResult {
    let command = documented();
    let page = match subcommand {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> =
                    command.get_subcommands().map(clap::Command::get_name).collect();
                return Err(CommandError::usage(format!(
                    "kickoff has no subcommand {}",
                    printable(name)
                ))
                .with_help(format!("the subcommands are: {}", names.join(", "))));
            }
        },
    };
    clap_mangen::Man::new(page)
        .render(&mut std::io::stdout())
        .map_err(|e| CommandError::failure(format!("cannot write the manual page: {e}")))
}

/// Writes kickoff.1 and one kickoff-SUBCOMMAND.1 per subcommand into `dir`, and names them.
fn write_manpages(dir: &Path) -> CommandResult {
    let mut written = Vec::new();
    let command = documented();
    for page in std::iter::once(command.clone()).chain(command.get_subcommands().cloned()) {
        let path = clap_mangen::Man::new(page).generate_to(dir).map_err(|e| {
            CommandError::usage(format!(
                "cannot write a manual page into {}: {e}",
                printable_path(dir)
            ))
        })?;
        written.push(path);
    }
    eprintln!("wrote {} manual pages into {}", written.len(), printable_path(dir));
    Ok(())
}
