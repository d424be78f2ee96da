use std::process::ExitCode;

use clap::Parser;
use kickoff::cli::{Cli, Command};
use kickoff::commands;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let exit = match cli.command {
        Command::Validate { files, format } => commands::validate::run(&files, format),
        Command::Explain { variant } => commands::explain::run(&variant),
        Command::Setup { variant, number, seed, asymmetric, count } => {
            let request = commands::setup::Request { number, seed, asymmetric, count };
            commands::setup::run(&variant, &request)
        }
        Command::Schema => commands::schema::run(),
    };
    ExitCode::from(exit as u8)
}
