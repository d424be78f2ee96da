//! Every broken definition of `tests/data/bad/` is refused, with its diagnostics rendered exactly
//! as a user sees them, in text and in JSON.

use kickoff::definition::{self, LoadError, shipped};

#[test]
fn every_broken_definition_is_explained() {
    insta::glob!("data/bad/*.toml", |path| {
        let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
        let shown = relative.display().to_string();
        let Err(LoadError::Invalid { sources, diagnostics }) = definition::load_path(relative)
        else {
            panic!("{shown} should be invalid");
        };
        assert!(diagnostics.iter().any(|d| d.is_error()), "{shown}: no error");
        let text: Vec<String> = diagnostics.iter().map(|d| d.render(&sources, false)).collect();
        let json: Vec<_> = diagnostics.iter().map(|d| d.to_json(&sources)).collect();
        let json = serde_json::to_string_pretty(&json).unwrap();
        insta::assert_snapshot!(format!("{}\n\n{json}", text.join("\n\n")));
    });
}

/// Definitions that work but earn warnings, rendered as `validate` shows them.
#[test]
fn every_warning_is_explained() {
    insta::glob!("data/warn/*.toml", |path| {
        let relative = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path);
        let def = definition::load_path(relative)
            .unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
        let all = &def.warnings;
        assert!(!all.is_empty(), "{}: no warning", relative.display());
        assert!(all.iter().all(|d| !d.is_error()));
        let text: Vec<String> = all.iter().map(|d| d.render(&def.sources, false)).collect();
        insta::assert_snapshot!(text.join("\n\n"));
    });
}

#[test]
fn shipped_definitions_are_clean() {
    for name in shipped::names() {
        let def = definition::load_shipped(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(def.warnings.is_empty(), "{name}: {:?}", def.warnings);
    }
}
