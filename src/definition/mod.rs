//! Definition files: reading, `extends`, checking and compiling into [`Rules`].
//!
//! A file is parsed into a spanned tree (every TOML syntax error at once), checked against the
//! format's keys (`keys.rs`: unknown keys, types, ranges, enum values), merged over the files it
//! extends, checked for required keys, then compiled: every Betza, square and position string is
//! parsed by its grammar and cross-checked. Every problem of every stage is collected with its
//! place in its file.

pub(crate) mod codes;
pub(crate) mod diagnostic;
pub mod schema;
pub mod shipped;
pub(crate) mod source;

mod compile;
mod holders;
mod inherited;
mod json_schema;
pub(crate) mod keys;
mod notes;
mod resolved;
mod tree;

use std::path::{Path, PathBuf};

use crate::rules::Rules;
use crate::text_file::read_limited;
pub use codes::Code;
pub use diagnostic::{Diagnostic, JsonDiagnostic, MAX_SHOWN, Severity, more_line, to_json_all};
pub use keys::markdown_table as key_table;
pub use source::{FileId, Loc, Origin, SourceFile, Sources};
use tree::{Table, Value};

/// The longest `extends` chain followed.
pub const MAX_EXTENDS_DEPTH: usize = 16;

/// The largest definition file read.
pub const MAX_FILE_SIZE: u64 = 1 << 20;

/// A compiled definition, with the files it was read from and any warnings.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The rules.
    pub rules: Rules,
    /// The files read.
    pub sources: Sources,
    /// Problems that do not prevent play, in file order: those found while reading, and the
    /// lint's when the definition was loaded with it ([`crate::lint::load_checked`]; the lint
    /// alone is [`crate::lint::lint`]).
    pub warnings: Vec<Diagnostic>,
    /// The merged definition, for finding where a key was written.
    tree: Table,
    /// Where the file's `extends` was written, if it extends another.
    extends: Option<Loc>,
    /// Which of the files read validate cleanly on their own, as far as worked out.
    clean: inherited::CleanAlone,
}

impl Definition {
    /// The name of the shipped variant this definition is (not a file that extends one).
    #[must_use]
    pub fn shipped_name(&self) -> Option<&str> {
        match &self.sources.get(FileId(0)).origin {
            Origin::Shipped(name) => Some(name),
            _ => None,
        }
    }

    /// The text of the definition's own file (not of the files it extends).
    #[must_use]
    pub fn text(&self) -> &str {
        &self.sources.get(FileId(0)).text
    }

    /// Where the value of a key was written, e.g. `["goals", "white"]`.
    #[must_use]
    pub fn location(&self, path: &[&str]) -> Option<Loc> {
        self.node(path).map(|node| node.at.clone())
    }

    /// Whether the boolean key at `path` is true, as written or by its default.
    pub(crate) fn flag(&self, path: &[&str]) -> bool {
        let written = self.node(path).and_then(|node| keys::Literal::of(&node.value));
        written.or_else(|| keys::default_of(path)) == Some(keys::Literal::Bool(true))
    }

    /// Moves the diagnostics found after compiling (the lint's) about values inherited from
    /// files that are clean alone to this file's `extends`, as loading does, with a help that
    /// names the key to set.
    pub(crate) fn relocate(&self, diagnostics: &mut Vec<Diagnostic>) {
        self.relocate_with(diagnostics, true);
    }

    /// [`Definition::relocate`] for what random games found (`validate --simulate`): setting
    /// the key in this file is no remedy for them, so no help says to.
    pub(crate) fn relocate_simulated(&self, diagnostics: &mut Vec<Diagnostic>) {
        self.relocate_with(diagnostics, false);
    }

    fn relocate_with(&self, diagnostics: &mut Vec<Diagnostic>, set_key: bool) {
        inherited::relocate(&self.sources, &self.tree, diagnostics);
        let (extends, clean) = (self.extends.as_ref(), &self.clean);
        inherited::to_extends(&self.sources, &self.tree, extends, clean, set_key, diagnostics);
        inherited::dedup(diagnostics);
    }

    fn node(&self, path: &[&str]) -> Option<&tree::Node> {
        tree::node_at(&self.tree, path)
    }
}

/// Why a definition could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file itself could not be read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The path given.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The name is neither a shipped variant nor a path.
    #[error("no shipped variant is named `{name}`")]
    UnknownVariant {
        /// The name given.
        name: String,
        /// The shipped names, or the closest one.
        help: String,
    },
    /// The definition has errors.
    #[error("the definition has {} error(s)", .diagnostics.iter().filter(|d| d.is_error()).count())]
    Invalid {
        /// The files read.
        sources: Sources,
        /// Every problem, errors and warnings, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

/// Whether a VARIANT argument or an `extends` value is a path rather than a shipped name.
#[must_use]
pub fn is_path(arg: &str) -> bool {
    arg.contains('/') || arg.contains('\\') || arg.ends_with(".toml")
}

/// Loads a variant given as a shipped name or a path to a `.toml` file: its rules, and the
/// warnings found while reading it. The football-specific warnings of the lint, which need the
/// engine, are asked for separately ([`crate::lint::lint`]), or loaded with the definition
/// ([`crate::lint::load_checked`]) as `kickoff validate` shows them.
///
/// # Errors
/// An unreadable file, an unknown name, or a definition with errors.
pub fn load(arg: &str) -> Result<Definition, LoadError> {
    load_with(arg, LoadOptions::default())
}

/// How definitions may be loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Whether `extends` may name a file outside the extending file's folder.
    pub allow_outside: bool,
}

/// [`load`] with options.
///
/// # Errors
/// An unreadable file, an unknown name, or a definition with errors.
pub fn load_with(arg: &str, options: LoadOptions) -> Result<Definition, LoadError> {
    load_linted(arg, options, None)
}

/// A check of a compiled definition that loading runs when asked, from a layer above this one
/// (the lint, [`crate::lint::load_checked`]): its warnings join the definition's, and count
/// when a parent file is asked whether it validates cleanly on its own.
pub(crate) type Lint = fn(&Definition) -> Vec<Diagnostic>;

/// [`load_with`], with `lint`'s warnings too if given.
///
/// # Errors
/// An unreadable file, an unknown name, or a definition with errors.
pub(crate) fn load_linted(
    arg: &str,
    options: LoadOptions,
    lint: Option<Lint>,
) -> Result<Definition, LoadError> {
    if is_path(arg) {
        load_path_linted(Path::new(arg), options, lint)
    } else {
        match shipped::shipped(arg) {
            Some((name, _)) => {
                Loader { lint, ..Loader::default() }.run(Origin::Shipped(name), name.to_owned())
            }
            None => Err(unknown_variant(arg)),
        }
    }
}

/// Loads a shipped definition by name.
///
/// # Errors
/// An unknown name, or (a bug) a shipped definition with errors.
pub fn load_shipped(name: &str) -> Result<Definition, LoadError> {
    match shipped::shipped(name) {
        Some((name, _)) => Loader::default().run(Origin::Shipped(name), name.to_owned()),
        None => Err(unknown_variant(name)),
    }
}

/// Loads a definition file.
///
/// # Errors
/// An unreadable file or a definition with errors.
pub fn load_path(path: &Path) -> Result<Definition, LoadError> {
    load_path_with(path, LoadOptions::default())
}

/// [`load_path`] with options.
///
/// # Errors
/// An unreadable file or a definition with errors.
pub fn load_path_with(path: &Path, options: LoadOptions) -> Result<Definition, LoadError> {
    load_path_linted(path, options, None)
}

/// [`load_path_with`], with `lint`'s warnings too if given.
fn load_path_linted(
    path: &Path,
    options: LoadOptions,
    lint: Option<Lint>,
) -> Result<Definition, LoadError> {
    // The canonical path identifies the file when a chain of `extends` comes back to it.
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Loader { options, lint, ..Loader::default() }.run(Origin::Disk(key), path.display().to_string())
}

/// Loads a definition from text; `name` names it in messages. It may extend shipped variants
/// only, having no folder.
///
/// # Errors
/// A definition with errors.
pub fn load_text(name: &str, text: &str) -> Result<Definition, LoadError> {
    load_text_linted(name, text, None)
}

/// [`load_text`], with `lint`'s warnings too if given.
///
/// # Errors
/// A definition with errors.
pub(crate) fn load_text_linted(
    name: &str,
    text: &str,
    lint: Option<Lint>,
) -> Result<Definition, LoadError> {
    Loader { lint, ..Loader::default() }.run(Origin::Text(text.to_owned()), name.to_owned())
}

/// The text of a VARIANT argument's own file, unchecked: a shipped definition as shipped, a
/// path's file as it is.
///
/// # Errors
/// An unreadable file or an unknown name.
pub fn own_text(arg: &str) -> Result<String, LoadError> {
    if is_path(arg) {
        read(&Origin::Disk(PathBuf::from(arg)))
            .map_err(|reason| LoadError::Unreadable { path: PathBuf::from(arg), reason })
    } else {
        shipped::shipped(arg).map(|(_, text)| text.to_owned()).ok_or_else(|| unknown_variant(arg))
    }
}

fn unknown_variant(name: &str) -> LoadError {
    let names: Vec<&str> = shipped::names().collect();
    let help = match schema::did_you_mean(name, &names) {
        Some(best) => format!("did you mean `{best}`?"),
        None => {
            format!("the shipped variants are {}; or give a path to a .toml file", names.join(", "))
        }
    };
    LoadError::UnknownVariant { name: name.to_owned(), help }
}

/// Whether a file `NAME.toml` lies next to the definition read from `from`: what `extends =
/// "NAME"`, which names a shipped variant, most likely meant.
fn sibling_exists(from: &Origin, name: &str) -> bool {
    match from {
        Origin::Disk(path) => {
            path.parent().is_some_and(|folder| folder.join(format!("{name}.toml")).is_file())
        }
        _ => false,
    }
}

/// Reads a definition and the files it extends.
#[derive(Default)]
struct Loader {
    options: LoadOptions,
    /// The check run once the definition compiles, if any.
    lint: Option<Lint>,
    sources: Sources,
    diagnostics: Vec<Diagnostic>,
    /// Where the file loaded (not a parent) wrote `extends`.
    extends: Option<Loc>,
    /// The letters of the pieces removed by `removed = true`.
    removed: Vec<String>,
}

impl Loader {
    fn run(mut self, origin: Origin, shown: String) -> Result<Definition, LoadError> {
        let text = read(&origin)
            .map_err(|reason| LoadError::Unreadable { path: PathBuf::from(&shown), reason })?;
        let top = self.sources.add(SourceFile { path: shown, text, origin });
        let merged = self.file(top, &mut vec![top]);
        let clean = inherited::CleanAlone::new(&self.sources, self.lint);
        let compiled = merged.and_then(|root| {
            let at = Loc { file: top, span: 0..0 };
            schema::check_required(&root, keys::ROOT, "", &at, &mut self.diagnostics);
            let (rules, problems) = compile::compile(&self.sources, &root);
            self.diagnostics.extend(problems);
            inherited::relocate(&self.sources, &root, &mut self.diagnostics);
            notes::start_position(&self.sources, &root, &mut self.diagnostics);
            notes::removed_pieces(&self.removed, &mut self.diagnostics);
            let extends = self.extends.as_ref();
            let diagnostics = &mut self.diagnostics;
            inherited::to_extends(&self.sources, &root, extends, &clean, true, diagnostics);
            inherited::dedup(&mut self.diagnostics);
            rules.map(|rules| (rules, root))
        });
        self.diagnostics.sort_by_key(|d| (d.at.file.0, d.at.span.start));
        match compiled {
            Some((rules, tree)) if !self.diagnostics.iter().any(Diagnostic::is_error) => {
                let mut def = Definition {
                    rules,
                    sources: self.sources,
                    warnings: self.diagnostics,
                    tree,
                    extends: self.extends,
                    clean,
                };
                // The lint's warnings need the compiled rules; they are returned with the
                // rest, in file order.
                if let Some(lint) = self.lint {
                    def.warnings.extend(lint(&def));
                    def.warnings.sort_by_key(|d| (d.at.file.0, d.at.span.start));
                }
                Ok(def)
            }
            _ => Err(LoadError::Invalid { sources: self.sources, diagnostics: self.diagnostics }),
        }
    }

    /// Parses and checks one file, then merges it over the files it extends.
    /// `chain` holds the files from the top one down to this one.
    fn file(&mut self, id: FileId, chain: &mut Vec<FileId>) -> Option<Table> {
        let text = self.sources.get(id).text.clone();
        let mut table = match tree::parse(id, &text) {
            Ok(table) => table,
            Err(errors) => {
                self.diagnostics.extend(errors);
                return None;
            }
        };
        schema::check(&mut table, keys::ROOT, "", &mut self.diagnostics);
        let Some(extends) = table.remove("extends") else {
            return Some(strip_removed(table));
        };
        if id == FileId(0) {
            self.extends =
                Some(Loc { file: id, span: extends.key_at.span.start..extends.at.span.end });
        }
        let Value::String(target) = &extends.value else {
            return None;
        };
        let parent = self.parent(id, target, &extends.at, chain)?;
        chain.push(parent);
        let mut merged = self.file(parent, chain);
        chain.pop();
        if let Some(base) = merged.as_mut() {
            self.check_removals(base, &table);
            drop_credits(base);
            tree::merge(base, table);
        }
        merged.map(strip_removed)
    }

    /// Resolves and reads the file that `id` extends; reports a missing file or a cycle.
    fn parent(&mut self, id: FileId, target: &str, at: &Loc, chain: &[FileId]) -> Option<FileId> {
        let chain_text = |extra: &str| {
            let mut names: Vec<String> =
                chain.iter().map(|&f| self.sources.get(f).path.clone()).collect();
            names.push(extra.to_owned());
            names.join(" -> ")
        };
        let (origin, shown) = match self.resolve(id, target) {
            Ok(found) => found,
            Err((problem, help)) => {
                let message =
                    format!("cannot extend `{target}`: {problem} (chain: {})", chain_text(target));
                self.diagnostics
                    .push(Diagnostic::new(Code::BadParent, message, at.clone()).with_help(help));
                return None;
            }
        };
        if let Some(known) = self.sources.find(&origin) {
            if chain.contains(&known) {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::ExtendsCycle,
                        format!("`extends` forms a cycle: {}", chain_text(&shown)),
                        at.clone(),
                    )
                    .with_help("a definition may not extend itself, directly or through others"),
                );
                return None;
            }
            return Some(known);
        }
        if chain.len() >= MAX_EXTENDS_DEPTH {
            self.diagnostics.push(Diagnostic::new(
                Code::ExtendsTooDeep,
                format!(
                    "`extends` chain is longer than {MAX_EXTENDS_DEPTH} files: {}",
                    chain_text(&shown)
                ),
                at.clone(),
            ));
            return None;
        }
        match read(&origin) {
            Ok(text) => Some(self.sources.add(SourceFile { path: shown, text, origin })),
            Err(reason) => {
                self.diagnostics.push(Diagnostic::new(
                    Code::UnreadableParent,
                    format!("cannot read `{shown}`: {reason} (chain: {})", chain_text(&shown)),
                    at.clone(),
                ));
                None
            }
        }
    }

    /// Where `extends = target` in file `id` points: a shipped name, or a path relative to the file.
    /// On failure, what is wrong and a hint.
    fn resolve(&self, id: FileId, target: &str) -> Result<(Origin, String), (String, String)> {
        let from = &self.sources.get(id).origin;
        if !is_path(target) {
            return match shipped::shipped(target) {
                Some((name, _)) => Ok((Origin::Shipped(name), format!("{name} (shipped)"))),
                None if sibling_exists(from, target) => Err((
                    "no such variant".to_owned(),
                    format!(
                        "to extend the file next to this one, write `extends = \"{target}.toml\"`"
                    ),
                )),
                None => Err(match unknown_variant(target) {
                    LoadError::UnknownVariant { help, .. } => ("no such variant".to_owned(), help),
                    other => (other.to_string(), String::new()),
                }),
            };
        }
        match from {
            Origin::Disk(path) => {
                let folder = path.parent().unwrap_or(Path::new(""));
                let joined = folder.join(target);
                // Canonical paths see through `..` and symbolic links.
                let key = std::fs::canonicalize(&joined).unwrap_or_else(|_| normalise(&joined));
                if !self.options.allow_outside && !key.starts_with(folder) {
                    return Err((
                        "the file is outside this definition's folder".to_owned(),
                        "a definition may extend shipped variants and files in its own folder; \
                         pass --allow-outside to allow others"
                            .to_owned(),
                    ));
                }
                // Shown relative to the file as the user named it.
                let shown = Path::new(&self.sources.get(id).path)
                    .parent()
                    .unwrap_or(Path::new(""))
                    .join(target);
                Ok((Origin::Disk(key), normalise(&shown).display().to_string()))
            }
            Origin::Text(_) => Err((
                "a definition given as text has no folder".to_owned(),
                "extend a shipped variant by name".to_owned(),
            )),
            // Shipped files extend each other by file name.
            Origin::Shipped(_) => {
                let stem = Path::new(target).file_stem().and_then(|s| s.to_str()).unwrap_or(target);
                match shipped::shipped(stem) {
                    Some((name, _)) => Ok((Origin::Shipped(name), format!("{name} (shipped)"))),
                    None => Err((
                        "not a shipped variant".to_owned(),
                        "shipped definitions extend only shipped ones".to_owned(),
                    )),
                }
            }
        }
    }

    /// Reports `removed = true` on a piece that no parent defines.
    fn check_removals(&mut self, base: &Table, child: &Table) {
        let (Some(Value::Table(pieces)), base_pieces) =
            (child.get("pieces").map(|n| &n.value), base.get("pieces").map(|n| &n.value))
        else {
            return;
        };
        for (letter, node) in pieces {
            let removes = matches!(&node.value, Value::Table(t)
                if matches!(t.get("removed").map(|n| &n.value), Some(Value::Boolean(true))));
            let inherited = matches!(base_pieces, Some(Value::Table(b)) if b.contains_key(letter));
            if removes {
                self.removed.push(letter.clone());
            }
            if removes && !inherited {
                self.diagnostics.push(Diagnostic::new(
                    Code::NothingToRemove,
                    format!("piece {letter} is removed, but no parent definition has it"),
                    node.key_at.clone(),
                ));
            }
        }
    }
}

/// Drops a parent's credits: they describe the parent's file, not the file that extends it.
fn drop_credits(parent: &mut Table) {
    if let Some(tree::Node { value: Value::Table(variant), .. }) = parent.get_mut("variant") {
        variant.retain(|key, _| !keys::CREDITS.contains(&key.as_str()));
    }
}

/// Drops the pieces marked `removed = true`.
fn strip_removed(mut table: Table) -> Table {
    if let Some(tree::Node { value: Value::Table(pieces), .. }) = table.get_mut("pieces") {
        pieces.retain(|_, node| {
            !matches!(&node.value, Value::Table(t)
                if matches!(t.get("removed").map(|n| &n.value), Some(Value::Boolean(true))))
        });
    }
    table
}

/// The text of a definition, or why it cannot be read.
fn read(origin: &Origin) -> Result<String, String> {
    match origin {
        Origin::Text(text) if text.len() as u64 > MAX_FILE_SIZE => Err(format!(
            "the text is {} bytes; definitions are at most {MAX_FILE_SIZE} bytes",
            text.len()
        )),
        Origin::Text(text) => Ok(text.clone()),
        Origin::Shipped(name) => shipped::shipped(name)
            .map(|(_, text)| text.to_owned())
            .ok_or_else(|| "not shipped".to_owned()),
        Origin::Disk(path) => read_limited(path, MAX_FILE_SIZE, "definitions"),
    }
}

/// Removes `.` and `dir/..` from a path without touching the disk.
fn normalise(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{MAX_FILE_SIZE, load_text, normalise};

    #[test]
    fn normalising_drops_dots_and_steps_back_over_names_only() {
        assert_eq!(normalise(Path::new("a/./b/../c.toml")), PathBuf::from("a/c.toml"));
        assert_eq!(normalise(Path::new("../x/../y.toml")), PathBuf::from("../y.toml"));
        assert_eq!(normalise(Path::new("../../y.toml")), PathBuf::from("../../y.toml"));
    }

    #[test]
    fn a_definition_given_as_text_has_the_file_size_limit() {
        let head = "extends = \"mini\"\n# ";
        let exact = format!("{head}{}\n", "x".repeat(MAX_FILE_SIZE as usize - head.len() - 1));
        assert_eq!(exact.len() as u64, MAX_FILE_SIZE);
        assert!(load_text("exact", &exact).is_ok());
        let over = format!("{exact}#\n");
        assert!(load_text("over", &over).is_err());
    }
}
