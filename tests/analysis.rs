//! `kickoff solve`, `kickoff analyze` and fair setups as users run them.

use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use kickoff::analysis::SolveLimits;
use kickoff::analysis::fair::{SHIPPED_TURNS, shipped_line, shipped_unfair};
use kickoff::analysis::survey::verdict;
use kickoff::{Position, load};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

/// Times vary from run to run.
macro_rules! without_times {
    ($body:expr) => {
        insta::with_settings!({ filters => vec![(r"\d+ positions, \d+\.\d+ s", "[work]")] }, { $body })
    };
}

#[test]
fn solve_prints_the_proof_of_setup_1000() {
    without_times!(assert_cmd_snapshot!(kickoff().args([
        "solve",
        "football-960",
        "--setup",
        "1000",
        "--turns",
        "2"
    ])));
}

#[test]
fn solve_says_no_win_and_unknown() {
    without_times!(assert_cmd_snapshot!(kickoff().args(["solve", "vchess", "--turns", "2"])));
    without_times!(assert_cmd_snapshot!(kickoff().args([
        "solve",
        "vchess",
        "--turns",
        "3",
        "--max-nodes",
        "100"
    ])));
}

#[test]
fn a_json_proof_checks_and_a_changed_one_does_not() {
    let out =
        kickoff().args(["solve", "vchess", "--turns", "3", "--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let mut doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["verdict"], "win");
    assert_eq!(doc["turns"], 3);
    assert_eq!(doc["turn"], "Qd4>c3");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.json");
    std::fs::write(&path, serde_json::to_string(&doc).unwrap()).unwrap();
    let checked =
        kickoff().args(["solve", "vchess", "--turns", "3", "--check"]).arg(&path).output().unwrap();
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    assert!(String::from_utf8_lossy(&checked.stdout).starts_with("proof holds"));
    // Another position: the proof is refused.
    let other = kickoff()
        .args(["solve", "football-960", "--setup", "1000", "--turns", "3", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(1));
    // A defence dropped: the checker finds it unanswered.
    doc["proof"]["defences"].as_array_mut().unwrap().pop();
    std::fs::write(&path, serde_json::to_string(&doc).unwrap()).unwrap();
    let failed =
        kickoff().args(["solve", "vchess", "--turns", "3", "--check"]).arg(&path).output().unwrap();
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stdout).contains("has no answer in the proof"));
}

#[test]
fn the_shipped_unfair_list_holds_on_a_sample() {
    let rules = load("football-960").unwrap().rules;
    let random = rules.random_setup().unwrap();
    assert_eq!(SHIPPED_TURNS, 3);
    assert_eq!(shipped_unfair(2).len(), 346);
    assert_eq!(shipped_unfair(3).len(), 590);
    assert_eq!(shipped_unfair(1).len(), 0);
    let listed: Vec<(u128, Option<u32>, Option<u32>)> =
        kickoff::analysis::fair::FOOTBALL_960_FORCED
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(shipped_line)
            .collect();
    let position = |n: u128| {
        let number = kickoff::setup::SetupNumber { white: n, black: None };
        Position::from_placement(
            &rules,
            &kickoff::setup::placement(&rules, random, number).unwrap(),
        )
        .unwrap()
    };
    let solved = |n: u128, turns: u32| {
        let v = verdict(None, &position(n), turns, SolveLimits::default());
        assert!(!v.unknown, "setup {n} within {turns}");
        (v.white, v.black)
    };
    // Within two turns (quick): every 25th setup listed with two, and every 97th not.
    let in_two: Vec<_> = listed.iter().filter(|&&(_, w, _)| w == Some(2)).collect();
    for &&(n, white, black) in in_two.iter().step_by(25) {
        assert_eq!(solved(n, 2), (white, black), "setup {n}");
    }
    for n in (0..2880).step_by(97).filter(|n| !shipped_unfair(2).contains(n)) {
        assert_eq!(solved(n, 2), (None, None), "setup {n}");
    }
    // Within three turns (each about two seconds of proof that Black has none): every 100th
    // listed setup, and every 480th setup not listed.
    for &(n, white, black) in listed.iter().step_by(100) {
        assert_eq!(solved(n, 3), (white, black), "setup {n}");
    }
    for n in (0..2880).step_by(480).filter(|n| !shipped_unfair(3).contains(n)) {
        assert_eq!(solved(n, 3), (None, None), "setup {n}");
    }
}

#[test]
fn fair_setups_have_no_forced_goal() {
    for seed in ["1", "2", "3", "4"] {
        let out = kickoff()
            .args(["setup", "football-960", "--fair", "2", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let number: u128 = text.lines().next().unwrap().parse().unwrap();
        assert!(!shipped_unfair(2).contains(&number), "{number}");
    }
    // Within three turns the list that ships decides too (no solving at run time).
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let out = kickoff()
            .args(["setup", "football-960", "--fair", "3", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success());
        let number: u128 =
            String::from_utf8_lossy(&out.stdout).lines().next().unwrap().parse().unwrap();
        assert!(!shipped_unfair(3).contains(&number), "{number}");
    }
    let out = kickoff().args(["setup", "boyer-1951", "--fair", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn analyze_is_reproducible_and_reports_in_three_formats() {
    let args = [
        "analyze",
        "mini",
        "--turns",
        "2",
        "--games",
        "6",
        "--level",
        "1",
        "--threads",
        "2",
        "--seed",
        "5",
    ];
    let run = |format: &str| {
        let out = kickoff().args(args).args(["--format", format]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let strip = |text: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
        doc["forced"]["seconds"] = 0.into();
        doc["play"]["seconds"] = 0.into();
        doc
    };
    let (a, b) = (strip(&run("json")), strip(&run("json")));
    assert_eq!(a, b);
    let play = &a["play"];
    assert_eq!(play["games"], 6);
    let results = ["white", "black", "draws"].map(|k| play[k]["count"].as_u64().unwrap());
    assert_eq!(results.iter().sum::<u64>(), 6);
    assert_eq!(play["list"].as_array().unwrap().len(), 6);
    let html = run("html");
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<svg") && !html.contains("<script")
    );
    let text = run("text");
    assert!(text.contains("White wins") && text.contains("Forced goals from the start"), "{text}");
}
