//! Starting a game: the variant, the start position, a record resumed, and the record file
//! the game will be written to.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::commands::{CommandError, CommandResult, replay, resolve_start, unfinished};
use kickoff::definition::{Definition, LoadOptions};
use kickoff::game::Game;
use kickoff::game::record::{self, BrokenRecord};
use kickoff::notation::record::RecordText;
use kickoff::position::Position;
use kickoff::setup::SetupNumber;
use kickoff::start::{StartChoice, StartError};
use kickoff::text::{excerpt, printable, printable_path};

use super::Args;
use super::DEFAULT_VARIANT;
use super::input::Input;
use super::seats::{self};
use kickoff::search::Player;

/// Where a game is about to be recorded, to check before the first turn.
pub(super) struct RecordCheck<'a> {
    /// The record file, if any.
    pub(super) path: Option<&'a Path>,
    /// The record the game was resumed from, if any.
    pub(super) resumed: Option<&'a Path>,
    /// `--force`.
    pub(super) force: bool,
}

impl RecordCheck<'_> {
    /// Refuses a record path that is not a regular file (or a link to one), and an existing
    /// record that a new game would replace, unless `--force` says so or the person at the
    /// prompt agrees. Returns whether the game was resumed from that very file (which is then
    /// rewritten only when the game changes).
    pub(super) fn check(
        &self,
        interactive: bool,
        input: &mut Input<impl BufRead>,
    ) -> CommandResult<bool> {
        let Some(path) = self.path else { return Ok(false) };
        let target = record::target(path).map_err(|e| {
            CommandError::usage(format!("cannot record the game in {}: {e}", printable_path(path)))
        })?;
        // Temporary files of runs killed while saving there go now, whatever this run does.
        let folder = target.path.parent().filter(|f| !f.as_os_str().is_empty());
        record::remove_strays(folder.unwrap_or(Path::new(".")));
        if !target.exists {
            return Ok(false);
        }
        if self.resumed.is_some_and(|from| same_file(from, &target.path)) {
            return Ok(true);
        }
        if self.force || interactive && agrees_to_replace(path, input) {
            return Ok(false);
        }
        let path = printable_path(path);
        Err(CommandError::usage(format!("{path} exists: a new game would replace what it holds"))
            .with_help(format!(
                "pass --force to replace it, or resume the game in it with `kickoff play --load {path}`"
            )))
    }
}

/// Whether two paths name the same existing file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Asks at the prompt whether `path` may be replaced.
pub(super) fn agrees_to_replace(path: &Path, input: &mut Input<impl BufRead>) -> bool {
    print!("{} exists. Replace it with this game? (yes/no)> ", printable_path(path));
    std::io::stdout().flush().ok();
    let answer = input.next_line().ok().flatten().unwrap_or_default();
    if !std::io::stdin().is_terminal() {
        println!("{}", answer.trim_end());
    }
    matches!(answer.trim(), "y" | "yes")
}

/// A record named by `--load`: its file, its text and its parts.
pub(super) struct Saved {
    pub(super) path: PathBuf,
    pub(super) text: String,
    pub(super) parsed: RecordText,
}

/// The record file named by `--load`, read and parsed.
pub(super) fn read_saved(path: &Path) -> CommandResult<Saved> {
    let shown = printable_path(path);
    let text = replay::read_record_file(path)
        .map_err(|reason| CommandError::usage(format!("cannot read {shown}: {reason}")))?;
    let parsed = replay::parse_record(&shown, &text)?;
    Ok(Saved { path: path.to_path_buf(), text, parsed })
}

/// The variant to play: named on the command line, else the loaded record's, else Boyer's.
pub(super) fn pick_variant(
    args: &Args,
    loaded: Option<&Saved>,
    options: LoadOptions,
) -> CommandResult<String> {
    if let Some(v) = &args.variant {
        return Ok(v.clone());
    }
    match loaded.map(|saved| (&saved.path, saved.parsed.tag("Variant"))) {
        Some((path, Some(tag))) => replay::record_variant(path, tag, options).map_err(|message| {
            CommandError::failure(format!("{}: {message}", printable_path(path)))
        }),
        Some((_, None)) => Err(CommandError::usage(
            "the record names no variant (no Variant tag): name it, e.g. `kickoff play boyer-1951 --load FILE`",
        )),
        None => Ok(DEFAULT_VARIANT.to_owned()),
    }
}

/// Refuses a record of another variant than the one named on the command line.
pub(super) fn same_variant(
    path: &Path,
    record: &RecordText,
    def: &Definition,
    variant: &str,
    options: LoadOptions,
) -> CommandResult {
    let Some(tag) = record.tag("Variant") else { return Ok(()) };
    // A file is named from the record's folder.
    let theirs = replay::record_variant(path, tag, options).ok();
    if tag == variant || theirs.as_deref() == Some(variant) {
        return Ok(());
    }
    let theirs = theirs
        .and_then(|t| kickoff::definition::load_with(&t, options).ok())
        .map(|d| d.rules.info().name.clone());
    if theirs.as_deref() == Some(def.rules.info().name.as_str()) {
        return Ok(());
    }
    let (path, variant) = (printable_path(path), printable(variant));
    Err(CommandError::failure(format!("{path} is a game of {}, not of {variant}", excerpt(tag)))
        .with_help(format!("leave out the variant to resume it: `kickoff play --load {path}`")))
}

/// A game about to be played.
pub(super) struct Started<'r> {
    pub(super) game: Game<'r>,
    /// The file to record it to.
    pub(super) record_to: Option<PathBuf>,
    /// Whether its setup number was drawn (`--setup random` or `fair`) rather than given.
    pub(super) setup_drawn: bool,
}

/// The game to play and the file to record it to.
pub(super) fn start_game<'r>(
    args: &Args,
    def: &'r Definition,
    variant: &str,
    loaded: Option<&Saved>,
) -> CommandResult<Started<'r>> {
    if let Some(saved) = loaded {
        let (game, record_to) = resume(saved, def, variant, args.record.clone())?;
        return Ok(Started { game, record_to, setup_drawn: false });
    }
    let (start, number, setup_drawn) = start_position(args, def)?;
    let mut game = Game::new(variant, start, number);
    let describe = |s: &str| s.parse::<Player>().map_or_else(|_| s.to_owned(), |p| p.to_string());
    game.tags.push(("White".into(), describe(&args.white)));
    game.tags.push(("Black".into(), describe(&args.black)));
    game.tags.push(("Date".into(), today()));
    Ok(Started { game, record_to: args.record.clone(), setup_drawn })
}

/// A saved game to continue; a damaged record continues from where it breaks.
pub(super) fn resume<'r>(
    saved: &Saved,
    def: &'r Definition,
    variant: &str,
    record_to: Option<PathBuf>,
) -> CommandResult<(Game<'r>, Option<PathBuf>)> {
    let path = &saved.path;
    match record::read(&def.rules, variant, &saved.parsed) {
        // An intact record goes on being recorded where it was.
        Ok(game) => Ok((game, record_to.or_else(|| Some(path.to_path_buf())))),
        Err(BrokenRecord { game: Some(game), error }) => {
            let game = *game;
            eprint!("{}", replay::broken_text(&printable_path(path), &saved.text, &error));
            eprintln!(
                "resuming after turn {} (the rest of the record is not used); {}",
                game.plies().len(),
                if record_to.is_some() {
                    "recording to the --record file"
                } else {
                    "not recording: pass --record FILE to save"
                }
            );
            Ok((game, record_to))
        }
        Err(BrokenRecord { game: None, error }) => Err(CommandError::failure(format!(
            "{}: {}",
            printable_path(path),
            printable(&error.to_string())
        ))),
    }
}

/// The start: `--fen`, else `--setup`, else the variant's start position (its definition's
/// own arrangement, also in variants that have random setups, as the analysis commands start),
/// with its setup number and whether that was drawn (`random`, `fair`) rather than given.
pub(super) fn start_position<'r>(
    args: &Args,
    def: &'r Definition,
) -> CommandResult<(Position<'r>, Option<SetupNumber>, bool)> {
    let choice = match (args.setup.as_deref(), &args.fen) {
        (Some(text), _) => StartChoice::parse_setup(text, &def.rules).map_err(|e| {
            // Asking a variant without random setups for one is a mistake of usage.
            if e == StartError::NoRandomSetup {
                CommandError::usage(e)
            } else {
                CommandError::failure(e)
            }
        })?,
        (None, Some(fen)) => StartChoice::Fen(fen.clone()),
        (None, None) => StartChoice::Standard,
    };
    let (pos, number) = resolve_start(def, &choice, &mut seats::rng(args.seed))?;
    // A position given must have turns to play; a setup always has.
    let pos = if number.is_none() { unfinished(pos)? } else { pos };
    Ok((pos, number, choice.is_drawn()))
}

/// Today's date as records write it, `YYYY.MM.DD` (UTC).
pub(super) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day count from 1970-01-01 (proleptic Gregorian).
pub(super) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
