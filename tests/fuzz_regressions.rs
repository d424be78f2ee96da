//! Inputs the fuzzers found interesting (`fuzz/`), kept as regression tests: each is read by its
//! parser again, and must give a value or a clear error, never a panic.

use std::path::Path;

use kickoff::definition::{self, LoadError};
use kickoff::notation::{betza, fen, record, squares, turn};

/// Every file of `tests/data/fuzz/<target>/` as text (invalid UTF-8 is skipped: the targets
/// skip it too).
fn inputs(target: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz").join(target);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap()) {
            out.push((path.display().to_string(), text));
        }
    }
    out
}

fn check_span(name: &str, text: &str, span: &std::ops::Range<usize>) {
    assert!(span.start <= span.end && span.end <= text.len(), "{name}: {span:?}");
    assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end), "{name}");
}

#[test]
fn grammars() {
    for (name, text) in inputs("betza") {
        if let Err(e) = betza::parse(&text) {
            check_span(&name, &text, &e.span);
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
    for (name, text) in inputs("fen") {
        if let Err(e) = fen::parse(&text) {
            check_span(&name, &text, &e.span);
        }
    }
}

#[test]
fn definitions() {
    for (name, text) in inputs("definition") {
        match definition::load_text(&name, &text) {
            Ok(_) | Err(LoadError::Unreadable { .. } | LoadError::UnknownVariant { .. }) => {}
            Err(LoadError::Invalid { sources, diagnostics }) => {
                assert!(diagnostics.iter().any(|d| d.is_error()), "{name}");
                for d in &diagnostics {
                    let _ = d.render(&sources, false);
                }
            }
        }
    }
}
