//! A definition and the files it extends, written out as one file that means the same.

use crate::definition::Definition;
use crate::definition::keys::{Key, ROOT, Ty};
use crate::definition::tree::{self, Node, Table, Value};

impl Definition {
    /// The definition as one complete TOML file without `extends`: every key its chain of files
    /// gives, the format's tables in their order, each table's keys in the format's order, the
    /// pieces in the order they were written (the parent's first). Only the file's own credits
    /// are there, as a definition does not inherit them.
    #[must_use]
    pub fn resolved_toml(&self) -> String {
        let table = ordered(&self.tree, ROOT);
        format!("{}{table}", self.resolved_header())
    }

    /// A comment naming the files the definition was resolved from.
    fn resolved_header(&self) -> String {
        // A path may hold characters that a TOML comment may not.
        let shown = |path: &str| -> String {
            path.chars().map(|c| if c.is_control() { '\u{FFFD}' } else { c }).collect()
        };
        let mut files = self.sources.files().map(|f| shown(&f.path));
        let mut header = format!("# {} as one file", files.next().unwrap_or_default());
        let parents: Vec<String> = files.collect();
        if !parents.is_empty() {
            header += &format!(", with what it inherits from {}", parents.join(", "));
        }
        header + ".\n\n"
    }
}

/// The keys of `table` as a TOML table, in the order of `keys` (any other key after them).
fn ordered(table: &Table, keys: &[Key]) -> toml::Table {
    let mut out = toml::Table::new();
    for key in keys.iter().filter(|k| k.name != "extends") {
        let Some(node) = table.get(key.name) else { continue };
        let value = match (&key.ty, &node.value) {
            (Ty::Table(inner), Value::Table(t)) => Some(toml::Value::Table(ordered(t, inner))),
            (Ty::Pieces(inner), Value::Table(t)) => Some(toml::Value::Table(pieces(t, inner))),
            (_, value) => plain(value),
        };
        out.extend(value.map(|v| (key.name.to_owned(), v)));
    }
    for (name, node) in table {
        if name != "extends" && !out.contains_key(name) {
            out.extend(plain(&node.value).map(|v| (name.clone(), v)));
        }
    }
    out
}

/// The piece tables, in the order the compiler reads them.
fn pieces(table: &Table, keys: &[Key]) -> toml::Table {
    tree::written_order(table)
        .into_iter()
        .filter_map(|(letter, node)| match &node.value {
            Value::Table(t) => Some((letter.clone(), toml::Value::Table(ordered(t, keys)))),
            _ => None,
        })
        .collect()
}

/// A value as TOML, keys of tables in the order written; none for a value already refused.
fn plain(value: &Value) -> Option<toml::Value> {
    Some(match value {
        Value::String(s) | Value::Datetime(s) => toml::Value::String(s.clone()),
        Value::Integer(n) => toml::Value::Integer(i64::try_from(*n).ok()?),
        Value::Float(f) => toml::Value::Float(*f),
        Value::Boolean(b) => toml::Value::Boolean(*b),
        Value::Array(items) => {
            toml::Value::Array(items.iter().filter_map(|n: &Node| plain(&n.value)).collect())
        }
        Value::Table(t) => toml::Value::Table(ordered(t, &[])),
        Value::Invalid => return None,
    })
}
