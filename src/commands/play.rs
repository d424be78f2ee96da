//! `kickoff play [VARIANT]`: a game in the terminal, against a person or the computer.
//!
//! On a terminal: a coloured board, a prompt that takes a whole turn or the turn in steps, and
//! commands (`help` lists them). Otherwise (a script): one turn per line, then the final result.

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::commands::{CommandError, CommandResult, load_variant, unembeddable};
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

/// The arguments of `kickoff play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A shipped variant's name or a path to a .toml file.
    pub variant: Option<String>,
    /// Who plays White: human, random, greedy, engine or engine:LEVEL (1 to 4, default 4).
    #[arg(long, default_value = "human")]
    pub white: String,
    /// Who plays Black: human, random, greedy, engine or engine:LEVEL.
    #[arg(long, default_value = "engine")]
    pub black: String,
    /// Random setup N (N/M when Black is drawn independently), `random`, or `fair` (`fair:N`):
    /// a random setup where neither side forces a goal within 2 (N) turns.
    #[arg(long, value_name = "N|random|fair", conflicts_with = "fen")]
    pub setup: Option<String>,
    /// Start from this position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Save the game's record to FILE after every turn.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Let a new game replace the record already in the --record FILE.
    #[arg(long, requires = "record")]
    pub force: bool,
    /// Resume the game saved in FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "setup"])]
    pub load: Option<PathBuf>,
    /// Seed the computer's random choices (and a random setup), for a reproducible game.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Carry the definition in the records written, so that a record alone replays the game.
    #[arg(long)]
    pub embed: bool,
    /// Use the prompt even when the input is not a terminal.
    #[arg(long, hide = true)]
    pub interactive: bool,
}

/// The shipped variant `play` uses when none is named.
pub const DEFAULT_VARIANT: &str = "boyer-1951";

/// Plays a game.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let loaded = args.load.as_deref().map(read_saved).transpose()?;
    let (variant, def) = definition(args, loaded.as_ref(), options)?;
    if let Some(saved) = &loaded {
        same_variant(&saved.path, &saved.parsed, &def, &variant, options)?;
        let file = printable_path(&saved.path);
        crate::commands::replay::warn_if_changed(&file, &saved.parsed, &def);
    }
    let mut seats = seats::seats(&def.rules, &args.white, &args.black, args.seed)
        .map_err(CommandError::usage)?;
    let Started { mut game, record_to, setup_drawn } =
        start_game(args, &def, &variant, loaded.as_ref())?;
    describe_definition(&mut game, &def, &variant, args.embed)?;
    if !args.embed
        && let Some(path) = &record_to
    {
        crate::commands::replay::warn_if_outside(&variant, path);
    }
    let interactive = args.interactive || std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = Input::new(stdin.lock());
    let resumed = loaded.as_ref().map(|saved| saved.path.as_path());
    let replaces = RecordCheck { path: record_to.as_deref(), resumed, force: args.force };
    let up_to_date = replaces.check(interactive, &mut input)?;
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
    args: &Args,
    loaded: Option<&Saved>,
    options: LoadOptions,
) -> CommandResult<(String, Definition)> {
    if args.variant.is_none()
        && let Some(saved) = loaded
    {
        let file = printable_path(&saved.path);
        if let Some(carried) = crate::commands::replay::carried(&file, &saved.text, &saved.parsed) {
            return carried;
        }
    }
    let variant = pick_variant(args, loaded, options)?;
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
) -> CommandResult {
    game.variant_hash = Some(record::definition_hash(&def.sources));
    let carried = game.definition.take().is_some();
    if embed {
        let text = record::embeddable(&def.sources).map_err(|why| unembeddable(variant, why))?;
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
