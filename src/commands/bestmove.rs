//! `kickoff bestmove VARIANT [--fen F | --setup N] [--depth D | --movetime MS [--exact N] | --level L] [--format json]`:
//! the engine's turn in a position.

use std::time::Duration;

use serde::Serialize;

use crate::cli::{Format, Start};
use crate::commands::{Exit, in_play, load_variant};
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

/// What to search.
pub struct Request<'a> {
    /// The variant argument.
    pub variant: &'a str,
    /// `--fen F` or `--setup N` (default: the start).
    pub start: &'a Start,
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The thinking time in milliseconds.
    pub movetime: Option<u64>,
    /// The level whose limits apply when neither depth nor time is given.
    pub level: Option<u8>,
    /// `--exact N`: the solver's turns each way, with a movetime.
    pub exact: Option<u32>,
    /// `--moves`: turns played before the position searched.
    pub moves: Option<&'a str>,
    /// Text or JSON.
    pub format: Format,
}

/// Searches and prints the chosen turn.
pub fn run(request: &Request<'_>, options: LoadOptions) -> Exit {
    let def = match load_variant(request.variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let pos = match in_play(&def, request.variant, request.start) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    let (pos, past) = match after_moves(pos, request.moves.unwrap_or("")) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Usage;
        }
    };
    let mut searcher = Searcher::new(&def.rules);
    let report = match searcher.search(&pos, &past, limits(request)) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Failure;
        }
    };
    let (Some(turn), Some(result)) = (report.turn.clone(), report.result) else {
        eprintln!("error: there is no turn to choose in this position");
        return Exit::Failure;
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
    match request.format {
        Format::Json => match serde_json::to_string_pretty(&json) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Failure;
            }
        },
        Format::Text => print_text(&json, report.time),
    }
    Exit::Success
}

/// The search's limits: the depth or time asked for, else the level's.
fn limits(request: &Request<'_>) -> Limits {
    if request.depth.is_none() && request.movetime.is_none() {
        Limits::level(request.level.unwrap_or(DEFAULT_LEVEL))
    } else {
        Limits {
            depth: request.depth,
            movetime: request.movetime.map(Duration::from_millis),
            min_depth: 1,
            cap: None,
            exact: request.exact.unwrap_or(0),
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
