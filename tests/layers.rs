//! The library's layers, as the "Layers" list of `src/lib.rs` states them: every `crate::` path
//! of every file of `src/` (outside unit tests) names its own top-level module or one of a layer
//! below. A path that names a module of the same layer or one above is a dependency the list
//! does not allow, and so is a cycle between modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The binary's files, which are not the library's.
const BINARY: [&str; 3] = ["main", "cli", "commands"];

#[test]
fn every_module_uses_only_the_layers_below_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let layers = layers(&lib);
    let count = layers.len();
    let level: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, layer)| layer.iter().map(move |m| (m.as_str(), count - i)))
        .collect();

    // The list names every module of the library once, and nothing else.
    let declared = declared_modules(&lib);
    let listed: BTreeSet<String> = level.keys().map(|m| (*m).to_owned()).collect();
    assert_eq!(listed, declared, "the layers of src/lib.rs and its `mod` lines differ");
    assert_eq!(level.len(), layers.iter().map(Vec::len).sum::<usize>(), "a module listed twice");

    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let tests_only = test_only_files(&files);
    let (mut checked, mut references, mut across) = (0, 0, 0);
    let mut files_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let top = top_module(relative);
        if BINARY.contains(&top.as_str()) || top == "lib" || tests_only.contains(file) {
            continue;
        }
        let own = *level.get(top.as_str()).unwrap_or_else(|| panic!("{top} is not listed"));
        checked += 1;
        *files_of.entry(top.clone()).or_default() += 1;
        let text = std::fs::read_to_string(file).unwrap();
        let depth = module_path_len(relative);
        for (line, code) in code_lines(&text) {
            let shown = format!("src/{}:{line}", relative.display());
            assert!(
                !code.contains("crate::{"),
                "{shown}: write one `use crate::module::...` per module, for this test to read"
            );
            for used in used_modules(code, depth) {
                references += 1;
                if used == top {
                    continue;
                }
                across += 1;
                match level.get(used.as_str()) {
                    Some(&theirs) if theirs < own => {}
                    Some(&theirs) => wrong.push(format!(
                        "{shown}: `{top}` uses `{used}`, {} ({})",
                        if theirs == own { "of its own layer" } else { "of a layer above" },
                        code.trim()
                    )),
                    None => wrong.push(format!("{shown}: `{used}` is no module of the layers")),
                }
            }
        }
    }
    assert!(wrong.is_empty(), "uses the layers of src/lib.rs do not allow:\n{}", wrong.join("\n"));
    println!("{checked} files, {references} `crate::` paths ({across} to other modules) checked");
    // Enough was read for the answer to mean something.
    for module in level.keys() {
        assert!(files_of.contains_key(*module), "no file of `{module}` was read");
    }
    assert!(checked >= 110, "{checked} files checked");
    assert!(references >= 500, "{references} `crate::` paths checked");
    assert!(across >= 300, "{across} paths to other modules checked");
}

/// The modules that read what a rule's value means: the definition format and its compiler, the
/// rules themselves, the turn generator, the rule docs that `explain` and `render` write, and the
/// lint of a definition. Every other module asks `Rules` (or its `Tables`) a question, so that a
/// new value of a key changes these and nothing else.
const RULE_READERS: [&str; 5] = ["definition", "rules", "movegen", "render", "lint"];

#[test]
fn only_the_rule_layers_match_a_rules_choices() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // The choices of the format: every `pub enum` that a `choice!` of `src/rules/` declares.
    let mut choices = BTreeSet::new();
    let mut rule_files = Vec::new();
    rust_files(&src.join("rules"), &mut rule_files);
    for file in &rule_files {
        let text = std::fs::read_to_string(file).unwrap();
        for block in text.split("choice! {").skip(1) {
            let name = block.split("pub enum ").nth(1).and_then(|r| r.split_whitespace().next());
            choices.insert(name.expect("a `pub enum` in a choice! block").to_owned());
        }
    }
    assert!(choices.len() >= 15, "{} choices read: {choices:?}", choices.len());
    assert!(choices.contains("BallMode") && choices.contains("NoMoves"), "{choices:?}");

    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let tests_only = test_only_files(&files);
    let (mut checked, mut wrong) = (0, Vec::new());
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let top = top_module(relative);
        if RULE_READERS.contains(&top.as_str()) || BINARY.contains(&top.as_str()) {
            continue;
        }
        if tests_only.contains(file) {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code) in code_lines(&text) {
            for choice in &choices {
                let named = code.match_indices(&format!("{choice}::")).any(|(at, _)| {
                    !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                });
                if named {
                    wrong.push(format!("src/{}:{line}: {}", relative.display(), code.trim()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "outside {RULE_READERS:?}, ask `Rules` what a rule means instead of matching its \
         choices:\n{}",
        wrong.join("\n")
    );
    assert!(checked >= 60, "{checked} files checked");
}

/// The layers of the "Layers" section of `src/lib.rs`, from the top: each line `- `a`, `b`:
/// what they are`.
fn layers(lib: &str) -> Vec<Vec<String>> {
    let mut lines = lib.lines().map_while(|l| l.strip_prefix("//!"));
    lines.find(|l| l.trim() == "# Layers").expect("a Layers section in src/lib.rs");
    let mut out = Vec::new();
    for line in lines.take_while(|l| !l.trim_start().starts_with('#')) {
        let Some(item) = line.strip_prefix(" - ") else { continue };
        let names = item.split_once(": ").map_or(item, |(names, _)| names);
        let layer: Vec<String> =
            names.split(", ").map(|n| n.trim_matches('`').to_owned()).collect();
        assert!(layer.iter().all(|n| is_ident(n)), "not a list of modules: {line}");
        out.push(layer);
    }
    assert!(out.len() >= 5, "{} layers read from src/lib.rs", out.len());
    out
}

/// The modules `src/lib.rs` declares.
fn declared_modules(lib: &str) -> BTreeSet<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';').to_owned())
        .collect()
}

fn is_ident(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module of a file (`movegen` for `movegen/step.rs`, `lib` for `lib.rs`).
fn top_module(relative: &Path) -> String {
    let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
    first.strip_suffix(".rs").unwrap_or(first).to_owned()
}

/// How many modules deep a file's module is: 1 for `text.rs` and `game/mod.rs`, 2 for
/// `game/record.rs`.
fn module_path_len(relative: &Path) -> usize {
    let parts = relative.components().count();
    if relative.ends_with("mod.rs") { parts - 1 } else { parts }
}

/// The files declared as modules under `#[cfg(test)]` (`#[cfg(test)] mod agree;`): unit tests.
fn test_only_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let folder = match file.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs") => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        for (i, line) in lines.iter().enumerate() {
            if line.trim() != "#[cfg(test)]" {
                continue;
            }
            let item = lines[i + 1..].iter().find(|l| !l.trim().starts_with("#[")).unwrap();
            let words: Vec<&str> = item.trim().trim_end_matches(';').split_whitespace().collect();
            if let ["mod", name] | [_, "mod", name] = words[..]
                && item.trim().ends_with(';')
            {
                out.insert(folder.join(format!("{name}.rs")));
                out.insert(folder.join(name).join("mod.rs"));
            }
        }
    }
    out
}

/// The lines of a file that are code (numbered from 1): comments and the items under
/// `#[cfg(test)]` left out. An item ends at the first line that closes a brace at its
/// indentation (rustfmt's layout).
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() == "#[cfg(test)]" {
            let indent = line.len() - line.trim_start().len();
            let mut j = i + 1;
            while lines[j].trim().starts_with("#[") {
                j += 1;
            }
            if !lines[j].trim_end().ends_with(';') && !lines[j].trim_end().ends_with('}') {
                j += 1;
                while !(lines[j].len() - lines[j].trim_start().len() == indent
                    && lines[j].trim_start().starts_with('}'))
                {
                    j += 1;
                }
            }
            i = j + 1;
            continue;
        }
        if !line.trim_start().starts_with("//") {
            out.push((i + 1, line));
        }
        i += 1;
    }
    out
}

/// The top-level modules a line of code names: `crate::name`, and `super::` paths that climb
/// out of the file's top-level module (`depth` modules deep).
fn used_modules(code: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |rest: &str| -> String {
        rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            out.push(ident(&code[at + "crate::".len()..]));
        }
    }
    let mut rest = code;
    while let Some(at) = rest.find("super::") {
        let before = rest[..at].chars().next_back();
        let mut tail = &rest[at..];
        let mut climbs = 0;
        while let Some(t) = tail.strip_prefix("super::") {
            climbs += 1;
            tail = t;
        }
        let whole = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        if whole && climbs >= depth {
            out.push(ident(tail));
        }
        rest = tail;
    }
    out.retain(|m| !m.is_empty());
    out
}
