//! The turn lists of the examples of RULES.md, as snapshots a person can check against the
//! rules. Each snapshot shows the position, then every legal turn in byte order of its name,
//! with its long form (every kicker by its square); a turn that scores says who scores.

use kickoff::movegen::notation::names;
use kickoff::movegen::{legal_turns, null_allowed, play};
use kickoff::{Outcome, Position, load};

/// The position and its turns, as a snapshot shows them.
fn listing(variant: &str, fen: &str) -> String {
    let def = load(variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let pos = Position::from_fen(&def.rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns(&pos);
    let forced = turns.len() == 1 && turns[0].is_null() && !null_allowed(&pos);
    let names = names(&pos, &turns);
    let mut lines: Vec<String> = turns
        .iter()
        .zip(&names)
        .map(|(t, name)| {
            let note = match play(&pos, t).outcome() {
                Some(Outcome::Goal { winner, own_goal }) => {
                    let own = if own_goal { ", an own goal" } else { "" };
                    format!("  (goal: {} scores{own})", winner.name())
                }
                _ if forced => "  (forced pass)".to_owned(),
                _ => String::new(),
            };
            format!("{name:<14} {t}{note}")
        })
        .collect();
    lines.sort();
    format!("{variant}: {fen}\n{pos}\n{} turns:\n{}\n", lines.len(), lines.join("\n"))
}

/// Listings of several positions, one after the other.
fn listings(cases: &[(&str, &str)]) -> String {
    cases.iter().map(|(variant, fen)| listing(variant, fen)).collect::<Vec<_>>().join("\n")
}

#[test]
fn rook_on_a3_kicks_the_ball_on_a4_up_the_file() {
    // Boyer's text: a rook on a3 can kick a ball on a4 to a5-a9, not a ball on b4.
    insta::assert_snapshot!(listings(&[
        ("boyer-1951", "9/9/9/9/9/a8/R8/9/9 w 0"),
        ("boyer-1951", "9/9/9/9/9/1a7/R8/9/9 w 0"),
    ]));
}

#[test]
fn knight_kicks_never_land_next_to_the_knight() {
    // From e5 a knight on d4 reaches c6 d7 f7 g6 g4 f3, but not c4 or d3 (next to d4).
    insta::assert_snapshot!(listing("boyer-1951", "9/9/9/9/4a4/3N5/9/9/9 w 0"));
}

#[test]
fn corner_exception_lets_a_knight_kick_a_cornered_ball() {
    // vchess.club: knight h2, ball i1: i1>h3 and i1>g2 are legal; Boyer has no exception.
    insta::assert_snapshot!(listings(&[
        ("vchess", "9/9/9/9/9/9/9/7N1/8a w 2"),
        ("boyer-1951", "9/9/9/9/9/9/9/7N1/8a w 2"),
    ]));
}

#[test]
fn no_kick_along_the_goal_rank_into_or_across_the_goal() {
    // Ball d1, rook c1: nothing beyond d1 to the right; vchess kicks back over the rook to
    // b1 and a1; with goal_rank = "allowed" the ball reaches e1 (an own goal) and beyond.
    insta::assert_snapshot!(listings(&[
        ("boyer-1951", "9/9/9/9/9/9/9/9/2Ra5 w 0"),
        ("vchess", "9/9/9/9/9/9/9/9/2Ra5 w 4"),
        ("tests/data/rules/goal-rank-allowed.toml", "9/9/9/9/9/9/9/9/2Ra5 w 0"),
    ]));
}

#[test]
fn no_goal_on_the_first_turns() {
    // vchess: rook e7, ball e8. Before two turns are completed neither e9 nor the own goal
    // e1 (backwards, over the rook) may be reached; from turn 2 on both score.
    insta::assert_snapshot!(listings(&[
        ("vchess", "9/4a4/4R4/9/9/9/9/9/9 w 1"),
        ("vchess", "9/4a4/4R4/9/9/9/9/9/9 w 2"),
    ]));
}

#[test]
fn own_goals_count_or_are_forbidden() {
    // Rook e3 kicks the ball on e2 into e1, White's own goal: Black scores, unless forbidden.
    insta::assert_snapshot!(listings(&[
        ("boyer-1951", "9/9/9/9/9/9/4R4/4a4/9 w 0"),
        ("tests/data/rules/own-goal-forbidden.toml", "9/9/9/9/9/9/4R4/4a4/9 w 0"),
    ]));
}

#[test]
fn pass_chains_and_one_kick_per_piece() {
    // Rooks d4 and d7, ball d5: d4 kicks to d6, d7 kicks back to d5, and d4 may not kick
    // again (it may with kick.per_piece = 2).
    insta::assert_snapshot!(listings(&[
        ("boyer-1951", "9/9/3R5/9/3a5/3R5/9/9/9 w 0"),
        ("tests/data/rules/kick-twice.toml", "9/9/3R5/9/3a5/3R5/9/9/9 w 0"),
    ]));
}

#[test]
fn null_turn_never() {
    // Boyer: no null turn, whether or not the king touches the ball.
    insta::assert_snapshot!(listings(&[
        ("boyer-1951", "9/9/9/9/4a4/4K4/9/9/9 w 0"),
        ("boyer-1951", "9/9/9/9/4a4/9/9/4K4/9 w 0"),
    ]));
}

#[test]
fn null_turn_when_adjacent() {
    // `--` only while the king touches the ball.
    let file = "tests/data/rules/null-when-adjacent.toml";
    insta::assert_snapshot!(listings(&[
        (file, "9/9/9/9/4a4/4K4/9/9/9 w 0"),
        (file, "9/9/9/9/4a4/9/9/4K4/9 w 0"),
    ]));
}

#[test]
fn null_turn_always() {
    let file = "tests/data/rules/null-always.toml";
    insta::assert_snapshot!(listings(&[
        (file, "9/9/9/9/4a4/4K4/9/9/9 w 0"),
        (file, "9/9/9/9/4a4/9/9/4K4/9 w 0"),
    ]));
}

#[test]
fn forced_pass() {
    // Boyer: White's only piece, a bishop on a1, is shut in by b2 and does not touch the ball.
    insta::assert_snapshot!(listing("boyer-1951", "9/9/9/9/4a4/9/9/1n7/B8 w 0"));
}

#[test]
fn bishop_corner_jump() {
    // vchess: the same bishop jumps over b2 to c3; it cannot when c3 is taken (forced pass).
    insta::assert_snapshot!(listings(&[
        ("vchess", "9/9/9/9/4a4/9/9/1n7/B8 w 0"),
        ("vchess", "9/9/9/9/4a4/9/2n6/1n7/B8 w 0"),
    ]));
}

#[test]
fn two_kickers_to_one_square_are_two_turns() {
    // Knights d4 and f4 both reach c6, d7, f7 and g6 from e5: eight turns, not four.
    insta::assert_snapshot!(listing("boyer-1951", "9/9/9/9/4a4/3N1N3/9/9/9 w 0"));
}
