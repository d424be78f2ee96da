//! The library alone: a program that depends on `kickoff` with `default-features = false`
//! compiles the rules engine and none of the application (the server, pictures, the command
//! line, the HTTP client, mail, the database).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The crates of the application, each behind a feature.
const APPLICATION: &[&str] = &[
    "axum",
    "tokio",
    "hyper",
    "tower",
    "resvg",
    "ttf-parser",
    "clap",
    "clap_complete",
    "clap_mangen",
    "indicatif",
    "open",
    "ureq",
    "lettre",
    "rusqlite",
    "argon2",
];

/// The packages a build of kickoff's library with `features` compiles (normal and build
/// dependencies, kickoff included), as `cargo tree` lists them.
fn packages(features: &[&str]) -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.arg("tree").arg("--manifest-path").arg(&manifest);
    command.args(["--offline", "--edges", "no-dev", "--prefix", "none", "--format", "{p}"]);
    command.arg("--no-default-features");
    if !features.is_empty() {
        command.arg("--features").arg(features.join(","));
    }
    let output = command.output().expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cargo tree failed: {stderr}");
    let text = String::from_utf8(output.stdout).expect("cargo tree writes UTF-8");
    text.lines().filter_map(|line| line.split_whitespace().next()).map(str::to_owned).collect()
}

#[test]
fn the_library_alone_pulls_in_no_application_crate() {
    let alone = packages(&[]);
    // The engine's own dependencies are there: the list is not empty for another reason.
    for engine in ["kickoff", "pest", "toml", "serde_json"] {
        assert!(alone.contains(engine), "{engine} is missing from {alone:?}");
    }
    let pulled: Vec<&&str> = APPLICATION.iter().filter(|c| alone.contains(**c)).collect();
    assert!(pulled.is_empty(), "the library without default features compiles {pulled:?}");
}

#[test]
fn each_feature_pulls_in_its_part_of_the_application() {
    let with = |features: &[&str], crates: &[&str], not: &[&str]| {
        let found = packages(features);
        for c in crates {
            assert!(found.contains(*c), "--features {features:?} lacks {c}");
        }
        for c in not {
            assert!(!found.contains(*c), "--features {features:?} compiles {c}");
        }
    };
    with(&["svg"], &["ttf-parser"], &["resvg", "axum", "clap"]);
    with(&["png"], &["ttf-parser", "resvg"], &["axum", "clap"]);
    with(&["server"], &["axum", "tokio", "rusqlite", "argon2", "lettre"], &["resvg", "clap"]);
    with(&["cli"], APPLICATION, &[]);
}
