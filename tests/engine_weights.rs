//! The engine where pieces are captured: `kickoff tune`, which fits the capture weights to the
//! engine's games, and what the weights make of positions.

use std::process::Command;

use insta_cmd::get_cargo_bin;
use kickoff::balance::tune::{Games, fit, samples};
use kickoff::eval::{CAPTURE_WEIGHTS, Eval};
use kickoff::search::{Limits, Searcher};
use kickoff::{Position, load};
use serde_json::Value;

fn kickoff(args: &[&str]) -> std::process::Output {
    Command::new(get_cargo_bin("kickoff"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

const SMALL: [&str; 10] =
    ["--games", "4", "--level", "1", "--max-turns", "40", "--seed", "3", "--format", "json"];

#[test]
fn tune_fits_the_engines_weights_to_its_games_the_same_on_any_number_of_threads() {
    let run = |threads: &str| {
        let mut args = vec!["tune", "vchess-ball", "--threads", threads];
        args.extend(SMALL);
        let out = kickoff(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let json: Value = serde_json::from_str(&one).unwrap();
    let fit = &json["fit"];
    // It starts from the weights the engine plays with, and fits them no worse.
    assert_eq!(fit["start"]["worth"], CAPTURE_WEIGHTS.worth);
    assert_eq!(fit["start"]["men"], CAPTURE_WEIGHTS.men);
    assert!(fit["after"].as_f64().unwrap() <= fit["before"].as_f64().unwrap(), "{fit}");
    let positions = json["positions"][0]["positions"].as_u64().unwrap();
    assert_eq!(fit["samples"].as_u64(), Some(positions));
    // Four games of 40 turns at most, less 4 opening turns each.
    assert!((4..=144).contains(&positions), "{positions}");
}

#[test]
fn tune_refuses_a_variant_without_captures() {
    let out = kickoff(&["tune", "boyer-1951", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pieces are not captured in this variant"), "{err}");
}

/// The library's fit on the same games as the command, and what the text output shows.
#[test]
fn the_text_report_names_each_weight_before_and_after() {
    let def = load("vchess-ball").unwrap();
    let games = Games { games: 2, level: 1, opening: 4, max_turns: 30, seed: 5, threads: 1 };
    let found = samples(&def.rules, games);
    assert!(!found.is_empty());
    let fitted = fit(&found, CAPTURE_WEIGHTS);
    assert_eq!(fitted.samples, found.len());
    assert!(fitted.after <= fitted.before);
    let out = kickoff(&[
        "tune",
        "vchess-ball",
        "--games",
        "2",
        "--level",
        "1",
        "--max-turns",
        "30",
        "--seed",
        "5",
        "--threads",
        "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("positions: {} (vchess-ball {})", found.len(), found.len())),
        "{text}"
    );
    let row = text.lines().find(|l| l.starts_with("worth")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        ["worth", &CAPTURE_WEIGHTS.worth.to_string(), &fitted.weights.worth.to_string()]
    );
}

/// A side with a piece more (a queen) is ahead where pieces are captured, and the engine does
/// not give its queen for a pawn that is defended.
#[test]
fn the_engine_counts_pieces_and_keeps_its_queen() {
    let def = load("vchess-ball").unwrap();
    let eval = Eval::new(&def.rules);
    let with = Position::from_fen(&def.rules, "r8/9/4p4/3p5/8a/9/3Q5/9/R8 w 0 - -").unwrap();
    let without = Position::from_fen(&def.rules, "r8/9/4p4/3p5/8a/9/9/9/R8 w 0 - -").unwrap();
    assert!(eval.static_value(&with) > eval.static_value(&without) + 300);
    for level in 1..=2 {
        let report = Searcher::new(&def.rules).search(&with, &[], Limits::level(level)).unwrap();
        let after = report.result.unwrap();
        // White still has its queen after its turn and Black's best reply.
        assert_eq!(after.fen().matches('Q').count(), 1, "level {level}: {}", report.turn.unwrap());
        assert!(!report.line.iter().any(|t| t.to_string() == "Qd3-d6"), "level {level}");
    }
}

/// The matches README reports for the engine that counts pieces: against the games' own
/// players (`benches/matches/anchors/`, from `tools/anchors/run_match.sh`), and today's
/// `engine:3` against the one before it on football-960's fair setups. Each record replays
/// under today's rules to the result it records, and each folder's games add up to the table
/// its `match.txt` shows for the first player and to the score README claims.
#[test]
fn anchor_match_records_replay_to_the_tables_they_report() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/matches");
    let today = "program:kickoff-new bestmove football-960 --level 3 --format json";
    // Folder, the first player, and the least score the README claims, in percent.
    let claims = [
        ("f960-level3-fair", today, 50.0),
        ("anchors/ball-e3-d3", "engine:3", 90.0),
        ("anchors/ball-e2-d2", "engine:2", 90.0),
        ("anchors/apo-e3-hard", "engine:3", 95.0),
    ];
    for (folder, level, least) in claims {
        let dir = root.join(folder);
        let table = std::fs::read_to_string(dir.join("match.txt")).unwrap();
        let row: Vec<u32> = table
            .lines()
            .find_map(|l| l.strip_prefix(level))
            .unwrap_or_else(|| panic!("{folder}: no row for {level}"))
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let mut tally = [0u32; 3];
        let mut records: Vec<_> =
            std::fs::read_dir(dir.join("records")).unwrap().map(|e| e.unwrap().path()).collect();
        records.sort();
        for path in &records {
            let text = std::fs::read_to_string(path).unwrap();
            let tag = |name: &str| {
                let start = text.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
                text[start..].split('"').next().unwrap().to_owned()
            };
            let out = kickoff(&["replay", path.to_str().unwrap()]);
            assert!(out.status.success(), "{}", path.display());
            let stdout = String::from_utf8(out.stdout).unwrap();
            let result = stdout.lines().find_map(|l| l.strip_prefix("result: ")).unwrap();
            let recorded = tag("Result");
            assert!(
                result.starts_with(&format!("{recorded} ")) || result == recorded,
                "{}: {result}",
                path.display()
            );
            let white = tag("White") == level;
            let slot = match (recorded.as_str(), white) {
                ("1-0", true) | ("0-1", false) => 0,
                ("1/2-1/2", _) => 1,
                _ => 2,
            };
            tally[slot] += 1;
        }
        assert_eq!(tally.to_vec(), row, "{folder}");
        let score =
            (f64::from(tally[0]) + f64::from(tally[1]) / 2.0) * 100.0 / records.len() as f64;
        assert!(score >= least, "{folder}: {score}%");
    }
}
