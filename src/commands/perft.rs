//! `kickoff perft VARIANT DEPTH [--fen F | --setup N] [--divide] [--threads N]`: count turn sequences.

use std::io::Write;
use std::time::Instant;

use crate::cli::Start;
use crate::commands::progress::{hidden_bar, show_progress};
use crate::commands::texts::Texts;
use crate::commands::{Exit, load_variant, playable};
use kickoff::definition::LoadOptions;
use kickoff::movegen::{MAX_TURNS, PerftOptions, each_legal_turn, perft, perft_divide};
use kickoff::position::Position;
use kickoff::turn_text::names::Namer;

/// Prints the count (with `--divide`, each turn's count first) on stdout, the time on stderr.
pub fn run(
    variant: &str,
    depth: usize,
    start: &Start,
    divide: bool,
    perft_options: PerftOptions,
    options: LoadOptions,
) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let pos = match playable(&def, variant, start) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    if let Err(e) = kickoff::movegen::count_turns(&pos) {
        eprintln!("error: {e}");
        return Exit::Failure;
    }
    let threads = perft_options.threads;
    let options = perft_options;
    let start = Instant::now();
    let bar = hidden_bar();
    let report = |done: usize, all: usize| show_progress(&bar, start, done, all, "parts");
    let total = if divide {
        perft_divide(&pos, depth, &options, Some(&report)).map(|d| print_divided(&pos, &d))
    } else {
        perft(&pos, depth, &options, Some(&report))
    };
    bar.finish_and_clear();
    let total = match total {
        Ok(total) => total,
        Err(_) => {
            eprintln!(
                "error: perft {depth} reaches a position with more than {MAX_TURNS} turns (its \
                 kick chains multiply through many pieces): too many to count"
            );
            return Exit::Failure;
        }
    };
    println!("{total}");
    let elapsed = start.elapsed();
    eprintln!(
        "perft {depth}: {total} in {:.1} ms ({threads} thread{})",
        elapsed.as_secs_f64() * 1000.0,
        if threads == 1 { "" } else { "s" }
    );
    Exit::Success
}

/// Prints each turn's count (`counts`, in listing order), named and sorted as `kickoff turns`
/// names and sorts them; returns their sum. The names are held in one buffer (a position may
/// have two million turns).
fn print_divided(pos: &Position<'_>, counts: &[u64]) -> u64 {
    let mut namer = Namer::new(pos);
    let mut names = Texts::default();
    each_legal_turn(pos, |turn| names.push(&namer.name(turn)));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for i in names.sorted() {
        // A closed output is not an error worth more than stopping (SIGPIPE ends us anyway).
        if writeln!(out, "{} {}", names.get(i), counts[i]).is_err() {
            break;
        }
    }
    out.flush().ok();
    counts.iter().sum()
}
