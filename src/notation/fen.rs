//! Positions as text: `<board> <side> <turns>`, e.g. `rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0`,
//! then the fields some variants add: the score (`2-1`), an en-passant square (`e3` or `-`) and
//! an in-place steal (`b8a9` or `-`). Holes are written `*`.
//!
//! This module only reads the text; [`crate::position::Position`] checks it against the rules
//! (board size, piece letters, the ball, goal squares).

use std::ops::Range;

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::squares::SquareName;
use crate::notation::{ParseError, from_pest};
use crate::side::Side;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/square.pest"]
    #[grammar = "../grammar/fen.pest"]
    pub(super) struct FenParser;
}
use grammar::{FenParser, Rule};

/// The longest position text accepted (a full 16x16 board is under 300 bytes).
pub const MAX_LEN: usize = 1000;

/// A position as written, not yet checked against any rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenSetup {
    /// The ranks from the top down.
    pub rows: Vec<Row>,
    /// The side to move.
    pub side: Side,
    /// The number of completed turns.
    pub turns: u32,
    /// The bytes of the board field.
    pub board_span: Range<usize>,
    /// The bytes of the turn count.
    pub turns_span: Range<usize>,
    /// The fields after the turn count, in order.
    pub fields: Vec<Field>,
}

/// A field after the turn count, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// What it holds.
    pub kind: FieldKind,
    /// Its bytes.
    pub span: Range<usize>,
}

/// The contents of a field after the turn count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A score, White's first.
    Score(u32, u32),
    /// One square.
    Square(SquareName),
    /// Two squares.
    Squares(SquareName, SquareName),
    /// `-`.
    None,
}

/// One rank of the board, files from left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The cells in order.
    pub cells: Vec<Cell>,
    /// The bytes of the rank.
    pub span: Range<usize>,
}

/// A run of empty squares or one letter, with its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What the cell holds.
    pub kind: CellKind,
    /// The bytes of the cell.
    pub span: Range<usize>,
}

/// The contents of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// This many empty squares.
    Empty(u32),
    /// A letter: a piece of either side or the ball.
    Letter(char),
    /// `*`: a square that does not exist.
    Hole,
}

impl Row {
    /// The number of squares the row covers.
    #[must_use]
    pub fn width(&self) -> u64 {
        self.cells
            .iter()
            .map(|c| match c.kind {
                CellKind::Empty(n) => u64::from(n),
                CellKind::Letter(_) | CellKind::Hole => 1,
            })
            .sum()
    }
}

/// Parses a position.
///
/// # Errors
/// A syntax error with its position, a zero-length run of empty squares, or a turn count too
/// large to store.
pub fn parse(input: &str) -> Result<FenSetup, ParseError> {
    if input.len() > MAX_LEN {
        return Err(ParseError::new(
            format!("position is {} bytes long; the limit is {MAX_LEN}", input.len()),
            0..input.len(),
        ));
    }
    let top = FenParser::parse(Rule::fen, input)
        .map_err(|e| from_pest(&e, input, rule_name))?
        .next()
        .ok_or_else(|| ParseError::new("empty position", 0..0))?;
    let mut rows = Vec::new();
    let mut board_span = 0..0;
    let mut side = Side::White;
    let mut turns = 0;
    let mut turns_span = 0..0;
    let mut fields = Vec::new();
    for pair in top.into_inner() {
        let span = pair.as_span().start()..pair.as_span().end();
        match pair.as_rule() {
            Rule::board => {
                board_span = span;
                rows = pair.into_inner().map(row).collect::<Result<_, _>>()?;
            }
            Rule::side => side = if pair.as_str() == "w" { Side::White } else { Side::Black },
            Rule::turns => {
                turns = pair.as_str().parse().map_err(|_| {
                    ParseError::new(
                        format!("turn count {} is too large", pair.as_str()),
                        span.clone(),
                    )
                })?;
                turns_span = span;
            }
            Rule::score | Rule::square | Rule::square_pair | Rule::none => {
                fields.push(Field { kind: field(pair)?, span });
            }
            Rule::EOI | Rule::space => {}
            other => unreachable!("parse: unexpected rule {other:?}"),
        }
    }
    Ok(FenSetup { rows, side, turns, board_span, turns_span, fields })
}

/// A field after the turn count.
fn field(pair: Pair<'_, Rule>) -> Result<FieldKind, ParseError> {
    let at = pair.as_span().start()..pair.as_span().end();
    let text = pair.as_str();
    Ok(match pair.as_rule() {
        Rule::none => FieldKind::None,
        Rule::score => {
            let goals = |s: &str| {
                s.parse::<u32>()
                    .map_err(|_| ParseError::new(format!("score {text} is too large"), at.clone()))
            };
            let (w, b) = text.split_once('-').unwrap_or((text, "0"));
            FieldKind::Score(goals(w)?, goals(b)?)
        }
        Rule::square => FieldKind::Square(SquareName::matched(text)),
        Rule::square_pair => {
            let mut inner = pair.into_inner().map(|p| SquareName::matched(p.as_str()));
            match (inner.next(), inner.next()) {
                (Some(from), Some(to)) => FieldKind::Squares(from, to),
                _ => unreachable!("the grammar's square pair has two squares"),
            }
        }
        other => unreachable!("field: unexpected rule {other:?}"),
    })
}

/// A readable name for every rule, used in "expected ..." messages.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end",
        Rule::fen => "a position",
        Rule::board => "the board",
        Rule::row => "a rank",
        Rule::empty_run => "a digit",
        Rule::letter => "a letter",
        Rule::side => "the side to move (`w` or `b`)",
        Rule::turns => "the number of completed turns",
        Rule::cell => "a digit or a letter",
        Rule::space => "a space",
        Rule::hole => "`*` (a hole)",
        Rule::field => "a field",
        Rule::score => "a score (`2-1`)",
        Rule::goals => "a number of goals",
        Rule::square_pair => "two squares",
        Rule::square => "a square",
        Rule::file => "a file letter (a to p)",
        Rule::rank => "a rank number",
        Rule::none => "`-`",
    }
}

/// One rank: runs of empty squares and letters.
fn row(pair: Pair<'_, Rule>) -> Result<Row, ParseError> {
    let span = pair.as_span().start()..pair.as_span().end();
    let cells = pair
        .into_inner()
        .map(|cell| {
            let at = cell.as_span().start()..cell.as_span().end();
            let kind = match cell.as_rule() {
                Rule::empty_run => match cell.as_str().parse::<u32>() {
                    Ok(0) => return Err(ParseError::new("a run of 0 empty squares", at)),
                    Ok(n) => CellKind::Empty(n),
                    Err(_) => {
                        return Err(ParseError::new(
                            format!("a run of {} empty squares is too long", cell.as_str()),
                            at,
                        ));
                    }
                },
                Rule::letter => CellKind::Letter(cell.as_str().chars().next().unwrap_or('?')),
                Rule::hole => CellKind::Hole,
                other => unreachable!("row: unexpected rule {other:?}"),
            };
            Ok(Cell { kind, span: at })
        })
        .collect::<Result<_, _>>()?;
    Ok(Row { cells, span })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boyer_start() {
        let f = parse("rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0").unwrap();
        assert_eq!(f.rows.len(), 9);
        assert!(f.rows.iter().all(|r| r.width() == 9));
        assert_eq!(f.side, Side::White);
        assert_eq!(f.turns, 0);
        assert_eq!(f.rows[4].cells[1].kind, CellKind::Letter('a'));
        assert_eq!(f.rows[4].cells[1].span, 17..18);
        assert_eq!(f.turns_span, 38..39);
    }

    #[test]
    fn long_runs_and_spaces() {
        let f = parse("  12/R10a b   37 ").unwrap();
        assert_eq!(f.rows[0].width(), 12);
        assert_eq!(f.rows[1].width(), 12);
        assert_eq!(f.side, Side::Black);
        assert_eq!(f.turns, 37);
    }

    #[test]
    fn fields_name_squares_as_everywhere() {
        let f = parse("9 w 0 p99 b8a9").unwrap();
        let names: Vec<String> = f.fields.iter().map(|x| format!("{:?}", x.kind)).collect();
        assert_eq!(names.len(), 2);
        assert!(names[0].contains("file: 15, rank: 98"), "{names:?}");
        assert!(names[1].contains("file: 1, rank: 7") && names[1].contains("file: 0, rank: 8"));
    }

    #[test]
    fn malformed_positions() {
        for (input, at, words) in [
            ("", 0..0, "expected"),
            ("9/9 x 0", 4..5, "side to move"),
            ("9/9 w", 5..5, "expected"),
            ("9/9 w -1", 6..7, "completed turns"),
            ("9/9 w 1 2", 8..9, "a score"),
            ("4?4 w 0", 1..2, "expected"),
            ("9/0 w 0", 2..3, "a run of 0"),
            ("9 w 99999999999", 4..15, "too large"),
            // Squares are the one square grammar's: files a to p, ranks 1 to 99.
            ("9 w 0 q5", 6..7, "expected"),
            ("9 w 0 a0", 7..8, "a rank number"),
        ] {
            let e = parse(input).unwrap_err();
            assert_eq!(e.span, at, "{input:?}: {}", e.message);
            assert!(e.message.contains(words), "{input:?}: {}", e.message);
        }
    }
}
