//! `kickoff perft VARIANT DEPTH [--fen F] [--divide] [--threads N]`: count turn sequences.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::commands::{Exit, load_position, load_variant};
use crate::definition::LoadOptions;
use crate::movegen::{PerftOptions, perft, perft_divide};

/// How long a run goes before it shows a progress bar.
const QUIET_TIME: Duration = Duration::from_millis(700);

/// Prints the count (with `--divide`, each turn's count first) on stdout, the time on stderr.
pub fn run(
    variant: &str,
    depth: usize,
    fen: Option<&str>,
    divide: bool,
    perft_options: PerftOptions,
    options: LoadOptions,
) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let pos = match load_position(&def, fen) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    if let Err(e) = crate::movegen::check_turn_count(&pos) {
        eprintln!("error: {e}");
        return Exit::Failure;
    }
    let threads = perft_options.threads;
    let options = perft_options;
    let start = Instant::now();
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    let report = |done: usize, all: usize| show_progress(&bar, start, done, all);
    let total = if divide {
        let mut lines: Vec<(String, u64)> = perft_divide(&pos, depth, &options, Some(&report))
            .into_iter()
            .map(|(t, n)| (t.to_string(), n))
            .collect();
        lines.sort();
        let mut out = String::new();
        for (turn, n) in &lines {
            out.push_str(&format!("{turn} {n}\n"));
        }
        print!("{out}");
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, depth, &options, Some(&report))
    };
    bar.finish_and_clear();
    println!("{total}");
    let elapsed = start.elapsed();
    eprintln!(
        "perft {depth}: {total} in {:.1} ms ({threads} thread{})",
        elapsed.as_secs_f64() * 1000.0,
        if threads == 1 { "" } else { "s" }
    );
    Exit::Success
}

/// Shows the bar once the run has lasted a while, on a terminal only.
fn show_progress(bar: &ProgressBar, start: Instant, done: usize, all: usize) {
    if bar.is_hidden() {
        if start.elapsed() < QUIET_TIME || !std::io::stderr().is_terminal() {
            return;
        }
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} parts, {elapsed} (eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    }
    bar.set_length(all as u64);
    bar.set_position(done as u64);
}
