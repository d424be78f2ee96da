//! `kickoff puzzles VARIANT --count N --turns K`: "goal in K" puzzles from the engine's games,
//! each with one first turn that the solver proves (every other refuted), graded by the
//! solver's work; `--check FILE` proves a file's puzzles again.

use std::path::PathBuf;

use indicatif::ProgressStyle;

use crate::commands::progress::terminal_bar;
use crate::commands::{CommandError, CommandResult, load_variant};
use kickoff::analysis::SolveLimits;
use kickoff::analysis::puzzle::{PuzzleFile, recheck};
use kickoff::balance::puzzles::{PuzzleSearch, find};
use kickoff::definition::LoadOptions;
use kickoff::text::{printable, printable_path};
use kickoff::text_file;

/// The arguments of `kickoff puzzles`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// How many puzzles.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub count: u32,
    /// Goal in this many turns of the side to move (K), or in any number from K to L (K-L).
    #[arg(long, value_name = "K|K-L", default_value = "2", value_parser = turn_range)]
    pub turns: (u32, u32),
    /// The seed of the games the puzzles come from.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The engine's level in those games.
    #[arg(long, value_name = "L", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub level: u8,
    /// Random turns that open each game (more give more varied games from one start).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub opening: u32,
    /// Give up after this many games.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_games: usize,
    /// The most positions the solver expands for one answer or one refuted turn (a position
    /// that needs more is passed over).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Prove the puzzles of this file (as `--format json` writes them) again, instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "turns", "seed", "level", "max_games", "opening"])]
    pub check: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::cli::Format::Text)]
    pub format: crate::cli::Format,
}

/// `K` or `K-L`, 1 <= K <= L <= 4.
fn turn_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{text}` is not K or K-L with 1 <= K <= L <= 4");
    let (k, l) = text.split_once('-').unwrap_or((text, text));
    let (k, l): (u32, u32) =
        (k.trim().parse().map_err(|_| bad())?, l.trim().parse().map_err(|_| bad())?);
    if k == 0 || k > l || l > 4 {
        return Err(bad());
    }
    Ok((k, l))
}

/// Finds the puzzles and prints them, or checks a file's.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    if let Some(path) = &args.check {
        return check(&def, path, args.max_nodes);
    }
    let threads = args
        .threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
    let bar = terminal_bar(
        Some(u64::from(args.count)),
        ProgressStyle::with_template("{bar:30} {pos}/{len} puzzles, {msg}, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let search = PuzzleSearch {
        count: args.count as usize,
        turns: args.turns,
        seed: args.seed,
        level: args.level,
        threads,
        max_games: args.max_games,
        max_nodes: args.max_nodes,
        opening: args.opening,
    };
    let progress = |found: usize, games: usize| {
        bar.set_position(found as u64);
        bar.set_message(format!("{games} games"));
    };
    let puzzles = find(&def.rules, search, &progress);
    bar.finish_and_clear();
    if puzzles.len() < search.count {
        eprintln!(
            "{} puzzles found of the {} asked, in {} games (--max-games)",
            puzzles.len(),
            search.count,
            search.max_games
        );
    }
    let none = puzzles.is_empty();
    match args.format {
        crate::cli::Format::Json => {
            let file = PuzzleFile { variant: args.variant.clone(), puzzles };
            let text = serde_json::to_string_pretty(&file).map_err(CommandError::failure)?;
            println!("{text}");
        }
        crate::cli::Format::Text => {
            for (i, p) in puzzles.iter().enumerate() {
                println!(
                    "{:>3}. goal in {} ({}, {} positions): {}\n     {}",
                    i + 1,
                    p.turns,
                    p.grade,
                    p.work,
                    p.fen,
                    p.solution
                );
            }
        }
    }
    if none {
        return Err(CommandError::failure("no puzzle found"));
    }
    Ok(())
}

/// `--check FILE`: every puzzle proved again, each failure named.
fn check(
    def: &kickoff::definition::Definition,
    path: &std::path::Path,
    max_nodes: u64,
) -> CommandResult {
    let shown = printable_path(path);
    let text = text_file::read_limited(path, 16 << 20, "puzzle files")
        .map_err(|e| CommandError::usage(format!("cannot read {shown}: {e}")))?;
    let file: PuzzleFile = serde_json::from_str(&text)
        .map_err(|e| CommandError::usage(format!("{shown}:{}:{}: {e}", e.line(), e.column())))?;
    let limits = SolveLimits { max_nodes: Some(max_nodes), deadline: None };
    let mut broken = 0;
    for (i, puzzle) in file.puzzles.iter().enumerate() {
        if let Err(why) = recheck(&def.rules, puzzle, limits) {
            broken += 1;
            println!("puzzle {}: {}", i + 1, printable(&why.to_string()));
        }
    }
    println!("{} of {} puzzles hold", file.puzzles.len() - broken, file.puzzles.len());
    if broken > 0 {
        return Err(CommandError::failure(format!("{broken} puzzles of {shown} do not hold")));
    }
    Ok(())
}
