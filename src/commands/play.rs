//! `kickoff play [VARIANT]`: a game in the terminal, against a person or the computer.
//!
//! On a terminal: a coloured board, a prompt that takes a whole turn or the turn in steps, and
//! commands (`help` lists them). Otherwise (a script): one turn per line, then the final result.

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::commands::{Exit, load_variant};
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::{Game, record};
use kickoff::movegen::Turn;
use kickoff::render::terminal::Style;
use kickoff::side::{BySide, Side};

mod input;
mod prompt;
mod script;
mod seats;
mod session;
mod start;
mod turns;

pub use input::Input;

use kickoff::text::printable_path;
use start::{RecordCheck, Saved, Started, pick_variant, read_saved, same_variant, start_game};

/// What `kickoff play` was asked for.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The variant (default: Boyer's game, or the loaded record's).
    pub variant: Option<String>,
    /// Who plays White: `human`, `random`, `greedy`, `engine[:LEVEL]`.
    pub white: String,
    /// Who plays Black.
    pub black: String,
    /// `--setup N|random`.
    pub setup: Option<String>,
    /// `--fen F`.
    pub fen: Option<String>,
    /// `--record FILE`: saved after every turn.
    pub record: Option<PathBuf>,
    /// `--force`: a new game may replace the record in the `--record` file.
    pub force: bool,
    /// `--load FILE`: resume a saved game.
    pub load: Option<PathBuf>,
    /// `--seed S`: the computer's random choices.
    pub seed: Option<u64>,
    /// `--embed`: records carry the definition.
    pub embed: bool,
    /// The prompt even when the input is not a terminal (for tests and pipes).
    pub interactive: bool,
}

/// The shipped variant `play` uses when none is named.
pub const DEFAULT_VARIANT: &str = "boyer-1951";

/// Plays a game.
pub fn run(request: &Request, options: LoadOptions) -> Exit {
    let loaded = match &request.load {
        Some(path) => match read_saved(path) {
            Ok(saved) => Some(saved),
            Err(exit) => return exit,
        },
        None => None,
    };
    let (variant, def) = match definition(request, loaded.as_ref(), options) {
        Ok(loaded) => loaded,
        Err(exit) => return exit,
    };
    if let Some(saved) = &loaded
        && let Err(exit) = same_variant(&saved.path, &saved.parsed, &def, &variant, options)
    {
        return exit;
    }
    if let Some(saved) = &loaded {
        let file = printable_path(&saved.path);
        crate::commands::replay::warn_if_changed(&file, &saved.parsed, &def);
    }
    let mut seats = match seats::seats(&def.rules, &request.white, &request.black, request.seed) {
        Ok(seats) => seats,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Usage;
        }
    };
    let Started { mut game, record_to, setup_drawn } =
        match start_game(request, &def, &variant, loaded.as_ref()) {
            Ok(started) => started,
            Err(exit) => return exit,
        };
    if let Err(exit) = describe_definition(&mut game, &def, &variant, request.embed) {
        return exit;
    }
    if !request.embed
        && let Some(path) = &record_to
    {
        crate::commands::replay::warn_if_outside(&variant, path);
    }
    let interactive = request.interactive || std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = Input::new(stdin.lock());
    let resumed = loaded.as_ref().map(|saved| saved.path.as_path());
    let replaces = RecordCheck { path: record_to.as_deref(), resumed, force: request.force };
    let up_to_date = match replaces.check(interactive, &mut input) {
        Ok(up_to_date) => up_to_date,
        Err(exit) => return exit,
    };
    let mut session = Session::new(game, record_to, &seats);
    session.setup_drawn = setup_drawn;
    if up_to_date {
        session.mark_recorded();
    }
    if interactive {
        session.interactive(&mut seats, &mut input)
    } else {
        session.scripted(&mut seats, &mut input)
    }
}

/// The variant to play and its definition: named on the command line, else the one the loaded
/// record carries, else the one it names, else Boyer's.
fn definition(
    request: &Request,
    loaded: Option<&Saved>,
    options: LoadOptions,
) -> Result<(String, Definition), Exit> {
    if request.variant.is_none()
        && let Some(saved) = loaded
    {
        let file = printable_path(&saved.path);
        if let Some(carried) = crate::commands::replay::carried(&file, &saved.text, &saved.parsed) {
            return carried;
        }
    }
    let variant = pick_variant(request, loaded, options)?;
    let def = load_variant(&variant, options)?;
    Ok((variant, def))
}

/// Gives the game what its records say of the definition played: its hash, and its text with
/// `--embed` or when the record resumed carried a definition (the one played, not the one read;
/// none when the one played cannot travel in a record, which its Variant tag then names).
fn describe_definition(
    game: &mut Game<'_>,
    def: &Definition,
    variant: &str,
    embed: bool,
) -> Result<(), Exit> {
    game.variant_hash = Some(record::definition_hash(&def.sources));
    let carried = game.definition.take().is_some();
    if embed {
        let text = record::embeddable(&def.sources).map_err(|why| {
            crate::commands::report_unembeddable(variant, why);
            Exit::Usage
        })?;
        game.definition = Some(text);
    } else if carried {
        game.definition = record::embeddable(&def.sources).ok();
    }
    Ok(())
}

/// A game being played, with who sits where and where it is saved.
struct Session<'r> {
    game: Game<'r>,
    record_to: Option<PathBuf>,
    style: Style,
    /// The side that offered a draw, until the other answers.
    draw_offer: Option<Side>,
    /// The turn being entered step by step.
    partial: Turn,
    /// Whether the game as it stands is saved somewhere.
    saved: bool,
    /// Whether the record file (if any) holds the game as it stands.
    recorded: bool,
    /// Why the last save to the record file failed, if it did.
    save_error: Option<String>,
    /// A file `save FILE` would replace, waiting for a yes.
    pending_save: Option<PathBuf>,
    /// Where the game was last saved.
    saved_to: Option<PathBuf>,
    /// Whether leaving without saving has been warned of once.
    quit_warned: bool,
    /// Whether the end has been announced.
    announced: bool,
    humans: BySide<bool>,
    /// Whether the setup number was drawn (`--setup random` or `fair`) rather than given.
    setup_drawn: bool,
}
