//! The command line as users run it: output, errors and exit status.

use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

#[test]
fn validate_shipped_files() {
    assert_cmd_snapshot!(kickoff().args([
        "validate",
        "variants/boyer-1951.toml",
        "variants/vchess.toml",
        "variants/football-960.toml",
        "variants/mini.toml",
        "variants/stadium.toml",
    ]));
}

#[test]
fn validate_reports_every_problem_of_a_file() {
    assert_cmd_snapshot!(kickoff().args(["validate", "tests/data/several-problems.toml"]));
}

#[test]
fn validate_json() {
    assert_cmd_snapshot!(kickoff().args([
        "validate",
        "--format",
        "json",
        "variants/boyer-1951.toml",
        "tests/data/several-problems.toml",
    ]));
}

#[test]
fn validate_json_of_valid_files_is_an_empty_array() {
    assert_cmd_snapshot!(kickoff().args(["validate", "--format", "json", "vchess"]));
}

#[test]
fn validate_unreadable_file_is_a_usage_error() {
    assert_cmd_snapshot!(kickoff().args(["validate", "tests/data/no-such-file.toml"]));
}

#[test]
fn validate_needs_a_file() {
    assert_cmd_snapshot!(kickoff().args(["validate"]));
}

#[test]
fn explain_unknown_variant() {
    assert_cmd_snapshot!(kickoff().args(["explain", "boyer"]));
}

#[test]
fn explain_invalid_file() {
    assert_cmd_snapshot!(kickoff().args(["explain", "tests/data/bad/fen-two-balls.toml"]));
}

#[test]
fn explain_by_path() {
    assert_cmd_snapshot!(kickoff().args(["explain", "variants/mini.toml"]));
}

#[test]
fn schema_is_json_schema() {
    let out = kickoff().arg("schema").output().unwrap();
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["properties"]["turn"]["properties"]["null"]["enum"][1], "when-adjacent");
}

#[test]
fn help_texts() {
    assert_cmd_snapshot!("help", kickoff().arg("--help"));
    assert_cmd_snapshot!("help-validate", kickoff().args(["validate", "--help"]));
}
