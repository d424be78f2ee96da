//! `kickoff replay FILE [--variant VARIANT]`: check every turn of a record and tell how it ends.

use std::path::Path;

use crate::commands::{
    CommandError, CommandResult, Status, color_stderr, load_embedded, load_variant,
};
use kickoff::definition::Code;
use kickoff::definition::{Definition, Diagnostic, LoadOptions, Loc, Origin, SourceFile, Sources};
use kickoff::game::record::{self, RecordError};
use kickoff::game::{Ending, Game};
use kickoff::notation::record::RecordText;
use kickoff::text::{excerpt, printable};

/// The largest record read.
pub const MAX_RECORD_SIZE: u64 = 8 << 20;

/// The arguments of `kickoff replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record.
    pub file: String,
    /// The variant, when the record names none (or names one that moved).
    #[arg(long)]
    pub variant: Option<String>,
}

/// Replays the record and prints the final position, the result and the reason.
pub fn run(args: &Args, options: LoadOptions) -> CommandResult {
    let (file, variant) = (args.file.as_str(), args.variant.as_deref());
    let text = read_record_file(Path::new(file)).map_err(|reason| {
        CommandError::usage(format!("cannot read {}: {}", printable(file), printable(&reason)))
    })?;
    let parsed = parse_record(file, &text)?;
    let carried = variant.is_none().then(|| carried(file, &text, &parsed)).flatten();
    let (name, def) = carried.unwrap_or_else(|| named(file, variant, &parsed, options))?;
    warn_if_changed(file, &parsed, &def);
    match record::read(&def.rules, &name, &parsed) {
        Ok(game) => {
            summary(&game, &parsed);
            Ok(())
        }
        Err(broken) => {
            let mut shown = broken_text(file, &text, &broken.error);
            if let Some(game) = broken.game {
                shown += &format!(
                    "the game up to there ({} turns) reaches {}\n",
                    game.plies().len(),
                    game.position().fen()
                );
            }
            Err(CommandError::shown(Status::Failure, shown))
        }
    }
}

/// The variant named by `--variant`, else by the record's Variant tag, and its definition.
fn named(
    file: &str,
    variant: Option<&str>,
    parsed: &RecordText,
    options: LoadOptions,
) -> CommandResult<(String, Definition)> {
    let name = match (variant, parsed.tag("Variant")) {
        (Some(given), _) => given.to_owned(),
        (None, Some(tag)) => record_variant(Path::new(file), tag, options)
            .map_err(|message| CommandError::failure(format!("{}: {message}", printable(file))))?,
        (None, None) => {
            return Err(CommandError::usage(format!(
                "{} names no variant (no Variant tag); pass --variant VARIANT",
                printable(file)
            )));
        }
    };
    let def = load_variant(&name, options)?;
    Ok((name, def))
}

/// The definition the record `file` (whose text is `text`) carries, with the variant's name
/// for the game (its Variant tag, else the definition's name); none when it carries none.
pub fn carried(
    file: &str,
    text: &str,
    parsed: &RecordText,
) -> Option<CommandResult<(String, Definition)>> {
    let embedded = parsed.definition.as_ref()?;
    Some(load_embedded(file, text, embedded).map(|def| {
        let tag = parsed.tag("Variant");
        (tag.map_or_else(|| def.rules.info().name.clone(), str::to_owned), def)
    }))
}

/// A record file's text, within the size limit and in UTF-8.
///
/// # Errors
/// Why it cannot be read, in words.
pub fn read_record_file(path: &Path) -> Result<String, String> {
    kickoff::text_file::read_limited(path, MAX_RECORD_SIZE, "records")
}

/// The record's parts.
///
/// # Errors
/// [`Status::Failure`], with a caret on the malformed spot.
pub fn parse_record(file: &str, text: &str) -> CommandResult<RecordText> {
    kickoff::notation::record::parse(text).map_err(|e| {
        let message = format!("the record is malformed: {}", e.message);
        CommandError::shown(Status::Failure, at(file, text, &e.span, &message, e.help.clone()))
    })
}

/// The variant a record's `Variant` tag names: a shipped name, or a definition file in the
/// record's folder, else (as older records name it) below the working directory (records
/// travel between strangers: a tag must not make kickoff read files elsewhere, unless
/// `--allow-outside` says so; a relative tag is then still read from the record's folder first).
///
/// # Errors
/// A path that leaves the record's folder.
pub fn record_variant(record: &Path, tag: &str, options: LoadOptions) -> Result<String, String> {
    if !kickoff::definition::is_path(tag) {
        return Ok(tag.to_owned());
    }
    let folder = record.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let joined = folder.join(tag);
    if options.allow_outside {
        // Anywhere, but still from the record's folder first: a tag such as `../x.toml` is
        // written relative to it.
        return Ok(if joined.exists() { joined.display().to_string() } else { tag.to_owned() });
    }
    let descends = !leaves_folder(tag);
    let inside = match (std::fs::canonicalize(&joined), std::fs::canonicalize(folder)) {
        (Ok(target), Ok(folder)) => Some(target.starts_with(folder)),
        _ => None,
    };
    if inside == Some(true) || inside.is_none() && descends && !Path::new(tag).exists() {
        Ok(joined.display().to_string())
    } else if inside.is_none() && descends {
        // Older records name the file from the folder kickoff ran in.
        Ok(tag.to_owned())
    } else {
        Err(format!(
            "its Variant tag `{}` points outside the record's folder; name the variant \
             (--variant, or the VARIANT argument of play), or pass --allow-outside",
            excerpt(tag)
        ))
    }
}

/// Whether a `Variant` tag names a file outside the record's folder (an absolute path, or one
/// that goes up with `..`): [`record_variant`] reads it only with `--allow-outside`.
fn leaves_folder(tag: &str) -> bool {
    Path::new(tag).is_absolute() || tag.split(['/', '\\']).any(|p| p == "..")
}

/// Warns, before a game of `variant` is recorded in `record` without its definition, when the
/// record's `Variant` tag will name a file outside the record's folder.
pub fn warn_if_outside(variant: &str, record: &Path) {
    let tag = record::variant_tag(variant, record);
    if kickoff::definition::is_path(&tag) && leaves_folder(&tag) {
        eprintln!(
            "warning: the record names its definition as `{}`, outside the record's folder: \
             `kickoff replay` and `play --load` will need --allow-outside (or --variant) to read \
             it; --embed makes the record stand alone",
            printable(&tag)
        );
    }
}

/// Warns when the record was saved under another text of its definition (its `VariantHash`
/// differs from the definition's now): its turns are checked against the definition as it is.
pub fn warn_if_changed(file: &str, record: &RecordText, def: &Definition) {
    let Some(saved) = record.tag("VariantHash") else { return };
    if saved != record::definition_hash(&def.sources) {
        eprintln!(
            "warning: {}: the definition of {} changed since the game was saved (its \
             VariantHash differs); the turns are checked under the definition as it is now",
            printable(file),
            def.rules.info().name
        );
    }
}

/// An error with a caret under `span` of the record, for stderr.
fn at(
    file: &str,
    text: &str,
    span: &std::ops::Range<usize>,
    message: &str,
    help: Option<String>,
) -> String {
    let mut sources = Sources::default();
    let id = sources.add(SourceFile {
        path: file.to_owned(),
        text: text.to_owned(),
        origin: Origin::Text(file.to_owned()),
    });
    let diag = Diagnostic::new(Code::BadRecord, message, Loc { file: id, span: span.clone() })
        .with_help_opt(help);
    format!("{}\n", diag.render(&sources, color_stderr()))
}

/// Where and why a record breaks, for stderr.
pub fn broken_text(file: &str, text: &str, error: &RecordError) -> String {
    match error {
        RecordError::Turn { span, .. } | RecordError::AfterEnd { span, .. } => {
            at(file, text, span, &error.to_string(), None)
        }
        _ => format!("error: {}: {}\n", printable(file), printable(&error.to_string())),
    }
}

/// The final position, the result and the reason, and whether the tags agree.
fn summary(game: &Game<'_>, record: &RecordText) {
    println!("turns: {}", game.plies().len());
    println!("final position: {}", game.position().fen());
    match (game.ending(), record.tag("Termination")) {
        (Some(ending @ Ending::Recorded { .. }), Some(reason)) => {
            println!("result: {} ({ending}: {})", ending.result(), excerpt(reason));
        }
        (Some(ending), _) => println!("result: {} ({ending})", ending.result()),
        (None, _) => println!("result: * (the game is not finished)"),
    }
    let ours = game.ending().map_or_else(|| "*".to_owned(), |e| e.result().to_string());
    if let Some(theirs) = record.tag("Result")
        && theirs != ours
    {
        println!(
            "note: the record's Result tag says {}, but its turns give {ours}",
            excerpt(theirs)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_outside_the_folder_is_read_from_the_record_s_folder() {
        // The record in a/b names its definition `../def.toml`, i.e. a/def.toml; the working
        // directory is elsewhere, so reading the tag from it would miss the file.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/def.toml"), "x").unwrap();
        let record = dir.path().join("a/b/game.txt");
        let outside = LoadOptions { allow_outside: true };
        let found = record_variant(&record, "../def.toml", outside).unwrap();
        assert_eq!(std::fs::read_to_string(found).unwrap(), "x");
        // Without --allow-outside the tag is refused; a shipped name is kept as it is.
        let inside = LoadOptions { allow_outside: false };
        assert!(record_variant(&record, "../def.toml", inside).unwrap_err().contains("outside"));
        assert_eq!(record_variant(&record, "boyer", outside).unwrap(), "boyer");
        // An older record's tag, written from the working directory, is still found there.
        let old = record_variant(&record, "variants/boyer.toml", outside).unwrap();
        assert_eq!(old, "variants/boyer.toml");
    }
}
