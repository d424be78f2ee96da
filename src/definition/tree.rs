//! A definition file as a tree of TOML values, each with the file and bytes it came from.
//!
//! Files are parsed into this tree (all syntax errors at once), checked against the schema,
//! then merged along their `extends` chain, key by key.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::de::{DeTable, DeValue};

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::source::{FileId, Loc, line_col};

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    /// The value.
    pub value: Value,
    /// Where the value is (for a table: its header or its first key).
    pub at: Loc,
    /// Where its key is.
    pub key_at: Loc,
}

/// A TOML value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    String(String),
    Integer(i128),
    Float(f64),
    Boolean(bool),
    Datetime(String),
    Array(Vec<Node>),
    Table(Table),
    /// A value the schema refused (already reported). It still overrides a parent's value, and
    /// it still counts as given, so that it is not also reported as missing.
    Invalid,
}

/// A TOML table: keys in byte order.
pub(crate) type Table = BTreeMap<String, Node>;

impl Value {
    /// The name of the value's type, for messages: "a string", "an integer" ...
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Boolean(_) => "a boolean",
            Value::Datetime(_) => "a date",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
            Value::Invalid => "an invalid value",
        }
    }
}

/// The most syntax errors reported for one file.
const MAX_SYNTAX_ERRORS: usize = 5;

/// Parses a file into a tree, or returns every syntax error of the file.
pub(crate) fn parse(file: FileId, text: &str) -> Result<Table, Vec<Diagnostic>> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        // A file that is not TOML at all would give an error per line; the first few say it.
        let mut shown: Vec<Diagnostic> = errors
            .iter()
            .take(MAX_SYNTAX_ERRORS)
            .map(|e| syntax_error(file, text, e.message(), e.span().unwrap_or(0..0)))
            .collect();
        if errors.len() > MAX_SYNTAX_ERRORS
            && let Some(last) = shown.last_mut()
        {
            last.help = Some(format!(
                "{} more syntax errors follow; is this a definition file?",
                errors.len() - MAX_SYNTAX_ERRORS
            ));
        }
        return Err(shown);
    }
    Ok(table(file, doc.get_ref()))
}

/// One syntax error as a diagnostic.
fn syntax_error(file: FileId, text: &str, message: &str, span: Range<usize>) -> Diagnostic {
    let word = text.get(span.clone()).unwrap_or("");
    let at = Loc { file, span: span.clone() };
    if message.starts_with("duplicate key") {
        return duplicate(file, text, span);
    }
    // A bare word where a value belongs is almost always text without quotes; the parser's own
    // guess ("invalid boolean") would mislead. Its precise messages (a misplaced `_`, a
    // leading zero) are kept.
    if is_value_guess(message) && is_bare_word(word) {
        Diagnostic::new(Code::Unquoted, format!("TOML syntax: `{word}` is not a value"), at)
            .with_help(format!("text is written in quotes: \"{word}\""))
    } else {
        Diagnostic::new(Code::Syntax, syntax_message(message), at)
    }
}

/// Whether the parser's message is its guess at what an unquoted word was meant to be.
fn is_value_guess(message: &str) -> bool {
    ["string values must be quoted", "invalid boolean", "invalid float", "invalid integer"]
        .iter()
        .any(|guess| message.starts_with(guess))
}

/// A key or table written twice, with the line where it was first written.
fn duplicate(file: FileId, text: &str, span: Range<usize>) -> Diagnostic {
    let word = unquoted(text.get(span.clone()).unwrap_or(""));
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let is_table = text[line_start..span.start].trim_start().starts_with('[');
    let message = if is_table {
        let line = &text[line_start..];
        let header = line.split(']').next().unwrap_or(line).trim_start().trim_start_matches('[');
        format!("TOML syntax: the table [{}] is written twice", header.trim())
    } else {
        format!("TOML syntax: the key `{word}` is written twice in the same table")
    };
    let first = first_written(text, &span).map(|at| line_col(text, at.start).0);
    let help = match (first, is_table) {
        (Some(line), true) => {
            format!("it is first written on line {line}; write a table once, with all its keys")
        }
        (Some(line), false) => format!("it is first written on line {line}; keep one of the two"),
        (None, _) => "keep one of the two".to_owned(),
    };
    Diagnostic::new(Code::Duplicate, message, Loc { file, span }).with_help(help)
}

/// Where the key written a second time at `span` was first written: the text up to the
/// duplicate's line is read again, with the duplicate renamed to find the table it is in.
fn first_written(text: &str, span: &Range<usize>) -> Option<Range<usize>> {
    const MARKER: &str = "kickoff-duplicate-key";
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[span.end..].find('\n').map_or(text.len(), |i| span.end + i);
    let probe = format!("{}{MARKER}{}", &text[..span.start], &text[span.end..line_end]);
    let (probe_doc, _) = DeTable::parse_recoverable(&probe);
    let path = path_to(probe_doc.get_ref(), MARKER)?;
    let (before, _) = DeTable::parse_recoverable(&text[..line_start]);
    let mut table = before.get_ref();
    for key in &path {
        table = match table.get(key.as_str())?.get_ref() {
            DeValue::Table(t) => t,
            _ => return None,
        };
    }
    let word = unquoted(text.get(span.clone())?);
    table.keys().find(|k| k.get_ref().as_ref() as &str == word).map(|k| k.span())
}

/// The keys from the root to the table that holds `key`.
fn path_to(table: &DeTable<'_>, key: &str) -> Option<Vec<String>> {
    if table.keys().any(|k| k.get_ref().as_ref() as &str == key) {
        return Some(Vec::new());
    }
    table.iter().find_map(|(k, v)| match v.get_ref() {
        DeValue::Table(inner) => path_to(inner, key).map(|mut path| {
            path.insert(0, k.get_ref().to_string());
            path
        }),
        _ => None,
    })
}

/// A key as it reads without its quotes.
fn unquoted(key: &str) -> &str {
    key.strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key)
}

fn is_bare_word(word: &str) -> bool {
    !word.is_empty()
        && word.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        && !word.chars().all(|c| c.is_ascii_digit())
        && !matches!(word, "true" | "false" | "inf" | "nan")
}

/// The first line of a TOML parser message, lowercase first letter, without an empty
/// "expected nothing".
fn syntax_message(message: &str) -> String {
    let line = message.lines().next().unwrap_or("invalid TOML").trim();
    let line = line.strip_suffix(", expected nothing").unwrap_or(line);
    let mut chars = line.chars();
    let first = chars.next().map(|c| c.to_lowercase().collect::<String>()).unwrap_or_default();
    format!("TOML syntax: {first}{}", chars.as_str())
}

fn table(file: FileId, t: &DeTable<'_>) -> Table {
    t.iter()
        .map(|(k, v)| {
            let key_at = Loc { file, span: k.span() };
            let at = Loc { file, span: v.span() };
            (k.get_ref().to_string(), Node { value: value(file, v.get_ref()), at, key_at })
        })
        .collect()
}

fn value(file: FileId, v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        // Beyond i128 only matters for range messages, which quote the source text.
        DeValue::Integer(i) => {
            Value::Integer(i128::from_str_radix(i.as_str(), i.radix()).unwrap_or(i128::MAX))
        }
        DeValue::Float(f) => Value::Float(f.as_str().replace('_', "").parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Value::Boolean(*b),
        DeValue::Datetime(d) => Value::Datetime(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| {
                    let at = Loc { file, span: item.span() };
                    Node { value: value(file, item.get_ref()), at: at.clone(), key_at: at }
                })
                .collect(),
        ),
        DeValue::Table(t) => Value::Table(table(file, t)),
    }
}

/// The node at `path` of the tree (`["goals", "white"]`), if written.
pub(crate) fn node_at<'a>(root: &'a Table, path: &[&str]) -> Option<&'a Node> {
    let (last, init) = path.split_last()?;
    let mut table = root;
    for key in init {
        let Value::Table(inner) = &table.get(*key)?.value else { return None };
        table = inner;
    }
    table.get(*last)
}

/// The entries of a merged table in the order they were written, the parent's first: the order
/// of a definition's pieces.
pub(crate) fn written_order(table: &Table) -> Vec<(&String, &Node)> {
    let mut entries: Vec<(&String, &Node)> = table.iter().collect();
    entries.sort_by_key(|(_, n)| (std::cmp::Reverse(n.key_at.file.0), n.key_at.span.start));
    entries
}

/// Merges `child` into `parent` key by key: tables merge recursively, other values replace.
pub(crate) fn merge(parent: &mut Table, child: Table) {
    for (key, node) in child {
        match (parent.get_mut(&key), node) {
            // A table keeps the place where its parent defined it, so pieces keep their order.
            (Some(Node { value: Value::Table(p), .. }), Node { value: Value::Table(c), .. }) => {
                merge(p, c);
            }
            // A refused value, or the stand-in for a misspelt key, leaves the parent's value in
            // place: the mistake is reported once, and the rest is checked against what the
            // parent gives (a misspelt `[piece.K]` does not take away the parent's pieces).
            (Some(_), Node { value: Value::Invalid, .. }) => {}
            (_, node) => {
                parent.insert(key, node);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Table {
        parse(FileId(0), text).unwrap()
    }

    /// The syntax errors of a text of `n` broken lines.
    fn broken_lines(n: usize) -> Vec<Diagnostic> {
        let text: String = (0..n).map(|i| format!("key{i} = \n")).collect();
        parse(FileId(0), &text).unwrap_err()
    }

    #[test]
    fn at_most_five_syntax_errors_are_shown_and_the_rest_counted() {
        let five = broken_lines(MAX_SYNTAX_ERRORS);
        assert_eq!(five.len(), MAX_SYNTAX_ERRORS);
        assert!(five.iter().all(|d| d.help.is_none()), "five errors: all are shown: {five:#?}");
        let eight = broken_lines(MAX_SYNTAX_ERRORS + 3);
        assert_eq!(eight.len(), MAX_SYNTAX_ERRORS);
        assert_eq!(
            eight.last().and_then(|d| d.help.as_deref()),
            Some("3 more syntax errors follow; is this a definition file?")
        );
    }

    #[test]
    fn spans_point_at_keys_and_values() {
        let text = "[pieces.N]\nname = \"knight\"\nmoves = \"N\"\n";
        let t = tree(text);
        let Value::Table(pieces) = &t["pieces"].value else { panic!("pieces is a table") };
        let Value::Table(n) = &pieces["N"].value else { panic!("N is a table") };
        assert_eq!(&text[n["moves"].at.span.clone()], "\"N\"");
        assert_eq!(&text[n["moves"].key_at.span.clone()], "moves");
        assert_eq!(&text[pieces["N"].key_at.span.clone()], "N");
    }

    #[test]
    fn numbers() {
        let t = tree("a = 1_000\nb = 0x10\nc = -3\nd = 1.5\ne = 99999999999999999999\n");
        assert_eq!(t["a"].value, Value::Integer(1000));
        assert_eq!(t["b"].value, Value::Integer(16));
        assert_eq!(t["c"].value, Value::Integer(-3));
        assert_eq!(t["d"].value, Value::Float(1.5));
        assert_eq!(t["e"].value, Value::Integer(99_999_999_999_999_999_999));
    }

    #[test]
    fn every_syntax_error_is_reported() {
        let errors = parse(FileId(0), "a = \nb = \"x\nc = 1\n").unwrap_err();
        assert!(errors.len() >= 2, "{errors:?}");
        assert!(errors[0].message.starts_with("TOML syntax: "), "{}", errors[0].message);
    }

    #[test]
    fn merging_is_key_by_key() {
        let mut parent =
            tree("[pieces.N]\nname = \"knight\"\nmoves = \"N\"\n[kick]\nper_piece = 1\n");
        merge(&mut parent, tree("[pieces.N]\nkick = \"K\"\n[kick]\nper_piece = 2\n"));
        let Value::Table(pieces) = &parent["pieces"].value else { panic!() };
        let Value::Table(n) = &pieces["N"].value else { panic!() };
        assert_eq!(n.len(), 3);
        assert_eq!(n["kick"].value, Value::String("K".into()));
        let Value::Table(kick) = &parent["kick"].value else { panic!() };
        assert_eq!(kick["per_piece"].value, Value::Integer(2));
    }
}
