//! Random setups: numbering, ranking and unranking, and the `setup` command.

use std::collections::HashSet;
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use kickoff::definition::{load, load_path};
use kickoff::rules::{RandomSetup, Rules};
use kickoff::setup::{self, SetupNumber};

fn rules(name: &str) -> Rules {
    load(name).unwrap().rules
}

fn letters(rules: &Rules, random: &RandomSetup, n: u128) -> String {
    setup::letters(rules, &setup::arrangement(rules, random, n).unwrap())
}

/// Whether every colour-bound kind has its two copies on squares of different colours.
fn colours_ok(rules: &Rules, random: &RandomSetup, text: &str) -> bool {
    random.opposite_colors.iter().all(|&kind| {
        let letter = rules.piece(kind).letter;
        let colours: Vec<bool> = text
            .chars()
            .zip(&random.squares)
            .filter(|(c, _)| *c == letter)
            .map(|(_, &s)| rules.board().is_dark(s))
            .collect();
        colours.len() == 2 && colours[0] != colours[1]
    })
}

#[test]
fn football_960_numbers() {
    let rules = rules("football-960");
    let random = rules.random_setup().unwrap();
    let mut lines = Vec::new();
    for n in [0, 1, 2879] {
        let fen = setup::placement(&rules, random, SetupNumber { white: n, black: None })
            .unwrap()
            .fen(&rules);
        lines.push(format!("{n:>4} {} {fen}", letters(&rules, random, n)));
    }
    let kinds: Vec<_> = "RNBQKNBR".chars().map(|c| rules.kind_of(c).unwrap()).collect();
    let standard = setup::number(&rules, random, &kinds).unwrap();
    lines.push(format!("vchess.club's standard RNBQ1KNBR is number {standard}"));
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn every_football_960_arrangement_is_distinct_valid_and_ranked_back() {
    let rules = rules("football-960");
    let random = rules.random_setup().unwrap();
    let count = setup::count(&rules, random);
    assert_eq!(count, 2880);
    let mut seen = HashSet::new();
    for n in 0..count {
        let kinds = setup::arrangement(&rules, random, n).unwrap();
        let text = setup::letters(&rules, &kinds);
        assert!(colours_ok(&rules, random, &text), "{n}: {text}");
        let mut sorted: Vec<char> = text.chars().collect();
        sorted.sort_unstable();
        assert_eq!(sorted.iter().collect::<String>(), "BBKNNQRR", "{n}: {text}");
        assert!(seen.insert(text), "{n} repeats an arrangement");
        assert_eq!(setup::number(&rules, random, &kinds), Some(n));
    }
}

/// Counts a setup's arrangements by listing every permutation of its letters.
fn brute_force_count(rules: &Rules, random: &RandomSetup) -> u128 {
    let mut letters: Vec<char> = random.pieces.iter().map(|&k| rules.piece(k).letter).collect();
    letters.sort_unstable();
    let mut count = 0;
    loop {
        let text: String = letters.iter().collect();
        if colours_ok(rules, random, &text) {
            count += 1;
        }
        if !next_permutation(&mut letters) {
            return count;
        }
    }
}

fn next_permutation(v: &mut [char]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else { return false };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[test]
fn counting_agrees_with_listing() {
    let rules = rules("football-960");
    assert_eq!(
        setup::count(&rules, rules.random_setup().unwrap()),
        brute_force_count(&rules, rules.random_setup().unwrap())
    );
}

#[test]
fn a_large_definition_ranks_and_unranks_at_once() {
    let rules = load_path("tests/data/big-random.toml".as_ref()).unwrap().rules;
    let random = rules.random_setup().unwrap();
    let count = setup::count(&rules, random);
    // 12 squares, 6 dark and 6 light; B, C and F each take one dark and one light square:
    // (6*5*4)^2 ways for them, then 6!/(2!2!) for K Q R R N N.
    assert_eq!(count, 120 * 120 * 180);
    let mut previous = String::new();
    for i in 0..2000u128 {
        let n = i * (count / 2000) + i % 7;
        let kinds = setup::arrangement(&rules, random, n).unwrap();
        let text = setup::letters(&rules, &kinds);
        assert!(colours_ok(&rules, random, &text), "{n}: {text}");
        assert!(text > previous, "{n}: {text} after {previous}");
        assert_eq!(setup::number(&rules, random, &kinds), Some(n));
        previous = text;
    }
    assert_eq!(letters(&rules, random, count - 1), "RRQNNKFFCCBB");
}

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

#[test]
fn setup_command() {
    assert_cmd_snapshot!("setup-count", kickoff().args(["setup", "football-960", "--count"]));
    assert_cmd_snapshot!(
        "setup-number",
        kickoff().args(["setup", "football-960", "--number", "2502"])
    );
    assert_cmd_snapshot!("setup-seed", kickoff().args(["setup", "football-960", "--seed", "42"]));
    assert_cmd_snapshot!(
        "setup-seed-asymmetric",
        kickoff().args(["setup", "football-960", "--seed", "42", "--asymmetric"])
    );
    assert_cmd_snapshot!(
        "setup-pair",
        kickoff().args(["setup", "football-960", "--number", "5/7"])
    );
    assert_cmd_snapshot!(
        "setup-out-of-range",
        kickoff().args(["setup", "football-960", "--number", "2880"])
    );
    assert_cmd_snapshot!("setup-no-random", kickoff().args(["setup", "vchess", "--count"]));
}

#[test]
fn random_picks_are_valid_setups() {
    let out = kickoff().args(["setup", "football-960"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let number: u128 = text.lines().next().unwrap().parse().unwrap();
    assert!(number < 2880);
}

/// A random setup of a game with an arrangement stage begins the stage with every piece it
/// placed, also on a random square that `setup.fen` left empty.
#[test]
fn every_piece_a_random_setup_places_is_to_arrange() {
    let text = r#"
format = 1
[variant]
name = "Arranged random"
[board]
files = 5
ranks = 5
[goals]
white = "c5"
black = "c1"
[pieces.R]
name = "rook"
moves = "R"
[pieces.N]
name = "knight"
moves = "N"
[setup]
fen = "3r1/5/2a2/5/3R1 w 0"
[setup.random]
squares = "a1 b1"
pieces = "RN"
[arrangement]
squares = "a1:e2"
"#;
    let def = kickoff::definition::load_text("arranged-random.toml", text).unwrap();
    let rules = def.rules;
    let random = rules.random_setup().unwrap();
    assert_eq!(setup::count(&rules, random), 2);
    for white in 0..2 {
        let placement =
            setup::placement(&rules, random, SetupNumber { white, black: None }).unwrap();
        let occupied: kickoff::SquareSet = placement.pieces.iter().map(|p| p.0).collect();
        assert_eq!(occupied.len(), 6, "{placement:?}");
        assert_eq!(placement.arranging, occupied, "setup {white}");
    }
}
