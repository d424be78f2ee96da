//! `kickoff explain`: a variant's rules in plain English, generated from its definition.

use std::fmt::Write;

use crate::notation::fen;
use crate::position::{Placement, place};
use crate::render::diagram::text_board;
use crate::render::words::describe_legs;
use crate::rules::{
    BlackSetup, GoalRank, KickDirection, NullTurn, OwnGoal, PieceType, RandomSetup, Rules,
};
use crate::side::Side;
use crate::square::Square;

/// The rules of a variant in words, ready to paste into a forum post.
#[must_use]
pub fn explain(rules: &Rules) -> String {
    let mut out = String::new();
    heading(&mut out, rules);
    board(&mut out, rules);
    pieces(&mut out, rules);
    start(&mut out, rules);
    turn(&mut out, rules);
    ball(&mut out, rules);
    end(&mut out, rules);
    out
}

fn heading(out: &mut String, rules: &Rules) {
    let info = rules.info();
    let _ = writeln!(out, "{}", info.name);
    let _ = writeln!(out, "{}", "=".repeat(info.name.chars().count()));
    let credit = match (&info.author, info.year) {
        (Some(a), Some(y)) => Some(format!("By {a}, {y}.")),
        (Some(a), None) => Some(format!("By {a}.")),
        (None, Some(y)) => Some(format!("Published in {y}.")),
        (None, None) => None,
    };
    for line in
        [credit, info.description.clone(), info.source.as_ref().map(|s| format!("Source: {s}"))]
            .into_iter()
            .flatten()
    {
        let _ = writeln!(out, "{line}");
    }
}

fn section(out: &mut String, title: &str) {
    let _ = write!(out, "\n{title}\n{}\n", "-".repeat(title.len()));
}

/// Squares as a readable list: "e9", "e9 and f9", "d9, e9 and f9".
fn square_list(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(ToString::to_string).collect();
    match names.as_slice() {
        [] => "nowhere".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn board(out: &mut String, rules: &Rules) {
    section(out, "The board");
    let b = rules.board();
    let last_file = char::from(b'a' + b.files - 1);
    let size = format!(
        "{} files (a to {last_file}) and {} ranks (1 to {}); a1 is {}.",
        b.files,
        b.ranks,
        b.ranks,
        if b.a1_dark { "dark" } else { "light" }
    );
    para(out, "", &size);
    let goals = format!(
        "White scores by bringing the ball to {}; Black scores by bringing it to {}.",
        square_list(rules.goals(Side::White)),
        square_list(rules.goals(Side::Black))
    );
    para(out, "", &goals);
    let _ = writeln!(out, "No piece ever stands on a goal square.");
}

fn pieces(out: &mut String, rules: &Rules) {
    section(out, "The pieces");
    para(
        out,
        "",
        &format!(
            "White's letters are uppercase, Black's lowercase. The ball (`{}`) belongs to nobody. \
             Directions are seen from the side that moves: forward is towards the opponent.",
            rules.ball_symbol()
        ),
    );
    for piece in rules.pieces() {
        let letters = format!("{}/{}", piece.letter, piece.letter.to_ascii_lowercase());
        let _ = writeln!(out, "\n{} ({letters})", capitalised(&piece.name));
        let moves = format!("{} [{}]", describe_legs(&piece.moves), piece.moves_betza);
        para(out, "  moves: ", &moves);
        if piece.kicks == piece.moves {
            para(out, "  kicks: ", "the way it moves");
        } else {
            let kicks = format!("{} [{}]", describe_legs(&piece.kicks), piece.kick_betza);
            para(out, "  kicks: ", &kicks);
        }
        if piece.corner_jump {
            para(out, "  ", &corner_jump_words(piece));
        }
    }
}

fn corner_jump_words(piece: &PieceType) -> String {
    format!(
        "Corner jump: standing in a corner with no legal move, the {} may jump over the piece or \
         ball next to it along one of its sliding lines, onto the square beyond if that square is \
         empty and not a goal.",
        piece.name
    )
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

fn start(out: &mut String, rules: &Rules) {
    section(out, "The start");
    let placement = fen::parse(rules.setup_fen()).ok().and_then(|f| place(rules, &f).ok());
    let Some(placement) = placement else {
        let _ = writeln!(out, "{}", rules.setup_fen());
        return;
    };
    let _ = writeln!(out, "{}  ({} to move)\n", rules.setup_fen(), placement.side.name());
    let _ = write!(out, "{}", text_board(rules, &placement));
    let _ = writeln!(out, "(`*` is the ball, `#` a goal square.)\n");
    for side in Side::ALL {
        let _ = writeln!(out, "{}: {}.", side.name(), roster(rules, &placement, side));
    }
    let _ = writeln!(out, "The ball: {}.", placement.ball);
    if let Some(random) = rules.random_setup() {
        out.push('\n');
        para(out, "", &random_words(rules, random));
    }
}

/// "king f1, queen d1, rooks a1 and i1, ..." in the order of the piece tables.
fn roster(rules: &Rules, placement: &Placement, side: Side) -> String {
    let mut parts = Vec::new();
    for (i, piece) in rules.pieces().iter().enumerate() {
        let squares: Vec<Square> = placement
            .pieces
            .iter()
            .filter(|&&(_, s, k)| s == side && k.index() == i)
            .map(|&(sq, _, _)| sq)
            .collect();
        match squares.len() {
            0 => {}
            1 => parts.push(format!("{} {}", piece.name, squares[0])),
            _ => parts.push(format!("{}s {}", piece.name, square_list(&squares))),
        }
    }
    if parts.is_empty() { "no pieces".to_owned() } else { parts.join(", ") }
}

fn random_words(rules: &Rules, random: &RandomSetup) -> String {
    let letters: String = random.pieces.iter().map(|&k| rules.piece(k).letter).collect();
    let mut text = format!(
        "Random setup: before the game, White's {letters} are placed at random on {}",
        square_list(&random.squares)
    );
    for &kind in &random.opposite_colors {
        let _ =
            write!(text, ", the two {}s on squares of different colours", rules.piece(kind).name);
    }
    text.push_str(match random.black {
        BlackSetup::Mirror => "; Black's pieces mirror White's (same files).",
        BlackSetup::Independent => "; Black's pieces are placed the same way, independently.",
    });
    let count = crate::setup::count(rules, random);
    let _ = write!(
        text,
        " There are {count} such arrangements, numbered 0 to {} (`kickoff setup` shows them); \
         every other square is as in the start position above.",
        count.saturating_sub(1)
    );
    text
}

fn turn(out: &mut String, rules: &Rules) {
    section(out, "A turn");
    let per = match rules.kick().per_piece {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    };
    para(
        out,
        "1. ",
        "The side to move may first move one of its pieces, as shown above, to an empty square. \
         There are no captures and no check. Sliding pieces are stopped by pieces and by the ball; \
         leaping pieces jump. A piece may cross a goal square but may not stop on one.",
    );
    para(
        out,
        "2. ",
        &format!(
            "Then it may kick the ball: a piece of its own standing next to the ball (a king's \
             step away), the piece that just moved included, kicks it. While the ball stops next \
             to a piece of the same side that may still kick, that piece may kick it on (a pass), \
             and so on. Each piece kicks at most {per} per turn. Kicks move only the ball."
        ),
    );
    let null = match rules.turn().null {
        NullTurn::Never => "A turn must move a piece or kick the ball.",
        NullTurn::WhenAdjacent => {
            "A side may also do nothing at all, but only when one of its pieces stands next to \
             the ball at the start of its turn."
        }
        NullTurn::Always => "A side may also do nothing at all.",
    };
    para(
        out,
        "3. ",
        &format!(
            "The side may stop after any of these actions. {null} A side that has no legal turn \
             passes."
        ),
    );
}

fn ball(out: &mut String, rules: &Rules) {
    section(out, "How the ball flies");
    let kick = rules.kick();
    let kicks = || rules.pieces().iter().flat_map(|p| p.kicks.iter());
    if kicks().any(|leg| leg.is_unit()) {
        line_kicks(out, kick.direction);
    }
    if kicks().any(|leg| !leg.is_unit()) {
        leap_kicks(out, kick.leap_adjacent, kick.corner_exception);
    }
    if kick.goal_rank == GoalRank::NoSlide {
        para(
            out,
            "- ",
            "From a goal's rank, no kick along that rank may put the ball on the goal or carry it \
             across: a slide along the rank stops before the goal.",
        );
    }
    para(out, "- ", "The ball never stops on an occupied square.");
}

fn line_kicks(out: &mut String, direction: KickDirection) {
    para(
        out,
        "- ",
        "Line kicks: when the kicker moves along the line from itself to the ball (a rook along \
         ranks and files, a bishop along diagonals), the ball flies on along that line, directly \
         away from the kicker, as far as the kicker could move (a king kicks it one square). It \
         may stop on any empty square it reaches and stops before the first occupied square or \
         the edge.",
    );
    if direction == KickDirection::Line {
        para(
            out,
            "- ",
            "Backward kicks: the ball may also fly the other way along that line, jumping over \
             the kicker and going on from the square behind it, with the same range and blocking.",
        );
    }
}

fn leap_kicks(out: &mut String, adjacent_allowed: bool, corner_exception: bool) {
    let mut leap = "Leap kicks: a kicker with leaps (a knight) sends the ball by one of its \
                    leaps, counted from the ball's square in any direction the leap allows, to an \
                    empty square, over anything in between."
        .to_owned();
    if !adjacent_allowed {
        leap.push_str(" It may not land next to the kicker");
        leap.push_str(if corner_exception {
            ", except when the ball stands in a corner of the board."
        } else {
            "."
        });
    }
    para(out, "- ", &leap);
}

fn end(out: &mut String, rules: &Rules) {
    section(out, "Goals and the end");
    let e = rules.end();
    let own = match e.own_goal {
        OwnGoal::Counts => "wins, also when it is the kicker's own goal (an own goal)",
        OwnGoal::Forbidden => "wins; kicking the ball into one's own goal is not allowed",
    };
    para(
        out,
        "- ",
        &format!(
            "A kick that puts the ball on a goal square ends the turn and the game: the side that \
             attacks that goal {own}."
        ),
    );
    match rules.turn().no_goal_before {
        0 => {}
        1 => para(out, "- ", "No goal may be scored on White's first turn."),
        2 => para(out, "- ", "No goal may be scored on either side's first turn."),
        n => para(
            out,
            "- ",
            &format!("No goal may be scored until {n} turns (of both sides) have been completed."),
        ),
    }
    if e.repetition > 0 {
        para(
            out,
            "- ",
            &format!(
                "The game is drawn when the same position (same board, same side to move) occurs \
                 for the {} time.",
                ordinal(e.repetition)
            ),
        );
    }
    if e.max_turns > 0 {
        para(out, "- ", &format!("The game is drawn after {} turns.", e.max_turns));
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The width paragraphs are wrapped to.
const WIDTH: usize = 78;

/// Writes `text` wrapped to [`WIDTH`], the first line after `marker`, the others indented to
/// line up with it.
fn para(out: &mut String, marker: &str, text: &str) {
    let indent = " ".repeat(marker.chars().count());
    let mut line = marker.to_owned();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = indent.clone();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}
