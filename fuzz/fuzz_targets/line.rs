//! The engine's expected line on arbitrary positions of the shipped variants and of variants
//! whose kick chains multiply: a short search answers in time, and every turn of its line is
//! legal and named so that it reads back (see `checks.rs`).
#![no_main]

use std::sync::LazyLock;

use kickoff::Rules;
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(checks::all_rules);

fuzz_target!(|data: &[u8]| checks::line(&RULES, data));
