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
    /// A piece: its side, its letter, whether it holds the ball.
    Piece(Side, char, bool),
    /// A square that does not exist.
    Hole,
}

fn content(rules: &Rules, placement: &Placement, square: Square) -> Content {
    if rules.board().is_hole(square) {
        return Content::Hole;
    }
    let held = placement.held && placement.ball == Some(square);
    if placement.ball == Some(square) && !held {
        return Content::Ball;
    }
    match placement.pieces.iter().find(|(s, _, _)| *s == square) {
        Some(&(_, side, kind)) => Content::Piece(side, rules.piece(kind).letter, held),
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
        let (mark, holder) = match what {
            Content::Hole => return "   ".to_owned(),
            Content::Ball => ('*', false),
            Content::Piece(Side::White, c, held) => (c, held),
            Content::Piece(Side::Black, c, held) => (c.to_ascii_lowercase(), held),
            Content::Empty if goal => ('#', false),
            Content::Empty => ('.', false),
        };
        return match (holder, last) {
            (true, _) => format!("({mark})"),
            (false, true) => format!("[{mark}]"),
            (false, false) => format!(" {mark} "),
        };
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
        Content::Hole => return "   ".to_owned(),
        Content::Ball => (BALL, "●".to_owned()),
        Content::Piece(side, c, true) => {
            // The holder's letter with the ball beside it, in the ball's colour.
            let (fg, c) = piece_colour(side, c);
            return format!("\x1b[48;5;{background};38;5;{fg};1m {c}\x1b[38;5;{BALL}m●\x1b[0m");
        }
        Content::Piece(side, c, false) => {
            let (fg, c) = piece_colour(side, c);
            (fg, c.to_string())
        }
        Content::Empty if goal => (WHITE_PIECE, "⌂".to_owned()),
        Content::Empty => (BLACK_PIECE, " ".to_owned()),
    };
    format!("\x1b[48;5;{background};38;5;{foreground};1m {glyph} \x1b[0m")
}

/// A piece's colour and its letter as its side writes it.
fn piece_colour(side: Side, letter: char) -> (u8, char) {
    match side {
        Side::White => (WHITE_PIECE, letter),
        Side::Black => (BLACK_PIECE, letter.to_ascii_lowercase()),
    }
}

/// The legend's signs: the letters, the ball (only `with_ball`), the goals and, in plain text,
/// the last turn's marks.
fn signs(style: Style, with_ball: bool) -> String {
    let (ball, goal, last) = if style.color {
        ("● the ball", "⌂ a goal", None)
    } else {
        ("* the ball", "# a goal", Some("[ ] the last turn"))
    };
    let parts = ["White: uppercase", "Black: lowercase"].into_iter();
    let parts = parts.chain(with_ball.then_some(ball)).chain([goal]).chain(last);
    parts.collect::<Vec<_>>().join(", ")
}

/// The legend under a board of `rules`: the signs every board uses (no ball in a game that has
/// none), and those only some variants use (a holder of a carried ball, holes).
#[must_use]
pub fn legend_of(rules: &Rules, style: Style) -> String {
    let mut text = signs(style, rules.has_ball());
    if rules.carried_ball() {
        text.push_str(if style.color { ", P● holds the ball" } else { ", (P) holds the ball" });
    }
    if !rules.board().holes.is_empty() {
        text.push_str(", blank: no square");
    }
    text
}

/// What a position keeps besides its board, for people: the score of a match, the square
/// that may be captured en passant. Empty for a game of Boyer's family.
#[must_use]
pub fn status(pos: &crate::position::Position<'_>) -> Vec<String> {
    let rules = pos.rules();
    let mut lines = Vec::new();
    if rules.end().keeps_score() {
        let [w, b] = pos.score();
        let end = rules.end();
        let aim = match end.goals {
            0 => format!("most goals after {} turns wins", end.max_turns),
            n => format!("the first to {n} wins"),
        };
        lines.push(format!("Score: White {w}, Black {b} ({aim})"));
    }
    if let Some(square) = pos.en_passant() {
        lines.push(format!("En passant: {square} may be captured en passant"));
    }
    if pos.arranging() {
        let left = pos.to_arrange();
        let of = |side: crate::side::Side| {
            let squares: Vec<String> =
                (left & pos.pieces(side)).iter().map(|s| s.to_string()).collect();
            if squares.is_empty() { "none".to_owned() } else { squares.join(" ") }
        };
        lines.push(format!(
            "Arrangement stage: each piece moves once, no captures, the ball untouched; still \
             to move: White {}; Black {}",
            of(crate::side::Side::White),
            of(crate::side::Side::Black)
        ));
    }
    if pos.placing() {
        let rules = pos.rules();
        let of = |side: crate::side::Side| match pos.to_place(side) {
            0 => "nothing more".to_owned(),
            n => {
                let hand: String = pos.hand(side).iter().map(|&k| rules.piece(k).letter).collect();
                format!("{n} of {hand}")
            }
        };
        lines.push(format!(
            "Placement stage: one piece from the hand a turn (written Q@d2); still to place: \
             White {}; Black {}",
            of(crate::side::Side::White),
            of(crate::side::Side::Black)
        ));
    }
    lines
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
    fn a_game_without_a_ball_names_no_ball_in_its_legend() {
        let rules = load_shipped("footballchess-correa").unwrap().rules;
        for color in [false, true] {
            let style = Style { color, flipped: false };
            let text = legend_of(&rules, style);
            assert!(!text.contains("ball") && text.contains("a goal"), "{text}");
        }
    }

    #[test]
    fn holes_are_blank_and_holders_marked() {
        let rules = load_shipped("apo-chessball").unwrap().rules;
        let text = board(&rules, rules.start(), &[], Style::default());
        assert_eq!(text.lines().nth(1), Some(" 15           #  k  #           15"));
        assert!(legend_of(&rules, Style::default()).ends_with("blank: no square"));
        let coloured = board(&rules, rules.start(), &[], Style { color: true, flipped: false });
        assert!(coloured.contains(" 15    "), "a hole has no colour");
        let ball = load_shipped("vchess-ball").unwrap().rules;
        let pos =
            crate::position::Position::from_fen(&ball, "9/9/9/9/4S4/9/9/9/9 w 4 - -").unwrap();
        let text = board(&ball, &pos.placement(), &[Square::at(4, 4)], Style::default());
        assert!(text.contains(" . (P) . "), "{text}");
        let coloured = board(&ball, &pos.placement(), &[], Style { color: true, flipped: false });
        assert!(coloured.contains("1m P\x1b[38;5;160m●"), "{coloured}");
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
