//! Turn notation over every legal turn of every reference position: each turn has exactly one
//! canonical name, no two turns share one, and reading the name gives the turn back.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};

use kickoff::movegen::legal_turns_unbounded;
use kickoff::turn_text::names::{names, resolve};
use kickoff::{Position, load};
use serde_json::Value;

/// A move written without its start, followed by a kicker named by its square (three knights
/// stand around the ball), gets its file: `Qda1g5>d3`, as `Qa1g5` would read as a queen move
/// from a1 to g5. Every name of the position reads back as its turn.
#[test]
fn a_move_before_a_kicker_named_by_its_square_gets_its_file() {
    let boyer = load("boyer-1951").unwrap().rules;
    let pos = Position::from_fen(&boyer, "k8/9/9/9/5NN2/5aN2/9/9/3Q1K3 w 10").unwrap();
    let turns = legal_turns_unbounded(&pos);
    let names = names(&pos, &turns);
    assert!(names.iter().any(|n| n == "Qda1g5>d3"), "{names:?}");
    for (turn, name) in turns.iter().zip(&names) {
        let back = resolve(&pos, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&back, turn, "{name}");
    }
}

#[test]
fn every_reference_turn_names_and_reads_back() {
    let boyer = load("boyer-1951").unwrap().rules;
    let vchess = load("vchess").unwrap().rules;
    let file = std::fs::File::open("tests/data/football-turns.jsonl.gz").unwrap();
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let mut checked = 0;
    for line in reader.lines() {
        let line: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let rules = if line["rules"] == "boyer" { &boyer } else { &vchess };
        let fen = line["fen"].as_str().unwrap();
        let pos = Position::from_fen(rules, fen).unwrap();
        let turns = legal_turns_unbounded(&pos);
        let names = names(&pos, &turns);
        let distinct: HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "two turns share a name in {fen}");
        for (turn, name) in turns.iter().zip(&names) {
            let back = resolve(&pos, name).unwrap_or_else(|e| panic!("{fen}: {name}: {e}"));
            assert_eq!(&back, turn, "{fen}: {name}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked} turns checked");
}
