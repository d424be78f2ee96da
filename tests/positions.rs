//! Positions as text on boards of any size.

use kickoff::movegen::{legal_turns_unbounded, play_unchecked};
use kickoff::{Position, load};

#[test]
fn runs_longer_than_nine_are_written_as_numbers() {
    let def = load("tests/data/rules/wide.toml").unwrap();
    let start = Position::start(&def.rules);
    assert_eq!(start.fen(), "r14k/16/16/16/16/7a8/16/16/16/16/16/R5K9 w 0");
    let turns = legal_turns_unbounded(&start);
    let after = play_unchecked(&start, turns.iter().find(|t| t.to_string() == "Ra1-a11").unwrap());
    assert_eq!(after.fen(), "r14k/R15/16/16/16/7a8/16/16/16/16/16/6K9 b 1");
    assert_eq!(Position::from_fen(&def.rules, &after.fen()).unwrap(), after);
}
