//! Checking a parsed position against the rules: the step from text to a legal placement.

use crate::notation::ParseError;
use crate::notation::fen::{CellKind, FenSetup};
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

/// Checks a parsed position against `rules`, reporting every problem found (spans are those of
/// the position's text).
///
/// # Errors
/// Wrong number of ranks, a rank of the wrong width, a letter that is no piece, no ball or more
/// than one, a piece on a goal square.
pub fn place(rules: &Rules, fen: &FenSetup) -> Result<Placement, Vec<ParseError>> {
    let board = rules.board();
    let mut problems = Vec::new();
    if fen.rows.len() != usize::from(board.ranks) {
        problems.push(ParseError::new(
            format!("the position has {} ranks; the board has {}", fen.rows.len(), board.ranks),
            fen.board_span.clone(),
        ));
        return Err(problems);
    }
    let mut pieces = Vec::new();
    let mut balls: Vec<(Square, std::ops::Range<usize>)> = Vec::new();
    let mut unknown: Vec<char> = Vec::new();
    for (i, row) in fen.rows.iter().enumerate() {
        let rank = board.ranks - 1 - i as u8;
        let width = row.width();
        if width != u64::from(board.files) {
            let at = if row.span.is_empty() {
                row.span.start..row.span.start + 1
            } else {
                row.span.clone()
            };
            problems.push(ParseError::new(
                format!(
                    "rank {} has {width} squares; the board has {} files",
                    rank + 1,
                    board.files
                ),
                at,
            ));
            continue;
        }
        let mut file = 0u8;
        for cell in &row.cells {
            match cell.kind {
                CellKind::Empty(n) => file += n as u8,
                CellKind::Letter(c) => {
                    let square = Square::new(file, rank);
                    file += 1;
                    if c == rules.ball_symbol() {
                        balls.push((square, cell.span.clone()));
                        continue;
                    }
                    let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
                    let Some(kind) = rules.kind_of(c.to_ascii_uppercase()) else {
                        // Once per letter: a whole back rank of strangers is one mistake.
                        if !unknown.contains(&c.to_ascii_uppercase()) {
                            unknown.push(c.to_ascii_uppercase());
                            problems.push(unknown_letter(rules, c, cell.span.clone()));
                        }
                        continue;
                    };
                    if rules.scorer(square).is_some() {
                        problems.push(
                            ParseError::new(
                                format!(
                                    "{} stands on the goal square {square}",
                                    piece_words(rules, side, kind)
                                ),
                                cell.span.clone(),
                            )
                            .with_help("pieces never stand on goal squares"),
                        );
                        continue;
                    }
                    pieces.push((square, side, kind));
                }
            }
        }
    }
    let ball = match balls.as_slice() {
        [(square, _)] => Some(*square),
        [] => {
            problems.push(ParseError::new(
                format!("the position has no ball (`{}`)", rules.ball_symbol()),
                fen.board_span.clone(),
            ));
            None
        }
        [_, (_, second), ..] => {
            problems.push(ParseError::new(
                format!("the position has {} balls; there must be exactly one", balls.len()),
                second.clone(),
            ));
            None
        }
    };
    match ball {
        Some(ball) if problems.is_empty() => {
            pieces.sort_by_key(|&(s, _, _)| s);
            Ok(Placement { pieces, ball, side: fen.side, turns: fen.turns })
        }
        _ => Err(problems),
    }
}

/// "White's knight" / "Black's queen".
fn piece_words(rules: &Rules, side: Side, kind: PieceKind) -> String {
    format!("{}'s {}", side.name(), rules.piece(kind).name)
}

fn unknown_letter(rules: &Rules, c: char, span: std::ops::Range<usize>) -> ParseError {
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
