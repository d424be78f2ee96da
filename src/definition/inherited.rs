//! Inherited values that stop fitting: a file that resizes the board (`board.files`,
//! `board.ranks`, `board.holes`) while it inherits squares or a start position written for the
//! parent's board.
//!
//! The checks report such a value where it was written, in a parent file that the author may
//! not be able to edit (a shipped variant). The problem is the resize, so the diagnostic is moved
//! to the key that resized the board, says which inherited value no longer fits and where it
//! came from, and tells the author what to override. Problems with the author's own values, and
//! with inherited values on an unchanged board, stay where they are.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::keys::{self, Ty};
use crate::definition::source::{Loc, Sources};
use crate::definition::tree::{Node, Table, Value};

/// The keys that shape the board, in the order a resize is looked for.
const GEOMETRY: [&str; 3] = ["files", "ranks", "holes"];

/// Moves every diagnostic about an inherited square list or start position that a nearer file's
/// resize broke to that resize (see the module's documentation).
pub(crate) fn relocate(sources: &Sources, root: &Table, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut() {
        if let Some(moved) = moved(sources, root, d) {
            *d = moved;
        }
    }
}

/// The diagnostic `d` as the resize that caused it, if it is about such a value.
fn moved(sources: &Sources, root: &Table, d: &Diagnostic) -> Option<Diagnostic> {
    let mut leaves = Vec::new();
    board_dependent(root, &mut Vec::new(), &mut leaves);
    let (path, node) = leaves.into_iter().find(|(_, node)| contains(&node.at, &d.at))?;
    let resize = resize(root, &path, d.at.file.0)?;
    let key = path.join(".");
    let value = match &node.value {
        Value::String(text) => toml::Value::String(text.clone()).to_string(),
        _ => return None,
    };
    let size = match (board_key(root, "files"), board_key(root, "ranks")) {
        (Some(files), Some(ranks)) => {
            format!("the {}x{} board", value_text(files), value_text(ranks))
        }
        _ => "the board".to_owned(),
    };
    let message = format!(
        "`{key} = {value}`, inherited from {}, does not fit {size} set here",
        sources.get(node.at.file).path
    );
    let code =
        match (d.is_error(), keys::find(&path.iter().map(String::as_str).collect::<Vec<_>>())) {
            (true, Some(k)) if matches!(k.ty, Ty::Str("position")) => Code::InheritedPosition,
            (true, _) => Code::InheritedSquares,
            (false, _) => d.code,
        };
    let at = Loc { file: resize.key_at.file, span: resize.key_at.span.start..resize.at.span.end };
    let help =
        format!("set {} for the new board in this file", to_override(root, resize.key_at.file.0));
    Some(Diagnostic::new(code, message, at).with_label(d.message.clone()).with_help(help))
}

/// The key of `[board]` that resized the board under the value at `path`, written in a file
/// nearer to the one validated (a lower id) than `file`, the value's.
fn resize<'a>(root: &'a Table, path: &[String], file: u16) -> Option<&'a Node> {
    let holes = path == ["board", "holes"];
    GEOMETRY
        .iter()
        .filter(|&&k| !(holes && k == "holes"))
        .filter_map(|k| board_key(root, k))
        .find(|node| node.key_at.file.0 < file)
}

fn board_key<'a>(root: &'a Table, key: &str) -> Option<&'a Node> {
    match &root.get("board")?.value {
        Value::Table(board) => board.get(key),
        _ => None,
    }
}

fn value_text(node: &Node) -> String {
    match &node.value {
        Value::Integer(n) => n.to_string(),
        _ => "?".to_owned(),
    }
}

/// The keys to override, in words: every board-dependent value written farther than `file`.
fn to_override(root: &Table, file: u16) -> String {
    let mut leaves = Vec::new();
    board_dependent(root, &mut Vec::new(), &mut leaves);
    leaves.retain(|(_, node)| node.at.file.0 > file);
    // In the order the parents wrote them.
    leaves.sort_by_key(|(_, node)| (node.at.file, node.at.span.start));
    let names: Vec<String> =
        leaves.iter().map(|(path, _)| format!("`{}`", path.join("."))).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} and {last}", init.join(", ")),
        None => "the inherited squares".to_owned(),
    }
}

/// Every value of the tree whose meaning depends on the board: square lists and positions, as
/// the key table types them; with their paths.
fn board_dependent<'a>(
    table: &'a Table,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, &'a Node)>,
) {
    for (name, node) in table {
        path.push(name.clone());
        match &node.value {
            Value::Table(inner) => board_dependent(inner, path, out),
            _ => {
                let parts: Vec<&str> = path.iter().map(String::as_str).collect();
                if keys::find(&parts)
                    .is_some_and(|k| matches!(k.ty, Ty::Str("squares" | "position")))
                {
                    out.push((path.clone(), node));
                }
            }
        }
        path.pop();
    }
}

/// Whether `inner` lies within `outer`.
fn contains(outer: &Loc, inner: &Loc) -> bool {
    outer.file == inner.file
        && outer.span.start <= inner.span.start
        && inner.span.end <= outer.span.end
}
