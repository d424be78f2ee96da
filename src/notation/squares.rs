//! Square lists: `e9`, `d9-f9`, `d9 f9`, `d9, f9`, whole ranks `*1` and files `e*`.

use std::ops::Range;

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::{ParseError, from_pest};
use crate::square::Square;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/square.pest"]
    #[grammar = "../grammar/squares.pest"]
    pub(super) struct SquaresParser;
}
use grammar::{Rule, SquaresParser};

/// The longest square list accepted.
pub const MAX_LEN: usize = 2000;

/// A square name as written: file and rank from 0, not yet checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareName {
    /// File from 0 (`a`).
    pub file: u8,
    /// Rank from 0 (rank 1).
    pub rank: u8,
}

impl SquareName {
    /// The name the square grammar (`grammar/square.pest`) matched in `text`, a file letter
    /// `a`-`p` and a rank 1-99.
    pub(crate) fn matched(text: &str) -> Self {
        SquareName { file: file_of(&text[..1]), rank: rank_of(&text[1..]) }
    }

    /// The square, if it lies on a board of `files` x `ranks`.
    #[must_use]
    pub fn on_board(self, files: u8, ranks: u8) -> Option<Square> {
        (self.file < files && self.rank < ranks).then(|| Square::at(self.file, self.rank))
    }
}

impl std::fmt::Display for SquareName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), u32::from(self.rank) + 1)
    }
}

/// One item of a list, with its span in the parsed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What the item names.
    pub kind: ItemKind,
    /// The bytes of the item.
    pub span: Range<usize>,
}

/// The forms an item can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// One square.
    Square(SquareName),
    /// Every square from the first to the second along one rank or file, or (a rectangle)
    /// every square of the rectangle with these opposite corners.
    Range(SquareName, SquareName),
    /// A whole rank (from 0).
    Rank(u8),
    /// A whole file (from 0).
    File(u8),
}

/// Parses a list of squares.
///
/// # Errors
/// A syntax error with its position, or a range that is neither along a rank nor a file.
pub fn parse(input: &str) -> Result<Vec<Item>, ParseError> {
    if input.len() > MAX_LEN {
        return Err(ParseError::new(
            format!("square list is {} bytes long; the limit is {MAX_LEN}", input.len()),
            0..input.len(),
        ));
    }
    let top = SquaresParser::parse(Rule::squares, input)
        .map_err(|e| from_pest(&e, input, rule_name))?
        .next()
        .ok_or_else(|| ParseError::new("empty square list", 0..0))?;
    top.into_inner().filter(|p| p.as_rule() != Rule::EOI).map(item).collect()
}

/// A readable name for every rule, used in "expected ..." messages.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end",
        Rule::squares => "a list of squares",
        Rule::square_range => "a range of squares",
        Rule::square_rectangle => "a rectangle of squares (`a2:e7`)",
        Rule::whole_rank => "a whole rank (`*1`)",
        Rule::whole_file => "a whole file (`e*`)",
        Rule::square => "a square (`e9`)",
        Rule::file => "a file letter (a to p)",
        Rule::rank => "a rank number",
        Rule::item => "a square, a range, a rank or a file",
        Rule::separator => "a space or a comma",
    }
}

/// One item of the list.
fn item(pair: Pair<'_, Rule>) -> Result<Item, ParseError> {
    let span = pair.as_span().start()..pair.as_span().end();
    let kind = match pair.as_rule() {
        Rule::square => ItemKind::Square(SquareName::matched(pair.as_str())),
        Rule::square_range => {
            let mut ends = pair.into_inner().map(|end| SquareName::matched(end.as_str()));
            let (Some(a), Some(b)) = (ends.next(), ends.next()) else {
                unreachable!("item: a range has two squares")
            };
            if a.file != b.file && a.rank != b.rank {
                return Err(ParseError::new(
                    format!("the range {a}-{b} is neither along a rank nor along a file"),
                    span,
                )
                .with_help(format!(
                    "list diagonal squares one by one; {a}:{b} is the rectangle with these corners"
                )));
            }
            ItemKind::Range(a, b)
        }
        Rule::square_rectangle => {
            let mut ends = pair.into_inner().map(|end| SquareName::matched(end.as_str()));
            let (Some(a), Some(b)) = (ends.next(), ends.next()) else {
                unreachable!("item: a rectangle has two squares")
            };
            ItemKind::Range(a, b)
        }
        Rule::whole_rank => ItemKind::Rank(rank_of(pair.into_inner().as_str())),
        Rule::whole_file => ItemKind::File(file_of(pair.into_inner().as_str())),
        other => unreachable!("item: unexpected rule {other:?}"),
    };
    Ok(Item { kind, span })
}

/// A file letter the square grammar matched, from 0.
pub(crate) fn file_of(letter: &str) -> u8 {
    letter.as_bytes()[0] - b'a'
}

/// A rank number the square grammar matched (1 to 99), from 0.
pub(crate) fn rank_of(digits: &str) -> u8 {
    digits.parse::<u8>().map_or(u8::MAX, |r| r - 1)
}

/// The squares of a parsed list on a board of `files` x `ranks`, in list order, each once.
///
/// # Errors
/// The first item that names a square off the board, with its span.
pub fn expand(items: &[Item], files: u8, ranks: u8) -> Result<Vec<Square>, ParseError> {
    let off = |name: String, span: &Range<usize>| {
        ParseError::new(
            format!("{name} is off the board ({files} files, {ranks} ranks)"),
            span.clone(),
        )
    };
    let mut out = Vec::new();
    for item in items {
        let squares: Vec<Square> = match item.kind {
            ItemKind::Square(s) => {
                vec![s.on_board(files, ranks).ok_or_else(|| off(s.to_string(), &item.span))?]
            }
            ItemKind::Range(a, b) => {
                let (sa, sb) = match (a.on_board(files, ranks), b.on_board(files, ranks)) {
                    (Some(sa), Some(sb)) => (sa, sb),
                    (None, _) => return Err(off(a.to_string(), &item.span)),
                    (_, None) => return Err(off(b.to_string(), &item.span)),
                };
                let (f0, f1) = (sa.file().min(sb.file()), sa.file().max(sb.file()));
                let (r0, r1) = (sa.rank().min(sb.rank()), sa.rank().max(sb.rank()));
                (r0..=r1).flat_map(|r| (f0..=f1).map(move |f| Square::at(f, r))).collect()
            }
            ItemKind::Rank(r) if r < ranks => (0..files).map(|f| Square::at(f, r)).collect(),
            ItemKind::File(f) if f < files => (0..ranks).map(|r| Square::at(f, r)).collect(),
            ItemKind::Rank(r) => return Err(off(format!("rank {}", u32::from(r) + 1), &item.span)),
            ItemKind::File(f) => {
                return Err(off(format!("file {}", char::from(b'a' + f)), &item.span));
            }
        };
        for s in squares {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str, files: u8, ranks: u8) -> Vec<String> {
        expand(&parse(s).unwrap(), files, ranks).unwrap().iter().map(|q| q.to_string()).collect()
    }

    #[test]
    fn forms() {
        assert_eq!(names("e9", 9, 9), ["e9"]);
        assert_eq!(names("d9-f9", 9, 9), ["d9", "e9", "f9"]);
        assert_eq!(names("f9-d9", 9, 9), ["d9", "e9", "f9"]);
        assert_eq!(names("d9 f9", 9, 9), ["d9", "f9"]);
        assert_eq!(names(" d9, f9 ", 9, 9), ["d9", "f9"]);
        assert_eq!(names("a1-d1 f1-i1", 9, 9).len(), 8);
        assert_eq!(names("b2:c3", 9, 9), ["b2", "c2", "b3", "c3"]);
        assert_eq!(names("c3:b2", 9, 9), ["b2", "c2", "b3", "c3"]);
        assert_eq!(names("*1", 3, 3), ["a1", "b1", "c1"]);
        assert_eq!(names("b*", 3, 3), ["b1", "b2", "b3"]);
        assert_eq!(names("e2-e4", 9, 9), ["e2", "e3", "e4"]);
        assert_eq!(names("e9 e9", 9, 9), ["e9"]);
        assert_eq!(names("p16", 16, 16), ["p16"]);
    }

    #[test]
    fn malformed_lists() {
        for (input, at) in [
            ("", 0..0),
            ("e", 1..1),
            ("e0", 1..2),
            ("z9", 0..1),
            ("E9", 0..1),
            ("e9;f9", 2..3),
            ("e9-", 3..3),
            ("*", 1..1),
            ("e100", 3..4),
        ] {
            let e = parse(input).unwrap_err();
            assert_eq!(e.span, at, "{input:?}: {}", e.message);
            assert!(e.message.starts_with("expected"), "{input:?}: {}", e.message);
        }
        let e = parse("a1-c3").unwrap_err();
        assert!(e.message.contains("neither along a rank"), "{}", e.message);
        assert_eq!(e.span, 0..5);
    }

    #[test]
    fn off_the_board() {
        let e = expand(&parse("e9 j1").unwrap(), 9, 9).unwrap_err();
        assert_eq!(e.span, 3..5);
        assert!(e.message.contains("j1 is off the board"), "{}", e.message);
        let e = expand(&parse("a1-a12").unwrap(), 9, 9).unwrap_err();
        assert!(e.message.contains("a12"), "{}", e.message);
        let e = expand(&parse("*10").unwrap(), 9, 9).unwrap_err();
        assert!(e.message.contains("rank 10"), "{}", e.message);
    }
}
