//! Arbitrary text typed as a turn in the start position of every shipped variant: a turn or a
//! clear error, never a panic.
#![no_main]

use std::sync::LazyLock;

use kickoff::movegen::notation::resolve;
use kickoff::{Position, Rules};
use libfuzzer_sys::fuzz_target;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(|| {
    kickoff::definition::shipped::names()
        .map(|n| kickoff::definition::load_shipped(n).unwrap().rules)
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&variant, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let rules = &RULES[usize::from(variant) % RULES.len()];
    let pos = Position::start(rules).unwrap();
    if let Ok(turn) = resolve(&pos, text) {
        assert!(kickoff::legal_turns(&pos).contains(&turn));
    }
});
