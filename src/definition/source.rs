//! The definition files read in one run, and positions inside them.

use std::ops::Range;
use std::path::PathBuf;

/// Names one file of a [`Sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub(crate) u16);

/// A span of bytes in one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The file.
    pub file: FileId,
    /// The bytes.
    pub span: Range<usize>,
}

/// Where a definition file's text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A file on disk.
    Disk(PathBuf),
    /// A definition shipped inside the binary, by name.
    Shipped(&'static str),
    /// Text handed over directly, named for messages.
    Text(String),
}

/// One definition file's text and how to name it in messages.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path shown in diagnostics.
    pub path: String,
    /// The text.
    pub text: String,
    /// Where it came from.
    pub origin: Origin,
}

/// Every file read while loading a definition (the file itself and the files it extends).
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(u16::try_from(self.files.len() - 1).unwrap_or(u16::MAX))
    }

    /// Every file, the definition itself first.
    pub fn files(&self) -> impl Iterator<Item = &SourceFile> {
        self.files.iter()
    }

    /// The file with this id.
    #[must_use]
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[usize::from(id.0)]
    }

    /// The id of an already loaded file with this origin.
    #[must_use]
    pub fn find(&self, origin: &Origin) -> Option<FileId> {
        self.files.iter().position(|f| &f.origin == origin).map(|i| FileId(i as u16))
    }
}

/// A 1-based line and column (in characters) of byte `offset` in `text`.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[line_start..offset].chars().count() + 1)
}

/// The largest char boundary at or below `i`.
pub(crate) fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Maps a span inside a TOML string's value to a span in the file.
///
/// `value_span` covers the whole string literal (quotes included). When the literal has no
/// escapes, bytes of the value map one to one and `inner` is shifted past the opening quotes;
/// otherwise the whole literal is the best place to point at.
#[must_use]
pub fn span_in_string(
    text: &str,
    value_span: &Range<usize>,
    value: &str,
    inner: &Range<usize>,
) -> Range<usize> {
    let Some(raw) = text.get(value_span.clone()) else {
        return value_span.clone();
    };
    let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") { 3 } else { 1 };
    let body = raw.get(quote..raw.len().saturating_sub(quote));
    if body == Some(value) && inner.end <= value.len() {
        value_span.start + quote + inner.start..value_span.start + quote + inner.end
    } else {
        value_span.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let text = "a = 1\nbé = \"x\"\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 6), (2, 1));
        // `=` after a two-byte character is the 4th character of its line.
        assert_eq!(line_col(text, 10), (2, 4));
        assert_eq!(line_col(text, text.len()), (3, 1));
    }

    #[test]
    fn strings_map_into_the_file() {
        let text = "moves = \"fpR\"";
        assert_eq!(span_in_string(text, &(8..13), "fpR", &(1..2)), 10..11);
        let text = "moves = '''fpR'''";
        assert_eq!(span_in_string(text, &(8..17), "fpR", &(1..2)), 12..13);
        // An escape breaks the one-to-one mapping: point at the literal.
        let text = r#"moves = "\u0066pR""#;
        assert_eq!(span_in_string(text, &(8..18), "fpR", &(1..2)), 8..18);
    }
}
