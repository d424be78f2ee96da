//! Positions on arbitrary text, checked against Boyer's rules: never a panic, and every
//! accepted position writes back to text that reads the same.
#![no_main]

use std::sync::LazyLock;

use kickoff::Rules;
use kickoff::notation::fen;
use kickoff::position::place;
use libfuzzer_sys::fuzz_target;

static RULES: LazyLock<Rules> =
    LazyLock::new(|| kickoff::definition::load_shipped("boyer-1951").unwrap().rules);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = fen::parse(text) else { return };
    if let Ok(placement) = place(&RULES, &parsed) {
        let again = fen::parse(&placement.fen(&RULES)).unwrap();
        assert_eq!(place(&RULES, &again).unwrap(), placement);
    }
});
