//! `kickoff analyze VARIANT`: forced goals from every start and self-play, as text, JSON or an
//! HTML page.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::ChaCha8Rng;

use crate::commands::progress::terminal_bar;
use crate::commands::{CommandError, CommandResult, load_variant};
use kickoff::analysis::fair::draw_excluding;
use kickoff::analysis::survey::forced_goals;
use kickoff::balance::report::{Forced, Play, Report};
use kickoff::balance::selfplay::{SelfPlay, self_play};
use kickoff::definition::LoadOptions;

/// How many setups self-play draws for a start with no forced goal before it takes the
/// variant's own start: more than a fair draw that solves each one tries, as a draw here only
/// looks the setup up.
const SELF_PLAY_DRAWS: usize = 1000;

/// The arguments of `kickoff analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// Look for forced goals within this many turns of each side.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub turns: u32,
    /// Self-play games (0: none).
    #[arg(long, value_name = "M", default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub games: u32,
    /// The engine's level in self-play.
    #[arg(long, value_name = "L", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=kickoff::search::MAX_LEVEL as i64))]
    pub level: u8,
    /// A self-play game still going after this many turns is a draw.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_turns: u32,
    /// The seed of self-play (setups and opening turns).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Give up on a start after this many seconds per side ("unknown").
    #[arg(long, value_name = "S", value_parser = crate::cli::seconds)]
    pub time: Option<Duration>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// How to print a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// For people.
    Text,
    /// For programs.
    Json,
    /// A self-contained HTML page with plots.
    Html,
}

/// Builds the report and prints it.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let rules = &def.rules;
    let threads = args
        .threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from)
        .max(1);
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    let bar = progress_bar();
    let report_progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    bar.set_message("forced goals");
    let (verdicts, took) = forced_goals(rules, args.turns, threads, args.time, &report_progress);
    let forced = Forced::new(args.turns, verdicts, took.as_secs_f64());
    let play = (games > 0).then(|| {
        bar.set_message("self-play");
        bar.set_position(0);
        let unfair: Vec<u128> = forced
            .verdicts
            .iter()
            .filter(|v| v.white.is_some() || v.black.is_some())
            .filter_map(|v| v.setup.as_deref().and_then(|s| s.parse().ok()))
            .collect();
        // Among the setups with no forced goal found (none for a single start).
        let draw = |rng: &mut ChaCha8Rng| draw_excluding(rules, &unfair, SELF_PLAY_DRAWS, rng).ok();
        let options = SelfPlay {
            games,
            level: args.level,
            seed: args.seed,
            threads,
            max_turns: args.max_turns,
            opening: 2,
            stuck_turns: 20,
        };
        let (games, took) = self_play(rules, options, &draw, &report_progress);
        Play::new(args.level, games, took.as_secs_f64())
    });
    bar.finish_and_clear();
    let report = Report { variant: rules.info().name.clone(), seed: args.seed, forced, play };
    match args.format {
        ReportFormat::Text => print!("{}", report.text()),
        ReportFormat::Html => print!("{}", report.html()),
        ReportFormat::Json => {
            println!("{}", serde_json::to_string(&report).map_err(CommandError::failure)?);
        }
    }
    Ok(())
}

fn progress_bar() -> ProgressBar {
    terminal_bar(
        Some(1),
        ProgressStyle::with_template("{msg}: {bar:30} {pos}/{len}, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}
