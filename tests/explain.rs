//! `explain` of every shipped variant, as a person reads it.

use kickoff::definition::{load_shipped, shipped};
use kickoff::render::explain::explain;

#[test]
fn explain_every_shipped_variant() {
    for name in shipped::names() {
        let rules = load_shipped(name).unwrap().rules;
        insta::assert_snapshot!(format!("explain-{name}"), explain(&rules));
    }
}

/// `explain` of a definition file, its lines joined, so that wrapping does not matter.
fn explained(path: &str) -> String {
    let rules = kickoff::definition::load(path).unwrap().rules;
    explain(&rules).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn rules_switched_off_that_a_reader_of_boyers_game_assumes_are_stated() {
    let boyer = explained("boyer-1951");
    assert!(boyer.contains("A turn must move a piece or kick the ball."), "no null turn");
    assert!(boyer.contains("(a pass)"), "{boyer}");
    assert!(boyer.contains("no kick along that rank may put the ball on the goal"), "{boyer}");
    let free_rank = explained("tests/data/rules/goal-rank-allowed.toml");
    assert!(
        free_rank.contains(
            "Unlike in Boyer's game, a kick along a goal's rank may put the ball on the goal or \
             carry it across."
        ),
        "{free_rank}"
    );
    assert!(!free_rank.contains("no kick along that rank"), "{free_rank}");
    let one_kick = explained("tests/data/explain/one-kick.toml");
    assert!(
        one_kick.contains("The side kicks at most once a turn: there are no passes."),
        "{one_kick}"
    );
    assert!(!one_kick.contains("(a pass)"), "{one_kick}");
    let no_own_goal = explained("tests/data/rules/own-goal-forbidden.toml");
    assert!(
        no_own_goal.contains("kicking the ball into one's own goal is not allowed"),
        "{no_own_goal}"
    );
}
