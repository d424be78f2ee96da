//! Plain-text board diagrams.

use crate::position::Placement;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// The board as text: file letters, rank numbers, piece letters (White uppercase), `*` for the
/// ball, `#` for an empty goal square and `.` for other empty squares.
#[must_use]
pub fn text_board(rules: &Rules, placement: &Placement) -> String {
    let board = rules.board();
    let files: String = (0..board.files).map(|f| format!(" {}", char::from(b'a' + f))).collect();
    let mut out = format!("    {}\n", files.trim_start());
    for rank in (0..board.ranks).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        let cells: Vec<String> = (0..board.files)
            .map(|file| cell(rules, placement, Square::at(file, rank)).to_string())
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

fn cell(rules: &Rules, placement: &Placement, square: Square) -> char {
    if placement.ball == square {
        return '*';
    }
    if let Some(&(_, side, kind)) = placement.pieces.iter().find(|(s, _, _)| *s == square) {
        let letter = rules.piece(kind).letter;
        return if side == Side::White { letter } else { letter.to_ascii_lowercase() };
    }
    if rules.scorer(square).is_some() { '#' } else { '.' }
}
