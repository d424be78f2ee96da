//! Inherited values that stop fitting: a file that resizes the board (`board.files`,
//! `board.ranks`, `board.holes`) while it inherits squares or a start position written for the
//! parent's board.
//!
//! The checks report such a value where it was written, in a parent file that the author may
//! not be able to edit (a shipped variant). The problem is the resize, so the diagnostic is moved
//! to the key that resized the board, says which inherited value no longer fits and where it
//! came from, and tells the author what to override. Problems with the author's own values, and
//! with inherited values on an unchanged board, stay where they are.

use crate::definition::diagnostic::Diagnostic;
use crate::definition::keys::{self, Ty};
use crate::definition::notes;
use crate::definition::{Code, Lint};
use std::sync::OnceLock;

use crate::definition::source::{FileId, Loc, Origin, SourceFile, Sources, line_col};
use crate::definition::tree::{Node, Table, Value, node_at};

/// The keys that shape the board, in the order a resize is looked for.
const GEOMETRY: [&str; 3] = ["files", "ranks", "holes"];

/// A value whose meaning depends on the board.
struct Leaf<'a> {
    /// Its key, e.g. `goals.white`.
    path: String,
    node: &'a Node,
    /// Whether it is a position (`setup.fen`) rather than a list of squares.
    position: bool,
}

/// Moves every diagnostic about an inherited square list or start position that a nearer file's
/// resize broke to that resize (see the module's documentation).
pub(crate) fn relocate(sources: &Sources, root: &Table, diagnostics: &mut [Diagnostic]) {
    let mut leaves = Vec::new();
    board_dependent(root, &mut Vec::new(), &mut leaves);
    // In the order the files wrote them, parents last.
    leaves.sort_by_key(|leaf| (leaf.node.at.file, leaf.node.at.span.start));
    for d in diagnostics.iter_mut() {
        if let Some(moved) = moved(sources, root, &leaves, d) {
            *d = moved;
        }
    }
}

/// Keeps the first of diagnostics that say the same at the same place: problems at several
/// places of one value become one where they are moved to the same key, or to `extends`.
pub(crate) fn dedup(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| seen.insert((d.code, d.at.clone(), d.message.clone())));
}

/// The diagnostic `d` as the resize that caused it, if it is about such a value.
fn moved(
    sources: &Sources,
    root: &Table,
    leaves: &[Leaf<'_>],
    d: &Diagnostic,
) -> Option<Diagnostic> {
    let leaf = leaves.iter().find(|leaf| contains(&leaf.node.at, &d.at))?;
    let resize = resize(root, &leaf.path, d.at.file.0)?;
    let Value::String(text) = &leaf.node.value else { return None };
    let value = toml::Value::String(text.clone());
    let message = format!(
        "`{} = {value}`, inherited from {}, does not fit {} set here",
        leaf.path,
        sources.get(leaf.node.at.file).path,
        board_size(root)
    );
    let code = match (d.is_error(), leaf.position) {
        (true, true) => Code::InheritedPosition,
        (true, false) => Code::InheritedSquares,
        (false, _) => d.code,
    };
    let at = Loc { file: resize.key_at.file, span: resize.key_at.span.start..resize.at.span.end };
    let help = format!("set {} for the new board in this file", to_override(leaves, at.file.0));
    Some(Diagnostic::new(code, message, at).with_label(d.message.clone()).with_help(help))
}

/// The key of `[board]` that resized the board under the value at `path`, written in a file
/// nearer to the one validated (a lower id) than `file`, the value's.
fn resize<'a>(root: &'a Table, path: &str, file: u16) -> Option<&'a Node> {
    GEOMETRY
        .iter()
        .filter(|&&k| !(path == "board.holes" && k == "holes"))
        .filter_map(|k| node_at(root, &["board", k]))
        .find(|node| node.key_at.file.0 < file)
}

/// "the 7x7 board", or "the board" if a size is unknown.
fn board_size(root: &Table) -> String {
    let size = |key| match node_at(root, &["board", key]).map(|node| &node.value) {
        Some(Value::Integer(n)) => Some(*n),
        _ => None,
    };
    match (size("files"), size("ranks")) {
        (Some(files), Some(ranks)) => format!("the {files}x{ranks} board"),
        _ => "the board".to_owned(),
    }
}

/// The keys to override, in words: every board-dependent value written farther than `file`.
fn to_override(leaves: &[Leaf<'_>], file: u16) -> String {
    let names: Vec<String> = leaves
        .iter()
        .filter(|leaf| leaf.node.at.file.0 > file)
        .map(|leaf| format!("`{}`", leaf.path))
        .collect();
    if names.is_empty() {
        return "the inherited squares".to_owned();
    }
    crate::text::join(&names, "and")
}

/// Every value of the tree whose meaning depends on the board: square lists and positions, as
/// the key table types them.
fn board_dependent<'a>(table: &'a Table, path: &mut Vec<&'a str>, out: &mut Vec<Leaf<'a>>) {
    for (name, node) in table {
        path.push(name);
        match &node.value {
            Value::Table(inner) => board_dependent(inner, path, out),
            _ => match keys::find(path).map(|k| &k.ty) {
                Some(Ty::Str("squares")) => {
                    out.push(Leaf { path: path.join("."), node, position: false });
                }
                Some(Ty::Str("position")) => {
                    out.push(Leaf { path: path.join("."), node, position: true });
                }
                _ => {}
            },
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

/// Moves every diagnostic about a value written in a parent file that validates cleanly on its
/// own (a shipped variant, or a file of the author's that has no problem alone) to `extends`,
/// the validated file's `extends` line: the author's changes made the inherited value wrong,
/// and the place to fix it is the file validated. The inherited value's place becomes a note
/// and, if `set_key`, the help names the key to set.
pub(crate) fn to_extends(
    sources: &Sources,
    root: &Table,
    extends: Option<&Loc>,
    clean: &CleanAlone,
    set_key: bool,
    diagnostics: &mut [Diagnostic],
) {
    let Some(extends) = extends else { return };
    for d in diagnostics.iter_mut() {
        if d.at.file == extends.file {
            continue;
        }
        let file = sources.get(d.at.file);
        if clean.get(d.at.file, file) {
            *d = at_extends(file, root, extends, set_key, d);
        }
    }
}

/// Whether each file read validates cleanly on its own: worked out the first time a diagnostic
/// lies in the file, and kept for the later passes (the lint, the simulation). A file validates
/// cleanly when it loads without a warning, the lint's too where the definition was loaded with
/// one.
#[derive(Clone, Debug, Default)]
pub(crate) struct CleanAlone(Vec<OnceLock<bool>>, Option<Lint>);

impl CleanAlone {
    /// Nothing known yet of the files of `sources`, loaded with `lint` if given.
    pub(crate) fn new(sources: &Sources, lint: Option<Lint>) -> CleanAlone {
        CleanAlone(sources.files().map(|_| OnceLock::new()).collect(), lint)
    }

    /// Whether `file`, with id `id`, validates cleanly on its own.
    fn get(&self, id: FileId, file: &SourceFile) -> bool {
        match self.0.get(usize::from(id.0)) {
            Some(known) => *known.get_or_init(|| validates_alone(&file.origin, self.1)),
            None => validates_alone(&file.origin, self.1),
        }
    }
}

/// Whether the definition read from `origin` has no problem when validated alone (with `lint`).
fn validates_alone(origin: &Origin, lint: Option<Lint>) -> bool {
    match origin {
        // Shipped definitions are clean: a test says so.
        Origin::Shipped(_) => true,
        Origin::Disk(path) => {
            let options = crate::definition::LoadOptions { allow_outside: true };
            crate::definition::load_path_linted(path, options, lint)
                .is_ok_and(|d| d.warnings.is_empty())
        }
        Origin::Text(_) => false,
    }
}

/// `d`, about a value of the parent `file`, shown at `extends`; if `set_key`, its help names
/// the value's key.
fn at_extends(
    file: &SourceFile,
    root: &Table,
    extends: &Loc,
    set_key: bool,
    d: &Diagnostic,
) -> Diagnostic {
    let leaf = leaf_at(root, &d.at, &mut Vec::new());
    let written = match &leaf {
        Some((_, node)) => notes::place(file, node),
        None => {
            let (line, column) = line_col(&file.text, d.at.span.start);
            format!("{}:{line}:{column}", file.path)
        }
    };
    let note = format!("the inherited value: {written}");
    let help = match (leaf.filter(|_| set_key), &d.help) {
        (Some((key, _)), Some(help)) => Some(format!("set `{key}` in this file: {help}")),
        (Some((key, _)), None) => Some(format!("set `{key}` in this file")),
        (None, help) => help.clone(),
    };
    Diagnostic { at: extends.clone(), help, ..d.clone() }.with_note(note)
}

/// The key and node of the value of the tree written around `at`.
fn leaf_at<'a>(table: &'a Table, at: &Loc, path: &mut Vec<&'a str>) -> Option<(String, &'a Node)> {
    for (name, node) in table {
        path.push(name);
        let found = match &node.value {
            Value::Table(inner) => leaf_at(inner, at, path),
            _ if contains(&node.at, at) => Some((path.join("."), node)),
            _ => None,
        };
        path.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}
