//! `kickoff validate FILE...`: every problem of every file, rustc-style or as JSON.

use std::time::Instant;

use crate::cli::Format;
use crate::commands::progress::{hidden_bar, show_progress};
use crate::commands::{Exit, color_stdout, report_unloadable};
use kickoff::definition::{
    self, Definition, Diagnostic, JsonDiagnostic, LoadError, LoadOptions, Sources,
};
use kickoff::lint::{load_checked, simulate};
use kickoff::text::printable;

/// Checks each file and prints what it finds.
pub fn run(
    files: &[String],
    format: Format,
    simulation: Option<(usize, u64)>,
    options: LoadOptions,
) -> Exit {
    let mut json: Vec<JsonDiagnostic> = Vec::new();
    let mut exit = Exit::Success;
    for file in files {
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
                exit = worse(exit, Exit::Failure);
                (sources, diagnostics)
            }
            Err(e @ (LoadError::Unreadable { .. } | LoadError::UnknownVariant { .. })) => {
                report_unloadable(&e);
                exit = Exit::Usage;
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
    exit
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

fn worse(a: Exit, b: Exit) -> Exit {
    if (a as i32) >= (b as i32) { a } else { b }
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
