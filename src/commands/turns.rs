//! `kickoff turns VARIANT [--fen F | --setup N] [--format json]`: every legal turn and its result.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};

use serde::Serialize;

use crate::cli::{Format, Start};
use crate::commands::{Exit, in_play, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::movegen::{Turn, legal_turns, play_unchecked};
use kickoff::notation::turn::names::names;
use kickoff::position::Position;

/// One turn and the position it leads to.
#[derive(Serialize)]
struct Line<'a> {
    turn: &'a str,
    result: String,
}

/// The JSON document: the number of turns, each result with its number of turns, the list.
#[derive(Serialize)]
struct Report<'a> {
    turns: usize,
    results: BTreeMap<String, u64>,
    list: List<'a>,
}

/// The turns sorted by name, each result written as it is printed: a position may have two
/// million turns, and their lines would take hundreds of megabytes more.
struct List<'a> {
    pos: &'a Position<'a>,
    turns: &'a [Turn],
    names: &'a [String],
    order: &'a [u32],
}

impl List<'_> {
    fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        self.order.iter().map(|&i| {
            let i = i as usize;
            Line { turn: &self.names[i], result: play_unchecked(self.pos, &self.turns[i]).fen() }
        })
    }
}

impl Serialize for List<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.lines())
    }
}

/// Lists the turns, sorted bytewise by their text.
pub fn run(variant: &str, start: &Start, format: Format, options: LoadOptions) -> Exit {
    let def = match load_variant(variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    let pos = match in_play(&def, variant, start) {
        Ok(pos) => pos,
        Err(exit) => return exit,
    };
    let turns = match legal_turns(&pos) {
        Ok(turns) => turns,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Failure;
        }
    };
    let names = names(&pos, &turns);
    let mut order: Vec<u32> = (0..turns.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let list = List { pos: &pos, turns: &turns, names: &names, order: &order };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = match format {
        Format::Text => print_text(&list, &mut out),
        Format::Json => print_json(list, &mut out),
    };
    // A closed output (`| head`) ends the listing; SIGPIPE usually ends us first.
    match written.and_then(|()| out.flush()) {
        Ok(()) => Exit::Success,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::Success,
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}

/// One line per turn: `<turn> <result>`.
fn print_text(list: &List<'_>, out: &mut impl Write) -> std::io::Result<()> {
    for line in list.lines() {
        writeln!(out, "{} {}", line.turn, line.result)?;
    }
    Ok(())
}

/// The JSON document, results counted.
fn print_json(list: List<'_>, out: &mut impl Write) -> std::io::Result<()> {
    let mut counts: HashMap<u64, (Position<'_>, u64)> = HashMap::new();
    for t in list.turns {
        let after = play_unchecked(list.pos, t);
        counts.entry(after.hash()).or_insert((after, 0)).1 += 1;
    }
    let results = counts.into_values().map(|(after, n)| (after.fen(), n)).collect();
    let report = Report { turns: list.turns.len(), results, list };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}
