//! Problems found in definition files, rendered rustc-style or as JSON.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;

use crate::definition::source::{Loc, Sources, line_col};

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
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in lowercase words.
    pub message: String,
    /// Where.
    pub at: Loc,
    /// A short label under the caret.
    pub label: Option<String>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `at`.
    pub fn error(message: impl Into<String>, at: Loc) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            at,
            label: None,
            help: None,
        }
    }

    /// A warning at `at`.
    pub fn warning(message: impl Into<String>, at: Loc) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message, at) }
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

    /// The diagnostic as a person reads it: `error: ...`, ` --> file:line:col`, the line, a caret.
    #[must_use]
    pub fn render(&self, sources: &Sources, color: bool) -> String {
        let file = sources.get(self.at.file);
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut span = self.at.span.clone();
        span.end = span.end.min(file.text.len());
        span.start = span.start.min(span.end);
        let annotation = AnnotationKind::Primary.span(span).label(self.label.as_deref());
        let mut group: Group<'_> = level
            .primary_title(&self.message)
            .element(Snippet::source(&file.text).path(&file.path).annotation(annotation));
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        let renderer = if color { Renderer::styled() } else { Renderer::plain() };
        // A source line may hold a C1 control character, which the renderer passes through.
        crate::render::printable::without_c1(renderer.render(&[group]))
    }

    /// The diagnostic as one JSON object (lines and columns from 1, in characters, end exclusive).
    #[must_use]
    pub fn to_json(&self, sources: &Sources) -> JsonDiagnostic {
        let file = sources.get(self.at.file);
        let (line, column) = line_col(&file.text, self.at.span.start);
        let (end_line, end_column) = line_col(&file.text, self.at.span.end);
        JsonDiagnostic {
            file: file.path.clone(),
            line,
            column,
            end_line,
            end_column,
            severity: self.severity,
            message: self.message.clone(),
            help: self.help.clone(),
        }
    }
}

/// The JSON form of a [`Diagnostic`], as `validate --format json` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonDiagnostic {
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
}
