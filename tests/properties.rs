//! Invariants over random positions and random games of every shipped variant.

use std::collections::HashSet;

use kickoff::definition::shipped;
use kickoff::movegen::{
    PerftOptions, count_turns, is_legal, legal_turns_unbounded, perft, play_unchecked,
};
use kickoff::position::Placement;
use kickoff::search::{beyond_counting, random_turn};
use kickoff::{Position, Rules, Side, Square, load};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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
    let ball = pos.ball();
    prop_assert_eq!(balls, usize::from(ball.is_some() && !pos.ball_held()), "{}", text);
    prop_assert_eq!(ball.is_some(), rules.has_ball(), "{}", text);
    prop_assert!(ball.is_none_or(|b| board.contains(b)), "ball off the board in {}", text);
    for side in Side::ALL {
        for s in pos.pieces(side).iter() {
            let (owner, kind) = pos.piece_at(s).unwrap();
            prop_assert_eq!(owner, side, "{}", text);
            prop_assert!(rules.may_stand(side, kind, s), "piece on {} in {}", s, text);
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

/// How far the turns of a position were checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Checked {
    /// Beyond counting, or too many to count: nothing was listed.
    Nothing,
    /// Counted, too many to list.
    Counted,
    /// Listed, each result checked.
    Listed,
    /// Listed, and the second ply counted against perft.
    TwoPlies,
}

/// Checks the turns of a position: each result is a valid position, and the counting
/// shortcuts of perft agree with the plain lists. Says how far it got.
fn check_turns(pos: &Position<'_>, deep: bool) -> Result<Checked, TestCaseError> {
    // Crowded random boards can have a million turns (kick chains through many pieces): listing
    // and replaying them all would make the suite crawl, so such positions are only counted.
    // Turns of several actions (Soccer Chess's five moves) can be beyond counting at all.
    if beyond_counting(pos) {
        return Ok(Checked::Nothing);
    }
    let Ok(count) = count_turns(pos) else { return Ok(Checked::Nothing) };
    if count > MAX_LISTED {
        return Ok(Checked::Counted);
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
            // A result with too many turns to count: the second ply is not checked here.
            match count_turns(&next) {
                Ok(n) => n,
                Err(_) => return Ok(Checked::Listed),
            }
        } else {
            0
        };
    }
    if deep {
        prop_assert_eq!(perft(pos, 2, &options, None).unwrap(), two, "{}", pos.fen());
        return Ok(Checked::TwoPlies);
    }
    Ok(Checked::Listed)
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
    let free: Vec<Square> = board
        .squares()
        .filter(|&s| rules.scorer(s).is_none() && !rules.ball().forbidden.contains(s))
        .collect();
    let mut used = HashSet::new();
    // A game without a ball (`ball.mode = "none"`) has none to place.
    let ball = rules.has_ball().then(|| free[usize::from(ball) % free.len()]);
    used.extend(ball);
    let mut pieces = Vec::new();
    for &(file, rank, white, kind) in raw {
        let s = Square::new(file % board.files, rank % board.ranks).expect("a square of the board");
        let side = if white { Side::White } else { Side::Black };
        let kind = rules.kinds().nth(usize::from(kind) % rules.pieces().len()).expect("a kind");
        if rules.scorer(s).is_some() || !rules.may_stand(side, kind, s) || !used.insert(s) {
            continue;
        }
        pieces.push((s, side, kind));
    }
    let side = if black { Side::Black } else { Side::White };
    let mut placement = Placement::new(pieces, ball, side);
    placement.turns = u32::from(turns);
    Some(placement)
}

/// The cases each property runs.
const CASES: u32 = 64;

/// Runs `property` on `CASES` cases drawn from `strategy`, panicking with the smallest failing
/// case; returns what each case returned, so that a test can say how much it checked.
fn run_cases<S: Strategy, T: std::fmt::Debug>(
    strategy: S,
    property: impl Fn(S::Value) -> Result<T, TestCaseError>,
) -> Vec<T> {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(CASES));
    let seen = std::sync::Mutex::new(Vec::new());
    let outcome = runner.run(&strategy, |value| {
        let found = property(value)?;
        seen.lock().unwrap().push(found);
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    seen.into_inner().unwrap()
}

#[test]
fn random_positions_keep_every_invariant() {
    let rules = all_rules();
    let strategy = (
        0usize..16,
        prop::collection::vec((0u8..16, 0u8..16, any::<bool>(), 0u8..8), 0..40),
        any::<u8>(),
        any::<bool>(),
        0u8..4,
    );
    let checked = run_cases(strategy, |(variant, raw, ball, black, turns)| {
        let rules = &rules[variant % rules.len()];
        let placement = placement(rules, &raw, ball, black, turns).unwrap();
        let pos =
            Position::from_placement(rules, &placement).expect("a placement the rules accept");
        check_position(&pos)?;
        check_turns(&pos, true)
    });
    // Every case ran, and most had their turns listed and replayed, two plies deep.
    assert_eq!(checked.len(), CASES as usize);
    let deep = checked.iter().filter(|&&c| c == Checked::TwoPlies).count();
    let listed = checked.iter().filter(|&&c| c >= Checked::Listed).count();
    assert!(listed >= CASES as usize / 2, "only {listed} of {CASES} positions listed: {checked:?}");
    assert!(deep >= CASES as usize / 4, "only {deep} of {CASES} positions two plies deep");
    eprintln!("{CASES} random positions: {listed} listed, {deep} of them two plies deep");
}

#[test]
fn random_games_keep_every_invariant() {
    let rules = all_rules();
    let strategy = (0usize..16, prop::collection::vec(any::<u16>(), 1..40));
    let plies = run_cases(strategy, |(variant, choices)| {
        let rules = &rules[variant % rules.len()];
        let mut pos = Position::start(rules);
        let mut listed = 0;
        for choice in choices {
            check_position(&pos)?;
            if check_turns(&pos, false)? >= Checked::Listed {
                listed += 1;
            }
            let turn = if !beyond_counting(&pos) && count_turns(&pos).is_ok() {
                let turns = legal_turns_unbounded(&pos);
                turns[usize::from(choice) % turns.len()].clone()
            } else {
                // Too many turns to list: one built action by action, which must be legal.
                let mut rng = ChaCha8Rng::seed_from_u64(u64::from(choice));
                let turn = random_turn(&pos, &mut rng).unwrap();
                prop_assert!(is_legal(&pos, &turn), "{}", pos.fen());
                turn
            };
            pos = play_unchecked(&pos, &turn);
            if pos.is_goal() {
                check_position(&pos)?;
                prop_assert!(legal_turns_unbounded(&pos).is_empty());
                break;
            }
        }
        Ok(listed)
    });
    assert_eq!(plies.len(), CASES as usize);
    let listed: usize = plies.iter().sum();
    assert!(listed >= 10 * CASES as usize, "only {listed} positions listed in {CASES} games");
    eprintln!("{CASES} random games: the turns of {listed} positions listed and replayed");
}
