//! Arbitrary text typed as a turn in the start position of every shipped variant: a turn or a
//! clear error, never a panic (see `checks.rs`).
#![no_main]

use std::sync::LazyLock;

use kickoff::Rules;
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(checks::shipped_rules);

fuzz_target!(|data: &[u8]| checks::notation(&RULES, data));
