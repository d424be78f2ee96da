//! The board for the terminal: coloured squares, goals and ball that cannot be missed, the last
//! turn highlighted; plain text when colour is off.

use crate::position::Placement;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// How to draw the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (off under NO_COLOR or when not writing to a terminal).
    pub color: bool,
    /// Black's view: rank 1 at the top and the files reversed.
    pub flipped: bool,
}

// 256-colour backgrounds and foregrounds.
const LIGHT: u8 = 223;
const DARK: u8 = 137;
const LIGHT_LAST: u8 = 229;
const DARK_LAST: u8 = 179;
const GOAL: u8 = 71;
const WHITE_PIECE: u8 = 231;
const BLACK_PIECE: u8 = 16;
const BALL: u8 = 160;

/// What stands on a square, for drawing.
enum Content {
    Empty,
    Ball,
    Piece(Side, char),
}

fn content(rules: &Rules, placement: &Placement, square: Square) -> Content {
    if placement.ball == square {
        return Content::Ball;
    }
    match placement.pieces.iter().find(|(s, _, _)| *s == square) {
        Some(&(_, side, kind)) => Content::Piece(side, rules.piece(kind).letter),
        None => Content::Empty,
    }
}

/// The board with file letters and rank numbers; `last` are the squares the last turn touched.
#[must_use]
pub fn board(rules: &Rules, placement: &Placement, last: &[Square], style: Style) -> String {
    let b = rules.board();
    let files: Vec<u8> =
        if style.flipped { (0..b.files).rev().collect() } else { (0..b.files).collect() };
    let ranks: Vec<u8> =
        if style.flipped { (0..b.ranks).collect() } else { (0..b.ranks).rev().collect() };
    let labels: String = files.iter().map(|&f| format!(" {} ", char::from(b'a' + f))).collect();
    let mut out = format!("    {labels}\n");
    for &rank in &ranks {
        out.push_str(&format!("{:>3} ", rank + 1));
        for &file in &files {
            let square = Square::at(file, rank);
            out.push_str(&cell(rules, placement, square, last.contains(&square), style.color));
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str(&format!("    {labels}\n"));
    out
}

/// One square, three characters wide.
fn cell(rules: &Rules, placement: &Placement, square: Square, last: bool, color: bool) -> String {
    let goal = rules.scorer(square).is_some();
    let what = content(rules, placement, square);
    if !color {
        let mark = match what {
            Content::Ball => '*',
            Content::Piece(Side::White, c) => c,
            Content::Piece(Side::Black, c) => c.to_ascii_lowercase(),
            Content::Empty if goal => '#',
            Content::Empty => '.',
        };
        return if last { format!("[{mark}]") } else { format!(" {mark} ") };
    }
    let dark = rules.board().is_dark(square);
    let background = match (goal, dark, last) {
        (true, _, _) => GOAL,
        (false, true, true) => DARK_LAST,
        (false, true, false) => DARK,
        (false, false, true) => LIGHT_LAST,
        (false, false, false) => LIGHT,
    };
    let (foreground, glyph) = match what {
        Content::Ball => (BALL, "●".to_owned()),
        Content::Piece(Side::White, c) => (WHITE_PIECE, c.to_string()),
        Content::Piece(Side::Black, c) => (BLACK_PIECE, c.to_ascii_lowercase().to_string()),
        Content::Empty if goal => (WHITE_PIECE, "⌂".to_owned()),
        Content::Empty => (BLACK_PIECE, " ".to_owned()),
    };
    format!("\x1b[48;5;{background};38;5;{foreground};1m {glyph} \x1b[0m")
}

/// The legend under a board.
#[must_use]
pub fn legend(style: Style) -> &'static str {
    if style.color {
        "White: uppercase, Black: lowercase, ● the ball, ⌂ a goal"
    } else {
        "White: uppercase, Black: lowercase, * the ball, # a goal, [ ] the last turn"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;

    #[test]
    fn plain_board_marks_goals_ball_and_last_turn() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let start = rules.start().clone();
        let text = board(&rules, &start, &[Square::at(4, 4)], Style::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "     a  b  c  d  e  f  g  h  i ");
        assert_eq!(lines[1], "  9  r  n  b  q  #  k  b  n  r  9");
        assert_eq!(lines[5], "  5  .  .  .  . [*] .  .  .  .  5");
        let flipped = board(&rules, &start, &[], Style { color: false, flipped: true });
        assert!(flipped.lines().nth(1).unwrap().starts_with("  1  R  N  B  K  #  Q"));
    }

    #[test]
    fn colour_board_uses_ansi_backgrounds() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let start = rules.start().clone();
        let text = board(&rules, &start, &[], Style { color: true, flipped: false });
        assert!(text.contains("\x1b[48;5;71;"), "goal squares are green");
        assert!(text.contains("●"));
    }
}
