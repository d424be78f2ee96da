//! The command line: kickoff's subcommands, each with its arguments (the `Args` of its module
//! in `commands/`), and the arguments they share.

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::{self, CommandResult};
use kickoff::definition::LoadOptions;

/// Football Chess and football-style chess variants, played from definition files.
#[derive(Debug, Parser)]
#[command(name = "kickoff", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Let definitions extend files outside their own folder.
    #[arg(long, global = true)]
    pub allow_outside: bool,
}

impl Cli {
    /// Runs the subcommand.
    ///
    /// # Errors
    /// Why it failed, with its exit status.
    pub fn run(self) -> CommandResult {
        let options = LoadOptions { allow_outside: self.allow_outside };
        match self.command {
            Command::Play(args) => commands::play::run(&args, options),
            Command::Validate(args) => commands::validate::run(&args, options),
            Command::List(args) => commands::list::run(&args),
            Command::Definition(args) => commands::definition::run(&args, options),
            Command::Explain(args) => commands::explain::run(&args, options),
            Command::Setup(args) => commands::setup::run(&args, options),
            Command::Show(args) => commands::show::run(&args, options),
            Command::Replay(args) => commands::replay::run(&args, options),
            Command::Schema => commands::schema::run(),
            Command::Completions(args) => commands::completions::run(&args),
            Command::Manpage(args) => commands::manpage::run(&args),
            Command::Turns(args) => commands::turns::run(&args, options),
            Command::Bestmove(args) => commands::bestmove::run(&args, options),
            Command::Match(args) => commands::matches::run(&args, options),
            Command::Solve(args) => commands::solve::run(&args, options),
            Command::Analyze(args) => commands::analyze::run(&args, options),
            Command::Merge(args) => commands::merge::run(&args, options),
            Command::Puzzles(args) => commands::puzzles::run(&args, options),
            Command::Tune(args) => commands::tune::run(&args, options),
            Command::Bot(args) => commands::bot::run(args),
            Command::Admin(args) => commands::admin::run(args),
            Command::Serve(args) => commands::serve::run(args),
            Command::Render(args) => commands::render::run(&args, options),
            Command::Perft(args) => commands::perft::run(&args, options),
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the terminal (Boyer's Football Chess unless another variant is named).
    Play(commands::play::Args),
    /// Check definition files and report every problem with its place.
    Validate(commands::validate::Args),
    /// List the shipped variants, each with its one-line description.
    List(commands::list::Args),
    /// Print a definition: a shipped variant's file as shipped, or a file as it is.
    Definition(commands::definition::Args),
    /// Print the rules of a variant in plain English.
    Explain(commands::explain::Args),
    /// Random setups: how many there are, one by number, or a random pick.
    Setup(commands::setup::Args),
    /// Show a position as a board.
    Show(commands::show::Args),
    /// Check every turn of a game record; print the final position, the result and the reason.
    Replay(commands::replay::Args),
    /// Print the JSON Schema of the definition format, for editors.
    Schema,
    /// Print the completion script of a shell, e.g. `kickoff completions bash`.
    Completions(commands::completions::Args),
    /// Print a manual page (roff), e.g. `kickoff manpage play > kickoff-play.1`, or write them all.
    #[command(visible_alias = "man")]
    Manpage(commands::manpage::Args),
    /// List every legal turn of a position with the position it leads to.
    Turns(commands::turns::Args),
    /// The engine's choice of turn in a position, with its score and expected line.
    Bestmove(commands::bestmove::Args),
    /// Play games between two computer players and report the score.
    Match(commands::matches::Args),
    /// Prove or refute that the side to move forces a goal within N of its turns.
    Solve(commands::solve::Args),
    /// A balance report for designers: forced goals from every start, and self-play figures.
    Analyze(commands::analyze::Args),
    /// The report of an `analyze` or `match` run in shards, from the shards' files.
    Merge(commands::merge::Args),
    /// "Goal in K" puzzles from the engine's games, each answer proved unique by the solver.
    Puzzles(commands::puzzles::Args),
    /// Fit the engine's weights for captured pieces to its games (Texel's method).
    Tune(commands::tune::Args),
    /// Play as an account of a kickoff server: accept challenges, and play their games.
    Bot(commands::bot::Args),
    /// Manage a server's database: accounts, backups, imports.
    Admin(commands::admin::Args),
    /// Serve the web board: play, open records and write variants in a browser.
    Serve(commands::serve::Args),
    /// Draw a position as an SVG or PNG diagram.
    Render(commands::render::Args),
    /// Count the sequences of DEPTH turns from a position (perft).
    Perft(commands::perft::Args),
}

/// The position an analysis command starts from: `--fen F` or `--setup N`, the variant's start
/// position when neither is given.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Start {
    /// The position (default: the variant's start position).
    #[arg(long, conflicts_with = "setup")]
    pub fen: Option<String>,
    /// Random setup N (N/M when Black is drawn independently).
    #[arg(long, value_name = "N")]
    pub setup: Option<String>,
}

/// How to print results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs.
    Json,
}

/// A time in seconds (`--time`): a number from 0 to a million, fractions allowed.
///
/// # Errors
/// Not a number, or out of range.
pub fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let s: f64 = text.parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(0.0..=1_000_000.0).contains(&s) {
        return Err(format!("{text} seconds is out of range: give 0 to 1000000"));
    }
    Ok(std::time::Duration::from_secs_f64(s))
}
