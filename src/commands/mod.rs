//! What each subcommand does: load, run, print. The library does the work.

pub mod admin;
pub mod analyze;
pub mod bestmove;
pub mod bot;
pub mod completions;
pub mod definition;
pub mod explain;
pub mod list;
pub mod matches;
pub mod perft;
pub mod play;
pub mod progress;
pub mod render;
pub mod replay;
pub mod schema;
pub mod serve;
pub mod setup;
pub mod show;
pub mod solve;
pub mod texts;
pub mod turns;
pub mod validate;

use std::io::IsTerminal;

use crate::cli::Start;
use kickoff::definition::Code;
use kickoff::definition::{
    Definition, Diagnostic, LoadError, LoadOptions, Loc, Origin, SourceFile, Sources,
};
use kickoff::game::record::Unembeddable;
use kickoff::lint::{load_checked, load_text_checked};
use kickoff::notation::record::Embedded;
use kickoff::position::{FenError, Finished, Position};
use kickoff::setup::SetupNumber;
use kickoff::start::{StartChoice, StartError};
use kickoff::text::printable;

/// How a command ended, as the process exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It did what was asked.
    Success = 0,
    /// It reported a failure (an invalid file, an illegal turn ...).
    Failure = 1,
    /// Bad usage or an unreadable file.
    Usage = 2,
}

/// Whether to colour what goes to stdout: a terminal, and NO_COLOR not set.
#[must_use]
pub fn color_stdout() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Whether to colour what goes to stderr.
#[must_use]
pub fn color_stderr() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// Prints why a definition could not be read (an unreadable file or an unknown name).
pub fn report_unloadable(e: &LoadError) {
    // The name may come from a record's Variant tag or an `extends` key.
    eprintln!("error: {}", printable(&e.to_string()));
    if let LoadError::UnknownVariant { help, .. } = e {
        eprintln!("  = help: {}", printable(help));
    }
}

/// Prints why `--embed` cannot carry the definition `variant`, and what would.
pub fn report_unembeddable(variant: &str, why: Unembeddable) {
    eprintln!("error: --embed: a record cannot carry {}: {why}", printable(variant));
    if why == Unembeddable::ExtendsFile {
        eprintln!(
            "  = help: `kickoff definition {} --resolved > one.toml` writes the whole definition \
             as one file, which a record can carry",
            printable(variant)
        );
    }
}

/// Loads a VARIANT argument; on failure prints why to stderr and returns the exit status.
///
/// # Errors
/// [`Exit::Usage`] for an unreadable file or unknown name, [`Exit::Failure`] for an invalid one.
pub fn load_variant(arg: &str, options: LoadOptions) -> Result<Definition, Exit> {
    let located = |sources: &Sources, diagnostics: &[Diagnostic]| print_all(sources, diagnostics);
    let def = finish_load(load_checked(arg, options), located).inspect_err(|&exit| {
        if exit == Exit::Failure {
            let arg = printable(arg);
            eprintln!(
                "error: {arg} is not a valid definition (`kickoff validate {arg}` lists the problems)"
            );
        }
    })?;
    Ok(def)
}

/// Loads the definition a record carries, its problems located in the record `file` (whose
/// text is `record`).
///
/// # Errors
/// As [`load_variant`].
pub fn load_embedded(file: &str, record: &str, embedded: &Embedded) -> Result<Definition, Exit> {
    let located = |sources: &Sources, diagnostics: &[Diagnostic]| {
        let (sources, diagnostics) = in_record(file, record, embedded.offset, sources, diagnostics);
        print_all(&sources, &diagnostics);
    };
    finish_load(load_text_checked(file, &embedded.text), located).inspect_err(|&exit| {
        if exit == Exit::Failure {
            eprintln!("error: the definition {} carries is not valid", printable(file));
        }
    })
}

/// Prints a definition's warnings or problems with `show`, or why it could not be read.
fn finish_load(
    loaded: Result<Definition, LoadError>,
    show: impl Fn(&Sources, &[Diagnostic]),
) -> Result<Definition, Exit> {
    match loaded {
        Ok(mut def) => {
            show(&def.sources, &def.warnings);
            def.rules.make_printable();
            Ok(def)
        }
        Err(LoadError::Invalid { sources, diagnostics }) => {
            show(&sources, &diagnostics);
            Err(Exit::Failure)
        }
        Err(e) => {
            report_unloadable(&e);
            Err(Exit::Usage)
        }
    }
}

/// The sources and diagnostics of a definition read from a record, moved to where the
/// definition stands in the record (the files it extends are left as they are).
fn in_record(
    file: &str,
    record: &str,
    offset: usize,
    sources: &Sources,
    diagnostics: &[Diagnostic],
) -> (Sources, Vec<Diagnostic>) {
    let mut moved = Sources::default();
    let mut root = None;
    for source in sources.files() {
        let id = match root {
            None => moved.add(SourceFile {
                path: file.to_owned(),
                text: record.to_owned(),
                origin: Origin::Text(file.to_owned()),
            }),
            Some(_) => moved.add(source.clone()),
        };
        root.get_or_insert(id);
    }
    let diagnostics = diagnostics.iter().cloned().map(|mut d| {
        if Some(d.at.file) == root {
            d.at.span = d.at.span.start + offset..d.at.span.end + offset;
        }
        d
    });
    (moved, diagnostics.collect())
}

/// Prints diagnostics (the first [`kickoff::definition::MAX_SHOWN`]) to stderr, as `validate`
/// shows them.
fn print_all(sources: &Sources, diagnostics: &[Diagnostic]) {
    let color = color_stderr();
    for d in diagnostics.iter().take(kickoff::definition::MAX_SHOWN) {
        eprintln!("{}\n", d.render(sources, color));
    }
    if let Some(more) = kickoff::definition::more_line(diagnostics) {
        eprintln!("{more}\n");
    }
}

/// The position of `--setup N` or `--fen F` (default: the variant's start), printing any
/// problem; a finished position (the ball on a goal) is refused: it has no turns.
///
/// # Errors
/// Exit 1, the problem already printed.
pub fn playable<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> Result<Position<'r>, Exit> {
    unfinished(setup_or_fen(def, variant, start)?)
}

/// The position of `--setup N` or `--fen F` (default: the variant's start), printing any
/// problem; a position where the game is over for any reason (a goal, a match won, the turn
/// limit) is refused: the game has no turns there, and no goal can be forced.
///
/// # Errors
/// Exit 1, the problem already printed.
pub fn in_play<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> Result<Position<'r>, Exit> {
    let pos = setup_or_fen(def, variant, start)?;
    match pos.finished() {
        Some(finished) => Err(game_over(&finished)),
        None => Ok(pos),
    }
}

/// Refuses a finished position (a goal, a match won, a royal piece captured), saying why.
///
/// # Errors
/// Exit 1, the reason already printed.
pub fn unfinished(pos: Position<'_>) -> Result<Position<'_>, Exit> {
    match pos.finished().filter(|_| pos.is_goal()) {
        Some(finished) => Err(game_over(&finished)),
        None => Ok(pos),
    }
}

/// Says why a position has no turns: how its game ended.
fn game_over(finished: &Finished) -> Exit {
    eprintln!("error: the game is over in this position ({finished}), so there are no turns");
    Exit::Failure
}

/// The position of `--setup N` if given, else of `--fen` (default: the variant's start), finished
/// or not, printing any problem.
///
/// # Errors
/// Exit 1, the problem already printed.
pub fn setup_or_fen<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> Result<Position<'r>, Exit> {
    let choice = match (start.setup.as_deref(), &start.fen) {
        (Some(text), _) => StartChoice::parse_number(text, &def.rules).map_err(|e| {
            match e {
                StartError::NoRandomSetup => eprintln!(
                    "error: {} has no random setup (no [setup.random] in its definition)",
                    printable(variant)
                ),
                e => eprintln!("error: {e}"),
            }
            Exit::Failure
        })?,
        (None, Some(fen)) => StartChoice::Fen(fen.clone()),
        (None, None) => StartChoice::Standard,
    };
    // A setup number, a position or the variant's start: nothing is drawn.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
    resolve_start(def, &choice, &mut rng).map(|(pos, _)| pos)
}

/// The start `choice` names, finished or not, with its setup number where it is a random setup,
/// printing any problem (a position's with a caret under each); `rng` draws a random or fair
/// setup.
///
/// # Errors
/// Exit 1, the problem already printed.
pub fn resolve_start<'r>(
    def: &'r Definition,
    choice: &StartChoice,
    rng: &mut impl rand::Rng,
) -> Result<(Position<'r>, Option<SetupNumber>), Exit> {
    choice.resolve(def, rng).map_err(|e| {
        match e {
            StartError::Fen(e) => {
                let text = match choice {
                    StartChoice::Fen(text) => text.as_str(),
                    _ => def.rules.setup_fen(),
                };
                show_fen_problems(text, e);
            }
            e => eprintln!("error: {e}"),
        }
        Exit::Failure
    })
}

/// Prints the problems of the position `text` (`--fen`), each with a caret under it.
fn show_fen_problems(text: &str, e: FenError) {
    let mut sources = Sources::default();
    let file = sources.add(SourceFile {
        path: "--fen".to_owned(),
        text: text.to_owned(),
        origin: Origin::Text(text.to_owned()),
    });
    for p in e.problems {
        let at = Loc { file, span: p.span };
        let d = Diagnostic::new(Code::BadPosition, format!("bad position: {}", p.message), at);
        eprintln!("{}\n", d.with_help_opt(p.help).render(&sources, color_stderr()));
    }
}
