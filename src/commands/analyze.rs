//! `kickoff analyze VARIANT`: forced goals from every start and self-play, as text, JSON or an
//! HTML page.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::ChaCha8Rng;

use crate::cli::ReportFormat;
use crate::commands::progress::terminal_bar;
use crate::commands::{Exit, load_variant};
use kickoff::analysis::fair::draw_excluding;
use kickoff::analysis::survey::forced_goals;
use kickoff::balance::report::{Forced, Play, Report};
use kickoff::balance::selfplay::{SelfPlay, self_play};
use kickoff::definition::LoadOptions;

/// How many setups self-play draws for a start with no forced goal before it takes the
/// variant's own start: more than a fair draw that solves each one tries, as a draw here only
/// looks the setup up.
const SELF_PLAY_DRAWS: usize = 1000;

/// What `kickoff analyze` was asked for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The variant.
    pub variant: String,
    /// `--turns`.
    pub turns: u32,
    /// `--games`.
    pub games: usize,
    /// `--level`.
    pub level: u8,
    /// `--max-turns`.
    pub max_turns: u32,
    /// `--seed`.
    pub seed: u64,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--time` per start and side.
    pub time: Option<Duration>,
    /// `--format`.
    pub format: ReportFormat,
}

/// Builds the report and prints it.
pub fn run(request: &Request, options: LoadOptions) -> Exit {
    let def = match load_variant(&request.variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let rules = &def.rules;
    let threads = request
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let bar = progress_bar();
    let report_progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    bar.set_message("forced goals");
    let (verdicts, took) =
        forced_goals(rules, request.turns, threads, request.time, &report_progress);
    let forced = Forced::new(request.turns, verdicts, took.as_secs_f64());
    let play = (request.games > 0).then(|| {
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
            games: request.games,
            level: request.level,
            seed: request.seed,
            threads,
            max_turns: request.max_turns,
            opening: 2,
            stuck_turns: 20,
        };
        let (games, took) = self_play(rules, options, &draw, &report_progress);
        Play::new(request.level, games, took.as_secs_f64())
    });
    bar.finish_and_clear();
    let report = Report { variant: rules.info().name.clone(), seed: request.seed, forced, play };
    match request.format {
        ReportFormat::Text => print!("{}", report.text()),
        ReportFormat::Html => print!("{}", report.html()),
        ReportFormat::Json => match serde_json::to_string(&report) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Failure;
            }
        },
    }
    Exit::Success
}

fn progress_bar() -> ProgressBar {
    terminal_bar(
        Some(1),
        ProgressStyle::with_template("{msg}: {bar:30} {pos}/{len}, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}
