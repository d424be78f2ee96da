//! Game records as written: PGN-style tags, numbered turns, comments and the result.
//!
//! ```text
//! [Variant "boyer-1951"]
//! [Result "1-0"]
//!
//! 1. Nc3 Nf7 {a quiet start} 2. Qd4>e6 ...
//! ```
//! This module splits a record into its parts; each turn token is read by [`super::turn`] and
//! checked against the position when the game is replayed.

use std::ops::Range;

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::{ParseError, from_pest};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    pub(super) struct RecordParser;
}
use grammar::{RecordParser, Rule};

/// A record as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordText {
    /// The tags in order.
    pub tags: Vec<Tag>,
    /// The turn tokens in order, each with its comments.
    pub turns: Vec<TurnToken>,
    /// Comments written before the first turn.
    pub leading_comments: Vec<String>,
    /// The result written at the end of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// The definition the record carries, if any.
    pub definition: Option<Embedded>,
}

/// A definition carried by a record: a comment before the first turn whose first line is
/// [`EMBEDDED`], the definition's text after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedded {
    /// The definition's text.
    pub text: String,
    /// Where it starts in the record.
    pub offset: usize,
}

/// The first line of a comment that carries a definition.
pub const EMBEDDED: &str = "definition\n";

/// One tag: `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
    /// The bytes of the whole tag.
    pub span: Range<usize>,
}

/// One turn as written in the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnToken {
    /// The token.
    pub text: String,
    /// Its bytes in the record.
    pub span: Range<usize>,
    /// The comments that follow it.
    pub comments: Vec<String>,
}

impl RecordText {
    /// The value of the first tag named `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|t| t.name == name).map(|t| t.value.as_str())
    }
}

/// Splits a record into tags, turn tokens, comments and the result.
///
/// # Errors
/// A syntax error with its position: an unclosed tag or comment, a tag without a quoted value.
pub fn parse(input: &str) -> Result<RecordText, ParseError> {
    let top = RecordParser::parse(Rule::record, input)
        .map_err(|e| unclosed_comment(input, from_pest(&e, input, rule_name)))?
        .next()
        .ok_or_else(|| ParseError::new("empty record", 0..0))?;
    let mut record = RecordText::default();
    for pair in top.into_inner() {
        match pair.as_rule() {
            Rule::tag => record.tags.push(tag(pair)?),
            Rule::comment => leading(pair, &mut record),
            Rule::movetext => movetext(pair, &mut record)?,
            Rule::EOI => {}
            other => unreachable!("parse: unexpected rule {other:?}"),
        }
    }
    Ok(record)
}

/// A readable name for every rule, used in "expected ..." messages.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end",
        Rule::record => "a game record",
        Rule::tag => "a tag (`[Name \"value\"]`)",
        Rule::tag_name => "a tag name",
        Rule::tag_value => "a quoted tag value",
        Rule::tag_text => "the tag's text",
        Rule::movetext => "the turns",
        Rule::number => "a turn number",
        Rule::result => "a result",
        Rule::token => "a turn",
        Rule::filler => "a space or a comment",
        Rule::comment => "a comment",
        Rule::comment_text => "the comment's text",
        Rule::space => "a space",
    }
}

/// A syntax error at a `{` that nothing closes, said plainly.
fn unclosed_comment(input: &str, error: ParseError) -> ParseError {
    let rest = input.get(error.span.start..).unwrap_or("");
    if rest.starts_with('{') && !rest.contains('}') {
        return ParseError::new("this comment is never closed (no `}` after its `{`)", error.span)
            .with_help("a comment is written in braces: `{a comment}`");
    }
    error
}

fn tag(pair: Pair<'_, Rule>) -> Result<Tag, ParseError> {
    let span = pair.as_span().start()..pair.as_span().end();
    let mut name = String::new();
    let mut value = String::new();
    for inner in pair.into_inner() {
        match inner.as_rule() {
            Rule::tag_name => {
                name = inner.as_str().to_owned();
                if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    let at = inner.as_span().start()..inner.as_span().end();
                    return Err(ParseError::new(
                        format!(
                            "the tag name `{}` has other characters than ASCII letters, digits and `_`",
                            crate::text::excerpt(&name)
                        ),
                        at,
                    ));
                }
            }
            Rule::tag_value => value = unescape(inner.into_inner().as_str()),
            other => unreachable!("tag: unexpected rule {other:?}"),
        }
    }
    Ok(Tag { name, value, span })
}

fn unescape(text: &str) -> String {
    text.replace("\\\"", "\"").replace("\\\\", "\\")
}

/// Escapes a tag value for writing.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

fn comment(pair: Pair<'_, Rule>) -> String {
    pair.into_inner().as_str().trim().to_owned()
}

/// A comment before the first turn: the record's definition (the first such), or a comment.
/// The first line may end in `\r\n`, as a record saved with CRLF line ends has it.
fn leading(pair: Pair<'_, Rule>, record: &mut RecordText) {
    let raw = pair.clone().into_inner().as_str();
    let start = pair.as_span().start() + 1; // after the `{`
    let first_line = EMBEDDED.trim_end_matches('\n');
    let carried = raw
        .strip_prefix(EMBEDDED)
        .or_else(|| raw.strip_prefix(first_line).and_then(|rest| rest.strip_prefix("\r\n")));
    match carried {
        Some(definition) if record.definition.is_none() => {
            let offset = start + raw.len() - definition.len();
            record.definition = Some(Embedded { text: definition.to_owned(), offset });
        }
        _ => record.leading_comments.push(comment(pair)),
    }
}

fn movetext(pair: Pair<'_, Rule>, record: &mut RecordText) -> Result<(), ParseError> {
    for inner in pair.into_inner() {
        let span = inner.as_span().start()..inner.as_span().end();
        match inner.as_rule() {
            Rule::number => {}
            Rule::token => {
                if record.result.is_some() {
                    return Err(ParseError::new("a turn after the result", span));
                }
                record.turns.push(TurnToken {
                    text: inner.as_str().to_owned(),
                    span,
                    comments: Vec::new(),
                });
            }
            Rule::comment => match record.turns.last_mut() {
                Some(turn) => turn.comments.push(comment(inner)),
                None => leading(inner, record),
            },
            Rule::result => {
                if record.result.is_some() {
                    return Err(ParseError::new("a second result", span));
                }
                record.result = Some(inner.as_str().to_owned());
            }
            other => unreachable!("movetext: unexpected rule {other:?}"),
        }
    }
    Ok(())
}

/// How many parts a record has, counted without parsing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartCount {
    /// Tags (`[...]`).
    pub tags: usize,
    /// Comments (`{...}`).
    pub comments: usize,
    /// Turns: the words of the movetext but turn numbers and the result.
    pub turns: usize,
}

/// Counts a record's tags, comments and turns in one pass that allocates nothing, so that a
/// record too long for some use can be refused before [`parse`] spends memory on its parts. For
/// a record that parses, the counts are those of the parse (a number written against its turn,
/// `1.Nc3`, is one turn); for another they bound what the parse would read before its error.
#[must_use]
pub fn count_parts(input: &str) -> PartCount {
    let bytes = input.as_bytes();
    let mut count = PartCount::default();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b'}' | b']' => i += 1,
            b'{' => {
                count.comments += 1;
                i = bytes[i..]
                    .iter()
                    .position(|&b| b == b'}')
                    .map_or(bytes.len(), |end| i + end + 1);
            }
            b'[' => {
                count.tags += 1;
                i = tag_end(bytes, i + 1);
            }
            _ => {
                let start = i;
                while i < bytes.len()
                    && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'[' | b']')
                {
                    i += 1;
                }
                if !number_or_result(&input[start..i]) {
                    count.turns += 1;
                }
            }
        }
    }
    count
}

/// Where the tag whose `[` is just before `from` ends: after its `]`, quoted values (with their
/// escapes) skipped.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut quoted = false;
    while i < bytes.len() {
        match (bytes[i], quoted) {
            (b'\\', true) => i += 1,
            (b'"', _) => quoted = !quoted,
            (b']', false) | (b'\n', _) => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Whether a word of the movetext is a turn number alone (`12.`, `12...`) or a result.
fn number_or_result(word: &str) -> bool {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = &word[digits..];
    (digits > 0 && (dots == "." || dots == "..."))
        || matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_counted_as_the_parser_reads_them() {
        for text in [
            "[Variant \"boyer-1951\"]\n[White \"Ann \\\"the] wall\\\"\"]\n[Result \"1-0\"]\n\n\
             {before} 1. Nc3 Nf7 {quiet} 2. Qd4>e6 --\n3.Bf4>d6>b8# 1-0\n",
            "1... Nf7 2. Nc3",
            "",
            "[Variant \"mine.toml\"]\r\n\r\n{definition\r\nextends = \"vchess\"\r\n}\r\n*\r\n",
            "1.Nc3 12... -- 1/2-1/2",
        ] {
            let parsed = parse(text).unwrap();
            let comments = parsed.leading_comments.len()
                + usize::from(parsed.definition.is_some())
                + parsed.turns.iter().map(|t| t.comments.len()).sum::<usize>();
            let expected =
                PartCount { tags: parsed.tags.len(), comments, turns: parsed.turns.len() };
            assert_eq!(count_parts(text), expected, "{text}");
        }
        let many = "-- ".repeat(1000);
        assert_eq!(count_parts(&many).turns, 1000);
    }

    #[test]
    fn a_definition_carried_before_the_turns() {
        let text = "[Variant \"mine.toml\"]\n\n{definition\nextends = \"vchess\"\n}\n\
                    {definition\nagain}\n1. Nc3 {definition\nlater} *\n";
        let r = parse(text).unwrap();
        let carried = r.definition.unwrap();
        assert_eq!(carried.text, "extends = \"vchess\"\n");
        assert!(text[carried.offset..].starts_with("extends = "));
        assert_eq!(r.leading_comments, ["definition\nagain"], "only the first is the definition");
        assert_eq!(r.turns[0].comments, ["definition\nlater"]);
    }

    #[test]
    fn a_definition_carried_in_a_record_with_crlf_line_ends() {
        let text =
            "[Variant \"mine.toml\"]\r\n\r\n{definition\r\nextends = \"vchess\"\r\n}\r\n*\r\n";
        let carried = parse(text).unwrap().definition.unwrap();
        assert_eq!(carried.text, "extends = \"vchess\"\r\n");
        assert!(text[carried.offset..].starts_with("extends = "));
    }

    #[test]
    fn a_whole_record() {
        let text = "[Variant \"boyer-1951\"]\n[White \"Ann \\\"the wall\\\"\"]\n[Result \"1-0\"]\n\n\
                    {before} 1. Nc3 Nf7 {quiet} 2. Qd4>e6 --\n3.Bf4>d6>b8# 1-0\n";
        let r = parse(text).unwrap();
        assert_eq!(r.tag("Variant"), Some("boyer-1951"));
        assert_eq!(r.tag("White"), Some("Ann \"the wall\""));
        let tokens: Vec<&str> = r.turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(tokens, ["Nc3", "Nf7", "Qd4>e6", "--", "Bf4>d6>b8#"]);
        assert_eq!(r.turns[1].comments, ["quiet"]);
        assert_eq!(r.leading_comments, ["before"]);
        assert_eq!(r.result.as_deref(), Some("1-0"));
        assert_eq!(&text[r.turns[2].span.clone()], "Qd4>e6");
    }

    #[test]
    fn black_to_move_first_and_no_result() {
        let r = parse("1... Nf7 2. Nc3").unwrap();
        assert_eq!(r.turns.len(), 2);
        assert_eq!(r.result, None);
        assert!(parse("").unwrap().turns.is_empty());
    }

    #[test]
    fn malformed_records() {
        let e = parse("[Variant boyer]").unwrap_err();
        assert_eq!(e.span, 9..10, "{}", e.message);
        let e = parse("1. Nc3 {unclosed").unwrap_err();
        assert_eq!(e.span.start, 7, "{}", e.message);
        let e = parse("1. Nc3 1-0 Nf7").unwrap_err();
        assert!(e.message.contains("after the result"), "{}", e.message);
        // A bad token is still a token: the replay reports it with its turn number.
        assert_eq!(parse("1. Nc3 N@f7").unwrap().turns[1].text, "N@f7");
    }

    #[test]
    fn messages_that_say_what_is_wrong() {
        assert_eq!(parse("\u{FEFF}[Variant \"x\"]\n1. Nc3 *").unwrap().tag("Variant"), Some("x"));
        let e = parse("[Variänt \"x\"]").unwrap_err();
        assert_eq!(e.span, 1..9);
        assert!(
            e.message.starts_with("the tag name `Variänt` has other characters"),
            "{}",
            e.message
        );
        let e = parse("1. Nc3 {never closed").unwrap_err();
        assert_eq!(e.message, "this comment is never closed (no `}` after its `{`)");
    }

    #[test]
    fn escapes_round_trip() {
        let value = "a \"quoted\" \\ name";
        let r = parse(&format!("[White \"{}\"]", escape(value))).unwrap();
        assert_eq!(r.tag("White"), Some(value));
    }
}
