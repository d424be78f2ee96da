//! perft below the root on arbitrary positions of the shipped variants and of variants whose
//! kick chains multiply: a count that agrees with counting each result, or a refusal that some
//! result has too many turns (see `checks.rs`).
#![no_main]

use std::sync::LazyLock;

use kickoff::Rules;
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(checks::all_rules);

fuzz_target!(|data: &[u8]| checks::perft_below(&RULES, data));
