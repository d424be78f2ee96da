//! Problems found in definition files, rendered rustc-style or as JSON.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;

use crate::definition::codes::Code;
use crate::definition::source::{FileId, Loc, Sources, floor_char_boundary, line_col};
use crate::position::placement::Reason;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The definition cannot be used.
    Error,
    /// The definition works, but probably not as its author meant.
    Warning,
}

/// One problem, with the place in a file it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The kind of mistake, stable across versions (see `docs/diagnostics.md`).
    pub code: Code,
    /// Error or warning (an `E` or a `W` code).
    pub severity: Severity,
    /// What is wrong, in lowercase words.
    pub message: String,
    /// Where.
    pub at: Loc,
    /// A short label under the caret.
    pub label: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
    /// More about it, e.g. where an inherited value was written.
    pub note: Option<String>,
    /// Why the rules refused a piece of the start position, for the notes added once the
    /// whole definition is known.
    pub(crate) reason: Option<Reason>,
}

impl Diagnostic {
    /// A problem of kind `code` at `at`: an error or a warning as the code says.
    pub fn new(code: Code, message: impl Into<String>, at: Loc) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            at,
            label: None,
            help: None,
            note: None,
            reason: None,
        }
    }

    /// The same diagnostic with a hint.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The same diagnostic with a hint, if there is one.
    #[must_use]
    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// The same diagnostic with a note.
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The same diagnostic with a label under the caret.
    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Whether this is an error.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic as a person reads it: `error[E0201]: ...`, ` --> file:line:col`, the line, a caret.
    #[must_use]
    pub fn render(&self, sources: &Sources, color: bool) -> String {
        let file = sources.get(self.at.file);
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut span = self.at.span.clone();
        span.end = floor_char_boundary(&file.text, span.end.min(file.text.len()));
        span.start = floor_char_boundary(&file.text, span.start.min(span.end));
        // Only the lines of the span are handed over: rendering the whole file for each of
        // thousands of problems would take time in the square of the file's size.
        let (excerpt, first_line) = excerpt(&file.text, &span);
        let span = span.start - excerpt.start..span.end - excerpt.start;
        let annotation = AnnotationKind::Primary.span(span).label(self.label.as_deref());
        let snippet = Snippet::source(&file.text[excerpt]).line_start(first_line);
        let mut group: Group<'_> = level
            .primary_title(&self.message)
            .id(self.code.as_str())
            .element(snippet.path(&file.path).annotation(annotation));
        if let Some(note) = &self.note {
            group = group.element(Level::NOTE.message(note.as_str()));
        }
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        let renderer = if color { Renderer::styled() } else { Renderer::plain() };
        // A source line may hold a C1 control character, which the renderer passes through.
        crate::text::without_c1(renderer.render(&[group]))
    }

    /// The diagnostic as one JSON object (lines and columns from 1, in characters, end exclusive).
    #[must_use]
    pub fn to_json(&self, sources: &Sources) -> JsonDiagnostic {
        let file = sources.get(self.at.file);
        let (line, column) = line_col(&file.text, self.at.span.start);
        let (end_line, end_column) = line_col(&file.text, self.at.span.end);
        JsonDiagnostic {
            code: self.code,
            file: file.path.clone(),
            line,
            column,
            end_line,
            end_column,
            severity: self.severity,
            message: self.message.clone(),
            help: self.help.clone(),
            note: self.note.clone(),
        }
    }
}

/// The most diagnostics shown to people at once: past them, a count.
pub const MAX_SHOWN: usize = 200;

/// The line that stands for the diagnostics past the first [`MAX_SHOWN`] of `all`, if any.
#[must_use]
pub fn more_line(all: &[Diagnostic]) -> Option<String> {
    let rest = all.get(MAX_SHOWN..).filter(|rest| !rest.is_empty())?;
    let errors = rest.iter().filter(|d| d.is_error()).count();
    let warnings = rest.len() - errors;
    Some(format!(
        "... and {} more ({errors} error{}, {warnings} warning{}): fix these first, or use \
         --format json for the whole list",
        rest.len(),
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    ))
}

/// The bytes of the whole lines that `span` touches, and the number of the first (from 1).
fn excerpt(text: &str, span: &std::ops::Range<usize>) -> (std::ops::Range<usize>, usize) {
    let start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[span.end..].find('\n').map_or(text.len(), |i| span.end + i + 1);
    let line = text.as_bytes()[..start].iter().filter(|&&b| b == b'\n').count() + 1;
    (start..end, line)
}

/// The JSON forms of `diagnostics`, with one index of line starts per file (instead of a count
/// of lines for each diagnostic).
#[must_use]
pub fn to_json_all(diagnostics: &[Diagnostic], sources: &Sources) -> Vec<JsonDiagnostic> {
    let mut indexes: std::collections::HashMap<FileId, Vec<usize>> = Default::default();
    diagnostics
        .iter()
        .map(|d| {
            let text = &sources.get(d.at.file).text;
            let starts = indexes.entry(d.at.file).or_insert_with(|| {
                std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
            });
            let place = |offset: usize| {
                let offset = floor_char_boundary(text, offset.min(text.len()));
                let line = starts.partition_point(|&s| s <= offset);
                (line, text[starts[line - 1]..offset].chars().count() + 1)
            };
            let ((line, column), (end_line, end_column)) =
                (place(d.at.span.start), place(d.at.span.end));
            JsonDiagnostic {
                code: d.code,
                file: sources.get(d.at.file).path.clone(),
                line,
                column,
                end_line,
                end_column,
                severity: d.severity,
                message: d.message.clone(),
                help: d.help.clone(),
                note: d.note.clone(),
            }
        })
        .collect()
}

/// The JSON form of a [`Diagnostic`], as `validate --format json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonDiagnostic {
    /// The stable code of the kind of mistake: `"E0201"`.
    pub code: Code,
    /// The file's path as given.
    pub file: String,
    /// First line, from 1.
    pub line: usize,
    /// First column, from 1, in characters.
    pub column: usize,
    /// Last line.
    pub end_line: usize,
    /// Column just after the span.
    pub end_column: usize,
    /// "error" or "warning".
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// More about it, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
