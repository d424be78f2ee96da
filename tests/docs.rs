//! The documentation says what the code does: the key tables of README.md and docs/rules.md are
//! generated from the format's keys, every link to a rule names a section that exists, and
//! docs/diagnostics.md explains every diagnostic code with an example that gives it.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BEGIN: &str = "<!-- keys:begin -->\n";
const END: &str = "<!-- keys:end -->";

/// Compares the key table of a document with the generated one; with `UPDATE_DOCS=1`, rewrites
/// it instead. `rules` is the path of docs/rules.md from the document.
fn check_key_table(document: &str, rules: &str) {
    let path = root().join(document);
    let text = read(&path);
    let start = text.find(BEGIN).unwrap_or_else(|| panic!("{document} has no `{BEGIN}`"));
    let start = start + BEGIN.len();
    let stop = start + text[start..].find(END).unwrap_or_else(|| panic!("{document}: no `{END}`"));
    let expected = kickoff::definition::key_table(rules);
    if text[start..stop] == expected {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{expected}{}", &text[..start], &text[stop..]);
        std::fs::write(&path, updated).unwrap_or_else(|e| panic!("{document}: {e}"));
        eprintln!("rewrote the key table of {document}");
        return;
    }
    panic!(
        "the key table of {document} is not the one src/definition/keys.rs generates; \
         regenerate it with `UPDATE_DOCS=1 cargo test --test docs` and read the diff.\n\
         generated:\n{expected}"
    );
}

#[test]
fn readme_key_table_is_generated_from_the_keys() {
    check_key_table("README.md", "docs/rules.md");
}

#[test]
fn rules_key_table_is_generated_from_the_keys() {
    check_key_table("docs/rules.md", "");
}

/// The anchors GitHub gives the headings of a Markdown text.
fn anchors(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Every file of the project that may link to a rule: sources, tests, benches, docs, README.
fn project_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs" || e == "md" || e == "toml") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    for dir in ["src", "tests", "benches", "docs", "variants"] {
        walk(&root().join(dir), &mut out);
    }
    out
}

#[test]
fn every_link_to_a_rule_names_a_section_of_docs_rules() {
    let doc = read(&root().join("docs/rules.md"));
    let known = anchors(&doc);
    let mut broken = Vec::new();
    let mut links = 0;
    for path in project_files() {
        let text = read(&path);
        // Written in two pieces so that this file does not link to a section itself.
        let mut patterns = vec![["docs/rules.md", "#"].concat()];
        if path.ends_with("docs/rules.md") {
            patterns.push("](#".to_owned());
        }
        if path.ends_with("docs/diagnostics.md") {
            patterns.push("](rules.md#".to_owned());
        }
        for pattern in &patterns {
            for (at, _) in text.match_indices(pattern) {
                let rest = &text[at + pattern.len()..];
                let anchor: String =
                    rest.chars().take_while(|c| c.is_alphanumeric() || *c == '-').collect();
                links += 1;
                if !known.contains(&anchor) {
                    broken.push(format!("{}: #{anchor}", path.display()));
                }
            }
        }
    }
    assert!(links > 40, "only {links} links to rules found");
    assert!(broken.is_empty(), "links to sections docs/rules.md does not have: {broken:#?}");
}

#[test]
fn the_rules_are_referred_to_inside_the_project() {
    // The rules reference is docs/rules.md; a reference to another rules file would point
    // outside the project.
    let old_name = ["RULES", ".md"].concat();
    let stale: Vec<String> = project_files()
        .into_iter()
        .filter(|p| read(p).contains(&old_name))
        .map(|p| p.display().to_string())
        .collect();
    assert!(stale.is_empty(), "these files refer to {old_name}, not docs/rules.md: {stale:?}");
}

/// The sections of docs/diagnostics.md: each heading's code and the text up to the next one.
fn diagnostic_sections() -> Vec<(String, String)> {
    let doc = read(&root().join("docs/diagnostics.md"));
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let code = heading.split(':').next().unwrap_or_default().to_owned();
            sections.push((code, String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections
}

#[test]
fn every_diagnostic_code_is_documented_and_every_documented_code_exists() {
    use kickoff::definition::Code;
    let documented: Vec<String> = diagnostic_sections().into_iter().map(|(code, _)| code).collect();
    let codes: Vec<String> = Code::ALL.iter().map(|c| c.as_str().to_owned()).collect();
    assert_eq!(documented, codes, "docs/diagnostics.md must have one section per code, in order");
}

/// Each section's `toml` example, loaded as a definition, gives the section's code (as an
/// error, or as a warning of a definition that loads).
#[test]
fn every_definition_example_of_docs_diagnostics_gives_its_code() {
    use kickoff::definition::LoadError;
    let (mut examples, mut wrong) = (0, Vec::new());
    for (code, body) in diagnostic_sections() {
        let Some(start) = body.find("```toml\n") else { continue };
        let rest = &body[start + "```toml\n".len()..];
        let example = &rest[..rest.find("```").expect("a closed example")];
        let given: Vec<String> = match kickoff::lint::load_text_checked("example.toml", example) {
            Ok(def) => def.warnings.iter().map(|d| d.code.to_string()).collect(),
            Err(LoadError::Invalid { diagnostics, .. }) => {
                diagnostics.iter().map(|d| d.code.to_string()).collect()
            }
            Err(e) => panic!("{code}: the example does not load: {e}"),
        };
        if !given.contains(&code) {
            wrong.push(format!("{code}: the example gives {given:?}"));
        }
        examples += 1;
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(examples >= 30, "only {examples} examples checked");
}
