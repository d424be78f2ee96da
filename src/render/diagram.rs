//! Plain-text board diagrams.

use crate::position::Placement;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// The board as text: file letters, rank numbers, piece letters (White uppercase), `*` for the
/// ball, `#` for an empty goal square, `.` for other empty squares, a blank for a hole; a piece
/// holding the ball stands in parentheses, `(P)`.
#[must_use]
pub fn text_board(rules: &Rules, placement: &Placement) -> String {
    let board = rules.board();
    let files: String = (0..board.files).map(|f| format!(" {}", char::from(b'a' + f))).collect();
    let mut out = format!("    {}\n", files.trim_start());
    for rank in (0..board.ranks).rev() {
        let squares: Vec<Square> = (0..board.files).map(|file| Square::at(file, rank)).collect();
        // The separator before each cell, and the one after the last.
        let mut seps = vec![' '; squares.len() + 1];
        if let Some(i) = squares.iter().position(|&s| holds(placement, s)) {
            (seps[i], seps[i + 1]) = ('(', ')');
        }
        let mut row = format!("{:>3}", rank + 1);
        for (i, &square) in squares.iter().enumerate() {
            row.push(seps[i]);
            row.push(cell(rules, placement, square));
        }
        row.push(seps[squares.len()]);
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// Whether the piece on `square` holds the ball (a carried ball).
#[must_use]
pub fn holds(placement: &Placement, square: Square) -> bool {
    placement.held && placement.ball == Some(square)
}

fn cell(rules: &Rules, placement: &Placement, square: Square) -> char {
    if placement.ball == Some(square) && !placement.held {
        return '*';
    }
    if let Some(&(_, side, kind)) = placement.pieces.iter().find(|(s, _, _)| *s == square) {
        let letter = rules.piece(kind).letter;
        return if side == Side::White { letter } else { letter.to_ascii_lowercase() };
    }
    if rules.board().is_hole(square) {
        return ' ';
    }
    if rules.scorer(square).is_some() { '#' } else { '.' }
}

/// What the signs of [`text_board`] mean, for the signs the position uses: "`*` is the ball,
/// `#` a goal square", with holes and a holder where there are some.
#[must_use]
pub fn legend(rules: &Rules, placement: &Placement) -> String {
    let mut text = match (rules.has_ball(), rules.has_goal_squares()) {
        (true, true) => "`*` is the ball, `#` a goal square",
        (true, false) => "`*` is the ball",
        (false, _) => "`#` is a goal square",
    }
    .to_owned();
    if placement.held {
        text.push_str(", `(P)` a piece holding the ball");
    }
    if !rules.board().holes.is_empty() {
        text.push_str(", a blank a hole");
    }
    text.push('.');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::position::Position;

    #[test]
    fn holes_are_blank_and_a_holder_stands_in_parentheses() {
        let rules = load_shipped("apo-chessball").unwrap().rules;
        let text = text_board(&rules, rules.start());
        assert_eq!(text.lines().nth(1), Some(" 15       # k #"));
        let ball = load_shipped("vchess-ball").unwrap().rules;
        let pos = Position::from_fen(&ball, "9/9/9/9/4S4/9/9/9/9 w 4 - -").unwrap();
        let text = text_board(&ball, &pos.placement());
        assert_eq!(text.lines().nth(5), Some("  5 . . . .(P). . . ."), "{text}");
        assert!(legend(&ball, &pos.placement()).contains("`(P)` a piece holding the ball"));
        let edge = Position::from_fen(&ball, "9/9/9/9/S8/9/9/9/9 w 4 - -").unwrap();
        assert!(text_board(&ball, &edge.placement()).contains("  5(P). ."));
    }
}
