//! `kickoff turns VARIANT [--fen F | --setup N] [--format json]`: every legal turn and its result.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};

use serde::Serialize;

use crate::cli::{Format, Start};
use crate::commands::texts::Texts;
use crate::commands::{CommandError, CommandResult, in_play, load_variant};
use kickoff::definition::LoadOptions;
use kickoff::movegen::{count_turns, each_legal_turn, play_unchecked};
use kickoff::position::Position;
use kickoff::turn_text::names::Namer;

/// One turn and the position it leads to.
#[derive(Serialize)]
struct Line<'a> {
    turn: &'a str,
    result: &'a str,
}

/// The JSON document: the number of turns, each result with its number of turns, the list.
#[derive(Serialize)]
struct Report<'a> {
    turns: usize,
    results: BTreeMap<&'a str, u64>,
    list: &'a List,
}

/// A position's turns by name, each with its result, held compactly: a position may have two
/// million turns, and as separate turns, names and lines they took over a gigabyte. Each
/// result's position text is written once, however many turns lead to it.
struct List {
    /// The turns' names, in listing order.
    names: Texts,
    /// The number of each turn's result.
    result_of: Vec<usize>,
    /// The results' position texts (FEN), by number.
    results: Texts,
    /// The number of turns leading to each result.
    turns_to: Vec<u64>,
    /// The turns' numbers sorted by name.
    order: Vec<usize>,
}

impl List {
    /// The turns of `pos`, named and sorted; results told apart by their hash, as `perft` does.
    fn of(pos: &Position<'_>) -> List {
        let mut namer = Namer::new(pos);
        let mut numbers: HashMap<u64, usize> = HashMap::new();
        let mut list = List {
            names: Texts::default(),
            result_of: Vec::new(),
            results: Texts::default(),
            turns_to: Vec::new(),
            order: Vec::new(),
        };
        each_legal_turn(pos, |turn| {
            list.names.push(&namer.name(turn));
            let after = play_unchecked(pos, turn);
            let number = *numbers.entry(after.hash()).or_insert_with(|| {
                list.results.push(&after.fen());
                list.turns_to.push(0);
                list.turns_to.len() - 1
            });
            list.turns_to[number] += 1;
            list.result_of.push(number);
        });
        list.order = list.names.sorted();
        list
    }

    /// The turns sorted by name, each with its result.
    fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        self.order
            .iter()
            .map(|&i| Line { turn: self.names.get(i), result: self.results.get(self.result_of[i]) })
    }
}

impl Serialize for List {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.lines())
    }
}

/// The arguments of `kickoff turns`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    #[command(flatten)]
    pub start: Start,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Lists the turns, sorted bytewise by their text.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let pos = in_play(&def, &args.variant, &args.start)?;
    count_turns(&pos).map_err(CommandError::failure)?;
    let list = List::of(&pos);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = match args.format {
        Format::Text => print_text(&list, &mut out),
        Format::Json => print_json(&list, &mut out),
    };
    // A closed output (`| head`) ends the listing; SIGPIPE usually ends us first.
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CommandError::failure(e)),
        _ => Ok(()),
    }
}

/// One line per turn: `<turn> <result>`.
fn print_text(list: &List, out: &mut impl Write) -> std::io::Result<()> {
    for line in list.lines() {
        writeln!(out, "{} {}", line.turn, line.result)?;
    }
    Ok(())
}

/// The JSON document, results counted.
fn print_json(list: &List, out: &mut impl Write) -> std::io::Result<()> {
    let results = (0..list.results.len()).map(|i| (list.results.get(i), list.turns_to[i]));
    let report = Report { turns: list.names.len(), results: results.collect(), list };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}
