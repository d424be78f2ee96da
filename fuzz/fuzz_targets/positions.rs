//! Turn generation on arbitrary positions of every shipped variant: counting, listing, naming,
//! reading names back and playing never panic, and agree with each other (see `checks.rs`, which
//! bounds the work on positions with very many turns).
#![no_main]

use std::sync::LazyLock;

use kickoff::Rules;
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(checks::shipped_rules);

fuzz_target!(|data: &[u8]| checks::positions(&RULES, data));
