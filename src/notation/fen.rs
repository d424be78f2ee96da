//! Positions as text: `<board> <side> <turns>`, e.g. `rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0`
//! (the turn count may be left out: it is then 0),
//! then the fields some variants add: the score (`2-1`), an en-passant square (`e3` or `-`), an
//! in-place steal (`b8a9` or `-`), the pieces still to arrange (`a1b1c1` or `-`) and the hands of
//! a placement stage (`QRRqrr` or `-`). Holes are written `*`.
//!
//! This module only reads the text; [`crate::position::Position`] checks it against the rules
//! (board size, piece letters, the ball, goal squares).

use std::ops::Range;

use pest::Parser;
use pest::iterators::Pair;

use crate::notation::squares::SquareName;
use crate::notation::{ParseError, char_span, error_pos, found_at};
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A score, White's first.
    Score(u32, u32),
    /// One square.
    Square(SquareName),
    /// Two squares.
    Squares(SquareName, SquareName),
    /// Three squares or more.
    SquareList(Vec<SquareName>),
    /// Piece letters: the hands of a placement stage.
    Letters(String),
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

impl FieldKind {
    /// The squares a field of one square or more names, in order (none for a score or `-`).
    #[must_use]
    pub fn squares(&self) -> Vec<SquareName> {
        match self {
            FieldKind::Square(s) => vec![*s],
            FieldKind::Squares(a, b) => vec![*a, *b],
            FieldKind::SquareList(list) => list.clone(),
            FieldKind::Score(..) | FieldKind::Letters(_) | FieldKind::None => Vec::new(),
        }
    }
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
/// The text is split on spaces first, so that each field is read, and each mistake reported,
/// in the author's terms: the board, the side to move, the turn count, the fields after it.
///
/// # Errors
/// The first problem, located: an empty position, a character that cannot stand on the board,
/// a missing or misspelt side to move, a turn count that is not a number or too large to store,
/// a later field that is not a score, a square, two squares or `-`.
pub fn parse(input: &str) -> Result<FenSetup, ParseError> {
    if input.len() > MAX_LEN {
        return Err(ParseError::new(
            format!("position is {} bytes long; the limit is {MAX_LEN}", input.len()),
            0..input.len(),
        ));
    }
    let words = words(input);
    let Some(board_span) = words.first().cloned() else {
        return Err(ParseError::new("the position is empty", 0..input.len()).with_help(
            "write the board, then the side to move, e.g. \"rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w\"",
        ));
    };
    let rows = board(input, &board_span)?;
    let side_span = words.get(1).cloned().ok_or_else(|| {
        ParseError::new(
            "the side to move is missing after the board: write ` w` or ` b`",
            board_span.end..board_span.end,
        )
    })?;
    let side = side(&input[side_span.clone()], side_span.clone())?;
    // A position without the turn count has completed none.
    let (turns, turns_span) = match words.get(2) {
        Some(at) => (turn_count(&input[at.clone()], at.clone())?, at.clone()),
        None => (0, side_span.end..side_span.end),
    };
    let fields = words.iter().skip(3).map(|at| field(input, at)).collect::<Result<_, _>>()?;
    Ok(FenSetup { rows, side, turns, board_span, turns_span, fields })
}

/// The bytes of each run of characters between spaces.
fn words(input: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in input.char_indices().chain(std::iter::once((input.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                out.push(from..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The board field at `at`: its ranks.
fn board(input: &str, at: &Range<usize>) -> Result<Vec<Row>, ParseError> {
    let text = &input[at.clone()];
    let pairs = FenParser::parse(Rule::board_field, text).map_err(|e| {
        let pos = error_pos(&e);
        ParseError::new(
            format!("{} cannot stand on the board", found_at(text, pos)),
            char_span(text, pos),
        )
        .with_help(
            "a rank is written with letters (the pieces and the ball), digits (runs of empty \
             squares) and `*` (holes); `/` separates the ranks",
        )
        .shifted(at.start)
    })?;
    pairs
        .filter(|p| p.as_rule() == Rule::board)
        .flat_map(Pair::into_inner)
        .map(|r| row(r, at.start))
        .collect()
}

/// The side to move: `w` or `b`.
fn side(text: &str, at: Range<usize>) -> Result<Side, ParseError> {
    match text {
        "w" => return Ok(Side::White),
        "b" => return Ok(Side::Black),
        _ => {}
    }
    let error = ParseError::new(format!("the side to move is `w` or `b`, not `{text}`"), at);
    Err(match text.to_lowercase().as_str() {
        "w" | "white" => error.with_help("write `w`"),
        "b" | "black" => error.with_help("write `b`"),
        _ if text.starts_with(|c: char| c.is_ascii_digit()) => {
            error.with_help("the side to move comes right after the board: write ` w` or ` b`")
        }
        _ => error,
    })
}

/// The number of completed turns.
fn turn_count(text: &str, at: Range<usize>) -> Result<u32, ParseError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        let error = ParseError::new(
            format!("the number of completed turns is a whole number, not `{text}`"),
            at,
        );
        // A score or a square here: the turn count was left out before the later fields.
        return Err(if FenParser::parse(Rule::extra_field, text).is_ok() {
            error.with_help(format!("write the turn count before this field, e.g. `0 {text}`"))
        } else {
            error
        });
    }
    text.parse().map_err(|_| ParseError::new(format!("turn count {text} is too large"), at))
}

/// A field after the turn count, at `at`.
fn field(input: &str, at: &Range<usize>) -> Result<Field, ParseError> {
    let text = &input[at.clone()];
    // Letters alone are the hands of a placement stage (no other field has no digit but `-`).
    if text.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Ok(Field { kind: FieldKind::Letters(text.to_owned()), span: at.clone() });
    }
    let pair = FenParser::parse(Rule::extra_field, text)
        .map_err(|e| bad_field(text, error_pos(&e)).shifted(at.start))?
        .find(|p| p.as_rule() != Rule::EOI)
        .ok_or_else(|| bad_field(text, 0).shifted(at.start))?;
    let kind = field_kind(pair).map_err(|e| e.shifted(at.start))?;
    Ok(Field { kind, span: at.clone() })
}

/// The error for a field after the turn count that reads as none of them, pointing at the
/// first character that does not fit, or at the whole field when none is to blame.
fn bad_field(text: &str, pos: usize) -> ParseError {
    let at = if pos == 0 || pos >= text.len() { 0..text.len() } else { char_span(text, pos) };
    let error = ParseError::new(
        format!("`{text}` is not a score (`2-1`), a square (`e3`), two squares (`b8a9`) or `-`"),
        at,
    );
    match text.chars().next() {
        Some('0'..='9') => error.with_help("a score is White's goals, `-`, Black's goals: `2-1`"),
        Some('a'..='z') => {
            error.with_help("a square is a file from a to p and a rank from 1 to 99: `e3`")
        }
        _ => error,
    }
}

/// A field after the turn count, read by the grammar.
fn field_kind(pair: Pair<'_, Rule>) -> Result<FieldKind, ParseError> {
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
        Rule::square_list => FieldKind::SquareList(
            pair.into_inner().map(|p| SquareName::matched(p.as_str())).collect(),
        ),
        Rule::square_pair => {
            let mut inner = pair.into_inner().map(|p| SquareName::matched(p.as_str()));
            match (inner.next(), inner.next()) {
                (Some(from), Some(to)) => FieldKind::Squares(from, to),
                _ => unreachable!("the grammar's square pair has two squares"),
            }
        }
        other => unreachable!("field_kind: unexpected rule {other:?}"),
    })
}

/// One rank: runs of empty squares and letters, read from the board field that starts at byte
/// `offset` of the position.
fn row(pair: Pair<'_, Rule>, offset: usize) -> Result<Row, ParseError> {
    let span = pair.as_span().start() + offset..pair.as_span().end() + offset;
    let cells = pair
        .into_inner()
        .map(|cell| {
            let at = cell.as_span().start() + offset..cell.as_span().end() + offset;
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
    fn letters_alone_are_the_hands_of_a_placement_stage() {
        let f = parse("9 w 0 - QRqr").unwrap();
        assert_eq!(f.fields[0].kind, FieldKind::None);
        assert_eq!(f.fields[1].kind, FieldKind::Letters("QRqr".to_owned()));
        assert_eq!(f.fields[1].span, 8..12);
    }

    #[test]
    fn the_turn_count_may_be_left_out() {
        let f = parse("rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR b ").unwrap();
        assert_eq!(f.side, Side::Black);
        assert_eq!(f.turns, 0);
        assert_eq!(f.turns_span, 37..37);
        assert!(f.fields.is_empty());
    }

    /// A bad run of empty squares is shown where it stands, after spaces before the board.
    #[test]
    fn a_bad_run_is_placed_after_leading_spaces() {
        let e = parse("  9/0/9 w 0").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.span.clone()),
            ("a run of 0 empty squares", 4..5),
            "{e:?}"
        );
    }

    #[test]
    fn malformed_positions() {
        for (input, at, words) in [
            ("", 0..0, "the position is empty"),
            ("   ", 0..3, "the position is empty"),
            ("9/9 x 0", 4..5, "the side to move is `w` or `b`, not `x`"),
            ("9/9 white 0", 4..9, "the side to move is `w` or `b`, not `white`"),
            ("9/9", 3..3, "the side to move is missing after the board"),
            ("9/9  ", 3..3, "the side to move is missing after the board"),
            ("9/9 w -1", 6..8, "completed turns is a whole number, not `-1`"),
            ("9/9 w 1 2", 8..9, "`2` is not a score"),
            ("9/9 w 1 2:1", 8..11, "`2:1` is not a score"),
            ("4?4 w 0", 1..2, "`?` cannot stand on the board"),
            ("9/4,4 w 0", 3..4, "`,` cannot stand on the board"),
            ("9/0 w 0", 2..3, "a run of 0"),
            ("9 w 99999999999", 4..15, "too large"),
            ("9 w 0 99999999999-0", 6..19, "too large"),
            // Squares are the one square grammar's: files a to p, ranks 1 to 99.
            ("9 w 0 q5", 6..8, "`q5` is not a score"),
            ("9 w 0 a0", 7..8, "`a0` is not a score"),
            ("9 w 0 QR-q", 6..10, "`QR-q` is not a score"),
        ] {
            let e = parse(input).unwrap_err();
            assert_eq!(e.span, at, "{input:?}: {}", e.message);
            assert!(e.message.contains(words), "{input:?}: {}", e.message);
        }
    }

    /// The common mistakes say how to write the field.
    #[test]
    fn helps_say_what_to_write() {
        let help = |input: &str| parse(input).unwrap_err().help.unwrap_or_default();
        assert_eq!(help("9 white"), "write `w`");
        assert_eq!(help("9 B 0"), "write `b`");
        assert!(help("9 0").contains("comes right after the board"), "{}", help("9 0"));
        assert_eq!(help("9 w 2-1"), "write the turn count before this field, e.g. `0 2-1`");
        assert!(help("9 w 0 2:1").contains("`2-1`"));
        assert!(help("9 w 0 z9").contains("a to p"));
        assert!(help("9/4,4 w").contains("`/` separates the ranks"));
    }

    #[test]
    fn no_message_speaks_of_the_grammar() {
        let inputs = ["", "9", "9 x", "9 w x", "9 w 0 x9", "9 w 0 a0", "4?4 w", "9 white 0"];
        for input in inputs {
            let e = parse(input).unwrap_err();
            let all = format!("{} {}", e.message, e.help.unwrap_or_default());
            for jargon in ["expected", "found", "EOI", "rule"] {
                assert!(!all.contains(jargon), "{input:?}: {all}");
            }
        }
    }
}
