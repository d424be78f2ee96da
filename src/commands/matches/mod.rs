//! `kickoff match VARIANT --games N --white A --black B`: games between two players, colours
//! alternating, with the score, its 95% confidence interval and an Elo estimate.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod program;
mod resume;
mod summary;

use crate::commands::progress::terminal_bar;
use crate::commands::shards::{self, Header, JobFile, Shard};
use crate::commands::{CommandError, CommandResult, load_variant, unembeddable};
use kickoff::balance::report::wilson;
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::record::{self, save_atomically};
use kickoff::game::{Ending, Game, GameResult};
use kickoff::movegen::{Turn, play_unchecked};
use kickoff::position::Position;
use kickoff::search::{
    ENTRY_BYTES, Limits, Player, Searcher, TABLE_BITS, greedy_turn, random_turn,
};
use kickoff::setup::SetupNumber;
use kickoff::side::Side;
use kickoff::start::StartChoice;
use kickoff::text::{printable, printable_path};
use program::Contestant;
use serde::{Deserialize, Serialize};

/// The arguments of `kickoff match`: what to play.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    /// The number of games (colours alternate).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// The first player (White in odd-numbered games): random, greedy, engine[:LEVEL], or
    /// program:COMMAND (another program, asked for each turn as `bestmove` is).
    #[arg(long)]
    pub white: String,
    /// The second player.
    #[arg(long)]
    pub black: String,
    /// Start each pair of games from a random setup (`random`), a fair one (`fair`, `fair:N`:
    /// a random setup where neither side forces a goal within 2, or N, turns) or setup N.
    #[arg(long, value_name = "N|random|fair")]
    pub setup: Option<String>,
    /// Start each pair of games after this many random turns (the same for both colours),
    /// so that deterministic players meet in varied positions.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub opening: u32,
    /// Engines think this many milliseconds a turn (instead of their level's time).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// A game still going after this many turns is a draw.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub max_turns: u32,
    /// A program (program:COMMAND) that gives no turn within this many seconds is stopped
    /// and loses the game.
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub program_time: u64,
    /// The seed of random players and random setups.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Write each game's record into this folder (game-0001.txt, ...).
    #[arg(long, value_name = "DIR")]
    pub records: Option<std::path::PathBuf>,
    /// Carry the definition in each record, so that a record alone replays its game.
    #[arg(long, requires = "records")]
    pub embed: bool,
    /// Count the games whose records are already in the --records folder (from an
    /// interrupted run of the same match) and play only the others.
    #[arg(long, requires = "records")]
    pub resume: bool,
    /// Write over the records of another match already in the --records folder.
    #[arg(long, requires = "records", conflicts_with = "resume")]
    pub force: bool,
    /// Play only this part of the match (I of N: the pairs of games whose number is I - 1
    /// modulo N), writing each game's end to --out as it ends; `kickoff merge` makes the
    /// table from all the parts' files.
    #[arg(long, value_name = "I/N", requires = "out")]
    pub shard: Option<Shard>,
    /// Write each game's end (JSON lines, keyed by game) to this file instead of printing
    /// the table; a file that holds part of the same match already (an interrupted run) is
    /// taken up where it stopped.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

impl Args {
    /// The number of games.
    fn game_count(&self) -> usize {
        self.games as usize
    }
}

/// How one game ended, for the first player.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Score {
    Win,
    Draw,
    Loss,
}

/// One game's end.
#[derive(Clone, Serialize, Deserialize)]
struct GameEnd {
    score: Score,
    reason: String,
    turns: u32,
}

/// The engine's work, summed over a match.
#[derive(Default, Clone, Copy, Serialize, Deserialize)]
struct Work {
    turns: u64,
    nodes: u64,
    depth: u64,
    time: Duration,
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        self.turns += other.turns;
        self.nodes += other.nodes;
        self.depth += other.depth;
        self.time += other.time;
    }
}

/// Plays the match and prints its table.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let players = players(args)?;
    let def = load_variant(&args.variant, options)?;
    let starts = starts(&def, args).map_err(CommandError::failure)?;
    let records = args.records.as_deref();
    if let Some(dir) = records {
        std::fs::create_dir_all(dir).map_err(|e| {
            CommandError::usage(format!("cannot create the folder {}: {e}", printable_path(dir)))
        })?;
    }
    if let Some(dir) = records
        && !args.embed
    {
        crate::commands::replay::warn_if_outside(&args.variant, &dir.join("game-0001.txt"));
    }
    let hash = record::definition_hash(&def.sources);
    let carried = args
        .embed
        .then(|| record::embeddable(&def.sources))
        .transpose()
        .map_err(|why| unembeddable(&args.variant, why))?;
    let mut done =
        resume::recorded(&def, args, &starts, &players, &hash).map_err(CommandError::usage)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let file = match &args.out {
        Some(out) => {
            let header = Header::new("match", &args.variant, hash.clone(), options_of(args), shard);
            let (file, found) = JobFile::open(out, &header).map_err(CommandError::usage)?;
            for (i, end) in done.iter_mut().enumerate() {
                if found.contains_key(&job(i)) {
                    let line: GameLine =
                        shards::result(&found, &job(i)).map_err(CommandError::usage)?;
                    *end = Some(line.end);
                }
            }
            Some(file)
        }
        None => None,
    };
    let resumed = done.iter().flatten().count();
    let records = Records { dir: records, hash, carried };
    let bar = progress_bar(done.iter().enumerate().filter(|&(i, _)| shard.takes(i / 2)).count());
    let failed = std::sync::Mutex::new(None);
    let keep = |i: usize, end: &GameEnd, work: &[Work; 2]| {
        let Some(file) = &file else { return };
        let line = GameLine { end: end.clone(), work: *work };
        let written = serde_json::to_value(line)
            .map_err(|e| e.to_string())
            .and_then(|v| file.write(&job(i), &v));
        if let Err(e) = written {
            *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
        }
    };
    let mine = |i: usize| shard.takes(i / 2);
    let (ends, work) = play_all(&starts, &players, args, &records, done, (&mine, &keep), &bar);
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(CommandError::failure(e));
    }
    if let Some(out) = &args.out {
        eprintln!(
            "shard {shard}: {} games of {} played and written to {} ({resumed} of them by an \
             earlier run); `kickoff merge` makes the table from all the shards' files",
            ends.iter().flatten().count(),
            args.game_count(),
            printable_path(out)
        );
        return Ok(());
    }
    print_table(&def.rules.info().name, &players, &ends, args.movetime);
    print_work(&players, &work);
    if resumed > 0 {
        eprintln!(
            "{resumed} of the games were counted from the records of an earlier run (the \
             engines' work above is that of the others)"
        );
    }
    Ok(())
}

/// A game's job line in a shard file: how it ended, and the engines' work in it.
#[derive(Serialize, Deserialize)]
struct GameLine {
    end: GameEnd,
    work: [Work; 2],
}

/// The key of game `i`'s job.
fn job(i: usize) -> String {
    format!("game/{i}")
}

/// The options that make a match what it is, for its shards' files.
#[derive(Serialize, Deserialize)]
struct MatchOptions {
    games: u32,
    white: String,
    black: String,
    setup: Option<String>,
    opening: u32,
    movetime: Option<u64>,
    max_turns: u32,
    program_time: u64,
    seed: u64,
}

fn options_of(args: &Args) -> serde_json::Value {
    let options = MatchOptions {
        games: args.games,
        white: args.white.clone(),
        black: args.black.clone(),
        setup: args.setup.clone(),
        opening: args.opening,
        movetime: args.movetime,
        max_turns: args.max_turns,
        program_time: args.program_time,
        seed: args.seed,
    };
    serde_json::to_value(options).unwrap_or_default()
}

/// `kickoff merge` of a match's shard files: the table a run on one machine prints.
pub fn merge(def: &Definition, header: &Header, found: &shards::Jobs) -> CommandResult {
    let options = MatchOptions::deserialize(&header.options)
        .map_err(|e| CommandError::usage(format!("the shards' header: {e}")))?;
    let games = options.games as usize;
    let players = match (Contestant::parse(&options.white), Contestant::parse(&options.black)) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => return Err(CommandError::usage(e)),
    };
    // A shard's jobs are pairs of games: pair p is games 2p and 2p + 1.
    let pairs: Vec<String> = (0..games.div_ceil(2)).map(|p| job(2 * p)).collect();
    let played = |p: usize| (2 * p..(2 * p + 2).min(games)).all(|i| found.contains_key(&job(i)));
    if let Some(lacking) = shards::missing(&pairs, played, header.shard.count, "pairs of games") {
        return Err(CommandError::failure(lacking));
    }
    let mut ends = Vec::with_capacity(games);
    let mut work = [Work::default(); 2];
    for key in (0..games).map(job) {
        let line: GameLine = shards::result(found, &key).map_err(CommandError::failure)?;
        for (total, add) in work.iter_mut().zip(line.work) {
            *total += add;
        }
        ends.push(Some(line.end));
    }
    print_table(&def.rules.info().name, &players, &ends, options.movetime);
    print_work(&players, &work);
    Ok(())
}

/// The two contestants, computer players or programs both.
fn players(args: &Args) -> CommandResult<[Contestant; 2]> {
    let players = match (Contestant::parse(&args.white), Contestant::parse(&args.black)) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => return Err(CommandError::usage(e)),
    };
    if players.contains(&Contestant::Player(Player::Human)) {
        return Err(CommandError::usage(
            "a match is played by computer players: random, greedy, engine:LEVEL, program:COMMAND",
        ));
    }
    Ok(players)
}

/// A bar of the games played, on a terminal only.
fn progress_bar(games: usize) -> ProgressBar {
    terminal_bar(
        Some(games as u64),
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

/// Where and how each game's record is written.
struct Records<'a> {
    /// The folder, if records are written.
    dir: Option<&'a std::path::Path>,
    /// The definition's hash, which every record names.
    hash: String,
    /// The definition's text, when records carry it.
    carried: Option<String>,
}

impl Records<'_> {
    /// Writes game `i`'s record, if records are written; a failure is reported, not fatal.
    fn save(&self, game: &mut Game<'_>, i: usize, bar: &ProgressBar) {
        let Some(dir) = self.dir else { return };
        let path = dir.join(resume::file_name(i));
        game.variant_hash = Some(self.hash.clone());
        game.definition.clone_from(&self.carried);
        if let Err(e) = save_atomically(&path, &record::write_at(game, &path)) {
            bar.suspend(|| eprintln!("error: cannot write {}: {e}", printable_path(&path)));
        }
    }
}

/// What becomes of each game: whether this run plays it, and what is done with its end and
/// the engines' work in it.
type Handling<'h> =
    (&'h (dyn Fn(usize) -> bool + Sync), &'h (dyn Fn(usize, &GameEnd, &[Work; 2]) + Sync));

/// Plays every game that `mine` takes and `done` lacks on `args.threads` threads, `keep`
/// given each as it ends: how each ended (in game order) and the engines' work of each seat.
fn play_all<'r>(
    starts: &[(Position<'r>, Option<SetupNumber>)],
    players: &[Contestant; 2],
    args: &Args,
    records: &Records<'_>,
    done: Vec<Option<GameEnd>>,
    (mine, keep): Handling<'_>,
    bar: &ProgressBar,
) -> (Vec<Option<GameEnd>>, [Work; 2]) {
    let next = AtomicUsize::new(0);
    bar.inc(done.iter().flatten().count() as u64);
    let ends = Mutex::new(done);
    let work = Mutex::new([Work::default(); 2]);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.clamp(1, 64) {
            scope.spawn(|| {
                // Made at an engine's first turn, its table sized to the number of threads.
                let mut searchers: [Option<Searcher>; 2] = [None, None];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.game_count() {
                        break;
                    }
                    if !mine(i) || ends.lock().is_ok_and(|e| e[i].is_some()) {
                        continue;
                    }
                    let mut mine_work = [Work::default(); 2];
                    // Each game is played as it would be alone, whatever this thread played.
                    searchers.iter_mut().flatten().for_each(Searcher::forget);
                    let (end, mut game) =
                        play_game(&starts[i / 2], i, players, args, &mut searchers, &mut mine_work);
                    records.save(&mut game, i, bar);
                    keep(i, &end, &mine_work);
                    if let Ok(mut w) = work.lock() {
                        for (total, add) in w.iter_mut().zip(mine_work) {
                            *total += add;
                        }
                    }
                    if let Ok(mut e) = ends.lock() {
                        e[i] = Some(end);
                        let (w, d, l) = tally(&e);
                        bar.set_message(format!("+{w} ={d} -{l}"));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    (ends.into_inner().unwrap_or_default(), work.into_inner().unwrap_or_default())
}

/// The start of each pair of games (both colours play each start): the standard position or a
/// random setup (with its number), then `opening` random turns, the same for both games.
fn starts<'r>(
    def: &'r Definition,
    args: &Args,
) -> Result<Vec<(Position<'r>, Option<SetupNumber>)>, String> {
    let pairs = args.game_count().div_ceil(2);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ 0x5e70);
    let mut out = Vec::with_capacity(pairs);
    let choice = match args.setup.as_deref() {
        None => StartChoice::Standard,
        Some(text) => StartChoice::parse_setup(text, &def.rules).map_err(|e| e.to_string())?,
    };
    for _ in 0..pairs {
        let (mut pos, mut number) = choice.resolve(def, &mut rng).map_err(|e| e.to_string())?;
        // Random opening turns; a line that scores is drawn again (at most a few times).
        if args.opening > 0 {
            let base = pos;
            for _ in 0..20 {
                pos = base;
                for _ in 0..args.opening {
                    match random_turn(&pos, &mut rng) {
                        Some(t) => pos = play_unchecked(&pos, &t),
                        None => break,
                    }
                }
                if pos.outcome().is_none() {
                    break;
                }
            }
            if pos.outcome().is_some() {
                pos = base;
            }
            number = None;
        }
        out.push((pos, number));
    }
    Ok(out)
}

/// Plays game `i` (the first player is White in even games) from `start`.
fn play_game<'r>(
    (start, number): &(Position<'r>, Option<SetupNumber>),
    i: usize,
    players: &[Contestant; 2],
    args: &Args,
    searchers: &mut [Option<Searcher<'r>>; 2],
    work: &mut [Work; 2],
) -> (GameEnd, Game<'r>) {
    let seat = |side: Side| seat_of(i, side);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_add(i as u64 * 7919));
    let mut game = Game::new(&args.variant, *start, *number);
    game.tags.push(("Event".to_owned(), event(args)));
    game.tags.push(("Round".to_owned(), (i + 1).to_string()));
    for side in Side::ALL {
        game.tags.push((side.name().to_owned(), players[seat(side)].to_string()));
    }
    let score_of = |result: GameResult| score_of(result, i);
    loop {
        let turns = game.plies().len() as u32;
        if let Some(ending) = game.ending() {
            return (
                GameEnd { score: score_of(ending.result()), reason: ending.tag().into(), turns },
                game,
            );
        }
        if turns >= args.max_turns {
            game.declare(Ending::TurnCap);
            game.tags.push(("Adjudication".into(), format!("draw after {turns} turns")));
            return (
                GameEnd { score: Score::Draw, reason: reason_of(Ending::TurnCap).into(), turns },
                game,
            );
        }
        let s = seat(game.position().side());
        let claims =
            |p: &Contestant| matches!(p, Contestant::Player(p) if p.claims_draw(game.position()));
        if game.may_claim_repetition() && claims(&players[s]) {
            let _ = game.claim_repetition();
            continue;
        }
        let turn = match &players[s] {
            Contestant::Player(player) => {
                let seat =
                    Seat { player: *player, searcher: &mut searchers[s], work: &mut work[s] };
                Ok(choose_turn(&game, seat, args, &mut rng))
            }
            Contestant::Program(program) => {
                program.choose(&game, Duration::from_secs(args.program_time)).map(Some)
            }
        };
        let turn = match turn {
            Ok(turn) => turn,
            Err(why) => return program_failure(game, why, s == 0),
        };
        let played = turn.is_some_and(|t| game.play(t).is_ok());
        if !played {
            game.declare(Ending::Agreement);
            game.tags.push(("Adjudication".into(), "a position with too many turns".into()));
            return (
                GameEnd { score: Score::Draw, reason: reason_of(Ending::Agreement).into(), turns },
                game,
            );
        }
    }
}

/// The `Event` tag of a match's records: what, besides the players and the start, makes its
/// games what they are (a resumed match must have the same).
fn event(args: &Args) -> String {
    let mut event = format!("kickoff match, seed {}, turn cap {}", args.seed, args.max_turns);
    if let Some(ms) = args.movetime {
        event += &format!(", engines {ms} ms a turn");
    }
    event
}

/// How the match's table names a game's ending: a match declares a draw at its turn cap, and
/// when a position has too many turns to list (an agreement), and a program that fails to give
/// a turn resigns.
fn reason_of(ending: Ending) -> &'static str {
    match ending {
        Ending::TurnCap => "match turn cap",
        Ending::Agreement => "too many turns to list",
        Ending::Resignation { .. } => "program failure",
        other => other.tag(),
    }
}

/// The seat (0 for the first player, 1 for the second) of `side` in game `i`: the first
/// player is White in even-numbered games (counted from 0).
fn seat_of(i: usize, side: Side) -> usize {
    usize::from((side == Side::White) == (i % 2 == 1))
}

/// How a game `i` that ended with `result` scores for the first player.
fn score_of(result: GameResult, i: usize) -> Score {
    match (result, seat_of(i, Side::White)) {
        (GameResult::Draw, _) => Score::Draw,
        (GameResult::WhiteWins, 0) | (GameResult::BlackWins, 1) => Score::Win,
        _ => Score::Loss,
    }
}

/// The end of a game whose side to move is a program that failed to give a turn (`why`): it
/// loses the game (`first` when it is the first player).
fn program_failure<'r>(mut game: Game<'r>, why: String, first: bool) -> (GameEnd, Game<'r>) {
    let turns = game.plies().len() as u32;
    game.declare(Ending::Resignation { loser: game.position().side() });
    game.tags.push(("Adjudication".into(), why));
    let score = if first { Score::Loss } else { Score::Win };
    let reason = reason_of(Ending::Resignation { loser: game.position().side() });
    (GameEnd { score, reason: reason.into(), turns }, game)
}

/// The player to move, with its engine (made at its first turn) and the work it has done.
struct Seat<'s, 'r> {
    player: Player,
    searcher: &'s mut Option<Searcher<'r>>,
    work: &'s mut Work,
}

/// The turn `seat`'s player chooses in the game's position; none if there are too many
/// turns to list.
fn choose_turn<'r>(
    game: &Game<'r>,
    seat: Seat<'_, 'r>,
    args: &Args,
    rng: &mut ChaCha8Rng,
) -> Option<Turn> {
    let pos = *game.position();
    match seat.player {
        Player::Random => random_turn(&pos, rng),
        Player::Greedy | Player::Human => greedy_turn(&pos, rng),
        Player::Engine(level) => {
            let mut limits = Limits::level(level);
            if let Some(ms) = args.movetime {
                limits.movetime = Some(Duration::from_millis(ms));
            }
            let history = game.hashes();
            let past = &history[..history.len() - 1];
            let bits = table_bits(usize::from(args.threads));
            let searcher =
                seat.searcher.get_or_insert_with(|| Searcher::with_table_bits(pos.rules(), bits));
            searcher.search(&pos, past, limits).ok().and_then(|report| {
                *seat.work += Work {
                    turns: 1,
                    nodes: report.nodes,
                    depth: u64::from(report.depth),
                    time: report.time,
                };
                report.turn
            })
        }
    }
}

/// The most memory the engines' tables of a match take together, in MiB (two seats a thread).
const TABLES_MIB: usize = 384;

/// The size (in bits) of each engine's table when `threads` games are played at once: the
/// usual size up to 8 threads, smaller beyond, so that all tables fit in [`TABLES_MIB`].
fn table_bits(threads: usize) -> u32 {
    let entries = (TABLES_MIB << 20) / (2 * threads.max(1)) / ENTRY_BYTES;
    (usize::BITS - 1 - entries.leading_zeros()).min(TABLE_BITS)
}

/// Wins, draws and losses of the first player among the games played so far.
fn tally(ends: &[Option<GameEnd>]) -> (usize, usize, usize) {
    let count = |s: Score| ends.iter().flatten().filter(|e| e.score == s).count();
    (count(Score::Win), count(Score::Draw), count(Score::Loss))
}

/// The Elo difference that a score fraction `p` implies (infinite at 0 and 1).
#[must_use]
pub fn elo(p: f64) -> f64 {
    if p >= 1.0 - 1e-9 {
        f64::INFINITY
    } else if p <= 1e-9 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

fn show_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        format!("{e:+.0}")
    }
}

fn print_table(
    variant: &str,
    players: &[Contestant; 2],
    games: &[Option<GameEnd>],
    movetime: Option<u64>,
) {
    let ends: Vec<&GameEnd> = games.iter().flatten().collect();
    let n = ends.len();
    let count = |s: Score| ends.iter().filter(|e| e.score == s).count();
    let (w, d, l) = (count(Score::Win), count(Score::Draw), count(Score::Loss));
    let p = if n == 0 { 0.5 } else { (w as f64 + d as f64 / 2.0) / n as f64 };
    let (lo, hi) = wilson(p, n as f64);
    let first = players[0].to_string();
    let variant = printable(variant);
    println!("{variant}: {first} vs {}, {n} games, colours alternating", players[1]);
    if let Some(ms) = movetime {
        println!("engines think {ms} ms a turn");
    }
    // A program's command line can be long: the name column is as wide as the name.
    let width = first.chars().count().max(12);
    println!("{:<width$} {:>5} {:>5} {:>6}", "", "wins", "draws", "losses");
    println!("{first:<width$} {w:>5} {d:>5} {l:>6}");
    if n > 1 {
        for (colour, r) in ["  as White", "  as Black"].iter().zip(summary::by_colour(games)) {
            println!("{colour:<width$} {:>5} {:>5} {:>6}", r.wins, r.draws, r.losses);
        }
    }
    println!(
        "score {:.1}% (95% confidence {:.1}% to {:.1}%), Elo difference {} ({} to {})",
        100.0 * p,
        100.0 * lo,
        100.0 * hi,
        show_elo(elo(p)),
        show_elo(elo(lo)),
        show_elo(elo(hi))
    );
    let pairs = summary::pairs(games);
    if pairs.total() > 0 {
        println!(
            "starts played with both colours: {}; White won both games of {}, Black of {}",
            pairs.total(),
            pairs.white_both,
            pairs.black_both
        );
        println!(
            "of the other {}: {first} came out ahead in {}, behind in {}, even in {}",
            pairs.ahead + pairs.behind + pairs.even,
            pairs.ahead,
            pairs.behind,
            pairs.even
        );
    }
    let mut reasons: Vec<(&str, usize)> = Vec::new();
    for e in &ends {
        match reasons.iter_mut().find(|(r, _)| *r == e.reason) {
            Some((_, c)) => *c += 1,
            None => reasons.push((&e.reason, 1)),
        }
    }
    let reasons: Vec<String> = reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
    let turns: u32 = ends.iter().map(|e| e.turns).sum();
    println!(
        "endings: {}; {:.1} turns a game on average",
        reasons.join(", "),
        f64::from(turns) / n.max(1) as f64
    );
}

/// The engines' work in the games played (on standard error: the time it took is this
/// machine's, not the match's).
fn print_work(players: &[Contestant; 2], work: &[Work; 2]) {
    for (player, w) in players.iter().zip(work) {
        if w.turns > 0 {
            let secs = w.time.as_secs_f64().max(1e-9);
            eprintln!(
                "{player}: {} turns chosen, mean depth {:.1}, {:.0} ms a turn, {:.0} positions/s",
                w.turns,
                w.depth as f64 / w.turns as f64,
                1000.0 * secs / w.turns as f64,
                w.nodes as f64 / secs
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{elo, table_bits, wilson};

    #[test]
    fn the_interval_holds_the_score_and_narrows_with_games() {
        let (lo, hi) = wilson(0.75, 40.0);
        assert!(lo < 0.75 && 0.75 < hi);
        let (lo2, hi2) = wilson(0.75, 400.0);
        assert!(hi2 - lo2 < hi - lo);
        // 200 wins out of 200: the lower bound is about 98.1%.
        let (lo, hi) = wilson(1.0, 200.0);
        assert!((lo - 0.9812).abs() < 0.001, "{lo}");
        assert!((hi - 1.0).abs() < 1e-9);
    }

    #[test]
    fn engine_tables_shrink_with_threads() {
        assert_eq!(table_bits(1), super::TABLE_BITS);
        assert_eq!(table_bits(8), super::TABLE_BITS);
        assert!(table_bits(9) < super::TABLE_BITS);
        for threads in [1, 2, 16, 64] {
            let all = 2 * threads * (super::ENTRY_BYTES << table_bits(threads));
            assert!(all <= super::TABLES_MIB << 20, "{threads} threads: {all} bytes");
        }
    }

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        assert!(elo(1.0).is_infinite() && elo(1.0) > 0.0);
        assert!(elo(0.0).is_infinite() && elo(0.0) < 0.0);
    }
}
