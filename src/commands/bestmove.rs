//! `kickoff bestmove VARIANT [--fen F | --setup N] [--depth D | --movetime MS [--exact N] | --level L] [--format json]`:
//! the engine's turn in a position.

use std::time::Duration;

use serde::Serialize;

use crate::cli::{Format, Start};
use crate::commands::{CommandError, CommandResult, in_play, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::game::Game;
use kickoff::movegen::play_unchecked;
use kickoff::search::{DEFAULT_LEVEL, Limits, Searcher, goal_in};
use kickoff::text::excerpt;
use kickoff::turn_text::names::name;

/// What the search found: the JSON document, and the text's lines.
#[derive(Serialize)]
struct Json {
    turn: String,
    result: String,
    score: i32,
    depth: u32,
    nodes: u64,
    time_ms: u128,
    line: Vec<String>,
}

/// The arguments of `kickoff bestmove`: what to search.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    #[command(flatten)]
    pub start: Start,
    /// Search this many turns deep.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Think this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Use a level's limits (when neither --depth nor --movetime is given).
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(u8).range(1..=kickoff::search::MAX_LEVEL as i64), conflicts_with_all = ["depth", "movetime"])]
    pub level: Option<u8>,
    /// With --movetime: ask the exact solver for a forced goal within N turns of the side
    /// to move (first, an eighth of the time) and of the opponent after the chosen turn
    /// (last, three eighths) (levels 3 and 4 do so within 2 and 3 turns).
    #[arg(long, value_name = "N", requires = "movetime", value_parser = clap::value_parser!(u32).range(0..=6))]
    pub exact: Option<u32>,
    /// Turns played before the position searched, from the start or --fen, separated by
    /// spaces (e.g. "Nc3 Nc7 Qd4"): the position after them is searched, and their
    /// positions are the game's past (a result that repeats one may draw).
    #[arg(long, value_name = "TURNS", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Searches and prints the chosen turn.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let pos = in_play(&def, &args.variant, &args.start)?;
    let (pos, past) =
        after_moves(pos, args.moves.as_deref().unwrap_or("")).map_err(CommandError::usage)?;
    let mut searcher = Searcher::new(&def.rules);
    let report = searcher.search(&pos, &past, limits(args)).map_err(CommandError::failure)?;
    let (Some(turn), Some(result)) = (report.turn.clone(), report.result) else {
        return Err(CommandError::failure("there is no turn to choose in this position"));
    };
    let mut line = Vec::new();
    let mut at = pos;
    for t in &report.line {
        line.push(name(&at, t));
        at = play_unchecked(&at, t);
    }
    let json = Json {
        turn: name(&pos, &turn),
        result: result.fen(),
        score: report.score,
        depth: report.depth,
        nodes: report.nodes,
        time_ms: report.time.as_millis(),
        line,
    };
    match args.format {
        Format::Json => {
            println!("{}", serde_json::to_string_pretty(&json).map_err(CommandError::failure)?);
        }
        Format::Text => print_text(&json, report.time),
    }
    Ok(())
}

/// The search's limits: the depth or time asked for, else the level's.
fn limits(args: &Args) -> Limits {
    if args.depth.is_none() && args.movetime.is_none() {
        Limits::level(args.level.unwrap_or(DEFAULT_LEVEL))
    } else {
        Limits {
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            min_depth: 1,
            cap: None,
            exact: args.exact.unwrap_or(0),
        }
    }
}

/// Prints what the search found as text; `time` is the search's exact time, for its speed.
fn print_text(found: &Json, time: Duration) {
    let score = match goal_in(found.score) {
        Some(n) if n > 0 => format!("{} (scores in {n} turn{})", found.score, plural(n)),
        Some(n) => format!("{} (concedes in {} turn{})", found.score, -n, plural(-n)),
        None => found.score.to_string(),
    };
    let secs = time.as_secs_f64().max(1e-6);
    println!("turn:   {}", found.turn);
    println!("result: {}", found.result);
    println!("score:  {score}");
    println!(
        "depth {}, {} positions in {} ms ({:.0} positions/s)",
        found.depth,
        found.nodes,
        found.time_ms,
        found.nodes as f64 / secs
    );
    println!("line:   {}", found.line.join(" "));
}

fn plural(n: i32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The position after `moves` (turns separated by spaces) from `pos`, with the hashes of the
/// positions before it, the game's past: the turns are played as a [`Game`] plays them.
fn after_moves<'r>(
    pos: kickoff::position::Position<'r>,
    moves: &str,
) -> Result<(kickoff::position::Position<'r>, Vec<u64>), String> {
    let mut game = Game::new("", pos, None);
    for (i, token) in moves.split_whitespace().enumerate() {
        game.play_text(token)
            .map_err(|e| format!("--moves: turn {} `{}`: {e}", i + 1, excerpt(token)))?;
    }
    // Every position but the current one (a game's hashes begin with its start).
    let past = game.hashes()[..game.plies().len()].to_vec();
    Ok((*game.position(), past))
}
