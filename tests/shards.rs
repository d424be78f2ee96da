//! `analyze` and `match` split into shards (`--shard I/N --out FILE`), interrupted, resumed
//! and merged (`kickoff merge`): the same bytes as one run.

use std::path::Path;
use std::process::{Command, Output};

use insta_cmd::get_cargo_bin;

fn kickoff(args: &[&str]) -> Output {
    Command::new(get_cargo_bin("kickoff"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = kickoff(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Football-960 within two turns (346 setups with a forced goal), with games whose setups
/// must leave those out.
const ANALYSIS: [&str; 10] =
    ["analyze", "football-960", "--turns", "2", "--games", "6", "--level", "1", "--seed", "4"];

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_owned()
}

/// Runs shard `i` of `n` of `args` into `file`.
fn shard(args: &[&str], i: usize, n: usize, file: &str) -> Output {
    let shard = format!("{i}/{n}");
    let all = [args, &["--shard", &shard, "--out", file]].concat();
    kickoff(&all)
}

#[test]
fn an_analysis_in_shards_merges_to_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> =
        (1..=3).map(|i| path(dir.path(), &format!("part-{i}.jsonl"))).collect();
    for (i, file) in files.iter().enumerate() {
        let out = shard(&ANALYSIS, i + 1, 3, file);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "a shard prints no report");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(&format!("shard {}/3: ", i + 1)) && said.contains("of 1446 done"),
            "{said}"
        );
    }
    for format in ["text", "json", "html"] {
        let one = ok(&[&ANALYSIS[..], &["--threads", "1", "--format", format]].concat());
        // In any order.
        let merged = ok(&["merge", &files[2], &files[0], &files[1], "--format", format]);
        assert_eq!(one, merged, "{format}");
    }
    // Each game's setup is one of those with no forced goal, as one run draws them.
    let report: serde_json::Value =
        serde_json::from_str(&ok(&["merge", &files[0], &files[1], &files[2], "--format", "json"]))
            .unwrap();
    let unfair = kickoff::analysis::fair::shipped_unfair(2);
    for game in report["play"]["list"].as_array().unwrap() {
        let setup: u128 = game["setup"].as_str().unwrap().parse().unwrap();
        assert!(!unfair.contains(&setup), "{setup}");
    }
    assert_eq!(report["forced"]["starts"], 2880);
    let forced = |side: &str| report["forced"][side]["2"].as_array().unwrap().len();
    assert_eq!(forced("white") + forced("black"), 346, "as the shipped list says");
}

#[test]
fn an_interrupted_shard_goes_on_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (path(dir.path(), "a.jsonl"), path(dir.path(), "b.jsonl"));
    let args = ["analyze", "mini", "--games", "8", "--level", "1", "--seed", "9"];
    assert!(shard(&args, 1, 2, &a).status.success());
    // Shard 2 is missing: merge names it and prints nothing.
    let lacking = kickoff(&["merge", &a]);
    assert_eq!(lacking.status.code(), Some(1));
    assert!(lacking.stdout.is_empty());
    let said = String::from_utf8_lossy(&lacking.stderr);
    assert!(
        said.contains("of the run's 9 jobs are missing") && said.contains("from shard 2/2"),
        "{said}"
    );
    assert!(shard(&args, 2, 2, &b).status.success());
    let whole = std::fs::read_to_string(&b).unwrap();
    // The run stopped in the middle of its third line: its first two lines are kept.
    let lines: Vec<&str> = whole.lines().collect();
    assert!(lines.len() >= 4, "{whole}");
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..lines[2].len() / 2]);
    std::fs::write(&b, cut).unwrap();
    let resumed = shard(&args, 2, 2, &b);
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("(1 of them by an earlier run)"));
    let mut again: Vec<String> =
        std::fs::read_to_string(&b).unwrap().lines().map(str::to_owned).collect();
    let mut first: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    // The same lines, in the order the threads finished them.
    again.sort();
    first.sort();
    assert_eq!(again, first);
    let one = ok(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(ok(&["merge", &a, &b, "--format", "json"]), one);
    // Another run's file is refused, and so are shards of two runs merged together.
    let other =
        shard(&["analyze", "mini", "--games", "8", "--level", "1", "--seed", "10"], 2, 2, &b);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another run"));
    let c = path(dir.path(), "c.jsonl");
    assert!(
        shard(&["analyze", "mini", "--games", "8", "--level", "1", "--seed", "10"], 2, 2, &c)
            .status
            .success()
    );
    let mixed = kickoff(&["merge", &a, &c]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("is not of the same run"));
}

#[test]
fn a_merge_refuses_a_definition_that_is_not_the_shards_one() {
    let dir = tempfile::tempdir().unwrap();
    let a = path(dir.path(), "a.jsonl");
    let args = ["analyze", "tests/data/compare/mini-line.toml", "--games", "2", "--level", "1"];
    assert!(shard(&args, 1, 1, &a).status.success());
    let wrong = kickoff(&["merge", &a, "--variant", "mini"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("another definition"));
    assert_eq!(ok(&["merge", &a]), ok(&args));
}

#[test]
fn a_match_in_shards_merges_to_the_table_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "match", "mini", "--games", "9", "--white", "engine:1", "--black", "greedy", "--seed", "2",
    ];
    let files: Vec<String> = (1..=2).map(|i| path(dir.path(), &format!("m{i}.jsonl"))).collect();
    for (i, file) in files.iter().enumerate() {
        let out = shard(&args, i + 1, 2, file);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    // Shard 1 of 2 plays the pairs 0, 2 and 4: games 1, 2, 5, 6 and 9.
    let first = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(first.lines().count(), 6, "{first}");
    let one = kickoff(&[&args[..], &["--threads", "2"]].concat());
    assert!(one.status.success());
    let merged = kickoff(&["merge", &files[1], &files[0]]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(String::from_utf8_lossy(&merged.stdout), String::from_utf8_lossy(&one.stdout));
    assert!(String::from_utf8_lossy(&one.stdout).contains("9 games"));
    // The engines' work (this machine's time) is on standard error, for both.
    for out in [&one, &merged] {
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("turns chosen, mean depth"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let html = kickoff(&["merge", &files[0], &files[1], "--format", "html"]);
    assert_eq!(html.status.code(), Some(2));
}
