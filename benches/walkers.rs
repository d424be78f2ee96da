//! The two turn generators of Boyer's family side by side: the walk of whole kick chains
//! (`movegen::chains`, the default there) and the walk action by action that every other
//! variant uses (`movegen::general`), forced with `Rules::with_general_walker`. One workload a
//! run, so that a timer of whole processes can pair the two:
//!
//! ```text
//! cargo bench --bench walkers --no-run        # builds target/release/deps/walkers-HASH
//! walkers perft POSITION DEPTH chains|general
//! walkers search POSITION DEPTH chains|general
//! walkers check DEPTH                          # both walkers' perft counts, every position
//! ```
//!
//! POSITION is `boyer-start`, `vchess-start`, or a crowded position of
//! `tests/data/football-perft.json` with its rule set (`crowded-2-boyer`); `walkers list`
//! names them. Each run prints its count (perft) or its turn, score and nodes (search).

use std::process::ExitCode;

use kickoff::movegen::{PerftOptions, perft};
use kickoff::search::{Limits, Searcher};
use kickoff::{Position, Rules, load};
use serde_json::Value;

/// (name, rule set, fen) of every position: the two starts and the crowded positions.
fn positions() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string("tests/data/football-perft.json").expect("perft data");
    let data: Value = serde_json::from_str(&text).expect("perft json");
    let mut out = Vec::new();
    for p in data["positions"].as_array().expect("positions") {
        let text = |key: &str| p[key].as_str().unwrap_or_default().to_owned();
        let (name, set) = (text("name"), text("rules"));
        let short = name.split(' ').next().unwrap_or(&name).to_owned();
        if short.ends_with("-start") {
            out.push((short, set, text("fen")));
        } else if short.starts_with("crowded") {
            out.push((format!("{short}-{set}"), set, text("fen")));
        }
    }
    out
}

fn rules_of(set: &str, walker: &str) -> Rules {
    let rules = load(if set == "boyer" { "boyer-1951" } else { "vchess" }).expect("rules").rules;
    match walker {
        "chains" => rules,
        "general" => rules.with_general_walker(),
        other => panic!("walker {other}: chains or general"),
    }
}

fn fixed(depth: u32) -> Limits {
    Limits { depth: Some(depth), movetime: None, min_depth: depth, cap: None, exact: 0 }
}

fn main() -> ExitCode {
    // `cargo bench` adds `--bench`.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let find = |name: &str| {
        positions().into_iter().find(|p| p.0 == name).unwrap_or_else(|| panic!("no {name}"))
    };
    match args.as_slice() {
        ["list"] => {
            for (name, set, fen) in positions() {
                println!("{name} {set} {fen}");
            }
        }
        ["perft", name, depth, walker] => {
            let (_, set, fen) = find(name);
            let rules = rules_of(&set, walker);
            let pos = Position::from_fen(&rules, &fen).expect("fen");
            let n = perft(&pos, depth.parse().expect("depth"), &PerftOptions::default(), None);
            println!("{}", n.expect("perft"));
        }
        ["search", name, depth, walker] => {
            let (_, set, fen) = find(name);
            let rules = rules_of(&set, walker);
            let pos = Position::from_fen(&rules, &fen).expect("fen");
            let depth = depth.parse().expect("depth");
            let report = Searcher::new(&rules).search(&pos, &[], fixed(depth)).expect("search");
            let turn = report.turn.map(|t| t.to_string()).unwrap_or_default();
            println!("{turn} score {} nodes {}", report.score, report.nodes);
        }
        ["check", depth] => {
            let depth: usize = depth.parse().expect("depth");
            let mut same = true;
            for (name, set, fen) in positions() {
                let count = |walker: &str| {
                    let rules = rules_of(&set, walker);
                    let pos = Position::from_fen(&rules, &fen).expect("fen");
                    (1..=depth)
                        .map(|d| perft(&pos, d, &PerftOptions::default(), None).expect("perft"))
                        .collect::<Vec<_>>()
                };
                let (chains, general) = (count("chains"), count("general"));
                println!("{name}: chains {chains:?} general {general:?}");
                same &= chains == general;
            }
            if !same {
                eprintln!("the walkers disagree");
                return ExitCode::FAILURE;
            }
        }
        _ => {
            eprintln!("usage: walkers list | perft|search POSITION DEPTH chains|general | check D");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
