//! What each subcommand does: load, run, print. The library does the work.
//!
//! Each subcommand's module has its arguments, `Args` (a `clap::Args` that `cli::Command`
//! names), and `run`, which takes them and returns a [`CommandResult`]: a failure is a
//! [`CommandError`] with its exit status and what to say, which `main` prints once. Only what
//! is said while the command goes on stays where it happens: warnings, the problems of each
//! file `validate` checks, and what a game at the prompt or from a script answers.

pub mod admin;
pub mod analyze;
pub mod bestmove;
pub mod bot;
pub mod completions;
pub mod definition;
pub mod explain;
pub mod list;
pub mod manpage;
pub mod matches;
pub mod merge;
pub mod perft;
pub mod play;
pub mod progress;
pub mod puzzles;
pub mod render;
pub mod replay;
pub mod schema;
pub mod serve;
pub mod setup;
pub mod shards;
pub mod show;
pub mod solve;
pub mod texts;
pub mod tune;
pub mod turns;
pub mod validate;

use std::fmt;
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

/// What a command gives back: its result, or why it failed.
pub type CommandResult<T = ()> = Result<T, CommandError>;

/// The exit status of a command that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// It reported a failure (an invalid file, an illegal turn ...).
    Failure = 1,
    /// Bad usage or an unreadable file.
    Usage = 2,
}

/// Why a command failed: its exit status and what is left to say on stderr, which `main`
/// prints once (its `Display` is the text, line ends included).
#[derive(Debug)]
pub struct CommandError {
    status: Status,
    /// Said first, as it is: the problems of a definition or a position, each with its place.
    shown: String,
    /// The error (`error: ...`); none when `shown` or the command's output says it all.
    message: Option<String>,
    /// A hint after it (`  = help: ...`).
    help: Option<String>,
}

impl CommandError {
    /// A failure (exit status 1), with its message.
    pub fn failure(message: impl fmt::Display) -> Self {
        Self::new(Status::Failure, message)
    }

    /// Bad usage or an unreadable file (exit status 2), with its message.
    pub fn usage(message: impl fmt::Display) -> Self {
        Self::new(Status::Usage, message)
    }

    /// A failure with `status` and `message`.
    pub fn new(status: Status, message: impl fmt::Display) -> Self {
        Self { status, shown: String::new(), message: Some(message.to_string()), help: None }
    }

    /// A failure with `status` and nothing more to say: the command's output or the problems
    /// it showed as it went say why.
    pub fn quiet(status: Status) -> Self {
        Self { status, shown: String::new(), message: None, help: None }
    }

    /// A failure with `status` whose text is `shown` as it is (rendered diagnostics).
    pub fn shown(status: Status, shown: String) -> Self {
        Self { status, shown, message: None, help: None }
    }

    /// The same, with a hint after the message.
    #[must_use]
    pub fn with_help(mut self, help: impl fmt::Display) -> Self {
        self.help = Some(help.to_string());
        self
    }

    /// The same, with `message` after what is shown.
    #[must_use]
    pub fn with_message(mut self, message: impl fmt::Display) -> Self {
        self.message = Some(message.to_string());
        self
    }

    /// The exit status.
    pub fn status(&self) -> Status {
        self.status
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)?;
        if let Some(message) = &self.message {
            writeln!(f, "error: {message}")?;
        }
        if let Some(help) = &self.help {
            writeln!(f, "  = help: {help}")?;
        }
        Ok(())
    }
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

/// Why a definition could not be read (an unreadable file or an unknown name).
pub fn unloadable(e: &LoadError) -> CommandError {
    // The name may come from a record's Variant tag or an `extends` key.
    let error = CommandError::usage(printable(&e.to_string()));
    match e {
        LoadError::UnknownVariant { help, .. } => error.with_help(printable(help)),
        _ => error,
    }
}

/// Why `--embed` cannot carry the definition `variant`, and what would.
pub fn unembeddable(variant: &str, why: Unembeddable) -> CommandError {
    let error = CommandError::usage(format!(
        "--embed: a record cannot carry {}: {why}",
        printable(variant)
    ));
    if why == Unembeddable::ExtendsFile {
        return error.with_help(format!(
            "`kickoff definition {} --resolved > one.toml` writes the whole definition as one \
             file, which a record can carry",
            printable(variant)
        ));
    }
    error
}

/// Loads a VARIANT argument, printing its warnings to stderr.
///
/// # Errors
/// [`Status::Usage`] for an unreadable file or unknown name, [`Status::Failure`] with every
/// problem for an invalid one.
pub fn load_variant(arg: &str, options: LoadOptions) -> CommandResult<Definition> {
    finish_load(load_checked(arg, options), rendered).map_err(|e| match e.status {
        Status::Failure => {
            let arg = printable(arg);
            e.with_message(format!(
                "{arg} is not a valid definition (`kickoff validate {arg}` lists the problems)"
            ))
        }
        Status::Usage => e,
    })
}

/// Loads the definition a record carries, its problems located in the record `file` (whose
/// text is `record`).
///
/// # Errors
/// As [`load_variant`].
pub fn load_embedded(file: &str, record: &str, embedded: &Embedded) -> CommandResult<Definition> {
    let located = |sources: &Sources, diagnostics: &[Diagnostic]| {
        let (sources, diagnostics) = in_record(file, record, embedded.offset, sources, diagnostics);
        rendered(&sources, &diagnostics)
    };
    finish_load(load_text_checked(file, &embedded.text), located).map_err(|e| match e.status {
        Status::Failure => {
            e.with_message(format!("the definition {} carries is not valid", printable(file)))
        }
        Status::Usage => e,
    })
}

/// A definition, its warnings rendered by `render` and printed; or its problems so rendered,
/// or why it could not be read.
fn finish_load(
    loaded: Result<Definition, LoadError>,
    render: impl Fn(&Sources, &[Diagnostic]) -> String,
) -> CommandResult<Definition> {
    match loaded {
        Ok(mut def) => {
            eprint!("{}", render(&def.sources, &def.warnings));
            def.rules.make_printable();
            Ok(def)
        }
        Err(LoadError::Invalid { sources, diagnostics }) => {
            Err(CommandError::shown(Status::Failure, render(&sources, &diagnostics)))
        }
        Err(e) => Err(unloadable(&e)),
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

/// Diagnostics (the first [`kickoff::definition::MAX_SHOWN`]) as `validate` shows them, for
/// stderr.
fn rendered(sources: &Sources, diagnostics: &[Diagnostic]) -> String {
    let color = color_stderr();
    let mut text = String::new();
    for d in diagnostics.iter().take(kickoff::definition::MAX_SHOWN) {
        text += &format!("{}\n\n", d.render(sources, color));
    }
    if let Some(more) = kickoff::definition::more_line(diagnostics) {
        text += &format!("{more}\n\n");
    }
    text
}

/// The position of `--setup N` or `--fen F` (default: the variant's start); a finished
/// position (the ball on a goal) is refused: it has no turns.
///
/// # Errors
/// [`Status::Failure`], with the problem.
pub fn playable<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> CommandResult<Position<'r>> {
    unfinished(setup_or_fen(def, variant, start)?)
}

/// The position of `--setup N` or `--fen F` (default: the variant's start); a position where
/// the game is over for any reason (a goal, a match won, the turn limit) is refused: the game
/// has no turns there, and no goal can be forced.
///
/// # Errors
/// [`Status::Failure`], with the problem.
pub fn in_play<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> CommandResult<Position<'r>> {
    let pos = setup_or_fen(def, variant, start)?;
    match pos.finished() {
        Some(finished) => Err(game_over(&finished)),
        None => Ok(pos),
    }
}

/// Refuses a finished position (a goal, a match won, a royal piece captured), saying why.
///
/// # Errors
/// [`Status::Failure`], with the reason.
pub fn unfinished(pos: Position<'_>) -> CommandResult<Position<'_>> {
    match pos.finished().filter(|_| pos.is_goal()) {
        Some(finished) => Err(game_over(&finished)),
        None => Ok(pos),
    }
}

/// Why a position has no turns: how its game ended.
fn game_over(finished: &Finished) -> CommandError {
    CommandError::failure(format!(
        "the game is over in this position ({finished}), so there are no turns"
    ))
}

/// The position of `--setup N` if given, else of `--fen` (default: the variant's start), finished
/// or not.
///
/// # Errors
/// [`Status::Failure`], with the problem.
pub fn setup_or_fen<'r>(
    def: &'r Definition,
    variant: &str,
    start: &Start,
) -> CommandResult<Position<'r>> {
    let choice = match (start.setup.as_deref(), &start.fen) {
        (Some(text), _) => StartChoice::parse_number(text, &def.rules).map_err(|e| match e {
            StartError::NoRandomSetup => no_random_setup(variant),
            e => CommandError::failure(e),
        })?,
        (None, Some(fen)) => StartChoice::Fen(fen.clone()),
        (None, None) => StartChoice::Standard,
    };
    resolve_start(def, &choice, &mut nothing_drawn()).map(|(pos, _)| pos)
}

/// Why `variant` has no setup to draw.
pub fn no_random_setup(variant: &str) -> CommandError {
    CommandError::failure(format!(
        "{} has no random setup (no [setup.random] in its definition)",
        printable(variant)
    ))
}

/// A generator for starts that draw nothing (a setup number, a position, the variant's start).
fn nothing_drawn() -> rand_chacha::ChaCha8Rng {
    <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0)
}

/// The start `choice` names, finished or not, with its setup number where it is a random setup
/// (a position's problems each with a caret under it); `rng` draws a random or fair setup.
///
/// # Errors
/// [`Status::Failure`], with the problem.
pub fn resolve_start<'r>(
    def: &'r Definition,
    choice: &StartChoice,
    rng: &mut impl rand::Rng,
) -> CommandResult<(Position<'r>, Option<SetupNumber>)> {
    choice.resolve(def, rng).map_err(|e| match e {
        StartError::Fen(e) => {
            let text = match choice {
                StartChoice::Fen(text) => text.as_str(),
                _ => def.rules.setup_fen(),
            };
            CommandError::shown(Status::Failure, fen_problems(text, e))
        }
        e => CommandError::failure(e),
    })
}

/// The problems of the position `text` (`--fen`), each with a caret under it.
fn fen_problems(text: &str, e: FenError) -> String {
    let mut sources = Sources::default();
    let file = sources.add(SourceFile {
        path: "--fen".to_owned(),
        text: text.to_owned(),
        origin: Origin::Text(text.to_owned()),
    });
    let mut shown = String::new();
    for p in e.problems {
        let at = Loc { file, span: p.span };
        let d = Diagnostic::new(Code::BadPosition, format!("bad position: {}", p.message), at);
        shown += &format!("{}\n\n", d.with_help_opt(p.help).render(&sources, color_stderr()));
    }
    shown
}
