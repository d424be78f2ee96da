//! `kickoff analyze VARIANT`: forced goals from every start and self-play, as text, JSON or an
//! HTML page.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::ChaCha8Rng;

use crate::commands::progress::terminal_bar;
use crate::commands::{CommandError, CommandResult, load_variant};
use kickoff::analysis::fair::draw_excluding;
use kickoff::analysis::survey::forced_goals;
use kickoff::balance::compare::{Comparison, Side, Sprt, play_pairs};
use kickoff::balance::report::{BoardLinks, Forced, Play, Report};
use kickoff::balance::selfplay::{SelfPlay, self_play};
use kickoff::definition::LoadOptions;

/// How many setups self-play draws for a start with no forced goal before it takes the
/// variant's own start: more than a fair draw that solves each one tries, as a draw here only
/// looks the setup up.
const SELF_PLAY_DRAWS: usize = 1000;

/// The first games of self-play whose records are kept, for the report's sample games.
const SAMPLED: usize = 100;

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
    /// Compare with this definition: both play the same games (the same setups and seeds,
    /// paired), side by side, until a sequential test on the pairs concludes (at most --games
    /// pairs).
    #[arg(long, value_name = "VARIANT")]
    pub compare: Option<String>,
    /// With --compare: the difference in the share of differing pairs that counts (0.15: a
    /// share of 0.65 of the pairs whose games differ for White is a difference).
    #[arg(long, value_name = "D", default_value_t = 0.15, requires = "compare", value_parser = share_difference)]
    pub delta: f64,
    /// With --format html: the web board whose records page opens the sample games.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:7157/")]
    pub board: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// A difference of shares in (0, 0.5).
fn share_difference(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if d > 0.0 && d < 0.5 => Ok(d),
        _ => Err(format!("`{text}` is not a number between 0 and 0.5 (both excluded)")),
    }
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
    if let Some(other) = &args.compare {
        return compare(args, other, options);
    }
    let def = load_variant(&args.variant, options)?;
    let rules = &def.rules;
    let threads = threads(args);
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    // The name the games' records give the variant: its shipped name, or the file's path.
    let record_name = def.shipped_name().map_or_else(|| args.variant.clone(), str::to_owned);
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
        let options = self_play_options(args, &record_name, SAMPLED, games, threads);
        let (games, took) = self_play(rules, options, &draw, &report_progress);
        Play::new(args.level, games, took.as_secs_f64())
    });
    bar.finish_and_clear();
    let links = BoardLinks {
        board: args.board.clone(),
        definition: def.shipped_name().is_none().then(|| def.text().to_owned()),
    };
    let report = Report {
        variant: rules.info().name.clone(),
        seed: args.seed,
        forced,
        play,
        links: Some(links),
    };
    match args.format {
        ReportFormat::Text => print!("{}", report.text()),
        ReportFormat::Html => print!("{}", report.html()),
        ReportFormat::Json => {
            println!("{}", serde_json::to_string(&report).map_err(CommandError::failure)?);
        }
    }
    Ok(())
}

/// How self-play plays `games` games as `args` asks, the records of the first `recorded` kept
/// (naming the variant `variant`).
fn self_play_options<'v>(
    args: &Args,
    variant: &'v str,
    recorded: usize,
    games: usize,
    threads: usize,
) -> SelfPlay<'v> {
    SelfPlay {
        variant,
        recorded,
        first: 0,
        games,
        level: args.level,
        seed: args.seed,
        threads,
        max_turns: args.max_turns,
        opening: 2,
        stuck_turns: 20,
    }
}

/// The worker threads asked for, or every core.
fn threads(args: &Args) -> usize {
    args.threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from)
        .max(1)
}

/// `--compare`: both definitions' forced goals, then pairs of games until the test concludes.
fn compare(args: &Args, other: &str, options: LoadOptions) -> CommandResult {
    let def_a = load_variant(&args.variant, options)?;
    let def_b = load_variant(other, options)?;
    let (a, b) = (&def_a.rules, &def_b.rules);
    let threads = threads(args);
    let bar = progress_bar();
    let report_progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    let forced_of = |name: &str, rules| {
        bar.set_message(format!("forced goals of {name}"));
        let (verdicts, took) =
            forced_goals(rules, args.turns, threads, args.time, &report_progress);
        Forced::new(args.turns, verdicts, took.as_secs_f64())
    };
    let (forced_a, forced_b) = (forced_of("A", a), forced_of("B", b));
    // The same setups for both: drawn by A's setup rules, among those where neither side of
    // either definition was found to force a goal.
    let unfair: Vec<u128> = [&forced_a, &forced_b]
        .iter()
        .flat_map(|f| f.verdicts.iter())
        .filter(|v| v.white.is_some() || v.black.is_some())
        .filter_map(|v| v.setup.as_deref().and_then(|s| s.parse().ok()))
        .collect();
    let draw = |rng: &mut ChaCha8Rng| draw_excluding(a, &unfair, SELF_PLAY_DRAWS, rng).ok();
    let sprt = Sprt { delta: args.delta, ..Sprt::default() };
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    bar.set_message("pairs of games");
    bar.set_position(0);
    let options = self_play_options(args, "", 0, games, threads);
    let (games_a, games_b, outcome, took) =
        play_pairs(a, b, options, 2 * threads, sprt, &draw, &report_progress);
    bar.finish_and_clear();
    let side = |rules: &kickoff::rules::Rules, forced, list: &[_]| Side {
        variant: rules.info().name.clone(),
        forced,
        play: (games > 0).then(|| Play::new(args.level, list.to_vec(), took)),
    };
    let comparison = Comparison::new(
        args.seed,
        (side(a, forced_a, &games_a), side(b, forced_b, &games_b)),
        (&games_a, &games_b),
        sprt,
        outcome,
    );
    match args.format {
        ReportFormat::Text => print!("{}", comparison.text()),
        ReportFormat::Json => {
            println!("{}", serde_json::to_string(&comparison).map_err(CommandError::failure)?);
        }
        ReportFormat::Html => print!("{}", comparison.html()),
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
