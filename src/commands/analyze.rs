//! `kickoff analyze VARIANT`: forced goals from every start and self-play, as text, JSON or an
//! HTML page.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand_chacha::ChaCha8Rng;

use crate::cli::ReportFormat;
use crate::commands::{Exit, load_variant};
use kickoff::analysis::report::{Forced, Play, Report};
use kickoff::analysis::selfplay::{SelfPlay, self_play};
use kickoff::analysis::solve::SolveLimits;
use kickoff::analysis::survey::forced_goals;
use kickoff::definition::LoadOptions;
use kickoff::setup::{self, SetupNumber};

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
    /// `--time` per start and side, in seconds.
    pub time: Option<f64>,
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
    let time = request.time.filter(|t| t.is_finite() && *t > 0.0).map(Duration::from_secs_f64);
    // Each start gets its own deadline: a shared one would make later starts unknown.
    let limits = SolveLimits::default();
    let report_progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    bar.set_message("forced goals");
    let (verdicts, took) = if let Some(t) = time {
        forced_with_time(rules, request.turns, threads, t, &report_progress)
    } else {
        forced_goals(rules, request.turns, threads, limits, &report_progress)
    };
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
        let draw = |rng: &mut ChaCha8Rng| fair_setup(rules, &unfair, rng);
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

/// The survey with a time bound per start and side: each solve gets `time` from its start.
fn forced_with_time(
    rules: &kickoff::rules::Rules,
    turns: u32,
    threads: usize,
    time: Duration,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<kickoff::analysis::survey::StartVerdict>, Duration) {
    let start = Instant::now();
    let all = kickoff::analysis::survey::starts(rules);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(vec![None; all.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((number, pos)) = all.get(i) else { break };
                    let limits =
                        SolveLimits { max_nodes: None, deadline: Instant::now().checked_add(time) };
                    let v = kickoff::analysis::survey::verdict(*number, pos, turns, limits);
                    let mut out = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    out[i] = Some(v);
                    progress(out.iter().flatten().count(), all.len());
                }
            });
        }
    });
    let out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    (out.into_iter().flatten().collect(), start.elapsed())
}

/// A setup drawn uniformly among those with no forced goal found (none for a single start).
fn fair_setup(
    rules: &kickoff::rules::Rules,
    unfair: &[u128],
    rng: &mut ChaCha8Rng,
) -> Option<SetupNumber> {
    let random = rules.random_setup()?;
    let count = setup::count(rules, random);
    let independent = setup::independent_by_default(random);
    // Drawing again until the setup is fair keeps the draw uniform among fair setups.
    (0..1000)
        .map(|_| SetupNumber::draw(count, independent, rng))
        .find(|n| !unfair.contains(&n.white))
}

fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg}: {bar:30} {pos}/{len}, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}
