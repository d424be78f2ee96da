//! `kickoff analyze VARIANT`: forced goals from every start and self-play, as text, JSON or an
//! HTML page.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::commands::progress::terminal_bar;
use crate::commands::shards::{self, Header, JobFile, Shard};
use crate::commands::{CommandError, CommandResult, load_variant};
use kickoff::analysis::fair::{Unfair, draw_excluding};
use kickoff::analysis::survey::{StartVerdict, Survey, forced_goals};
use kickoff::balance::compare::{Comparison, Side, Sprt, play_pairs};
use kickoff::balance::report::{BoardLinks, Forced, Play, Report};
use kickoff::balance::selfplay::{self as self_play_mod, GameSummary, SelfPlay, self_play};
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::record;
use kickoff::rules::Rules;
use kickoff::setup::SetupNumber;
use kickoff::text::printable_path;

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
    /// Do only this part of the work (I of N: the starts and games whose number is I - 1
    /// modulo N), writing each result to --out as it ends; `kickoff merge` makes the report
    /// from all the parts' files.
    #[arg(long, value_name = "I/N", requires = "out", conflicts_with = "compare")]
    pub shard: Option<Shard>,
    /// Write the results (JSON lines, keyed by job) to this file instead of printing a
    /// report; a file that holds part of the same work already (an interrupted run) is taken
    /// up where it stopped.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    pub out: Option<PathBuf>,
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

/// What, besides the definition, makes an analysis what it is: the same inputs give the same
/// report, however the work is split (engines of levels 1 and 2 search to a fixed depth; a
/// time limit, `--time` or the engine's own at levels 3 and 4, makes results depend on the
/// machine).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    turns: u32,
    games: u32,
    level: u8,
    max_turns: u32,
    seed: u64,
    /// Seconds a start (`--time`).
    time: Option<f64>,
}

impl Params {
    fn of(args: &Args) -> Params {
        Params {
            turns: args.turns,
            games: args.games,
            level: args.level,
            max_turns: args.max_turns,
            seed: args.seed,
            time: args.time.map(|t| t.as_secs_f64()),
        }
    }

    fn games(&self) -> usize {
        usize::try_from(self.games).unwrap_or(usize::MAX)
    }
}

/// A self-play game's job line: its summary, and its record if it is among the first games.
#[derive(Serialize, Deserialize)]
struct GameLine {
    game: GameSummary,
    record: Option<String>,
}

/// The jobs of an analysis, in order: the starts the survey solves, then the games.
fn jobs(survey: &Survey<'_>, params: &Params) -> Vec<Job> {
    let starts = survey.jobs().into_iter().map(Job::Start);
    starts.chain((0..params.games()).map(Job::Game)).collect()
}

/// A job: a start to solve (its index among the starts), a game to play (its number).
#[derive(Clone, Copy)]
enum Job {
    Start(usize),
    Game(usize),
}

impl Job {
    fn key(self) -> String {
        match self {
            Job::Start(i) => format!("start/{i}"),
            Job::Game(i) => format!("game/{i}"),
        }
    }
}

/// Builds the report and prints it, or, with `--out`, does its part of the work into a file.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    if let Some(other) = &args.compare {
        return compare(args, other, options);
    }
    let def = load_variant(&args.variant, options)?;
    let params = Params::of(args);
    let threads = threads(args);
    if let Some(out) = &args.out {
        return run_shard(&def, args, &params, args.shard.unwrap_or(Shard::WHOLE), out, threads);
    }
    let bar = progress_bar();
    let started = Instant::now();
    bar.set_message("forced goals");
    let verdicts = forced_goals(&def.rules, args.turns, threads, args.time, &progress_of(&bar));
    let solved = started.elapsed();
    let unfair = Unfair::new(&def.rules, args.turns, args.time, covers(&verdicts), &verdicts);
    bar.set_message("self-play");
    bar.set_position(0);
    let games = self_play(
        &def.rules,
        self_play_options(record_name(&def, &args.variant), &params, threads),
        &draw_of(&def.rules, &unfair),
        &progress_of(&bar),
    );
    bar.finish_and_clear();
    eprintln!(
        "forced goals: {:.1} s; self-play: {:.1} s",
        solved.as_secs_f64(),
        (started.elapsed() - solved).as_secs_f64()
    );
    print_report(&report(&def, args.board.clone(), &params, verdicts, games), args.format)
}

/// Whether a survey's `verdicts` are those of the variant's setups (else of its one start).
fn covers(verdicts: &[StartVerdict]) -> bool {
    verdicts.first().is_some_and(|v| v.setup.is_some())
}

/// Prints `report` as `format` asks.
pub fn print_report(report: &Report, format: ReportFormat) -> CommandResult {
    match format {
        ReportFormat::Text => print!("{}", report.text()),
        ReportFormat::Html => print!("{}", report.html()),
        ReportFormat::Json => {
            println!("{}", serde_json::to_string(report).map_err(CommandError::failure)?);
        }
    }
    Ok(())
}

/// The report of `def`'s analysis from its starts' verdicts and its games.
fn report(
    def: &Definition,
    board: String,
    params: &Params,
    verdicts: Vec<StartVerdict>,
    games: Vec<GameSummary>,
) -> Report {
    let links = BoardLinks {
        board,
        definition: def.shipped_name().is_none().then(|| def.text().to_owned()),
    };
    Report {
        variant: def.rules.info().name.clone(),
        seed: params.seed,
        forced: Forced::new(params.turns, verdicts),
        play: (params.games > 0).then(|| Play::new(params.level, games)),
        links: Some(links),
    }
}

/// The setup of a self-play game: drawn among those with no forced goal (none for a single
/// start).
fn draw_of<'a>(
    rules: &'a Rules,
    unfair: &'a Unfair<'_>,
) -> impl Fn(&mut ChaCha8Rng) -> Option<SetupNumber> + Sync + 'a {
    move |rng: &mut ChaCha8Rng| {
        draw_excluding(rules, |n| unfair.contains(n), SELF_PLAY_DRAWS, rng).ok()
    }
}

/// A progress callback that moves `bar`.
fn progress_of(bar: &ProgressBar) -> impl Fn(usize, usize) + Sync + '_ {
    move |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    }
}

/// The header of an analysis's shard files.
fn header(def: &Definition, variant: &str, params: &Params, shard: Shard) -> CommandResult<Header> {
    let options = serde_json::to_value(params).map_err(CommandError::failure)?;
    Ok(Header::new("analyze", variant, record::definition_hash(&def.sources), options, shard))
}

/// `--out`: the shard's jobs not in `out` yet, each written to it as it ends.
fn run_shard(
    def: &Definition,
    args: &Args,
    params: &Params,
    shard: Shard,
    out: &Path,
    threads: usize,
) -> CommandResult {
    let header = header(def, &args.variant, params, shard)?;
    let (file, found) = JobFile::open(out, &header).map_err(CommandError::usage)?;
    let survey = Survey::new(&def.rules);
    let all = jobs(&survey, params);
    let mine: Vec<Job> =
        all.iter().enumerate().filter(|&(i, _)| shard.takes(i)).map(|(_, &j)| j).collect();
    let earlier = mine.iter().filter(|j| found.contains_key(&j.key())).count();
    let todo = |pick: fn(Job) -> Option<usize>| -> Vec<usize> {
        mine.iter().filter(|j| !found.contains_key(&j.key())).filter_map(|&j| pick(j)).collect()
    };
    let starts = todo(|j| if let Job::Start(i) = j { Some(i) } else { None });
    let games = todo(|j| if let Job::Game(i) = j { Some(i) } else { None });
    let bar = progress_bar();
    bar.set_length(mine.len() as u64);
    bar.set_position(earlier as u64);
    bar.set_message(format!("shard {shard}"));
    let failed = Mutex::new(None);
    let keep = |job: Job, result: serde_json::Result<Value>| {
        let written = result.map_err(|e| e.to_string()).and_then(|v| file.write(&job.key(), &v));
        if let Err(e) = written {
            *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
        }
        bar.inc(1);
    };
    let verdicts = Mutex::new(Vec::new());
    survey.solve(&starts, args.turns, threads, args.time, &|i, v: StartVerdict| {
        keep(Job::Start(i), serde_json::to_value(&v));
        verdicts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(v);
    });
    // The games' setups leave out those with a forced goal: those this shard solved (now or
    // earlier) are known, the others are solved when drawn.
    let mut verdicts = verdicts.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let solved_before = mine.iter().filter(|j| matches!(j, Job::Start(_)));
    verdicts.extend(solved_before.filter_map(|j| shards::result(&found, &j.key()).ok()));
    let unfair = Unfair::new(&def.rules, args.turns, args.time, survey.covers_setups(), &verdicts);
    let draw = draw_of(&def.rules, &unfair);
    self_play_mod::play_games(
        &def.rules,
        self_play_options(record_name(def, &args.variant), params, threads),
        &games,
        &draw,
        &|i, mut game| {
            let record = game.record.take();
            keep(Job::Game(i), serde_json::to_value(GameLine { game, record }));
        },
    );
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(CommandError::failure(e));
    }
    eprintln!(
        "shard {shard}: {} jobs of {} done and written to {} ({earlier} of them by an earlier run); \
         `kickoff merge` makes the report from all the shards' files",
        mine.len(),
        all.len(),
        printable_path(out)
    );
    Ok(())
}

/// `kickoff merge` of an analysis's shard files: the report a run on one machine prints.
pub fn merge(
    def: &Definition,
    header: &Header,
    found: &shards::Jobs,
    board: String,
    format: ReportFormat,
) -> CommandResult {
    let params = Params::deserialize(&header.options)
        .map_err(|e| CommandError::usage(format!("the shards' header: {e}")))?;
    let survey = Survey::new(&def.rules);
    let all: Vec<String> = jobs(&survey, &params).into_iter().map(Job::key).collect();
    if let Some(lacking) =
        shards::missing(&all, |i| found.contains_key(&all[i]), header.shard.count, "jobs")
    {
        return Err(CommandError::failure(lacking));
    }
    let mut solved = HashMap::new();
    for i in survey.jobs() {
        let v: StartVerdict =
            shards::result(found, &Job::Start(i).key()).map_err(CommandError::failure)?;
        solved.insert(i, v);
    }
    let verdicts = survey.verdicts(&solved).unwrap_or_default();
    let mut games = Vec::with_capacity(params.games());
    for i in 0..params.games() {
        let line: GameLine =
            shards::result(found, &Job::Game(i).key()).map_err(CommandError::failure)?;
        games.push(GameSummary { record: line.record, ..line.game });
    }
    print_report(&report(def, board, &params, verdicts, games), format)
}

/// How self-play plays the games of `params` on `threads` threads, the records of the first
/// [`SAMPLED`] kept (naming the variant `variant`).
fn self_play_options<'v>(variant: &'v str, params: &Params, threads: usize) -> SelfPlay<'v> {
    SelfPlay {
        variant,
        recorded: SAMPLED,
        first: 0,
        games: params.games(),
        level: params.level,
        seed: params.seed,
        threads,
        max_turns: params.max_turns,
        opening: 2,
        stuck_turns: 20,
        wall_turns: params.turns,
        swap_colours: false,
    }
}

/// The name the games' records give the variant: its shipped name, or the file's path.
fn record_name<'a>(def: &'a Definition, variant: &'a str) -> &'a str {
    def.shipped_name().unwrap_or(variant)
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
    let forced_of = |name: &str, rules| {
        bar.set_message(format!("forced goals of {name}"));
        Forced::new(
            args.turns,
            forced_goals(rules, args.turns, threads, args.time, &progress_of(&bar)),
        )
    };
    let (forced_a, forced_b) = (forced_of("A", a), forced_of("B", b));
    // The same setups for both: drawn by A's setup rules, among those where neither side of
    // either definition was found to force a goal.
    let verdicts = forced_a.verdicts.iter().chain(&forced_b.verdicts);
    let unfair = Unfair::new(a, args.turns, args.time, covers(&forced_a.verdicts), verdicts);
    let draw = draw_of(a, &unfair);
    let sprt = Sprt { delta: args.delta, ..Sprt::default() };
    bar.set_message("pairs of games");
    bar.set_position(0);
    let params = Params::of(args);
    let options =
        SelfPlay { recorded: 0, swap_colours: true, ..self_play_options("", &params, threads) };
    let (games_a, games_b, outcome) =
        play_pairs(a, b, options, 2 * threads, sprt, &draw, &progress_of(&bar));
    bar.finish_and_clear();
    let side = |rules: &Rules, forced, list: &[_]| Side {
        variant: rules.info().name.clone(),
        forced,
        play: (params.games > 0).then(|| Play::new(args.level, list.to_vec())),
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
