//! The search's tactics: goals in one, defences against goals in one, wins in two.
//!
//! Each puzzle's claim is first checked with the turn generator alone (so the file cannot lie),
//! then the search, at a fixed depth so that the test is deterministic, must choose a turn that
//! does what the puzzle asks. The chosen turns are snapshotted.

use kickoff::movegen::{Child, Results};
use kickoff::position::{Outcome, Position};
use kickoff::search::{Limits, Searcher};
use kickoff::turn_text::names::name;
use kickoff::{Side, load};

/// Whether the side to move in `pos` can score this turn.
fn can_score<'r>(turns: &mut Results<'r>, pos: &Position<'r>) -> bool {
    let mut children = Vec::new();
    turns.fill(pos, &mut children);
    children.iter().any(|c| scored_by(c, pos.side()))
}

fn scored_by(child: &Child<'_>, side: Side) -> bool {
    matches!(child.position.outcome(), Some(Outcome::Goal { winner, .. }) if winner == side)
}

fn results<'r>(turns: &mut Results<'r>, pos: &Position<'r>) -> Vec<Child<'r>> {
    let mut children = Vec::new();
    turns.fill(pos, &mut children);
    children
}

/// Whether the side to move in `child` (the opponent) cannot score, and every one of its
/// replies leaves the first side a goal.
fn wins_in_two<'r>(turns: &mut Results<'r>, child: &Position<'r>) -> bool {
    !can_score(turns, child)
        && results(turns, child).iter().all(|reply| can_score(turns, &reply.position))
}

/// The same position with the other side to move.
fn flipped<'r>(pos: &Position<'r>) -> Position<'r> {
    let fen = pos.fen();
    let (board, rest) = fen.split_once(' ').unwrap();
    let (side, turns) = rest.split_once(' ').unwrap();
    let other = if side == "w" { "b" } else { "w" };
    Position::from_fen(pos.rules(), &format!("{board} {other} {turns}")).unwrap()
}

#[test]
fn every_puzzle_is_what_it_claims_and_the_search_solves_it() {
    let text = std::fs::read_to_string("tests/data/puzzles/puzzles.txt").unwrap();
    let mut solved = String::new();
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut parts = line.splitn(3, ' ');
        let (kind, variant, fen) =
            (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let def = load(variant).unwrap();
        let pos = Position::from_fen(&def.rules, fen).unwrap();
        let mut turns = Results::new();
        let me = pos.side();
        let children = results(&mut turns, &pos);
        // The claim, by the generator alone.
        match kind {
            "goal-in-one" => assert!(can_score(&mut turns, &pos), "{line}: no goal in one"),
            "must-defend" => {
                assert!(!can_score(&mut turns, &pos), "{line}: the side to move can score");
                assert!(can_score(&mut turns, &flipped(&pos)), "{line}: no threat");
                let defences =
                    children.iter().filter(|c| !can_score(&mut turns, &c.position)).count();
                assert!(defences > 0, "{line}: no defence");
                assert!(defences < children.len(), "{line}: every turn defends");
            }
            "win-in-two" => {
                assert!(!can_score(&mut turns, &pos), "{line}: a goal in one");
                let wins = children
                    .iter()
                    .filter(|c| !c.position.is_goal() && wins_in_two(&mut turns, &c.position))
                    .count();
                assert!(wins > 0, "{line}: no win in two");
            }
            other => panic!("unknown puzzle kind {other}"),
        }
        // The search, two turns deep (what the default level always completes).
        let mut searcher = Searcher::new(&def.rules);
        let report = searcher
            .search(
                &pos,
                &[],
                Limits { depth: Some(2), movetime: None, min_depth: 2, cap: None, exact: 0 },
            )
            .unwrap();
        let result = report.result.unwrap();
        let turn = report.turn.unwrap();
        assert_eq!(
            kickoff::play(&pos, &turn).expect("the chosen turn is legal"),
            result,
            "{line}: the turn does not lead to the result"
        );
        let ok = match kind {
            "goal-in-one" => {
                result.outcome() == Some(Outcome::Goal { winner: me, own_goal: false })
            }
            "must-defend" => !can_score(&mut turns, &result),
            _ => wins_in_two(&mut turns, &result),
        };
        assert!(ok, "{line}: the search chose {turn} ({})", result.fen());
        *kinds.entry(kind).or_default() += 1;
        // The turn and its score, not the positions searched: any change to the search's
        // order or pruning changes those.
        solved.push_str(&format!(
            "{kind} {variant} {fen}\n  -> {} (score {})\n",
            name(&pos, &turn),
            report.score
        ));
    }
    assert!(kinds.values().all(|&n| n >= 3), "too few puzzles of a kind: {kinds:?}");
    insta::assert_snapshot!(solved);
}
