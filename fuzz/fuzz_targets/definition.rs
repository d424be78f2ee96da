//! The definition loader on arbitrary text: a definition or diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match kickoff::definition::load_text("fuzz.toml", text) {
            Ok(def) => {
                let _ = kickoff::render::explain::explain(&def.rules);
            }
            Err(kickoff::LoadError::Invalid { sources, diagnostics }) => {
                for d in &diagnostics {
                    let _ = d.render(&sources, false);
                    let _ = d.to_json(&sources);
                }
            }
            Err(_) => {}
        }
    }
});
