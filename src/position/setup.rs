//! Checking a parsed position against the rules: the step from text to a legal placement.

use crate::notation::ParseError;
use std::ops::Range;

use crate::notation::fen::{CellKind, FenSetup, Row};
use crate::rules::{PieceKind, Rules};
use crate::side::Side;
use crate::square::Square;

/// A checked position: every piece on the board, the ball, the side to move, the turn count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The pieces and their squares, from a1 upwards rank by rank.
    pub pieces: Vec<(Square, Side, PieceKind)>,
    /// The ball's square.
    pub ball: Square,
    /// The side to move.
    pub side: Side,
    /// Completed turns.
    pub turns: u32,
}

/// What has been read of a position so far.
#[derive(Default)]
struct Reading {
    pieces: Vec<(Square, Side, PieceKind)>,
    balls: Vec<(Square, Range<usize>)>,
    /// Balls in ranks of the wrong width, which are not read further.
    unplaced_balls: Vec<Range<usize>>,
    /// Letters already reported as unknown (once each: a rank of strangers is one mistake).
    unknown: Vec<char>,
    problems: Vec<ParseError>,
}

/// Checks a parsed position against `rules`, reporting every problem found (spans are those of
/// the position's text).
///
/// # Errors
/// Wrong number of ranks, a rank of the wrong width, a letter that is no piece, no ball or more
/// than one, a piece on a goal square.
pub fn place(rules: &Rules, fen: &FenSetup) -> Result<Placement, Vec<ParseError>> {
    let board = rules.board();
    if fen.rows.len() != usize::from(board.ranks) {
        return Err(vec![ParseError::new(
            format!("the position has {} ranks; the board has {}", fen.rows.len(), board.ranks),
            fen.board_span.clone(),
        )]);
    }
    let mut reading = Reading::default();
    for (i, row) in fen.rows.iter().enumerate() {
        read_row(rules, row, board.ranks - 1 - i as u8, &mut reading);
    }
    let ball = the_ball(rules, fen, &mut reading);
    match ball {
        Some(ball) if reading.problems.is_empty() => {
            let mut pieces = reading.pieces;
            pieces.sort_by_key(|&(s, _, _)| s);
            Ok(Placement { pieces, ball, side: fen.side, turns: fen.turns })
        }
        _ => Err(reading.problems),
    }
}

/// Reads one rank (from 0) of the position.
fn read_row(rules: &Rules, row: &Row, rank: u8, reading: &mut Reading) {
    let files = rules.board().files;
    let width = row.width();
    if width != u64::from(files) {
        let at =
            if row.span.is_empty() { row.span.start..row.span.start + 1 } else { row.span.clone() };
        reading.problems.push(ParseError::new(
            format!("rank {} has {width} squares; the board has {files} files", rank + 1),
            at,
        ));
        // Its ball still counts: a rank of the wrong width is not also a position with no ball.
        let ball = CellKind::Letter(rules.ball_symbol());
        reading.unplaced_balls.extend(
            row.cells.iter().filter(|cell| cell.kind == ball).map(|cell| cell.span.clone()),
        );
        return;
    }
    let mut file = 0u8;
    for cell in &row.cells {
        match cell.kind {
            CellKind::Empty(n) => file += n as u8,
            CellKind::Letter(c) => {
                read_letter(rules, c, Square::new(file, rank), cell.span.clone(), reading);
                file += 1;
            }
        }
    }
}

/// Reads one letter: the ball, or a piece that may stand there.
fn read_letter(rules: &Rules, c: char, square: Square, span: Range<usize>, reading: &mut Reading) {
    if c == rules.ball_symbol() {
        reading.balls.push((square, span));
        return;
    }
    let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
    let Some(kind) = rules.kind_of(c.to_ascii_uppercase()) else {
        if !reading.unknown.contains(&c.to_ascii_uppercase()) {
            reading.unknown.push(c.to_ascii_uppercase());
            reading.problems.push(unknown_letter(rules, c, span));
        }
        return;
    };
    if rules.scorer(square).is_some() {
        reading.problems.push(
            ParseError::new(
                format!("{} stands on the goal square {square}", piece_words(rules, side, kind)),
                span,
            )
            .with_help("pieces never stand on goal squares"),
        );
        return;
    }
    reading.pieces.push((square, side, kind));
}

/// The ball's square, if there is exactly one ball; otherwise reports the problem.
fn the_ball(rules: &Rules, fen: &FenSetup, reading: &mut Reading) -> Option<Square> {
    if !reading.unplaced_balls.is_empty() {
        let mut spans: Vec<Range<usize>> =
            reading.balls.iter().map(|(_, span)| span.clone()).collect();
        spans.extend(reading.unplaced_balls.iter().cloned());
        spans.sort_by_key(|span| span.start);
        if let [_, second, ..] = spans.as_slice() {
            reading.problems.push(ParseError::new(
                format!("the position has {} balls; there must be exactly one", spans.len()),
                second.clone(),
            ));
        }
        return None;
    }
    match reading.balls.as_slice() {
        [(square, _)] => Some(*square),
        [] => {
            reading.problems.push(ParseError::new(
                format!("the position has no ball (`{}`)", rules.ball_symbol()),
                fen.board_span.clone(),
            ));
            None
        }
        [_, (_, second), ..] => {
            reading.problems.push(ParseError::new(
                format!(
                    "the position has {} balls; there must be exactly one",
                    reading.balls.len()
                ),
                second.clone(),
            ));
            None
        }
    }
}

/// "White's knight" / "Black's queen".
fn piece_words(rules: &Rules, side: Side, kind: PieceKind) -> String {
    format!("{}'s {}", side.name(), rules.piece(kind).name)
}

fn unknown_letter(rules: &Rules, c: char, span: Range<usize>) -> ParseError {
    let letters: String = rules.pieces().iter().map(|p| p.letter).collect();
    ParseError::new(format!("`{c}` is not a piece of this variant"), span).with_help(format!(
        "the pieces are {letters} (White) and {} (Black); the ball is `{}`",
        letters.to_ascii_lowercase(),
        rules.ball_symbol()
    ))
}

impl Placement {
    /// The position's text: ranks from the top, runs of empty squares as decimal numbers, the
    /// ball's symbol, the side to move and the turn count.
    #[must_use]
    pub fn fen(&self, rules: &Rules) -> String {
        let board = rules.board();
        let mut cells = vec![None; 256];
        for &(square, side, kind) in &self.pieces {
            let letter = rules.piece(kind).letter;
            cells[square.index()] =
                Some(if side == Side::White { letter } else { letter.to_ascii_lowercase() });
        }
        cells[self.ball.index()] = Some(rules.ball_symbol());
        let mut out = String::new();
        for rank in (0..board.ranks).rev() {
            let mut empty = 0;
            for file in 0..board.files {
                match cells[Square::new(file, rank).index()] {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        format!("{out} {} {}", self.side.fen_char(), self.turns)
    }
}
