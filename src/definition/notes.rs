//! Notes that point a problem of the start position at the other value it involves: the goal
//! a piece stands on (saying when the goal is inherited), the zone a piece is outside of (where
//! a zone set here does not fit an inherited start position, the problem is shown at the zone).

use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::{SourceFile, Sources, line_col};
use crate::definition::tree::{Node, Table, node_at};
use crate::position::placement::Reason;
use crate::side::Side;

/// Where `node` was written, as `file:line:column` and its line: `` boyer-1951 (shipped):51:10
/// `symbol = "a"` ``.
pub(crate) fn place(file: &SourceFile, node: &Node) -> String {
    let (line, column) = line_col(&file.text, node.at.span.start);
    let written = file.text.get(node.key_at.span.start..node.at.span.end).unwrap_or_default();
    let written = written.lines().next().unwrap_or_default();
    format!("{}:{line}:{column} `{written}`", file.path)
}

/// Adds to each problem of a piece of the start position on a goal square, or outside its zone,
/// where that goal or zone was written.
pub(crate) fn start_position(sources: &Sources, root: &Table, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut() {
        match d.reason {
            Some(Reason::OnGoal { scorer }) => on_goal(sources, root, d, scorer),
            Some(Reason::OutsideZone { letter }) => outside_zone(sources, root, d, letter),
            _ => {}
        }
    }
}

/// A piece on a square of the goal where `scorer` scores: names the goal's key, and says if
/// it is inherited.
fn on_goal(sources: &Sources, root: &Table, d: &mut Diagnostic, scorer: Side) {
    let Some(node) = node_at(root, &["goals", scorer.key()]) else { return };
    let file = sources.get(node.at.file);
    if node.at.file.0 > 0 {
        d.message = format!("{}, a goal inherited from {}", d.message, file.path);
        d.note = Some(format!("the inherited value: {}", place(file, node)));
    } else {
        d.note = Some(format!("the goal: {}", place(file, node)));
    }
}

/// A piece outside the zone of [pieces.`letter`]: points at the zone.
fn outside_zone(sources: &Sources, root: &Table, d: &mut Diagnostic, letter: char) {
    let Some(node) = node_at(root, &["pieces", &letter.to_string(), "zone"]) else { return };
    let fen = node_at(root, &["setup", "fen"]).filter(|fen| fen.at.file == d.at.file);
    match fen {
        // The zone set in this file does not fit the inherited start position: the zone is
        // the value to change, or `setup.fen`.
        Some(fen) if node.at.file.0 == 0 && d.at.file.0 > 0 => {
            let fen_file = sources.get(fen.at.file);
            d.note = Some(format!("the inherited start position: {}", place(fen_file, fen)));
            d.at = node.at.clone();
        }
        _ => d.note = Some(format!("the zone: {}", place(sources.get(node.at.file), node))),
    }
}

/// Adds to each letter of the start position that is no piece, when it is the letter of a piece
/// in `removed` (by `removed = true`), what to change.
pub(crate) fn removed_pieces(removed: &[String], diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut() {
        let Some(Reason::UnknownLetter { letter }) = d.reason else { continue };
        let upper = letter.to_ascii_uppercase().to_string();
        if removed.contains(&upper) {
            d.help = Some(format!(
                "[pieces.{upper}] has `removed = true`: take its letters out of `setup.fen`, or \
                 drop `removed`"
            ));
        }
    }
}
