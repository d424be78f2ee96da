//! `kickoff turns VARIANT [--fen F] [--format json]`: every legal turn and its result.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::cli::Format;
use crate::commands::{Exit, load_position, load_variant};
use crate::definition::LoadOptions;
use crate::movegen::notation::names;
use crate::movegen::{legal_turns_checked, play};

/// One turn and the position it leads to.
#[derive(Serialize)]
struct Line {
    turn: String,
    result: String,
}

/// The JSON document: the number of turns, each result with its number of turns, the list.
#[derive(Serialize)]
struct Report {
    turns: usize,
    results: BTreeMap<String, u64>,
    list: Vec<Line>,
}

/// Lists the turns, sorted bytewise by their text.
pub fn run(variant: &str, fen: Option<&str>, format: Format, options: LoadOptions) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let pos = match load_position(&def, fen) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    let turns = match legal_turns_checked(&pos) {
        Ok(turns) => turns,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Failure;
        }
    };
    let mut list: Vec<Line> = names(&pos, &turns)
        .into_iter()
        .zip(&turns)
        .map(|(name, t)| Line { turn: name, result: play(&pos, t).fen() })
        .collect();
    list.sort_by(|a, b| a.turn.cmp(&b.turn));
    match format {
        Format::Text => print_text(&list),
        Format::Json => print_json(list),
    }
}

/// One line per turn: `<turn> <result>`.
fn print_text(list: &[Line]) -> Exit {
    let mut out = String::new();
    for line in list {
        out.push_str(&format!("{} {}\n", line.turn, line.result));
    }
    print!("{out}");
    Exit::Success
}

/// The JSON document, results counted.
fn print_json(list: Vec<Line>) -> Exit {
    let mut results = BTreeMap::new();
    for line in &list {
        *results.entry(line.result.clone()).or_insert(0) += 1;
    }
    let report = Report { turns: list.len(), results, list };
    match serde_json::to_string_pretty(&report) {
        Ok(text) => {
            println!("{text}");
            Exit::Success
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}
