//! Exact agreement with the reference data of an independent implementation
//! (`tests/data/football-turns.jsonl.gz`, `tests/data/football-perft.json`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};

use kickoff::movegen::{PerftOptions, legal_turns, perft, play};
use kickoff::{Definition, Position, load};
use serde_json::Value;

/// The shipped definition of a reference rule set.
fn rules_named(name: &str, boyer: &Definition, vchess: &Definition) -> kickoff::Rules {
    match name {
        "boyer" => boyer.rules.clone(),
        "vchess" => vchess.rules.clone(),
        other => panic!("unknown rule set {other}"),
    }
}

/// The results of every turn of `fen` walked action by action (the walk every variant has),
/// counted.
fn action_results(rules: &kickoff::Rules, fen: &str) -> (usize, BTreeMap<String, u64>) {
    let pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut results = BTreeMap::new();
    let mut count = 0;
    kickoff::movegen::general::each_turn(&pos, u64::MAX, |_, mid| {
        count += 1;
        *results.entry(mid.finish().fen()).or_insert(0) += 1;
    })
    .unwrap();
    (count, results)
}

/// The results of every turn of `fen`, counted.
fn our_results(rules: &kickoff::Rules, fen: &str) -> (usize, BTreeMap<String, u64>) {
    let pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns(&pos);
    let mut results = BTreeMap::new();
    for t in &turns {
        *results.entry(play(&pos, t).fen()).or_insert(0) += 1;
    }
    (turns.len(), results)
}

/// What differs between two multisets of results: (missing here, extra here).
fn difference(
    theirs: &BTreeMap<String, u64>,
    ours: &BTreeMap<String, u64>,
) -> (Vec<String>, Vec<String>) {
    let mut missing = Vec::new();
    let mut extra = Vec::new();
    for (fen, &n) in theirs {
        let m = ours.get(fen).copied().unwrap_or(0);
        if m < n {
            missing.push(format!("{fen} x{}", n - m));
        }
    }
    for (fen, &m) in ours {
        let n = theirs.get(fen).copied().unwrap_or(0);
        if m > n {
            extra.push(format!("{fen} x{}", m - n));
        }
    }
    (missing, extra)
}

#[test]
fn every_reference_position_has_the_same_turns() {
    let boyer = load("boyer-1951").unwrap();
    let vchess = load("vchess").unwrap();
    let file = std::fs::File::open("tests/data/football-turns.jsonl.gz").unwrap();
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let (mut lines, mut report) = (0, Vec::new());
    for line in reader.lines() {
        let line: Value = serde_json::from_str(&line.unwrap()).unwrap();
        lines += 1;
        let (id, fen, set) = (&line["id"], line["fen"].as_str().unwrap(), &line["rules"]);
        let rules = rules_named(set.as_str().unwrap(), &boyer, &vchess);
        let theirs: BTreeMap<String, u64> =
            serde_json::from_value(line["results"].clone()).unwrap();
        let expected = line["turns"].as_u64().unwrap() as usize;
        for (walk, (count, ours)) in
            [("chains", our_results(&rules, fen)), ("actions", action_results(&rules, fen))]
        {
            if count != expected || ours != theirs {
                let (missing, extra) = difference(&theirs, &ours);
                report.push(format!(
                    "{id} ({set}, {walk}) {fen}: {count} turns, expected {expected}\n  missing: {missing:?}\n  extra: {extra:?}"
                ));
            }
        }
    }
    assert_eq!(lines, 800, "the reference file has 400 positions x 2 rule sets");
    assert!(report.is_empty(), "{} mismatches:\n{}", report.len(), report.join("\n"));
}

/// Every (name, rules, fen, depth, count) of the perft reference.
fn perft_cases() -> Vec<(String, String, String, usize, u64)> {
    let text = std::fs::read_to_string("tests/data/football-perft.json").unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut cases = Vec::new();
    for p in data["positions"].as_array().unwrap() {
        for e in p["perft"].as_array().unwrap() {
            cases.push((
                p["name"].as_str().unwrap().to_owned(),
                p["rules"].as_str().unwrap().to_owned(),
                p["fen"].as_str().unwrap().to_owned(),
                e["depth"].as_u64().unwrap() as usize,
                e["count"].as_u64().unwrap(),
            ));
        }
    }
    cases
}

/// Checks the perft counts selected by `pick`.
fn check_perft(pick: impl Fn(u64) -> bool) {
    let boyer = load("boyer-1951").unwrap();
    let vchess = load("vchess").unwrap();
    let mut report = Vec::new();
    for (name, set, fen, depth, count) in perft_cases().into_iter().filter(|c| pick(c.4)) {
        let rules = rules_named(&set, &boyer, &vchess);
        let pos = Position::from_fen(&rules, &fen).unwrap();
        let ours = perft(&pos, depth, &PerftOptions::default(), None).unwrap();
        if ours != count {
            report.push(format!("{name} ({set}) depth {depth}: {ours}, expected {count}"));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The counts up to ten million turns take a second or two in all.
const FAST: u64 = 10_000_000;

#[test]
fn perft_counts_agree_with_the_reference() {
    check_perft(|count| count <= FAST);
}

#[test]
#[ignore = "the two largest counts take a few seconds in release builds"]
fn large_perft_counts_agree_with_the_reference() {
    check_perft(|count| count > FAST);
}
