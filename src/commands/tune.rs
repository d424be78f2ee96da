//! `kickoff tune VARIANT...`: fits the evaluation's capture weights to the engine's games in
//! variants where pieces are captured (Texel's method, see `balance::tune`), and prints them
//! beside the weights the engine plays with.

use crate::commands::{CommandError, CommandResult, load_variant};
use kickoff::balance::tune::{Games, Sample, fit, samples};
use kickoff::definition::LoadOptions;
use kickoff::eval::{CAPTURE_WEIGHTS, CaptureWeights};
use kickoff::text::printable;

/// The arguments of `kickoff tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variants where pieces are captured (shipped names or .toml files); their positions are
    /// fitted together.
    #[arg(required = true, num_args = 1..)]
    pub variants: Vec<String>,
    /// Games of each variant.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// The engine's level in those games.
    #[arg(long, value_name = "L", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// Random turns that open each game.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=50))]
    pub opening: u32,
    /// A game still going after this many turns is a draw.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_turns: u32,
    /// The seed of the openings and setups.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = crate::cli::Format::Text)]
    pub format: crate::cli::Format,
}

/// Plays the games, fits the weights and prints them.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let threads = args
        .threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
    let games = Games {
        games: args.games as usize,
        level: args.level,
        opening: args.opening,
        max_turns: args.max_turns,
        seed: args.seed,
        threads,
    };
    let mut all: Vec<Sample> = Vec::new();
    let mut counts = Vec::new();
    for name in &args.variants {
        let def = load_variant(name, options)?;
        if !def.rules.has_captures() {
            return Err(CommandError::usage(format!(
                "{}: pieces are not captured in this variant, so the capture weights do not count there",
                printable(name)
            )));
        }
        let started = std::time::Instant::now();
        let found = samples(&def.rules, games);
        eprintln!(
            "{}: {} games, {} positions in {:.1} s",
            printable(name),
            games.games,
            found.len(),
            started.elapsed().as_secs_f64()
        );
        counts.push((printable(name).into_owned(), found.len()));
        all.extend(found);
    }
    let fitted = fit(&all, CAPTURE_WEIGHTS);
    match args.format {
        crate::cli::Format::Json => {
            let json = serde_json::json!({
                "games": games,
                "positions": counts.iter().map(|(n, c)| serde_json::json!({"variant": n, "positions": c})).collect::<Vec<_>>(),
                "fit": fitted,
            });
            println!("{json:#}");
        }
        crate::cli::Format::Text => {
            let positions: Vec<String> = counts.iter().map(|(n, c)| format!("{n} {c}")).collect();
            println!(
                "positions: {} ({}), {} games each at engine:{}",
                fitted.samples,
                positions.join(", "),
                games.games,
                games.level
            );
            println!("logistic scale: {:.6} per point", fitted.k);
            println!(
                "mean squared error: {:.5} with the engine's weights, {:.5} fitted",
                fitted.before, fitted.after
            );
            println!("{:<10} {:>8} {:>8}", "weight", "engine", "fitted");
            for (name, a, b) in rows(&fitted.start, &fitted.weights) {
                println!("{name:<10} {a:>8} {b:>8}");
            }
        }
    }
    Ok(())
}

/// The weights side by side, by name.
fn rows(a: &CaptureWeights, b: &CaptureWeights) -> [(&'static str, i32, i32); 5] {
    [
        ("men", a.men, b.men),
        ("worth", a.worth, b.worth),
        ("exposed", a.exposed, b.exposed),
        ("threats", a.threats, b.threats),
        ("moves", a.moves, b.moves),
    ]
}
