//! `kickoff perft VARIANT DEPTH [--fen F | --setup N] [--divide] [--threads N]`: count turn sequences.

use std::io::Write;
use std::time::Instant;

use crate::cli::Start;
use crate::commands::progress::{hidden_bar, show_progress};
use crate::commands::texts::Texts;
use crate::commands::{CommandError, CommandResult, load_variant, playable};
use kickoff::definition::LoadOptions;
use kickoff::movegen::{MAX_TURNS, PerftOptions, each_legal_turn, perft, perft_divide};
use kickoff::position::Position;
use kickoff::turn_text::names::Namer;

/// The arguments of `kickoff perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// The number of turns (0 to 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=kickoff::movegen::perft::MAX_DEPTH as i64))]
    pub depth: u32,
    #[command(flatten)]
    pub start: Start,
    /// Also print each turn with its own count.
    #[arg(long)]
    pub divide: bool,
    /// Count only sequences of exactly DEPTH turns, as chess perft does: a finished
    /// position has no turns (by default a scoring turn ends its sequence and counts 1).
    #[arg(long)]
    pub exact: bool,
    /// Count each distinct result of a position once, however many turns lead to it.
    #[arg(long)]
    pub distinct: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

/// Prints the count (with `--divide`, each turn's count first) on stdout, the time on stderr.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let pos = playable(&def, &args.variant, &args.start)?;
    kickoff::movegen::count_turns(&pos).map_err(CommandError::failure)?;
    let depth = args.depth as usize;
    let threads = usize::from(args.threads);
    let options = PerftOptions {
        threads,
        exact: args.exact,
        distinct: args.distinct,
        ..PerftOptions::default()
    };
    let start = Instant::now();
    let bar = hidden_bar();
    let report = |done: usize, all: usize| show_progress(&bar, start, done, all, "parts");
    let total = if args.divide {
        perft_divide(&pos, depth, &options, Some(&report)).map(|d| print_divided(&pos, &d))
    } else {
        perft(&pos, depth, &options, Some(&report))
    };
    bar.finish_and_clear();
    let total = total.map_err(|_| {
        CommandError::failure(format!(
            "perft {depth} reaches a position with more than {MAX_TURNS} turns (its kick \
             chains multiply through many pieces): too many to count"
        ))
    })?;
    println!("{total}");
    let elapsed = start.elapsed();
    eprintln!(
        "perft {depth}: {total} in {:.1} ms ({threads} thread{})",
        elapsed.as_secs_f64() * 1000.0,
        if threads == 1 { "" } else { "s" }
    );
    Ok(())
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
