use std::process::ExitCode;

use clap::Parser;
use kickoff::cli::{Cli, Command};
use kickoff::commands::{self, Exit};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match cli.command {
        Command::Validate { files, format } => commands::validate::run(&files, format),
        Command::Explain { variant } => {
            let _ = variant;
            Exit::Usage
        }
        Command::Schema => commands::schema::run(),
        Command::Turns {
            variant,
            fen,
            format,
        } => commands::turns::run(&variant, fen.as_deref(), format),
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
            threads,
        } => commands::perft::run(
            &variant,
            depth,
            fen.as_deref(),
            divide,
            usize::from(threads),
        ),
    };
    ExitCode::from(exit as u8)
}
