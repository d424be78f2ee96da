//! The checks of a definition file against the format's keys (`keys.rs`): unknown keys,
//! types, ranges, enum values and, after `extends`, required keys.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::keys::{Family, Given, Key, Ty};
use crate::definition::source::Loc;
use crate::definition::tree::{Node, Table, Value};

pub use crate::definition::json_schema::json_schema;

/// Checks one file's tree against the spec: unknown keys, types, ranges and enum values.
/// Bad entries are removed so that later stages do not report them again.
///
/// A misspelt key stands for the key it resembles, if this table does not also give that one:
/// the intended key counts as given (with a refused value), so one mistake is reported once,
/// as unknown, and not also as a missing key.
pub(crate) fn check(table: &mut Table, keys: &[Key], path: &str, out: &mut Vec<Diagnostic>) {
    let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
    let mut meant = Vec::new();
    table.retain(|name, node| {
        let Some(spec) = keys.iter().find(|k| k.name == name) else {
            out.push(unknown_key(name, node, &names, path));
            if let Some(best) = did_you_mean(name, &names) {
                meant.push((best, Node { value: Value::Invalid, ..node.clone() }));
            }
            return false;
        };
        check_value(spec, node, &format!("{path}{}", sub_path(path, name)), out)
    });
    for (name, node) in meant {
        table.entry(name.to_owned()).or_insert(node);
    }
}

/// `[pieces.N]`-style path of a key below `path`.
fn sub_path(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!(".{name}") }
}

/// The table's name in messages: `[board]`, or "the top level".
fn where_(path: &str) -> String {
    if path.is_empty() { "at the top level".to_owned() } else { format!("in [{path}]") }
}

fn unknown_key(name: &str, node: &Node, names: &[&str], path: &str) -> Diagnostic {
    let diag = Diagnostic::new(
        Code::UnknownKey,
        format!("unknown key `{name}` {}", where_(path)),
        node.key_at.clone(),
    );
    if let Some(home) = home_of(name) {
        return diag.with_help(format!("`{name}` is a key of {home}: move it there"));
    }
    match did_you_mean(name, names) {
        Some(best) => diag.with_help(format!("did you mean `{best}`?")),
        None => diag.with_help(format!("the keys {} are: {}", where_(path), names.join(", "))),
    }
}

/// The tables where the format has a value key named `name`, in words: "[kick]", "[end] and
/// [pieces.X]". A key of another table is more likely misplaced than misspelt.
fn home_of(name: &str) -> Option<String> {
    let homes: Vec<String> = crate::definition::keys::leaves()
        .into_iter()
        .filter(|(path, key)| {
            path.last() == Some(&name) && !matches!(key.ty, Ty::Table(_) | Ty::Pieces(_))
        })
        .map(|(path, _)| match path.split_last() {
            Some((_, [])) | None => "the top level".to_owned(),
            Some((_, table)) => format!("[{}]", table.join(".")),
        })
        .collect();
    (!homes.is_empty()).then(|| crate::text::join(&homes, "and"))
}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Checks one value, marking it [`Value::Invalid`] after reporting what is wrong with it.
/// Returns whether to keep the entry (always: a bad value still counts as given).
fn check_value(spec: &Key, node: &mut Node, path: &str, out: &mut Vec<Diagnostic>) -> bool {
    if let Some(problem) = problem(spec, node, path, out) {
        out.push(problem);
        node.value = Value::Invalid;
    }
    true
}

/// What is wrong with a value, if anything; checks inside tables as it goes.
fn problem(
    spec: &Key,
    node: &mut Node,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Diagnostic> {
    let at = node.at.clone();
    let found = node.value.type_name();
    match (&spec.ty, &mut node.value) {
        (Ty::Str(_), Value::String(_)) | (Ty::Bool, Value::Boolean(_)) => None,
        (Ty::Int { min, max }, Value::Integer(n)) => {
            if (i128::from(*min)..=i128::from(*max)).contains(n) {
                return None;
            }
            let range =
                if min == max { format!("{min}") } else { format!("between {min} and {max}") };
            Some(Diagnostic::new(
                Code::OutOfRange,
                format!("`{path}` must be {range}, found {n}"),
                at,
            ))
        }
        (Ty::Choice(choices), Value::String(s)) => {
            let values = choices.names;
            if values.contains(&s.as_str()) {
                return None;
            }
            let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
            let diag = Diagnostic::new(
                Code::NotAChoice,
                format!("`{path}` must be {}, found \"{s}\"", crate::text::one_of(&quoted)),
                at,
            );
            Some(match did_you_mean(s, values) {
                Some(best) => diag.with_help(format!("did you mean \"{best}\"?")),
                None => diag,
            })
        }
        (Ty::Table(keys), Value::Table(t)) => {
            check(t, keys, path, out);
            None
        }
        (Ty::Pieces(keys), Value::Table(t)) => {
            check_pieces(t, keys, path, out);
            None
        }
        (ty, _) => Some(Diagnostic::new(
            Code::WrongType,
            format!("`{path}` must be {}, found {found}", type_words(ty)),
            at,
        )),
    }
}

/// Piece tables: each named by one uppercase letter.
fn check_pieces(table: &mut Table, keys: &'static [Key], path: &str, out: &mut Vec<Diagnostic>) {
    table.retain(|letter, node| {
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            out.push(
                Diagnostic::new(
                    Code::BadPieceLetter,
                    format!(
                        "`{letter}` is not a piece letter: pieces are named by one uppercase letter"
                    ),
                    node.key_at.clone(),
                )
                .with_help("write [pieces.N] for a knight, [pieces.K] for a king ..."),
            );
            return false;
        };
        if c.is_ascii_lowercase() {
            let upper = c.to_ascii_uppercase();
            out.push(
                Diagnostic::new(
                    Code::BadPieceLetter,
                    format!("piece tables are named by White's uppercase letter, found `{c}`"),
                    node.key_at.clone(),
                )
                .with_help(format!(
                    "write [pieces.{upper}]: Black's `{c}` is the same piece as White's `{upper}`"
                )),
            );
            return false;
        }
        if !c.is_ascii_uppercase() {
            out.push(Diagnostic::new(
                Code::BadPieceLetter,
                format!(
                    "`{c}` is not a piece letter: pieces are named by one uppercase letter A-Z"
                ),
                node.key_at.clone(),
            ));
            return false;
        }
        let spec = Key {
            name: "",
            ty: Ty::Table(keys),
            given: Given::Optional,
            doc: "",
            rule: "",
            family: Family::Any,
        };
        check_value(&spec, node, &format!("{path}.{letter}"), out)
    });
}

fn type_words(ty: &Ty) -> &'static str {
    match ty {
        Ty::Str(_) | Ty::Choice(_) => "a string",
        Ty::Int { .. } => "an integer",
        Ty::Bool => "true or false",
        Ty::Table(_) | Ty::Pieces(_) => "a table",
    }
}

/// Reports required keys missing from a merged definition. `at` is where the table is.
pub(crate) fn check_required(
    table: &Table,
    keys: &[Key],
    path: &str,
    at: &Loc,
    out: &mut Vec<Diagnostic>,
) {
    let targets = has_target(table);
    required_keys(table, keys, path, at, targets, out);
}

/// Whether a piece of the definition `root` is its side's goal (`target = true`), so that
/// goal squares are not required.
fn has_target(root: &Table) -> bool {
    let Some(Node { value: Value::Table(pieces), .. }) = root.get("pieces") else { return false };
    pieces.values().any(|p| match &p.value {
        Value::Table(p) => {
            matches!(p.get("target"), Some(Node { value: Value::Boolean(true), .. }))
        }
        _ => false,
    })
}

fn required_keys(
    table: &Table,
    keys: &[Key],
    path: &str,
    at: &Loc,
    targets: bool,
    out: &mut Vec<Diagnostic>,
) {
    for spec in keys {
        let sub = format!("{path}{}", sub_path(path, spec.name));
        let required = match spec.given {
            Given::Required => true,
            Given::UnlessTarget => !targets,
            _ => false,
        };
        match (table.get(spec.name), &spec.ty) {
            (None, Ty::Table(_) | Ty::Pieces(_)) if required => out.push(
                Diagnostic::new(Code::MissingTable, format!("missing table [{sub}]"), at.clone())
                    .with_help(format!("add [{sub}]: {}", lower_first(spec.doc))),
            ),
            (None, _) if required => out.push(
                Diagnostic::new(
                    Code::MissingKey,
                    format!("missing key `{}` {}", spec.name, where_(path)),
                    at.clone(),
                )
                .with_help(format!(
                    "add `{} = ...`: {}",
                    spec.name,
                    lower_first(spec.doc)
                )),
            ),
            (Some(Node { value: Value::Table(t), at: table_at, .. }), Ty::Table(inner)) => {
                required_keys(t, inner, &sub, table_at, targets, out);
            }
            (Some(Node { value: Value::Table(t), at: table_at, .. }), Ty::Pieces(inner)) => {
                if t.is_empty() && required {
                    out.push(Diagnostic::new(
                        Code::NoPieces,
                        format!("[{sub}] defines no piece"),
                        table_at.clone(),
                    ));
                }
                for (letter, piece) in t {
                    if let Value::Table(p) = &piece.value {
                        let sub = format!("{sub}.{letter}");
                        required_keys(p, inner, &sub, &piece.key_at, targets, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A sentence with its first letter in lowercase, to follow a colon.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_lowercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::keys::ROOT;
    use crate::definition::source::FileId;
    use crate::definition::tree;

    fn problems(text: &str) -> Vec<String> {
        let mut t = tree::parse(FileId(0), text).unwrap();
        let mut out = Vec::new();
        check(&mut t, ROOT, "", &mut out);
        out.iter()
            .map(|d| format!("{} | {}", d.message, d.help.clone().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn unknown_keys_get_a_hint() {
        let p = problems("[pieces.N]\nname = \"knight\"\nmvoes = \"N\"\n");
        assert_eq!(p, ["unknown key `mvoes` in [pieces.N] | did you mean `moves`?"]);
        let p = problems("[bored]\nfiles = 9\n");
        assert_eq!(p, ["unknown key `bored` at the top level | did you mean `board`?"]);
    }

    #[test]
    fn a_misspelt_key_is_reported_once() {
        let mut t =
            tree::parse(FileId(0), "[pieces.N]\nname = \"knight\"\nmvoes = \"N\"\n").unwrap();
        let mut out = Vec::new();
        check(&mut t, ROOT, "", &mut out);
        check_required(&t, ROOT, "", &Loc { file: FileId(0), span: 0..0 }, &mut out);
        let about_the_knight: Vec<(Code, &str)> = out
            .iter()
            .filter(|d| d.message.contains("[pieces.N]"))
            .map(|d| (d.code, d.message.as_str()))
            .collect();
        assert_eq!(about_the_knight, [(Code::UnknownKey, "unknown key `mvoes` in [pieces.N]")]);
    }

    #[test]
    fn types_ranges_and_enums() {
        let p = problems("[board]\nfiles = \"9\"\nranks = 25\n[kick]\ndirection = \"aways\"\n");
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].starts_with("`board.files` must be an integer, found a string"), "{p:?}");
        assert!(p[1].starts_with("`board.ranks` must be between 2 and 24, found 25"), "{p:?}");
        assert_eq!(
            p[2],
            "`kick.direction` must be \"away\" or \"line\", found \"aways\" | did you mean \"away\"?"
        );
    }

    #[test]
    fn piece_letters() {
        let p = problems(
            "[pieces.k]\nname = \"king\"\nmoves = \"K\"\n[pieces.Kn]\nname = \"x\"\nmoves = \"K\"\n",
        );
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("`Kn` is not a piece letter"), "{p:?}");
        assert!(
            p[1].contains("uppercase letter, found `k`") && p[1].contains("[pieces.K]"),
            "{p:?}"
        );
    }

    #[test]
    fn required_keys_after_merge() {
        let t = tree::parse(FileId(0), "[variant]\nauthor = \"x\"\n[pieces.N]\nmoves = \"N\"\n")
            .unwrap();
        let mut out = Vec::new();
        check_required(&t, ROOT, "", &Loc { file: FileId(0), span: 0..0 }, &mut out);
        let messages: Vec<&str> = out.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "missing key `name` in [variant]",
                "missing table [board]",
                "missing table [goals]",
                "missing key `name` in [pieces.N]",
                "missing table [setup]"
            ]
        );
    }
}
