//! The betza grammar on arbitrary text: a value or an error inside the input, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = kickoff::notation::betza::parse(text).map_err(|p| p.detail) {
            assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "{e:?}");
            assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
        }
    }
});
