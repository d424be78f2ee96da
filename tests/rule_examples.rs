//! The examples of `docs/rules.md`, one test each, named as the example.
//!
//! An example in `docs/rules.md` is an HTML comment that names it and lists its positions, one
//! per line (`variant | position | window | what to show ...`), followed by the diagram the
//! engine draws for them. The window is `all` or two corners (`a1-d9`); what to show is any of:
//!
//! - `kicks a3`: where the piece on a3 can kick the ball as a turn's first action, marked `x`;
//! - `moves a3`: where the piece on a3 can move as a turn's first action, marked `o`;
//! - `turns-of a3`: every legal turn whose first action is the piece on a3's, by name;
//! - `null`: whether the null turn is legal;
//! - `kick-turns`: every legal turn that only kicks, in long form;
//! - `placements`: where a piece of the hand may be placed, marked `o`, and every placement;
//! - `play TURN`: the position after this turn (short or long form), beside the first;
//! - `fen`, after a `play`: the text of the position after it (score, holder, en passant).
//!
//! Anything else is refused. Each test checks that the doc's diagram is what the engine draws now,
//! and pins every legal turn of the example's positions in a snapshot a person can check against
//! the rules: the position, then every legal turn in byte order of its name with its long form
//! (every kicker by its square); a turn that scores says who scores.
//!
//! After changing an example or the engine, `UPDATE_DOCS=1 cargo test --test rule_examples`
//! redraws every diagram of `docs/rules.md`; read the diff before committing it.

use std::path::PathBuf;

use kickoff::movegen::{Action, MoveKind, legal_turns_unbounded, null_allowed, play_unchecked};
use kickoff::turn_text::names::names;
use kickoff::{Outcome, Position, Side, Square, Turn, load};

/// The position and its turns, as a snapshot shows them.
fn listing(variant: &str, fen: &str) -> String {
    let def = load(variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let pos = Position::from_fen(&def.rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns_unbounded(&pos);
    let forced = turns.len() == 1 && turns[0].is_null() && !null_allowed(&pos);
    let names = names(&pos, &turns);
    let mut lines: Vec<String> = turns
        .iter()
        .zip(&names)
        .map(|(t, name)| {
            let next = play_unchecked(&pos, t);
            let note = match (next.outcome(), ending(&pos, &next)) {
                (Some(Outcome::Goal { winner, own_goal }), _) => {
                    let own = if own_goal { ", an own goal" } else { "" };
                    format!("  (goal: {} scores{own})", winner.name())
                }
                (_, Some(ending)) => format!("  ({ending})"),
                _ if forced => "  (forced pass)".to_owned(),
                _ => String::new(),
            };
            format!("{name:<14} {t}{note}")
        })
        .collect();
    lines.sort();
    format!("{variant}: {fen}\n{pos}\n{} turns:\n{}\n", lines.len(), lines.join("\n"))
}

/// What a turn from `pos` to `next` ends or scores, other than the goal that ends a game: a
/// royal piece captured, a point of a match, the turn limit.
fn ending(pos: &Position<'_>, next: &Position<'_>) -> Option<String> {
    let [w, b] = next.score();
    let score = format!("{w}-{b}");
    match next.outcome() {
        Some(Outcome::RoyalCaptured { winner }) => {
            Some(format!("a royal piece captured: {} wins", winner.name()))
        }
        Some(Outcome::Match { winner }) => {
            Some(format!("{} wins the match {score}", winner.name()))
        }
        Some(Outcome::MostGoals { winner }) => {
            Some(format!("turn limit: {} wins on goals {score}", winner.name()))
        }
        Some(Outcome::TurnLimit) => Some(format!("turn limit: a draw {score}")),
        Some(Outcome::Goal { .. } | Outcome::Repetition) => None,
        None if next.score() != pos.score() => {
            let scorer = if w > pos.score()[0] { Side::White } else { Side::Black };
            Some(format!("a point for {}: {score}, {} to move", scorer.name(), next.side().name()))
        }
        None => None,
    }
}

/// The rules reference whose examples these are.
fn rules_doc() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md")
}

/// One example of `docs/rules.md`.
struct Example {
    name: String,
    /// Its positions, one per line of its comment.
    cases: Vec<Case>,
    /// The diagram as the doc shows it, and where it is in the doc.
    shown: String,
    at: std::ops::Range<usize>,
}

/// One position of an example and what to show of it.
struct Case {
    variant: String,
    fen: String,
    /// The squares shown: files and ranks, from 0, inclusive.
    window: Option<((u8, u8), (u8, u8))>,
    shows: Vec<Show>,
}

/// What a diagram shows of a position.
enum Show {
    /// `kicks a3`: the squares the piece on a3 can kick the ball to, marked `x`.
    Kicks(Square),
    /// `moves a1`: the squares the piece on a1 can move to, marked `o`.
    Moves(Square),
    /// `null`: whether the null turn is legal.
    Null,
    /// `kick-turns`: every legal turn that only kicks, in long form.
    KickTurns,
    /// `play a3>a9`: the position after this turn (short or long form), beside the first.
    Play(String),
    /// `turns-of a3`: every legal turn whose first action is the piece on a3's, by name.
    TurnsOf(Square),
    /// `fen`: the text of the position after the `play` turn before it.
    Fen,
    /// `placements`: the squares a piece of the hand may be placed on, marked `o`, and every
    /// placement by name.
    Placements,
}

const OPEN: &str = "<!-- example ";
const FENCE: &str = "```text\n";

/// Every example of the doc, in order.
fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = doc[from..].find(OPEN) {
        let start = from + found + OPEN.len();
        let close = start + doc[start..].find("-->").expect("an example comment ends with -->");
        let mut lines = doc[start..close].lines();
        let name = lines.next().unwrap_or_default().trim().to_owned();
        let cases = lines.filter(|l| !l.trim().is_empty()).map(case).collect();
        let after = close + "-->\n".len();
        assert!(doc[after..].starts_with(FENCE), "example {name}: its diagram must follow");
        let body = after + FENCE.len();
        let end = body + doc[body..].find("```").expect("the diagram's block ends");
        out.push(Example { name, cases, shown: doc[body..end].to_owned(), at: body..end });
        from = end;
    }
    out
}

/// One line of an example's comment: `variant | position | window | show | show ...`.
fn case(line: &str) -> Case {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [variant, fen, window, shows @ ..] = parts.as_slice() else {
        panic!("an example line is `variant | position | window | show ...`: {line}")
    };
    let window = (*window != "all").then(|| {
        let (low, high) = window.split_once('-').expect("a window is like a1-d9");
        let (a, b) = (square(low), square(high));
        ((a.file(), a.rank()), (b.file(), b.rank()))
    });
    let shows = shows.iter().map(|s| show(s)).collect();
    Case { variant: (*variant).to_owned(), fen: (*fen).to_owned(), window, shows }
}

fn show(text: &str) -> Show {
    match text.split_once(' ') {
        Some(("kicks", sq)) => Show::Kicks(square(sq)),
        Some(("moves", sq)) => Show::Moves(square(sq)),
        Some(("play", turn)) => Show::Play(turn.to_owned()),
        Some(("turns-of", sq)) => Show::TurnsOf(square(sq)),
        None if text == "null" => Show::Null,
        None if text == "fen" => Show::Fen,
        None if text == "kick-turns" => Show::KickTurns,
        None if text == "placements" => Show::Placements,
        _ => panic!("unknown example item `{text}`"),
    }
}

fn square(text: &str) -> Square {
    let mut chars = text.chars();
    let file = chars.next().expect("a square") as u8 - b'a';
    let rank: u8 = chars.as_str().parse().expect("a square's rank");
    Square::new(file, rank - 1).expect("a square of the board")
}

/// The diagram of an example, as the engine draws it now.
fn draw(example: &Example) -> String {
    example.cases.iter().map(draw_case).collect::<Vec<_>>().join("\n")
}

fn draw_case(case: &Case) -> String {
    let def = load(&case.variant).unwrap_or_else(|e| panic!("{}: {e}", case.variant));
    let pos =
        Position::from_fen(&def.rules, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
    let turns = legal_turns_unbounded(&pos);
    let mut marks: Vec<(Square, char)> = Vec::new();
    let mut notes = Vec::new();
    let mut after = None;
    for show in &case.shows {
        match show {
            Show::Kicks(from) => {
                let to = first_kicks(&turns, *from);
                marks.extend(to.iter().map(|&s| (s, 'x')));
                notes.push(format!("x: {}", kicks_note(&pos, *from, &to)));
            }
            Show::Moves(from) => {
                let to = moves(&turns, *from);
                marks.extend(to.iter().map(|&s| (s, 'o')));
                notes.push(format!("o: {}", moves_note(&pos, *from, &to)));
            }
            Show::Null => notes.push(null_note(&pos, &turns)),
            Show::KickTurns => notes.push(kick_turns_note(&turns)),
            Show::Placements => {
                let (to, note) = placements(&pos, &turns);
                marks.extend(to.iter().map(|&s| (s, 'o')));
                notes.push(format!("o: {note}"));
            }
            Show::Play(text) => {
                let turn = find_turn(&pos, &turns, text);
                let next = play_unchecked(&pos, &turn);
                notes.push(play_note(text, &turn, &pos, &next));
                after = Some((text.clone(), next));
            }
            Show::TurnsOf(from) => notes.push(turns_of_note(&pos, &turns, *from)),
            Show::Fen => {
                let (_, next) = after.as_ref().expect("an example's `fen` follows its `play`");
                notes.push(format!("after: {}", next.fen()));
            }
        }
    }
    let before = board(&pos, case.window, &marks);
    let boards = match &after {
        Some((text, next)) => {
            beside(("before", &before), (&format!("after {text}"), &board(next, case.window, &[])))
        }
        None => before,
    };
    format!("{}, {}\n{boards}{}\n", case.variant, case.fen, notes.join("\n"))
}

/// Where the piece on `from` can kick the ball as a turn's first action, in file order.
fn first_kicks(turns: &[Turn], from: Square) -> Vec<Square> {
    let mut to: Vec<Square> = turns
        .iter()
        .filter(|t| t.first_move().is_none())
        .filter_map(|t| t.kicks().next())
        .filter(|k| k.kicker == from)
        .map(|k| k.to)
        .collect();
    sort_squares(&mut to);
    to
}

/// Where the piece on `from` can move.
fn moves(turns: &[Turn], from: Square) -> Vec<Square> {
    let mut to: Vec<Square> = turns
        .iter()
        .filter_map(|t| t.first_move())
        .filter(|m| m.from == from)
        .map(|m| m.to)
        .collect();
    sort_squares(&mut to);
    to
}

/// The squares where a piece of the hand may be placed, and the placements by name.
fn placements(pos: &Position<'_>, turns: &[Turn]) -> (Vec<Square>, String) {
    let drops: Vec<(&Turn, String)> = turns
        .iter()
        .zip(names(pos, turns))
        .filter(|(t, _)| t.first_move().is_some_and(|m| m.kind == MoveKind::Drop))
        .collect();
    let mut to: Vec<Square> =
        drops.iter().filter_map(|(t, _)| t.first_move()).map(|m| m.to).collect();
    sort_squares(&mut to);
    let mut names: Vec<String> = drops.into_iter().map(|(_, name)| name).collect();
    names.sort();
    let note = if names.is_empty() {
        "nothing may be placed".to_owned()
    } else {
        format!("{} placements: {}", names.len(), names.join(" "))
    };
    (to, note)
}

/// Squares by file, then rank, once each.
fn sort_squares(squares: &mut Vec<Square>) {
    squares.sort_by_key(|s| (s.file(), s.rank()));
    squares.dedup();
}

/// "the rook on a3", for notes.
fn piece_on(pos: &Position<'_>, square: Square) -> String {
    let (side, kind) = pos.piece_at(square).unwrap_or_else(|| panic!("no piece on {square}"));
    let colour = if side == Side::White { "White's" } else { "Black's" };
    format!("{colour} {} on {square}", pos.rules().piece(kind).name)
}

fn kicks_note(pos: &Position<'_>, from: Square, to: &[Square]) -> String {
    if to.is_empty() {
        return format!("{} cannot kick the ball", piece_on(pos, from));
    }
    let squares: Vec<String> = to.iter().map(|&s| square_note(pos, s)).collect();
    format!("{} kicks the ball to {}", piece_on(pos, from), squares.join(" "))
}

/// A destination, saying who scores if it is a goal.
fn square_note(pos: &Position<'_>, square: Square) -> String {
    match pos.rules().scorer(square) {
        Some(side) if side == pos.side() => format!("{square} (goal)"),
        Some(side) => format!("{square} (own goal: {} scores)", side.name()),
        None => square.to_string(),
    }
}

fn moves_note(pos: &Position<'_>, from: Square, to: &[Square]) -> String {
    if to.is_empty() {
        return format!("{} cannot move", piece_on(pos, from));
    }
    let squares: Vec<String> = to.iter().map(Square::to_string).collect();
    format!("{} moves to {}", piece_on(pos, from), squares.join(" "))
}

fn null_note(pos: &Position<'_>, turns: &[Turn]) -> String {
    let legal = turns.iter().any(Turn::is_null);
    let why = match (legal, null_allowed(pos)) {
        (true, true) => "legal",
        (true, false) => "forced: the side has no other turn",
        (false, _) => "not legal",
    };
    format!("the null turn --: {why}")
}

/// The turns without a piece move, each kicker named by its square, in the engine's order.
fn kick_turns_note(turns: &[Turn]) -> String {
    let kicks: Vec<String> = turns
        .iter()
        .filter(|t| t.first_move().is_none() && !t.is_null())
        .map(Turn::to_string)
        .collect();
    format!("{} turns only kick: {}", kicks.len(), kicks.join(", "))
}

/// The legal turn written `text`, in short or long form.
fn find_turn(pos: &Position<'_>, turns: &[Turn], text: &str) -> Turn {
    let names = names(pos, turns);
    turns
        .iter()
        .zip(&names)
        .find(|(t, name)| *name == text || t.to_string() == text)
        .map(|(t, _)| t.clone())
        .unwrap_or_else(|| panic!("{text} is not a legal turn of {}", pos.fen()))
}

/// The legal turns whose first action is by the piece on `from`, by name, in byte order.
fn turns_of_note(pos: &Position<'_>, turns: &[Turn], from: Square) -> String {
    let mut of: Vec<String> = turns
        .iter()
        .zip(names(pos, turns))
        .filter(|(t, _)| match t.actions.first() {
            Some(Action::Move(m)) => m.from == from,
            Some(Action::Kick(k)) => k.kicker == from,
            None => false,
        })
        .map(|(_, name)| name)
        .collect();
    of.sort();
    let who = piece_on(pos, from);
    if of.is_empty() {
        return format!("{who} has no turn");
    }
    let s = if of.len() == 1 { "" } else { "s" };
    format!("{} turn{s} of {who}: {}", of.len(), of.join(", "))
}

fn play_note(text: &str, turn: &Turn, pos: &Position<'_>, next: &Position<'_>) -> String {
    let result = match (next.outcome(), ending(pos, next)) {
        (Some(Outcome::Goal { winner, own_goal: true }), _) => {
            format!(": an own goal, {} wins", winner.name())
        }
        (Some(Outcome::Goal { winner, .. }), _) => format!(": a goal, {} wins", winner.name()),
        (_, Some(ending)) => format!(": {ending}"),
        _ => String::new(),
    };
    let long = turn.to_string();
    let long = if long == text { String::new() } else { format!(" ({long})") };
    format!("{text}{long}{result}")
}

/// The board inside `window`, with `marks` on empty squares: `*` the ball, `#` an empty goal,
/// `.` other empty squares, a blank a hole, White's pieces in uppercase, Black's in lowercase
/// (a holder of a carried ball by its holder letter).
fn board(
    pos: &Position<'_>,
    window: Option<((u8, u8), (u8, u8))>,
    marks: &[(Square, char)],
) -> String {
    let b = pos.rules().board();
    let ((f0, r0), (f1, r1)) = window.unwrap_or(((0, 0), (b.files - 1, b.ranks - 1)));
    let mut out = String::new();
    for rank in (r0..=r1).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in f0..=f1 {
            let square = Square::new(file, rank).expect("a square of the board");
            out.push(' ');
            out.push(cell(pos, square, marks));
        }
        // A hole at the end of a rank would leave blanks a Markdown editor strips.
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out.push_str("   ");
    for file in f0..=f1 {
        out.push(' ');
        out.push(char::from(b'a' + file));
    }
    out.push('\n');
    out
}

fn cell(pos: &Position<'_>, square: Square, marks: &[(Square, char)]) -> char {
    if pos.rules().board().is_hole(square) {
        return ' ';
    }
    if let Some((side, kind)) = pos.piece_at(square) {
        let piece = pos.rules().piece(kind);
        let held = pos.ball_held() && pos.ball() == Some(square);
        let letter = if held { piece.holder.unwrap_or(piece.letter) } else { piece.letter };
        return if side == Side::White { letter } else { letter.to_ascii_lowercase() };
    }
    if pos.ball() == Some(square) {
        return '*';
    }
    if let Some(&(_, mark)) = marks.iter().find(|(s, _)| *s == square) {
        return mark;
    }
    if pos.rules().scorer(square).is_some() { '#' } else { '.' }
}

/// Two boards side by side, each under its title.
fn beside(left: (&str, &str), right: (&str, &str)) -> String {
    let titled = |(title, board): (&str, &str)| -> Vec<String> {
        std::iter::once(format!("    {title}")).chain(board.lines().map(str::to_owned)).collect()
    };
    let (left, right) = (titled(left), titled(right));
    let width = left.iter().map(String::len).max().unwrap_or(0) + 6;
    left.iter().zip(&right).map(|(l, r)| format!("{l:<width$}{r}\n")).collect()
}

/// The example of `docs/rules.md` named `name`: checks that the doc shows the diagram the engine
/// draws, and returns the listings of its positions for a snapshot.
fn example(name: &str) -> String {
    let doc = std::fs::read_to_string(rules_doc()).expect("docs/rules.md");
    let all = examples(&doc);
    let ex = all.iter().find(|e| e.name == name).unwrap_or_else(|| {
        panic!("docs/rules.md has no example `{name}`: add one, or remove this test")
    });
    // In update mode the test below redraws the doc; comparing here would race with it.
    if std::env::var_os("UPDATE_DOCS").is_none() {
        let drawn = draw(ex);
        assert!(
            ex.shown == drawn,
            "the diagram of example `{name}` in docs/rules.md is not what the engine draws; \
             redraw it with `UPDATE_DOCS=1 cargo test --test rule_examples` and read the diff.\n\
             drawn now:\n{drawn}"
        );
    }
    ex.cases.iter().map(|c| listing(&c.variant, &c.fen)).collect::<Vec<_>>().join("\n")
}

/// One test per example of `docs/rules.md`, named as the example, with its snapshot.
macro_rules! examples {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                insta::assert_snapshot!(example(stringify!($name)));
            }
        )*

        /// The names of the tests above.
        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

examples! {
    a_piece_moves_over_a_goal_but_not_onto_it,
    rook_on_a3_kicks_the_ball_on_a4_up_the_file,
    pass_chains_and_one_kick_per_piece,
    null_turn_never,
    null_turn_when_adjacent,
    null_turn_always,
    forced_pass,
    no_moves_draws,
    bishop_corner_jump,
    kick_ranges_are_counted_from_the_ball,
    directions_are_read_from_the_kicking_side,
    backward_kicks_pass_over_the_kicker,
    knight_kicks_never_land_next_to_the_knight,
    leap_riders_kick_along_the_leap,
    one_destination_reached_twice_is_one_kick,
    corner_exception_lets_a_knight_kick_a_cornered_ball,
    no_kick_along_the_goal_rank_into_or_across_the_goal,
    no_goal_on_the_first_turns,
    two_kickers_to_one_square_are_two_turns,
    own_goals_count_or_are_forbidden,
    holes_are_squares_that_do_not_exist,
    a_zone_keeps_a_piece_to_its_squares,
    goals_say_which_goal_squares_a_piece_may_stand_on,
    the_ball_may_not_stop_on_a_forbidden_square,
    kicks_from_the_ball_or_beside_it,
    entering_kicks_from_next_to_the_ball_or_by_a_move,
    pushes_send_the_ball_on_the_way_the_kicker_steps,
    a_jumper_jumps_over_a_piece_or_the_ball_next_to_it,
    a_tackle_pushes_the_enemy_one_square_on,
    a_kick_ends_on_a_teammate_who_kicks_on,
    the_arrangement_stage_before_play,
    the_last_arrangement_move_ends_its_turn,
    the_placement_stage_before_play,
    a_draft_leaves_the_pieces_not_placed_out,
    a_piece_placed_only_in_its_box,
    only_the_holder_is_captured,
    a_piece_on_a_goal_square_scores_without_a_ball,
    captures_by_replacement,
    pawn_moves_by_modality,
    en_passant_captures,
    capturing_a_royal_piece_scores,
    promotion_offers_each_piece_of_promote_to,
    two_moves_a_turn_each_piece_once,
    a_turn_that_must_be_used_up,
    a_cap_on_the_kicks_of_a_turn,
    moves_and_kicks_in_any_order,
    a_match_resets_the_board_after_each_point,
    the_ball_goes_back_to_its_spot_and_the_conceding_side_moves,
    a_match_of_ten_turns_is_won_on_goals,
    a_carried_ball_is_taken_and_carried,
    passes_and_takes_from_a_friend,
    steals_by_capture_or_in_place,
    an_in_place_steal_answered_at_once,
    a_holder_captures_only_when_allowed,
    a_holders_double_step_leaves_no_en_passant,
    a_ride_sweeps_the_free_ball_up,
    a_holder_shoots_by_its_kick_pattern,
    a_cannon_shoots_over_a_screen,
    a_holder_robbed_by_a_tackle,
    two_action_points_for_any_actions,
    a_shot_flies_over_friends_to_the_first_enemy,
    a_pass_that_reaches_the_enemy_king_scores,
    a_goal_piece_is_untouchable,
    a_holder_offside_hands_the_ball_to_the_enemy_goal,
    the_side_that_conceded_serves,
    a_keeper_gives_the_ball_up_after_one_turn,
    no_backpass_to_the_keeper,
    a_turn_must_move_a_piece,
    the_first_piece_takes_the_ball_and_a_lob_flies_over_all,
    an_attacker_sprints_and_dribbles,
    a_tackled_holder_goes_to_the_first_free_square_beside_it,
}

#[test]
fn every_example_of_the_rules_has_its_test_and_every_test_its_example() {
    let doc = std::fs::read_to_string(rules_doc()).expect("docs/rules.md");
    let mut documented: Vec<String> = examples(&doc).into_iter().map(|e| e.name).collect();
    let mut tested: Vec<String> = TESTED.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        documented.len(),
        documented.iter().collect::<std::collections::BTreeSet<_>>().len(),
        "two examples of docs/rules.md have the same name: {documented:?}"
    );
    documented.sort();
    tested.sort();
    assert_eq!(
        documented, tested,
        "the examples of docs/rules.md and the tests of tests/rule_examples.rs must match one to \
         one: add the missing test to `examples!` or the missing example to the doc"
    );
}

/// Every diagram at once; with `UPDATE_DOCS=1`, redraws those that differ instead.
#[test]
fn the_diagrams_of_the_rules_are_what_the_engine_draws() {
    let mut doc = std::fs::read_to_string(rules_doc()).expect("docs/rules.md");
    let all = examples(&doc);
    assert!(all.len() >= TESTED.len(), "docs/rules.md has {} examples", all.len());
    let stale: Vec<&Example> = all.iter().filter(|ex| ex.shown != draw(ex)).collect();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        for ex in stale.iter().rev() {
            doc.replace_range(ex.at.clone(), &draw(ex));
        }
        std::fs::write(rules_doc(), doc).expect("docs/rules.md is writable");
        eprintln!("redrew {} diagrams of docs/rules.md", stale.len());
        return;
    }
    let names: Vec<&str> = stale.iter().map(|ex| ex.name.as_str()).collect();
    assert!(
        names.is_empty(),
        "these diagrams of docs/rules.md are not what the engine draws: {names:?}; redraw them \
         with `UPDATE_DOCS=1 cargo test --test rule_examples` and read the diff"
    );
}

/// Keys of the format that no example of `docs/rules.md` sets, for what they govern is not the
/// turns of a position: `goals.inner` only silences a warning, `removed` shapes a file that
/// extends another, the random setups choose start positions, and a claimed repetition needs a
/// game's history.
const NOT_SET_BY_AN_EXAMPLE: &[&str] = &[
    "pieces.X.removed",
    "setup.random.squares",
    "setup.random.pieces",
    "setup.random.ball",
    "setup.random.opposite_colors",
    "setup.random.black",
    "end.repetition_draw",
];

/// Every key of the format, from the key table of `docs/rules.md` (which `tests/docs.rs` keeps
/// equal to the format's own table), as its path of table names (`pieces.X.kick_mode`).
fn format_keys(doc: &str) -> Vec<String> {
    let begin = doc.find("<!-- keys:begin -->").expect("the key table begins");
    let end = doc.find("<!-- keys:end -->").expect("the key table ends");
    doc[begin..end]
        .lines()
        .filter_map(|row| row.strip_prefix("| ["))
        .filter_map(|row| row.split_once("](").map(|(name, _)| name))
        .map(|name| name.replace(['`', '[', ']'], "").replace(' ', "."))
        .collect()
}

/// The tables of a definition and of every definition it extends.
fn definition_chain(variant: &str) -> Vec<toml::Table> {
    let text = if variant.ends_with(".toml") {
        std::fs::read_to_string(variant).unwrap_or_else(|e| panic!("{variant}: {e}"))
    } else {
        let (_, text) = kickoff::definition::shipped::shipped(variant).expect("a shipped variant");
        text.to_owned()
    };
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{variant}: {e}"));
    let parent = match table.get("extends").and_then(toml::Value::as_str) {
        Some(path) if path.ends_with(".toml") => {
            let dir = std::path::Path::new(variant).parent().expect("a definition's folder");
            definition_chain(&dir.join(path).to_string_lossy())
        }
        Some(name) => definition_chain(name),
        None => Vec::new(),
    };
    std::iter::once(table).chain(parent).collect()
}

/// Whether `table` sets the key at `path`, where `X` stands for any piece's letter.
fn sets(table: &toml::Table, path: &[&str]) -> bool {
    let Some((first, rest)) = path.split_first() else { return true };
    let values: Vec<&toml::Value> = if *first == "X" {
        table.values().collect()
    } else {
        table.get(*first).into_iter().collect()
    };
    values.into_iter().any(|v| match v.as_table() {
        Some(inner) => sets(inner, rest),
        None => rest.is_empty(),
    })
}

#[test]
fn every_key_of_the_format_is_set_by_an_example_definition() {
    let doc = std::fs::read_to_string(rules_doc()).expect("docs/rules.md");
    let variants: std::collections::BTreeSet<String> =
        examples(&doc).into_iter().flat_map(|e| e.cases).map(|c| c.variant).collect();
    let tables: Vec<toml::Table> = variants.iter().flat_map(|v| definition_chain(v)).collect();
    let keys = format_keys(&doc);
    assert!(keys.len() > 50, "the key table of docs/rules.md has {} keys", keys.len());
    let unset: Vec<&str> = keys
        .iter()
        .filter(|k| !tables.iter().any(|t| sets(t, &k.split('.').collect::<Vec<_>>())))
        .map(String::as_str)
        .collect();
    assert_eq!(
        unset, NOT_SET_BY_AN_EXAMPLE,
        "every key of the format must be set by the definition of an example of docs/rules.md \
         (or by one it extends), so that an example shows its rule"
    );
}
