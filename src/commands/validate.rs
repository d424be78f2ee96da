//! `kickoff validate FILE...`: every problem of every file, rustc-style or as JSON.

use std::time::Instant;

use crate::cli::Format;
use crate::commands::progress::{hidden_bar, show_progress};
use crate::commands::{CommandError, CommandResult, Status, color_stdout, unloadable};
use kickoff::definition::{
    self, Definition, Diagnostic, JsonDiagnostic, LoadError, LoadOptions, Sources,
};
use kickoff::lint::{load_checked, simulate};
use kickoff::text::printable;

/// The arguments of `kickoff validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Definition files (or shipped variant names).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also play N random games (1 to 10000) under each definition and warn of what they show.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_SIMULATED_GAMES))]
    pub simulate: Option<u32>,
    /// The seed of the random games.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "simulate")]
    pub seed: u64,
}

/// The most random games `validate --simulate` plays under each definition.
pub const MAX_SIMULATED_GAMES: i64 = 10_000;

/// Checks each file and prints what it finds: an invalid file fails, an unreadable one (said
/// at once, and the others checked) fails as bad usage.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let format = args.format;
    let simulation = args.simulate.map(|games| (games as usize, args.seed));
    let mut json: Vec<JsonDiagnostic> = Vec::new();
    let mut failed = None;
    for file in &args.files {
        // The games played without a warning, said after the verdict.
        let mut quiet_games = None;
        let (sources, diagnostics) = match load_checked(file, options) {
            Ok(def) => {
                let mut warnings = def.warnings.clone();
                if let Some((games, seed)) = simulation {
                    let found = simulated(&def, file, games, seed);
                    quiet_games = found.is_empty().then_some(games);
                    warnings.extend(found);
                }
                warnings.sort_by_key(|d| (d.at.file, d.at.span.start));
                (def.sources, warnings)
            }
            Err(LoadError::Invalid { sources, diagnostics }) => {
                failed = failed.max(Some(Status::Failure));
                (sources, diagnostics)
            }
            Err(e @ (LoadError::Unreadable { .. } | LoadError::UnknownVariant { .. })) => {
                eprint!("{}", unloadable(&e));
                failed = Some(Status::Usage);
                continue;
            }
        };
        match format {
            Format::Json => json.extend(definition::to_json_all(&diagnostics, &sources)),
            Format::Text => print_text(file, &sources, &diagnostics),
        }
        if let (Some(games), Format::Text) = (quiet_games, format) {
            println!("{}: {}: no warning", printable(file), plural(games, "random game"));
        }
    }
    if format == Format::Json {
        match serde_json::to_string_pretty(&json) {
            Ok(text) => println!("{text}"),
            Err(e) => eprintln!("error: {e}"),
        }
    }
    failed.map_or(Ok(()), |status| Err(CommandError::quiet(status)))
}

/// The warnings of `games` random games of `def`, with a progress bar on a terminal.
fn simulated(def: &Definition, file: &str, games: usize, seed: u64) -> Vec<Diagnostic> {
    let (bar, start) = (hidden_bar(), Instant::now());
    let report = |done: usize, all: usize| {
        show_progress(&bar, start, done, all, "games");
    };
    let found = simulate(def, file, games, seed, Some(&report));
    bar.finish_and_clear();
    found
}

fn print_text(file: &str, sources: &Sources, diagnostics: &[Diagnostic]) {
    let color = color_stdout();
    for d in diagnostics.iter().take(definition::MAX_SHOWN) {
        println!("{}\n", d.render(sources, color));
    }
    if let Some(more) = definition::more_line(diagnostics) {
        println!("{more}\n");
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    let verdict = match (errors, warnings) {
        (0, 0) => "valid".to_owned(),
        (0, w) => format!("valid, {}", plural(w, "warning")),
        (e, 0) => format!("invalid, {}", plural(e, "error")),
        (e, w) => format!("invalid, {}, {}", plural(e, "error"), plural(w, "warning")),
    };
    println!("{}: {verdict}", printable(file));
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}
