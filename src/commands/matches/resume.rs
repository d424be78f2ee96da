//! `match --resume`: the games that an interrupted run of the same match has recorded already,
//! each checked to be that match's game (same definition, start and players) and finished.

use std::path::Path;

use kickoff::definition::Definition;
use kickoff::game::record;
use kickoff::position::Position;
use kickoff::setup::SetupNumber;
use kickoff::side::Side;

use super::{Args, Contestant, GameEnd, reason_of, score_of, seat_of};
use crate::commands::replay;
use kickoff::text::printable_path;

/// The record name of game `i` (counted from 0).
pub(super) fn file_name(i: usize) -> String {
    format!("game-{:04}.txt", i + 1)
}

/// Per game, its end when `--resume` found its record. Without `--resume`, a folder that
/// holds a record of this match's games already is refused (unless `--force`), so that no
/// earlier match is written over by mistake.
///
/// # Errors
/// The folder's first record that is not this match's game, or the record found without
/// `--resume` or `--force`.
pub(super) fn recorded(
    def: &Definition,
    args: &Args,
    starts: &[(Position<'_>, Option<SetupNumber>)],
    players: &[Contestant; 2],
    hash: &str,
) -> Result<Vec<Option<GameEnd>>, String> {
    let mut done: Vec<Option<GameEnd>> = (0..args.game_count()).map(|_| None).collect();
    let Some(dir) = args.records.as_deref() else { return Ok(done) };
    for (i, end) in done.iter_mut().enumerate() {
        let path = dir.join(file_name(i));
        if !path.exists() {
            continue;
        }
        if args.force {
            continue;
        }
        if !args.resume {
            return Err(format!(
                "{} holds a record already: --resume goes on with the match it belongs to, \
                 --force writes over it",
                printable_path(&path)
            ));
        }
        let check = |why: String| format!("cannot resume from {}: {why}", printable_path(&path));
        *end = Some(game_end(def, args, &starts[i / 2], players, hash, i, &path).map_err(check)?);
    }
    Ok(done)
}

/// The end of game `i` as its record at `path` tells it, if the record is that game's.
fn game_end(
    def: &Definition,
    args: &Args,
    (start, number): &(Position<'_>, Option<SetupNumber>),
    players: &[Contestant; 2],
    hash: &str,
    i: usize,
    path: &Path,
) -> Result<GameEnd, String> {
    let text = replay::read_record_file(path)?;
    // A malformed or broken record is shown as `replay` shows it: where, with a caret.
    let file = printable_path(path);
    let parsed = replay::parse_record(&file, &text).map_err(|shown| {
        eprint!("{shown}");
        "the record is malformed (above)".to_owned()
    })?;
    if parsed.tag("VariantHash") != Some(hash) {
        return Err("it was played under another definition".into());
    }
    let game = record::read(&def.rules, &args.variant, &parsed).map_err(|broken| {
        eprint!("{}", replay::broken_text(&file, &text, &broken.error));
        "it does not replay (above)".to_owned()
    })?;
    if game.start() != start || game.setup_number() != *number {
        return Err(format!(
            "it starts from {}, this match's game {} from {}",
            game.start().fen(),
            i + 1,
            start.fen()
        ));
    }
    let tag = |name: &str| game.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let event = super::event(args);
    if tag("Event") != Some(&event) || tag("Round") != Some(&(i + 1).to_string()) {
        return Err(format!("it is not game {} of a match with {event}", i + 1));
    }
    for side in Side::ALL {
        let seated = players[seat_of(i, side)].to_string();
        if tag(side.name()) != Some(seated.as_str()) {
            return Err(format!("{} is not {seated} there", side.name()));
        }
    }
    let ending = game.ending().ok_or("the game in it is unfinished")?;
    let turns = u32::try_from(game.plies().len()).unwrap_or(u32::MAX);
    Ok(GameEnd { score: score_of(ending.result(), i), reason: reason_of(ending).into(), turns })
}
