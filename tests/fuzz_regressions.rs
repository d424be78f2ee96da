//! Inputs the fuzzers found interesting (`fuzz/`), kept as regression tests: each is read by its
//! parser again, and must give a value or a clear error, never a panic. The `positions` and
//! `notation` inputs go through the very checks of their fuzz targets (`fuzz/checks.rs`), with the
//! same bounds on the work.

use std::path::Path;

use kickoff::definition::{self, LoadError};
use kickoff::notation::{betza, fen, record, squares, turn};
use kickoff::position::place;

#[path = "../fuzz/checks.rs"]
mod checks;

/// The targets whose inputs are kept under `tests/data/fuzz/`: each has a folder there, and
/// every folder there is one of these.
const TARGETS: [&str; 11] = [
    "betza",
    "definition",
    "fen",
    "line",
    "lint",
    "notation",
    "perft",
    "positions",
    "record",
    "squares",
    "turn",
];

/// Every file of `tests/data/fuzz/<target>/` as bytes, sorted by name.
fn files(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz").join(target);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    out.sort();
    assert!(!out.is_empty(), "{}: no inputs", dir.display());
    out
}

/// Every file of `tests/data/fuzz/<target>/` as text (invalid UTF-8 is skipped: the targets
/// skip it too).
fn inputs(target: &str) -> Vec<(String, String)> {
    files(target)
        .into_iter()
        .filter_map(|(name, bytes)| String::from_utf8(bytes).ok().map(|text| (name, text)))
        .collect()
}

#[test]
fn every_folder_is_replayed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(
        found,
        TARGETS,
        "a folder of {} that no test replays, or a missing one",
        dir.display()
    );
}

fn check_span(name: &str, text: &str, span: &std::ops::Range<usize>) {
    assert!(span.start <= span.end && span.end <= text.len(), "{name}: {span:?}");
    assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end), "{name}");
}

#[test]
fn grammars() {
    for (name, text) in inputs("betza") {
        if let Err(e) = betza::parse(&text) {
            check_span(&name, &text, &e.detail.span);
        }
    }
    for (name, text) in inputs("squares") {
        if let Err(e) = squares::parse(&text) {
            check_span(&name, &text, &e.span);
        }
    }
    for (name, text) in inputs("turn") {
        if let Err(e) = turn::parse(&text) {
            check_span(&name, &text, &e.span);
        }
    }
    for (name, text) in inputs("record") {
        if let Err(e) = record::parse(&text) {
            check_span(&name, &text, &e.span);
        }
    }
    // As the fen target: against Boyer's rules, an accepted position writes back to text that
    // reads the same.
    let boyer = definition::load_shipped("boyer-1951").unwrap().rules;
    for (name, text) in inputs("fen") {
        match fen::parse(&text) {
            Err(e) => check_span(&name, &text, &e.span),
            Ok(parsed) => {
                if let Ok(placement) = place(&boyer, &parsed) {
                    let again = fen::parse(&placement.fen(&boyer)).unwrap();
                    assert_eq!(place(&boyer, &again).unwrap(), placement, "{name}");
                }
            }
        }
    }
}

#[test]
fn definitions() {
    for (name, text) in inputs("definition") {
        match definition::load_text(&name, &text) {
            Ok(def) => {
                let _ = kickoff::render::explain::explain(&def.rules);
            }
            Err(LoadError::Unreadable { .. } | LoadError::UnknownVariant { .. }) => {}
            Err(LoadError::Invalid { sources, diagnostics }) => {
                assert!(diagnostics.iter().any(|d| d.is_error()), "{name}");
                for d in &diagnostics {
                    let _ = d.render(&sources, false);
                    let _ = d.to_json(&sources);
                }
            }
        }
    }
}

/// Runs `check` on each input of `target`, catching a panic so that the failure names the file
/// (the panic's own message is printed above it).
fn replay(target: &str, check: impl Fn(&[u8])) {
    for (name, bytes) in files(target) {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&bytes)));
        assert!(outcome.is_ok(), "{name}: the {target} check failed");
    }
}

#[test]
fn positions() {
    let rules = checks::shipped_rules();
    replay("positions", |data| checks::positions(&rules, data));
}

#[test]
fn notation() {
    let rules = checks::shipped_rules();
    replay("notation", |data| checks::notation(&rules, data));
}

#[test]
fn lines() {
    let rules = checks::all_rules();
    replay("line", |data| checks::line(&rules, data));
}

#[test]
fn perft_below_the_root() {
    let rules = checks::all_rules();
    replay("perft", |data| checks::perft_below(&rules, data));
}

#[test]
fn lints() {
    replay("lint", checks::lint);
}
