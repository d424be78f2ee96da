//! Notes that point a problem of the start position at the other value it involves: the goal
//! a piece stands on (saying when the goal is inherited), the zone a piece is outside of (where
//! a zone set here does not fit an inherited start position, the problem is shown at the zone).

use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::{SourceFile, Sources, line_col};
use crate::definition::tree::{Node, Table, Value, node_at};

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
        if let Some((_, square)) = d.message.rsplit_once("stands on the goal square ") {
            let square = square.to_owned();
            on_goal(sources, root, d, &square);
        } else if d.message.ends_with(", outside its zone") {
            outside_zone(sources, root, d);
        }
    }
}

/// A piece on the goal square `square`: names the goal's key, and says if it is inherited.
fn on_goal(sources: &Sources, root: &Table, d: &mut Diagnostic, square: &str) {
    let goal = ["white", "black"].into_iter().find_map(|side| {
        let node = node_at(root, &["goals", side])?;
        let Value::String(text) = &node.value else { return None };
        text.split([' ', ',', '-']).any(|token| token == square).then_some(node)
    });
    let Some(node) = goal else { return };
    let file = sources.get(node.at.file);
    if node.at.file.0 > 0 {
        d.message = format!("{}, a goal inherited from {}", d.message, file.path);
        d.note = Some(format!("the inherited value: {}", place(file, node)));
    } else {
        d.note = Some(format!("the goal: {}", place(file, node)));
    }
}

/// A piece outside its zone: points at the zone, named by the help's `[pieces.X]`.
fn outside_zone(sources: &Sources, root: &Table, d: &mut Diagnostic) {
    let letter = d.help.as_deref().and_then(|help| {
        let (_, rest) = help.split_once("[pieces.")?;
        rest.split_once(']').map(|(letter, _)| letter.to_owned())
    });
    let Some(node) = letter.and_then(|letter| node_at(root, &["pieces", &letter, "zone"])) else {
        return;
    };
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
        let Some((_, rest)) = d.message.split_once('`') else { continue };
        let Some((letter, " is not a piece of this variant")) = rest.split_once('`') else {
            continue;
        };
        let upper = letter.to_ascii_uppercase();
        if removed.contains(&upper) {
            d.help = Some(format!(
                "[pieces.{upper}] has `removed = true`: take its letters out of `setup.fen`, or \
                 drop `removed`"
            ));
        }
    }
}
