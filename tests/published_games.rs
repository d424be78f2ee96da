//! Exact agreement with data computed by other people's implementations of the published games
//! kickoff ships: Chessball (1957), Apo-Games' ChessBall and vchess.club's Ball
//! (`tests/data/reference/`). Every turn of every reference position, perft counts, and the goal
//! puzzles of Apo-Games.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{BufRead, BufReader};

use kickoff::movegen::{PerftOptions, legal_turns_unbounded, perft, play_unchecked};
use kickoff::search::{Limits, Searcher};
use kickoff::turn_text::names::{names, resolve};
use kickoff::{Position, Rules, load};
use serde_json::Value;

/// The lines of a reference file (gzipped or not).
fn lines(path: &str) -> Vec<Value> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let reader: Box<dyn std::io::Read> = if path.ends_with(".gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    BufReader::new(reader).lines().map(|l| serde_json::from_str(&l.unwrap()).unwrap()).collect()
}

/// Every turn of `fen`: their number, the results counted, and the turns that score.
fn our_turns(rules: &Rules, fen: &str) -> (usize, BTreeMap<String, u64>, usize) {
    let pos = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let turns = legal_turns_unbounded(&pos);
    let mut results = BTreeMap::new();
    let mut goals = 0;
    for t in &turns {
        let after = play_unchecked(&pos, t);
        goals += usize::from(after.is_goal());
        *results.entry(after.fen()).or_insert(0) += 1;
    }
    (turns.len(), results, goals)
}

/// Checks that every turn of `fen` has one name and that the name reads back to it.
fn names_read_back(rules: &Rules, fen: &str) -> usize {
    let pos = Position::from_fen(rules, fen).unwrap();
    let turns = legal_turns_unbounded(&pos);
    let named = names(&pos, &turns);
    let distinct: HashSet<&String> = named.iter().collect();
    assert_eq!(distinct.len(), named.len(), "two turns share a name in {fen}");
    for (turn, name) in turns.iter().zip(&named) {
        let back = resolve(&pos, name).unwrap_or_else(|e| panic!("{fen}: {name}: {e}"));
        assert_eq!(&back, turn, "{fen}: {name}");
    }
    turns.len()
}

fn results_of(line: &Value) -> BTreeMap<String, u64> {
    serde_json::from_value(line["results"].clone()).unwrap()
}

#[test]
fn chessball_turns_agree_with_the_reference() {
    let rules = load("chessball-1957").unwrap().rules;
    let data = lines("tests/data/reference/chessball-turns.jsonl.gz");
    assert_eq!(data.len(), 292);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (count, ours, goals) = our_turns(&rules, fen);
        let expected = line["turns"].as_u64().unwrap() as usize;
        let expected_goals = line["goals"].as_u64().unwrap() as usize;
        if count != expected || goals != expected_goals || ours != results_of(line) {
            report.push(format!(
                "{} {fen}: {count} turns ({goals} goals), expected {expected} ({expected_goals})",
                line["id"]
            ));
        }
        names_read_back(&rules, fen);
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The perft counts of a reference file at the depths `pick` selects, counted as the file does
/// (`exact`: a finished position has no turns).
fn perft_cases(path: &str, key: &str) -> Vec<(String, usize, u64)> {
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    let positions = data["positions"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| vec![serde_json::json!({ "fen": data["fen"], "perft": data["perft"] })]);
    for p in positions {
        let levels = p.get("perft").or_else(|| p.get("levels")).unwrap().as_array().unwrap();
        for level in levels {
            if let Some(n) = level[key].as_u64() {
                let depth = level["depth"].as_u64().unwrap() as usize;
                out.push((p["fen"].as_str().unwrap().to_owned(), depth, n));
            }
        }
    }
    out
}

/// Checks the perft counts up to `most` with `options`.
fn check_perft(variant: &str, cases: &[(String, usize, u64)], most: u64, options: PerftOptions) {
    let rules = load(variant).unwrap().rules;
    let mut checked = 0;
    for (fen, depth, expected) in cases.iter().filter(|c| c.2 <= most) {
        let pos = Position::from_fen(&rules, fen).unwrap();
        let ours = perft(&pos, *depth, &options, None).unwrap();
        assert_eq!(ours, *expected, "{variant} {fen} depth {depth}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked} counts checked");
}

const EXACT: PerftOptions =
    PerftOptions { threads: 1, table_mib: 64, exact: true, distinct: false };

#[test]
fn chessball_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/chessball-perft.json", "nodes");
    check_perft("chessball-1957", &cases, 2_000_000, EXACT);
}

#[test]
#[ignore = "depth 5 (58,754,938) takes a few seconds"]
fn chessball_deep_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/chessball-perft.json", "nodes");
    check_perft("chessball-1957", &cases, 100_000_000, EXACT);
}

/// Apo-Games counts a pass by its target square alone, kickoff by its kicker too (two pieces
/// that can send the ball to one square make two turns): the counts differ, the results do not.
fn check_apo_results(path: &str, expected_lines: usize, name_them: bool) {
    let rules = load("apo-chessball").unwrap().rules;
    let data = lines(path);
    assert_eq!(data.len(), expected_lines);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (_, ours, _) = our_turns(&rules, fen);
        let theirs: BTreeSet<String> = results_of(line).into_keys().collect();
        let ours: BTreeSet<String> = ours.into_keys().collect();
        if ours != theirs {
            let missing: Vec<_> = theirs.difference(&ours).take(3).collect();
            let extra: Vec<_> = ours.difference(&theirs).take(3).collect();
            report.push(format!("{} {fen}\n  missing {missing:?}\n  extra {extra:?}", line["id"]));
        }
        if name_them {
            names_read_back(&rules, fen);
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn apo_results_agree_with_the_reference() {
    check_apo_results("tests/data/reference/apo-turns.jsonl.gz", 200, true);
}

#[test]
fn apo_results_of_the_largest_positions_agree_with_the_reference() {
    check_apo_results("tests/data/reference/apo-turns-big.jsonl.gz", 13, false);
}

#[test]
fn apo_perft_of_distinct_results_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/apo-perft.json", "result_tree");
    let options = PerftOptions { distinct: true, ..EXACT };
    check_perft("apo-chessball", &cases, 400_000, options);
}

#[test]
#[ignore = "the deeper counts take a quarter of a minute"]
fn apo_deep_perft_of_distinct_results_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/apo-perft.json", "result_tree");
    let options = PerftOptions { distinct: true, ..EXACT };
    check_perft("apo-chessball", &cases, u64::MAX, options);
}

#[test]
fn every_apo_puzzle_is_solved_by_the_engine() {
    let rules = load("apo-chessball").unwrap().rules;
    let puzzles = lines("tests/data/reference/apo-puzzles.jsonl");
    assert_eq!(puzzles.len(), 25);
    for p in &puzzles {
        let pos = Position::from_fen(&rules, p["fen"].as_str().unwrap()).unwrap();
        let report = Searcher::new(&rules).search(&pos, &[], Limits::level(1)).unwrap();
        let result = report.result.unwrap().fen();
        let solutions: Vec<&str> =
            p["solutions"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        assert!(solutions.contains(&result.as_str()), "{}: {result}", p["id"]);
    }
}

#[test]
fn ball_moves_agree_with_the_reference() {
    let rules = load("vchess-ball").unwrap().rules;
    let data = lines("tests/data/reference/ball-moves.jsonl.gz");
    assert_eq!(data.len(), 217);
    let mut report = Vec::new();
    for line in &data {
        let fen = line["fen"].as_str().unwrap();
        let (count, ours, _) = our_turns(&rules, fen);
        let expected = line["moves"].as_u64().unwrap() as usize;
        if count != expected || ours != results_of(line) {
            report.push(format!("{} {fen}: {count} moves, expected {expected}", line["id"]));
        }
        names_read_back(&rules, fen);
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn ball_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/ball-perft.json", "nodes_stop_at_goal");
    check_perft("vchess-ball", &cases, 2_200_000, EXACT);
}

#[test]
#[ignore = "the deepest counts take a minute"]
fn ball_deep_perft_agrees_with_the_reference() {
    let cases = perft_cases("tests/data/reference/ball-perft.json", "nodes_stop_at_goal");
    check_perft("vchess-ball", &cases, u64::MAX, EXACT);
}
