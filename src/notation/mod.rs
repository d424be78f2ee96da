//! Parsers for every language kickoff reads: Betza piece moves, square lists, positions, game
//! records and turns.
//!
//! Each parser turns text into plain typed values and knows nothing of rules: whether a square is
//! on the board or a letter names a piece is checked later, against a [`crate::rules::Rules`].
//! Errors carry byte spans into the parsed text so that callers can point into a file. Reading
//! and writing turns against a position (the long form, the names of the legal turns, typed text
//! matched to one of them) is [`crate::turn_text`]'s, above the turn generator.

pub mod betza;
pub mod fen;
pub mod record;
pub mod squares;
pub mod turn;

use std::ops::Range;

use pest::RuleType;
use pest::error::{Error as PestError, ErrorVariant, InputLocation};

use crate::text::one_of;

/// A problem in a piece of text: what is wrong, and where (byte offsets into that text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// What is wrong, in lowercase words.
    pub message: String,
    /// The bytes of the input at fault (may be empty at the end of the input).
    pub span: Range<usize>,
    /// A hint on how to fix it.
    pub help: Option<String>,
}

impl ParseError {
    /// A problem at `span` with no hint.
    pub fn new(message: impl Into<String>, span: Range<usize>) -> Self {
        ParseError { message: message.into(), span, help: None }
    }

    /// The same problem with a hint.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The same problem with its span moved `by` bytes to the right.
    #[must_use]
    pub fn shifted(mut self, by: usize) -> Self {
        self.span = self.span.start + by..self.span.end + by;
        self
    }
}

/// The span of the character at byte `pos` of `input` (empty at the end of the input).
pub(crate) fn char_span(input: &str, pos: usize) -> Range<usize> {
    let len = input[pos..].chars().next().map_or(0, char::len_utf8);
    pos..pos + len
}

/// Describes the character at `pos` for a message: "`x`" or "the end".
pub(crate) fn found_at(input: &str, pos: usize) -> String {
    match input[pos..].chars().next() {
        Some(c) if c.is_control() || c.is_whitespace() => format!("{c:?}"),
        Some(c) => format!("`{c}`"),
        None => "the end".to_owned(),
    }
}

/// Turns a pest error into a [`ParseError`] that names what was expected in words.
pub(crate) fn from_pest<R: RuleType>(
    err: &PestError<R>,
    input: &str,
    name: impl Fn(&R) -> &'static str,
) -> ParseError {
    let pos = error_pos(err);
    let message = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let mut names: Vec<&str> = positives.iter().map(&name).collect();
            names.sort_unstable();
            names.dedup();
            format!("expected {}, found {}", one_of(&names), found_at(input, pos))
        }
        ErrorVariant::ParsingError { .. } => format!("unexpected {}", found_at(input, pos)),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    ParseError::new(message, char_span(input, pos))
}

/// The byte where pest stopped reading.
pub(crate) fn error_pos<R: RuleType>(err: &PestError<R>) -> usize {
    match err.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    }
}

#[cfg(test)]
mod tests {
    use pest::error::{Error as PestError, ErrorVariant};

    use super::{found_at, from_pest};

    mod grammar {
        #[derive(pest_derive::Parser)]
        #[grammar_inline = "word = { ASCII_ALPHA+ }"]
        pub(super) struct WordParser;
    }
    use grammar::Rule;

    /// An error pest raises with nothing expected (only rules that must not match) says what
    /// was unexpected; one with rules expected names them.
    #[test]
    fn a_parse_error_names_what_was_expected_or_what_was_not() {
        use pest::Parser;
        let expected = grammar::WordParser::parse(Rule::word, "1").unwrap_err();
        let expected = from_pest(&expected, "1", |_| "a word");
        assert_eq!(expected.message, "expected a word, found `1`");
        assert_eq!(expected.span, 0..1);
        let pos = pest::Position::new("ab1", 2).expect("a position inside the text");
        let negatives =
            ErrorVariant::ParsingError { positives: vec![], negatives: vec![Rule::word] };
        let unexpected = from_pest(&PestError::new_from_pos(negatives, pos), "ab1", |_| "a word");
        assert_eq!(unexpected.message, "unexpected `1`");
        assert_eq!(unexpected.span, 2..3);
    }

    /// Invisible characters are named, so that a message about them can be read.
    #[test]
    fn a_character_is_named_visibly() {
        assert_eq!(found_at("a\tb", 1), "'\\t'");
        assert_eq!(found_at("a b", 1), "' '");
        assert_eq!(found_at("a\u{7}", 1), "'\\u{7}'");
        assert_eq!(found_at("ab", 1), "`b`");
        assert_eq!(found_at("ab", 2), "the end");
    }
}
