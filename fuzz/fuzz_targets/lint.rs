//! The lint and the random games of `validate --simulate` on definitions with arbitrary kick
//! rules and start positions: a start with too many turns is warned of exactly when there is
//! one, and a game abandoned at such a position yields no conclusion (see `checks.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::lint(data));
