//! Invariants over random positions and random games of every shipped variant.

use std::collections::HashSet;

use kickoff::definition::shipped;
use kickoff::movegen::{PerftOptions, count_turns, legal_turns_unbounded, perft, play_unchecked};
use kickoff::position::Placement;
use kickoff::{Position, Rules, Side, Square, load};
use proptest::prelude::*;

/// Every shipped variant's rules, loaded once per test.
fn all_rules() -> Vec<Rules> {
    shipped::names().map(|name| load(name).unwrap().rules).collect()
}

/// Checks what must hold of every reachable position.
fn check_position(pos: &Position<'_>) -> Result<(), TestCaseError> {
    let rules = pos.rules();
    let board = rules.board();
    let text = pos.fen();
    let balls = text.split(' ').next().unwrap().matches(rules.ball_symbol()).count();
    prop_assert_eq!(balls, 1, "{}", text);
    for side in Side::ALL {
        for s in pos.pieces(side).iter() {
            prop_assert!(board.contains(s), "{} off the board in {}", s, text);
            prop_assert!(rules.scorer(s).is_none(), "piece on goal {} in {}", s, text);
        }
    }
    let again = Position::from_fen(rules, &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&again, pos);
    prop_assert_eq!(again.fen(), text.clone());
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "{}", text);
    Ok(())
}

/// Positions with more turns than this are counted, not listed.
const MAX_LISTED: u64 = 20_000;

/// Positions with more turns than this do not get their second ply checked.
const MAX_DEEP: u64 = 2_000;

/// Checks the turns of a position: each result is a valid position, and the counting
/// shortcuts of perft agree with the plain lists.
fn check_turns(pos: &Position<'_>, deep: bool) -> Result<(), TestCaseError> {
    // Crowded random boards can have a million turns (kick chains through many pieces): listing
    // and replaying them all would make the suite crawl, so such positions are only counted.
    let count = count_turns(pos);
    if count > MAX_LISTED {
        return Ok(());
    }
    let deep = deep && count <= MAX_DEEP;
    let turns = legal_turns_unbounded(pos);
    prop_assert_eq!(count, turns.len() as u64, "{}", pos.fen());
    let options = PerftOptions::default();
    let mut two = 0;
    for t in &turns {
        let next = play_unchecked(pos, t);
        check_position(&next)?;
        prop_assert_eq!(next.turns(), pos.turns() + 1);
        prop_assert_eq!(next.side(), !pos.side());
        two += if next.is_goal() {
            1
        } else if deep {
            count_turns(&next)
        } else {
            0
        };
    }
    if deep {
        prop_assert_eq!(perft(pos, 2, &options, None).unwrap(), two, "{}", pos.fen());
    }
    Ok(())
}

/// A random placement from raw numbers: pieces on distinct free squares off the goals.
fn placement(
    rules: &Rules,
    raw: &[(u8, u8, bool, u8)],
    ball: u8,
    black: bool,
    turns: u8,
) -> Option<Placement> {
    let board = rules.board();
    let free: Vec<Square> = board.squares().filter(|&s| rules.scorer(s).is_none()).collect();
    let mut used = HashSet::new();
    let ball = free[usize::from(ball) % free.len()];
    used.insert(ball);
    let mut pieces = Vec::new();
    for &(file, rank, white, kind) in raw {
        let s = Square::new(file % board.files, rank % board.ranks).expect("a square of the board");
        if rules.scorer(s).is_some() || !used.insert(s) {
            continue;
        }
        let side = if white { Side::White } else { Side::Black };
        let kind = rules.kinds().nth(usize::from(kind) % rules.pieces().len()).expect("a kind");
        pieces.push((s, side, kind));
    }
    let side = if black { Side::Black } else { Side::White };
    let mut placement = Placement::new(pieces, ball, side);
    placement.turns = u32::from(turns);
    Some(placement)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_positions_keep_every_invariant(
        variant in 0usize..16,
        raw in prop::collection::vec((0u8..16, 0u8..16, any::<bool>(), 0u8..8), 0..40),
        ball in any::<u8>(),
        black in any::<bool>(),
        turns in 0u8..4,
    ) {
        let rules = all_rules();
        let rules = &rules[variant % rules.len()];
        let placement = placement(rules, &raw, ball, black, turns).unwrap();
        let pos = Position::from_placement(rules, &placement).expect("a placement the rules accept");
        check_position(&pos)?;
        check_turns(&pos, true)?;
    }

    #[test]
    fn random_games_keep_every_invariant(
        variant in 0usize..16,
        choices in prop::collection::vec(any::<u16>(), 1..40),
    ) {
        let rules = all_rules();
        let rules = &rules[variant % rules.len()];
        let mut pos = Position::start(rules);
        for choice in choices {
            check_position(&pos)?;
            check_turns(&pos, false)?;
            let turns = legal_turns_unbounded(&pos);
            pos = play_unchecked(&pos, &turns[usize::from(choice) % turns.len()]);
            if pos.is_goal() {
                check_position(&pos)?;
                prop_assert!(legal_turns_unbounded(&pos).is_empty());
                break;
            }
        }
    }
}
