//! `kickoff explain`: a variant's rules in plain English, generated from its definition.
//!
//! Each rule is said only where the definition sets it: a game of Boyer's family reads as it
//! always has, and the rules beyond it (holes, zones, kick modes, captures, promotion, turn
//! budgets, matches, a carried ball) add their sentences where they apply.

mod ball;
mod end;
mod turn;

use std::fmt::Write;

use crate::notation::fen;
use crate::position::{Placement, place};
use crate::render::diagram::{legend, text_board};
use crate::render::places::{fewest_words, mirrored, square_list, squares_words};
use crate::render::words::{CaptureWords, describe_legs, describe_moves};
use crate::rules::{BlackSetup, GoalAccess, Leg, PieceType, RandomSetup, Rules};
use crate::side::Side;
use crate::square::Square;
use crate::square_set::SquareSet;
use crate::text::join;

/// The rules of a variant in words, ready to paste into a forum post.
#[must_use]
pub fn explain(rules: &Rules) -> String {
    let mut out = String::new();
    heading(&mut out, rules);
    board(&mut out, rules);
    pieces(&mut out, rules);
    start(&mut out, rules);
    arrangement(&mut out, rules);
    placement(&mut out, rules);
    turn::turn(&mut out, rules);
    ball::ball(&mut out, rules);
    end::end(&mut out, rules);
    out
}

/// "The arrangement stage" (rule: `docs/rules.md#the-arrangement-stage`).
fn arrangement(out: &mut String, rules: &Rules) {
    let Some(arrangement) = rules.arrangement() else { return };
    section(out, "The arrangement stage");
    let board = rules.board();
    let black: SquareSet = arrangement.squares.iter().map(|s| board.mirror(s)).collect();
    let text = format!(
        "Before play, starting with the side to move, the sides take turns to move each of \
         their pieces once, by its own moves, to an empty square where it may stand: White's \
         pieces to {}, Black's to {}. Nothing is captured and the ball is not touched. A side \
         with no such move left passes. Play begins once every piece has moved.",
        squares_words(arrangement.squares, board),
        squares_words(black, board),
    );
    para(out, "", &text);
}

/// "The placement stage" (rule: `docs/rules.md#the-placement-stage`).
fn placement(out: &mut String, rules: &Rules) {
    let Some(stage) = rules.placement_stage() else { return };
    section(out, "The placement stage");
    let board = rules.board();
    let black: SquareSet = stage.squares.iter().map(|s| board.mirror(s)).collect();
    // "a queen, two rooks and six pawns": each kind once, in the hand's order, with its copies.
    let mut kinds: Vec<(crate::rules::PieceKind, usize)> = Vec::new();
    for &kind in &stage.pieces {
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let hand: Vec<String> = kinds
        .iter()
        .map(|&(kind, n)| {
            let name = &rules.piece(kind).name;
            let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            if n == 1 { format!("{article} {name}") } else { format!("{n} {}", plural(name)) }
        })
        .collect();
    let how_many = if stage.count == stage.pieces.len() {
        "all of them".to_owned()
    } else {
        format!("{} of them, of its choice (the others stay out of the game)", stage.count)
    };
    let text = format!(
        "Before play each side holds a hand of {} pieces: {}. Starting with the side to move, \
         the sides take turns to place one piece from the hand on an empty square where it may \
         stand, {how_many}: White on {}, Black on {}. A side that cannot place passes and \
         places nothing more. Play begins once both have placed their pieces.",
        stage.pieces.len(),
        join(&hand, "and"),
        squares_words(stage.squares, board),
        squares_words(black, board),
    );
    para(out, "", &text);
    for piece in rules.pieces() {
        let Some(place) = piece.place else { continue };
        let place = place & stage.squares;
        let text = format!(
            "{} is placed only on {} (Black's on {}).",
            capitalised(&format!("the {}", piece.name)),
            squares_words(place, board),
            squares_words(place.iter().map(|s| board.mirror(s)).collect(), board),
        );
        para(out, "", &text);
    }
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

/// Whether the ball is carried by a holder rather than kicked.
fn carried(rules: &Rules) -> bool {
    rules.carried_ball()
}

/// Whether the game has no ball (its pieces score by reaching the goal squares).
fn ball_less(rules: &Rules) -> bool {
    !rules.has_ball()
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
    if !b.holes.is_empty() {
        let holes = format!(
            "Squares {} do not exist: they are holes (blank in the diagrams). Nothing stands on a \
             hole, and nothing moves or flies over one.",
            // Whole ranks are counted on the rectangle: the holes themselves fill them.
            squares_words(b.holes, crate::rules::Board { holes: SquareSet::EMPTY, ..b })
        );
        para(out, "", &holes);
    }
    let goals = if !rules.has_goal_squares() {
        format!(
            "There are no goal squares: {} are the goals, wherever they stand. A side scores \
             when its shot or pass reaches an enemy one.",
            which_pieces(rules, |p| p.target)
        )
    } else if ball_less(rules) {
        format!(
            "There is no ball. White scores when one of its pieces ends a move on {}; Black \
             scores when one of its pieces ends a move on {}.",
            or_list(rules.goals(Side::White)),
            or_list(rules.goals(Side::Black))
        )
    } else if carried(rules) && rules.ball().carried.shoot {
        format!(
            "White scores when one of its pieces holds the ball on {} after its move, or shoots \
             it there; Black scores when one of its pieces holds it on {}, or shoots it there.",
            or_list(rules.goals(Side::White)),
            or_list(rules.goals(Side::Black))
        )
    } else if carried(rules) {
        format!(
            "White scores when one of its pieces holds the ball on {} after its move; Black \
             scores when one of its pieces holds it on {}.",
            or_list(rules.goals(Side::White)),
            or_list(rules.goals(Side::Black))
        )
    } else {
        format!(
            "White scores by bringing the ball to {}; Black scores by bringing it to {}.",
            square_list(rules.goals(Side::White)),
            square_list(rules.goals(Side::Black))
        )
    };
    para(out, "", &goals);
    if rules.has_goal_squares() {
        para(out, "", &goal_access(rules));
    }
}

/// "e9 or f9".
fn or_list(squares: &[Square]) -> String {
    join(&squares.iter().map(ToString::to_string).collect::<Vec<_>>(), "or")
}

/// Which pieces may stand on goal squares (`goals` of each piece).
fn goal_access(rules: &Rules) -> String {
    let with = |access: GoalAccess| -> Vec<String> {
        rules.pieces().iter().filter(|p| p.goals == access).map(|p| plural(&p.name)).collect()
    };
    let (always, capture, never) =
        (with(GoalAccess::Always), with(GoalAccess::Capture), with(GoalAccess::Never));
    let holder = with(GoalAccess::Holder);
    if always.is_empty() && capture.is_empty() && holder.is_empty() {
        return "No piece ever stands on a goal square.".to_owned();
    }
    if capture.is_empty() && never.is_empty() && holder.is_empty() {
        return "Every piece may stand on a goal square.".to_owned();
    }
    let mut parts = Vec::new();
    if !always.is_empty() {
        parts.push(format!("{} may stand on goal squares", join(&always, "and")));
    }
    if !capture.is_empty() {
        parts
            .push(format!("{} only by capturing a piece that stands there", join(&capture, "and")));
    }
    if !holder.is_empty() {
        parts.push(format!(
            "{} only carrying the ball into the enemy's goal, which scores",
            join(&holder, "and")
        ));
    }
    if !never.is_empty() {
        parts.push(format!("{} never", join(&never, "and")));
    }
    let (first, rest) =
        parts.split_first().map_or((String::new(), &[][..]), |(f, r)| (f.clone(), r));
    let mut text = capitalised(&first);
    if !rest.is_empty() {
        text.push_str("; ");
        text.push_str(&rest.join("; "));
    }
    text.push('.');
    text
}

/// "a king", "an attacker": a piece's name with its article.
fn a_or_an(name: &str) -> String {
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// "kings", "queens": the plural of a piece's name, as the start's roster writes it.
fn plural(name: &str) -> String {
    let sibilant = ["s", "x", "z", "ch", "sh"].iter().any(|end| name.ends_with(end));
    if sibilant { format!("{name}es") } else { format!("{name}s") }
}

fn pieces(out: &mut String, rules: &Rules) {
    section(out, "The pieces");
    let ball = if ball_less(rules) {
        String::new()
    } else {
        format!(
            " The ball (`{}`){} belongs to nobody.",
            rules.ball_symbol(),
            if carried(rules) { ", while no piece holds it," } else { "" }
        )
    };
    para(
        out,
        "",
        &format!(
            "White's letters are uppercase, Black's lowercase.{ball} Forward and backward are \
             seen from the side that moves (forward is towards the opponent); left and right are \
             White's for both sides (left is towards the a-file)."
        ),
    );
    let words = if carried(rules) { CaptureWords::CarriedBall } else { CaptureWords::Capture };
    for piece in rules.pieces() {
        let letters = format!("{}/{}", piece.letter, piece.letter.to_ascii_lowercase());
        let _ = writeln!(out, "\n{} ({letters})", capitalised(&piece.name));
        let moves = format!("{} [{}]", describe_moves(&piece.moves, words), piece.moves_betza);
        para(out, "  moves: ", &moves);
        if rules.has_ball() && !carried(rules) {
            kicks_line(out, piece, "  kicks: ");
        } else if carried(rules) && rules.ball().carried.shoot {
            kicks_line(out, piece, "  shoots: ");
        }
        if piece.corner_jump {
            para(out, "  ", &corner_jump_words(piece));
        }
        if !piece.sprint.is_empty() {
            let sprints = format!(
                "{} [{}], to the squares its moves do not reach: an action, not a move. A sprint \
                 ends on an empty square, or on the free ball, which it takes",
                describe_legs(&piece.sprint),
                piece.sprint_betza
            );
            para(out, "  sprints: ", &sprints);
        }
        piece_rules(out, rules, piece);
    }
}

/// How a piece kicks (a carried ball is never kicked).
fn kicks_line(out: &mut String, piece: &PieceType, label: &str) {
    if piece.kicks.is_empty() {
        para(out, label, "never (its kick pattern is empty)");
    } else if piece.kicks == piece.moves {
        para(out, label, "the way it moves");
    } else {
        // Kicks read the pattern's directions, ranges and hops only: its other modalities do
        // not apply.
        let plain = |l: &Leg| Leg { hop: l.hop, ..Leg::plain(l.step, l.reach) };
        let mut plain: Vec<Leg> = piece.kicks.iter().map(plain).collect();
        plain.dedup();
        let kicks = format!("{} [{}]", describe_legs(&plain), piece.kick_betza);
        para(out, label, &kicks);
    }
}

/// A piece's zone, royalty, promotion and holder letter, where the definition gives them.
fn piece_rules(out: &mut String, rules: &Rules, piece: &PieceType) {
    if piece.jump {
        let over = if rules.has_ball() { "a piece or the ball" } else { "a piece" };
        let text = format!(
            "it may also jump over {over} next to it (a king's step away) onto the empty square \
             just beyond; what it jumps over stays"
        );
        para(out, "  jumps: ", &text);
    }
    if piece.dribble && carried(rules) {
        para(
            out,
            "  dribbles: ",
            "holding the ball, it may jump over an enemy piece next to it (a king's step away) \
             onto the empty square just beyond, keeping the ball: an action, not a move, and only \
             where its moves do not go",
        );
    }
    if piece.lob && carried(rules) && rules.ball().carried.shoot {
        para(
            out,
            "  lobs: ",
            "its shots and passes fly over every piece: no piece on their way takes or stops them",
        );
    }
    if let Some(kind) = piece.goal_promotion {
        let mut text = format!(
            "{} that scores (carrying the ball into the goal, or kicking it there) becomes {}",
            a_or_an(&piece.name),
            a_or_an(&rules.piece(kind).name),
        );
        if rules.end().after_goal == crate::rules::AfterGoal::Reset {
            text.push_str(&format!(
                "; a reset of the board after the goal keeps it so, on the start square of the \
                 first {} from a1",
                piece.name
            ));
        }
        para(out, "  scorer: ", &text);
    }
    if piece.tackle {
        para(
            out,
            "  tackles: ",
            "it may step onto an enemy piece next to it (a king's step away), which is pushed \
             one square on the same way onto an empty square where it may stand; it never \
             captures. The tackled piece may not tackle it back, nor jump back over it, on the \
             next turn",
        );
    }
    if let Some(zone) = piece.zone {
        para(out, "  stands: ", &zone_words(rules, piece, zone));
    }
    if piece.target {
        para(
            out,
            "  goal: ",
            "it is its side's goal, wherever it stands: an enemy shot or pass that reaches it \
             ends the turn and scores a point for the enemy",
        );
    }
    if piece.royal {
        let text = if rules.end().keeps_score() {
            "capturing it ends the turn and scores a point for the capturer, as a goal does"
                .to_owned()
        } else {
            "a side whose last royal piece is captured loses the game".to_owned()
        };
        para(out, "  royal: ", &text);
    }
    if let Some(promotion) = &piece.promotion {
        para(out, "  promotes: ", &promotion_words(rules, piece, promotion));
    }
    if let Some(holder) = piece.holder
        && carried(rules)
    {
        let text = format!(
            "{} holding the ball is written {holder}/{}",
            a_or_an(&piece.name),
            holder.to_ascii_lowercase()
        );
        para(out, "  holder: ", &text);
    }
}

/// Where a piece may stand: "only on ranks 2 to 7", or, where that is shorter, "anywhere but"
/// the squares its zone leaves out (of those it could otherwise stand on).
fn zone_words(rules: &Rules, piece: &PieceType, zone: SquareSet) -> String {
    let b = rules.board();
    let zone: SquareSet = zone.iter().filter(|&s| b.contains(s)).collect();
    let goals: SquareSet =
        rules.goals(Side::White).iter().chain(rules.goals(Side::Black)).copied().collect();
    let open: SquareSet = (0..b.ranks)
        .flat_map(|r| (0..b.files).map(move |f| Square::at(f, r)))
        .filter(|&s| b.contains(s) && (piece.goals != GoalAccess::Never || !goals.contains(s)))
        .collect();
    let words = |set: SquareSet| {
        let (inside, inside_items) = fewest_words(set & open, b);
        let left_out = open & !set;
        let (outside, outside_items) = fewest_words(left_out, b);
        if !left_out.is_empty() && outside_items < inside_items {
            format!("anywhere but {outside}")
        } else {
            format!("only on {inside}")
        }
    };
    let (white, black) = (words(zone), words(mirrored(zone, b)));
    if white == black { white } else { format!("{white} for White; {black} for Black") }
}

fn promotion_words(rules: &Rules, piece: &PieceType, p: &crate::rules::Promotion) -> String {
    let b = rules.board();
    let squares = p.squares.iter().filter(|&s| b.contains(s)).collect();
    let (white, black) = (squares_words(squares, b), squares_words(mirrored(squares, b), b));
    let names: Vec<String> = p.to.iter().map(|&k| rules.piece(k).name.clone()).collect();
    let becomes = match names.as_slice() {
        [one] => format!("becomes a {one}"),
        _ => format!("becomes, as its player chooses, a {}", join(&names, "or")),
    };
    let keeps = if carried(rules) { "; a holder keeps the ball" } else { "" };
    format!("a {} that ends a move on {white} (for Black: {black}) {becomes}{keeps}", piece.name)
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
    let _ = writeln!(out, "({})\n", legend(rules, &placement));
    for side in Side::ALL {
        let _ = writeln!(out, "{}: {}.", side.name(), roster(rules, &placement, side));
    }
    match ball_at(rules, &placement) {
        Some(ball) => {
            let _ = writeln!(out, "The ball: {ball}.");
        }
        None => out.push_str("There is no ball.\n"),
    }
    if rules.end().keeps_score() {
        let [w, b] = placement.score;
        let _ = writeln!(out, "The score: {w}-{b} (White's points first).");
    }
    if let Some(random) = rules.random_setup() {
        out.push('\n');
        para(out, "", &random_words(rules, random));
    }
}

/// "e5", or "held by White's pawn on e2"; none in a game without a ball.
fn ball_at(rules: &Rules, placement: &Placement) -> Option<String> {
    let ball = placement.ball?;
    let holder = placement.pieces.iter().find(|&&(s, _, _)| s == ball);
    Some(match holder {
        Some(&(square, side, kind)) if placement.held => {
            format!("held by {}'s {} on {square}", side.name(), rules.piece(kind).name)
        }
        _ => ball.to_string(),
    })
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
            _ => parts.push(format!("{} {}", plural(&piece.name), square_list(&squares))),
        }
    }
    if parts.is_empty() { "no pieces".to_owned() } else { parts.join(", ") }
}

fn random_words(rules: &Rules, random: &RandomSetup) -> String {
    let mut text = "Random setup: before the game,".to_owned();
    if !random.squares.is_empty() {
        let letters: String = random.pieces.iter().map(|&k| rules.piece(k).letter).collect();
        let _ = write!(
            text,
            " White's {letters} are placed at random on {}",
            square_list(&random.squares)
        );
        for &kind in &random.opposite_colors {
            let _ = write!(
                text,
                ", the two {} on squares of different colours",
                plural(&rules.piece(kind).name)
            );
        }
        text.push_str(match random.black {
            BlackSetup::Mirror => "; Black's pieces mirror White's (same files)",
            BlackSetup::Independent => "; Black's pieces are placed the same way, independently",
        });
        if !random.balls.is_empty() {
            text.push_str("; and");
        }
    }
    if !random.balls.is_empty() {
        let _ = write!(text, " the ball is put on one of {}", square_list(&random.balls));
    }
    let count = crate::setup::count(rules, random);
    let _ = write!(
        text,
        ". There are {count} such setups, numbered 0 to {} (`kickoff setup` shows them); \
         every other square is as in the start position above.",
        count.saturating_sub(1)
    );
    text
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

/// "once", "twice", "3 times".
fn times(n: u8) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

/// The names of the pieces that `pick` selects, as a list ("the defenders and attackers"), or
/// "every piece" when it selects them all.
fn which_pieces(rules: &Rules, pick: impl Fn(&PieceType) -> bool) -> String {
    let names: Vec<String> =
        rules.pieces().iter().filter(|p| pick(p)).map(|p| plural(&p.name)).collect();
    if names.len() == rules.pieces().len() {
        "every piece".to_owned()
    } else {
        format!("the {}", join(&names, "and"))
    }
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
