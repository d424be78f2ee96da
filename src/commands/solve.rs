//! `kickoff solve VARIANT [--fen F | --setup N] --turns N`: proves or refutes a forced goal,
//! prints the proof, or checks one (`--check PROOF.json`).

use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::cli::{Format, Start};
use crate::commands::progress::terminal_bar;
use crate::commands::{CommandError, CommandResult, Status, in_play, load_variant};
use kickoff::analysis::goal::point;
use kickoff::analysis::proof::first_turn;
use kickoff::analysis::{Attack, SolveLimits, Solver, Verdict, check};
use kickoff::definition::LoadOptions;
use kickoff::movegen::{Turn, play_unchecked};
use kickoff::position::Position;
use kickoff::side::Side;
use kickoff::text::{MAX_FEN_SHOWN, excerpt, excerpt_within, printable, printable_path};
use kickoff::turn_text::names::{name, resolve};

/// The arguments of `kickoff solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: String,
    #[command(flatten)]
    pub start: Start,
    /// The most turns of the side to move (its scoring turn included).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    pub turns: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Check the proof in PROOF.json (written by `--format json`) instead of solving.
    #[arg(long, value_name = "PROOF.json")]
    pub check: Option<std::path::PathBuf>,
    /// Give up ("unknown") after expanding this many positions.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Give up ("unknown") after this many seconds.
    #[arg(long, value_name = "S", value_parser = crate::cli::seconds)]
    pub time: Option<Duration>,
}

/// The JSON document of a verdict (and what `--check` reads).
#[derive(Serialize, Deserialize)]
struct Document {
    verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proof: Option<Attack>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(default)]
    fen: String,
    #[serde(default = "default_true")]
    minimal: bool,
    #[serde(default)]
    nodes: u64,
}

fn default_true() -> bool {
    true
}

/// Solves, or checks a proof; prints the verdict.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let def = load_variant(&args.variant, options)?;
    let pos = in_play(&def, &args.variant, &args.start)?;
    match &args.check {
        Some(path) => run_check(&pos, path, args.turns),
        None => run_solve(&pos, args),
    }
}

fn run_solve(pos: &Position<'_>, args: &Args) -> CommandResult {
    let deadline = args.time.and_then(|t| Instant::now().checked_add(t));
    let limits = SolveLimits { max_nodes: args.max_nodes, deadline };
    let bar = progress_bar();
    let mut report = |nodes: u64| bar.set_message(format!("{nodes} positions"));
    let mut solver = Solver::new(pos, pos.side(), limits);
    solver.on_progress(&mut report);
    let solution = solver.solve(pos, args.turns);
    let turn = solution.first.and_then(|c| first_turn(pos, &c)).map(|t| name(pos, &t));
    let proved = solution.turns.map(|k| proved(&mut solver, pos, k));
    let nodes = solver.nodes();
    drop(solver);
    bar.finish_and_clear();
    let mut doc = Document {
        verdict: solution.verdict,
        turns: solution.turns,
        turn,
        proof: None,
        reason: solution.unknown.map(|u| u.to_string()),
        fen: pos.fen(),
        minimal: solution.minimal,
        nodes,
    };
    match proved {
        Some(Ok(proof)) => doc.proof = Some(proof),
        // A win is said only with a proof that checks.
        Some(Err(why)) => {
            doc = Document { verdict: Verdict::Unknown, reason: Some(why), ..doc };
            (doc.turns, doc.turn, doc.minimal) = (None, None, false);
        }
        None => {}
    }
    let written = match args.format {
        Format::Json => print_json(&doc),
        Format::Text => print_text(pos, args.turns, &doc, solution.time),
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CommandError::failure(e)),
        _ => Ok(()),
    }
}

/// The proof of the win `solver` found within `k` turns, written and checked again by the
/// checker; otherwise why the win cannot be claimed.
fn proved<'r>(solver: &mut Solver<'r, '_>, pos: &Position<'r>, k: u32) -> Result<Attack, String> {
    let proof = solver.proof(pos, k).map_err(|e| {
        format!("a win within {k} turns was found, but its proof could not be written: {e}")
    })?;
    check(pos, &proof, k).map_err(|e| {
        format!("a win within {k} turns was found, but its proof does not check: {e}")
    })?;
    Ok(proof)
}

/// A spinner on a terminal's stderr, hidden elsewhere.
fn progress_bar() -> ProgressBar {
    let bar = terminal_bar(
        None,
        ProgressStyle::with_template("{spinner} solving: {msg}, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

fn print_json(doc: &Document) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, doc)?;
    writeln!(out)?;
    out.flush()
}

fn print_text(
    pos: &Position<'_>,
    asked: u32,
    doc: &Document,
    time: Duration,
) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let side = pos.side().name();
    match (doc.verdict, &doc.proof) {
        (Verdict::Win, Some(proof)) => {
            let k = doc.turns.unwrap_or(asked);
            writeln!(out, "win: {side} forces a goal within {k} of its turns")?;
            if !doc.minimal {
                writeln!(
                    out,
                    "(fewer turns were not settled: {})",
                    doc.reason.as_deref().unwrap_or("?")
                )?;
            }
            writeln!(out, "first turn: {}", doc.turn.as_deref().unwrap_or(&proof.turn))?;
            writeln!(
                out,
                "proof ({} turns written; each defence, then the answer that wins):",
                proof.size()
            )?;
            write_tree(&mut out, pos, proof, 1)?;
        }
        (Verdict::Unknown, _) => {
            writeln!(out, "unknown: {}", doc.reason.as_deref().unwrap_or("the limits ran out"))?;
        }
        _ => writeln!(
            out,
            "no-win: {side} cannot force a goal within {asked} of its turns: the defender holds out"
        )?,
    }
    writeln!(out, "({} positions, {:.2} s)", doc.nodes, time.as_secs_f64())?;
    out.flush()
}

/// The proof as an indented tree: the attacker's turn, then each defence with its answer;
/// each goal is named as the game has it (a goal, an own goal, a royal piece captured, with the
/// score in a match), read again from the position it is played in.
fn write_tree(
    out: &mut impl Write,
    pos: &Position<'_>,
    node: &Attack,
    depth: usize,
) -> std::io::Result<()> {
    let pad = "  ".repeat(depth);
    let attacker = pos.side();
    let Ok(turn) = resolve(pos, &node.turn) else {
        return writeln!(out, "{pad}{}", excerpt(&node.turn));
    };
    if node.defences.is_empty() {
        return writeln!(out, "{pad}{}  ({})", node.turn, point_words(pos, &turn, attacker));
    }
    writeln!(out, "{pad}{}", node.turn)?;
    let after = play_unchecked(pos, &turn);
    for d in &node.defences {
        let Ok(defence) = resolve(&after, &d.turn) else {
            writeln!(out, "{pad}  if {}:", excerpt(&d.turn))?;
            continue;
        };
        let reached = play_unchecked(&after, &defence);
        match &d.answer {
            None => {
                writeln!(out, "{pad}  if {}: {}", d.turn, point_words(&after, &defence, attacker))?;
            }
            Some(answer) if answer.defences.is_empty() => {
                let words = resolve(&reached, &answer.turn)
                    .map(|t| point_words(&reached, &t, attacker))
                    .unwrap_or_default();
                writeln!(out, "{pad}  if {}: {}  ({words})", d.turn, answer.turn)?;
            }
            Some(answer) => {
                writeln!(out, "{pad}  if {}:", d.turn)?;
                write_tree(out, &reached, answer, depth + 2)?;
            }
        }
    }
    Ok(())
}

/// How `turn` in `pos` scores for `attacker`, for a proof's leaf.
fn point_words(pos: &Position<'_>, turn: &Turn, attacker: Side) -> String {
    point(pos, turn, attacker).map_or_else(|| "no goal".to_owned(), |p| p.to_string())
}

/// The largest proof file `--check` reads (a proof of three turns is a few megabytes at most).
const MAX_PROOF_SIZE: u64 = 64 << 20;

/// Re-verifies a proof file against the position with the turn generator alone.
fn run_check(pos: &Position<'_>, path: &Path, turns: u32) -> CommandResult {
    let shown = printable_path(path);
    let text = kickoff::text_file::read_limited(path, MAX_PROOF_SIZE, "proofs").map_err(|e| {
        CommandError::usage(format!("cannot read {shown}: {}", printable(&e.to_string())))
    })?;
    let doc: Document = serde_json::from_str(&text).map_err(|e| {
        // The message may quote the file (an unknown field's name).
        let why = e.to_string();
        CommandError::failure(format!("{shown} is not a proof: {}", excerpt_within(&why, 200)))
    })?;
    if !doc.fen.is_empty() && doc.fen != pos.fen() {
        let theirs = excerpt_within(&doc.fen, MAX_FEN_SHOWN);
        return Err(CommandError::failure(format!(
            "the proof is for {theirs}, not for {}",
            pos.fen()
        )));
    }
    let Some(proof) = doc.proof.filter(|_| doc.verdict == Verdict::Win) else {
        return Err(CommandError::failure(format!(
            "{shown} holds no proof of a win (its verdict is not \"win\")"
        )));
    };
    let within = doc.turns.unwrap_or(turns).min(turns);
    match check(pos, &proof, within) {
        Ok(done) => {
            println!(
                "proof holds: {} forces a goal within {within} of its turns ({} defender positions, {} turns played)",
                pos.side().name(),
                done.positions,
                done.turns
            );
            Ok(())
        }
        Err(e) => {
            println!("proof fails: {e}");
            Err(CommandError::quiet(Status::Failure))
        }
    }
}
