//! Every broken definition of `tests/data/bad/` is refused, with its diagnostics rendered exactly
//! as a user sees them, in text and in JSON.

use kickoff::definition::{self, LoadError, LoadOptions, shipped};
use kickoff::lint::{load_checked, load_text_checked};

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
        let def = load_checked(&relative.display().to_string(), LoadOptions::default())
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
        let def =
            load_checked(name, LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(def.warnings.is_empty(), "{name}: {:?}", def.warnings);
    }
}

/// The codes of the diagnostics of a definition given as text, errors or warnings.
fn codes(text: &str) -> Vec<String> {
    match load_text_checked("test.toml", text) {
        Ok(def) => def.warnings.iter().map(|d| d.code.to_string()).collect(),
        Err(LoadError::Invalid { diagnostics, .. }) => {
            diagnostics.iter().map(|d| d.code.to_string()).collect()
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn an_inner_goal_is_warned_of_unless_it_is_meant() {
    let inner = "extends = \"boyer-1951\"\n[goals]\nwhite = \"e7\"\nblack = \"e3\"\n";
    assert_eq!(codes(inner), ["W0204", "W0204"]);
    assert!(codes(&format!("{inner}inner = true\n")).is_empty());
    // A goal on a side edge, or next to a hole, is on the board's edge.
    assert!(codes("extends = \"boyer-1951\"\n[goals]\nwhite = \"a5\"\n").is_empty());
    let holed = "extends = \"boyer-1951\"\n[board]\nholes = \"e9\"\n[goals]\nwhite = \"e8\"\n\
                 [setup]\nfen = \"rnbq*kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0\"\n";
    assert!(codes(holed).is_empty());
}

#[test]
fn a_piece_reached_only_by_promotion_is_placed() {
    let text = "extends = \"boyer-1951\"\n[pieces.P]\nname = \"pawn\"\nmoves = \"fW\"\n\
                promotion = \"a9-i9\"\npromote_to = \"M\"\n[pieces.M]\nname = \"amazon\"\n\
                moves = \"QN\"\n[setup]\nfen = \"rnbq1kbnr/9/9/9/4a4/9/9/4P4/RNBQ1KBNR w 0\"\n";
    assert!(codes(text).is_empty(), "{:?}", codes(text));
    let unplaced = text.replace("promote_to = \"M\"", "promote_to = \"Q\"");
    assert_eq!(codes(&unplaced), ["W0205"]);
}

/// A problem of the author's own value stays at that value, even in a file that resizes the
/// board; an inherited value that breaks on an unchanged board is shown at `extends`, with a
/// note that says where the value was written and a help that names the key to set.
#[test]
fn only_inherited_values_under_a_resize_move() {
    let text = "extends = \"boyer-1951\"\n[board]\nfiles = 7\nranks = 7\n[goals]\nwhite = \"e9\"\n";
    let Err(LoadError::Invalid { sources, diagnostics }) = definition::load_text("own.toml", text)
    else {
        panic!("should be invalid");
    };
    let first = diagnostics[0].to_json(&sources);
    assert_eq!((first.code.as_str(), first.line), ("E0302", 6), "{first:?}");
    // Removing the knights breaks the inherited start position, but the board is the same.
    let removed = "extends = \"boyer-1951\"\n[pieces.N]\nremoved = true\n";
    let Err(LoadError::Invalid { sources, diagnostics }) =
        definition::load_text("removed.toml", removed)
    else {
        panic!("should be invalid");
    };
    let first = diagnostics[0].to_json(&sources);
    assert_eq!(
        (first.code.as_str(), first.file.as_str(), first.line),
        ("E0303", "removed.toml", 1)
    );
    let note = first.note.unwrap_or_default();
    assert!(note.starts_with("the inherited value: boyer-1951 (shipped):"), "{note}");
    assert!(first.help.unwrap_or_default().starts_with("set `setup.fen` in this file"));
}

/// One mistake in a file that extends another is one error: a misspelt table (`[piece.K]` for
/// `[pieces.K]`) or a refused value leaves the parent's value in place for the other checks,
/// so no error follows from the parent's pieces or setting having gone.
#[test]
fn a_misspelling_over_a_parent_is_reported_once() {
    for (text, code, line, message) in [
        (
            "extends = \"boyer-1951\"\n\n[piece.K]\nroyal = true\n",
            "E0201",
            3,
            "unknown key `piece` at the top level",
        ),
        ("extends = \"boyer-1951\"\n\n[capture]\nmode = \"replase\"\n", "E0206", 4, ""),
        (
            "extends = \"boyer-1951\"\n\n[pieces.N]\nmvoes = \"N\"\n",
            "E0201",
            4,
            "unknown key `mvoes` in [pieces.N]",
        ),
    ] {
        let Err(LoadError::Invalid { sources, diagnostics }) =
            definition::load_text("child.toml", text)
        else {
            panic!("should be invalid: {text}");
        };
        let all: Vec<_> = diagnostics.iter().map(|d| d.to_json(&sources)).collect();
        assert_eq!(all.len(), 1, "{text}: {all:#?}");
        assert_eq!((all[0].code.as_str(), all[0].line), (code, line), "{all:?}");
        assert!(all[0].message.contains(message), "{all:?}");
    }
}

/// A local parent's value is moved only when the parent is clean on its own: otherwise the
/// problem is the parent's, and stays there.
#[test]
fn a_broken_parent_keeps_its_own_problems() {
    let Err(LoadError::Invalid { sources, diagnostics }) =
        definition::load_path(std::path::Path::new("tests/data/extends/broken-child.toml"))
    else {
        panic!("should be invalid");
    };
    let first = diagnostics[0].to_json(&sources);
    assert!(first.file.ends_with("broken-parent.toml"), "{first:?}");
    assert_eq!(first.note, None);
}

/// The diagnostics of an invalid definition given as text, as JSON objects.
fn problems(text: &str) -> Vec<definition::JsonDiagnostic> {
    match definition::load_text("child.toml", text) {
        Err(LoadError::Invalid { sources, diagnostics }) => {
            diagnostics.iter().map(|d| d.to_json(&sources)).collect()
        }
        Ok(_) => panic!("should be invalid"),
        Err(e) => panic!("{e}"),
    }
}

/// A piece on any square of a goal written as a range gets the goal's note, not only on the
/// range's ends.
#[test]
fn a_piece_on_a_goal_range_is_pointed_at_the_goal() {
    let text = "extends = \"stadium\"\n[setup]\n\
                fen = \"rnbq3kbnr/2s2g2s2/11/11/5a5/11/11/2S2G2S2/RNBQKK2BNR w 0\"\n";
    let found = problems(text);
    assert_eq!(found.len(), 2, "{found:?}");
    for (d, square) in found.iter().zip(["e1", "f1"]) {
        assert!(d.message.contains(&format!("king stands on the goal square {square}")), "{d:?}");
        let note = d.note.as_deref().unwrap_or_default();
        assert!(note.ends_with("`black = \"e1-g1\"`"), "{square}: {note}");
    }
}

/// The help on a removed piece's letters speaks of `setup.fen` only for the start position's
/// problems, not for the random setup's.
#[test]
fn a_removed_piece_is_taken_out_of_the_start_position_only() {
    let found = problems("extends = \"football-960\"\n[pieces.N]\nremoved = true\n");
    let fen = found.iter().filter(|d| d.code.as_str() == "E0303");
    let random: Vec<_> = found.iter().filter(|d| d.code.as_str() == "E0307").collect();
    assert_eq!(fen.clone().count(), 1, "{found:?}");
    assert!(!random.is_empty(), "{found:?}");
    for d in fen {
        assert!(d.help.as_deref().unwrap_or_default().contains("take its letters out"), "{d:?}");
    }
    for d in random {
        let help = d.help.as_deref().unwrap_or_default();
        assert!(!help.contains("setup.fen"), "{help}");
    }
}

/// Problems at several places of an inherited value that become the same once shown at
/// `extends` are shown once.
#[test]
fn one_problem_moved_to_extends_is_shown_once() {
    let found = problems("extends = \"football-960\"\n[pieces.N]\nremoved = true\n");
    let random: Vec<_> = found.iter().filter(|d| d.code.as_str() == "E0307").collect();
    assert_eq!(random.len(), 1, "{found:?}");
}
