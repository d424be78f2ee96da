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

/// Each goal of a proof is named as the game has it: in a match, with the score and how the
/// match ends with it.
#[test]
fn solve_names_how_each_goal_is_scored() {
    let apo = "***1k1***/2r3b2/9/4p4/3n1n3/9/4b1p2/1R7/2PQ1aP2/9/5N1NB/4P4/9/q1B3R2/***1K1***";
    without_times!(assert_cmd_snapshot!(kickoff().args([
        "solve",
        "apo-chessball",
        "--fen",
        &format!("{apo} b 0 0-2"),
        "--turns",
        "1"
    ])));
    // The last turn of a ten-turn match: the goal draws it at the turn limit.
    without_times!(assert_cmd_snapshot!(kickoff().args([
        "solve",
        "tests/data/solve/boyer-match.toml",
        "--fen",
        "k8/9/4a4/4R4/9/9/9/9/K8 w 9 0-1",
        "--turns",
        "1"
    ])));
}

/// A position with more turns than kickoff lists is unknown, with the reason, as text and as
/// JSON, and `solve` ends as it does for any unknown.
#[test]
fn solve_says_unknown_where_turns_are_too_many_to_list() {
    let fen = format!(
        "{}******1a2******/{}******3R******/{}******R1KR******/******4****** w 2 0-0",
        "******4******/".repeat(11),
        "******4******/".repeat(6),
        "******4******/".repeat(3)
    );
    let holes = "tests/data/solve/holes-sixteen-moves.toml";
    let text = kickoff().args(["solve", holes, "--fen", &fen, "--turns", "1"]).output().unwrap();
    assert!(text.status.success());
    let shown = String::from_utf8_lossy(&text.stdout);
    assert!(shown.starts_with("unknown: the position ******4******/"), "{shown}");
    assert!(shown.contains("has more than 2000000 turns"), "{shown}");
    let json = kickoff()
        .args(["solve", holes, "--fen", &fen, "--turns", "1", "--format", "json"])
        .output()
        .unwrap();
    assert!(json.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["verdict"], "unknown");
    assert!(doc["reason"].as_str().unwrap().contains("more than 2000000 turns"), "{doc}");
    assert!(doc.get("proof").is_none() && doc.get("turn").is_none(), "{doc}");
}

/// A proof travels: the turns it names are echoed as every text from a file is, control
/// characters shown as signs and a long turn cut.
#[test]
fn a_proofs_text_is_shown_escaped_and_cut() {
    let out =
        kickoff().args(["solve", "vchess", "--turns", "3", "--format", "json"]).output().unwrap();
    let mut doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.json");
    let check = |doc: &serde_json::Value| {
        std::fs::write(&path, serde_json::to_string(doc).unwrap()).unwrap();
        let out =
            kickoff().args(["solve", "vchess", "--turns", "3", "--check"]).arg(&path).output();
        let out = out.unwrap();
        assert_eq!(out.status.code(), Some(1));
        [out.stdout, out.stderr].concat()
    };
    doc["proof"]["turn"] = "\u{1b}]0;pwned\u{7}\u{1b}[31mRED".into();
    let shown = check(&doc);
    assert!(
        !shown.contains(&0x1b) && !shown.contains(&0x07),
        "{}",
        String::from_utf8_lossy(&shown)
    );
    assert!(String::from_utf8_lossy(&shown).contains("`␛]0;pwned␇␛[31mRED`"));
    doc["proof"]["turn"] = format!("Qd4{}", ">c3".repeat(1_000_000)).into();
    let shown = check(&doc);
    assert!(shown.len() < 400, "{}", String::from_utf8_lossy(&shown));
    assert!(String::from_utf8_lossy(&shown).contains("…` is not a legal turn"));
    doc["fen"] = "\u{1b}[2J".into();
    let shown = check(&doc);
    assert!(String::from_utf8_lossy(&shown).contains("the proof is for ␛[2J, not for"));
    // A proof within no turn proves nothing.
    let mut zero: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    zero["turns"] = 0.into();
    let shown = check(&zero);
    assert!(String::from_utf8_lossy(&shown).contains("within 0 turns proves nothing"));
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
    // Within three turns (a tenth of a second each): every 10th listed setup, and every 48th
    // setup not listed.
    for &(n, white, black) in listed.iter().step_by(10) {
        assert_eq!(solved(n, 3), (white, black), "setup {n}");
    }
    for n in (0..2880).step_by(48).filter(|n| !shipped_unfair(3).contains(n)) {
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

/// The setup numbers of a match's games on football-960 (random players, two turns a game).
fn match_setups(setup: &str, games: usize) -> Vec<u128> {
    let dir = std::env::temp_dir().join(format!("kickoff-setups-{setup}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = kickoff()
        .args(["match", "football-960", "--white", "random", "--black", "random", "--setup"])
        .args([setup, "--games", &games.to_string(), "--max-turns", "2", "--seed", "7"])
        .arg("--records")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let numbers = (1..=games)
        .map(|game| {
            let text = std::fs::read_to_string(dir.join(format!("game-{game:04}.txt"))).unwrap();
            let record = kickoff::notation::record::parse(&text).unwrap();
            record.tag("SetupNumber").unwrap().parse().unwrap()
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    numbers
}

/// `match --setup fair:N` starts every pair of games from a setup where neither side forces a
/// goal within N turns (the shipped list decides for football-960), where random setups with
/// the same seed include forced ones.
#[test]
fn a_match_on_fair_setups_plays_only_fair_ones() {
    let unfair = shipped_unfair(3);
    let mut numbers = match_setups("fair:3", 40);
    assert!(numbers.iter().all(|n| !unfair.contains(n)), "{numbers:?}");
    // Both games of a pair share their setup; the twenty pairs do not all share one.
    assert!(numbers.chunks(2).all(|pair| pair[0] == pair[1]), "{numbers:?}");
    numbers.dedup();
    assert!(numbers.len() > 10, "{numbers:?}");
    let random = match_setups("random", 40);
    assert!(random.iter().any(|n| unfair.contains(n)), "{random:?}");
    let out = kickoff()
        .args(["match", "football-960", "--games", "2", "--white", "random", "--black"])
        .args(["random", "--setup", "fair:9"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad fair setup `fair:9`"), "{err}");
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
    // The same bytes: the time taken is said on standard error, not in the report.
    let (a, b) = (run("json"), run("json"));
    assert_eq!(a, b);
    let a: serde_json::Value = serde_json::from_str(&a).unwrap();
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

/// Boyer's game with one change, for the mirror test.
fn boyer_with(change: &str) -> kickoff::Rules {
    let text = format!("format = 1\nextends = \"boyer-1951\"\n[variant]\nname = \"x\"\n{change}\n");
    kickoff::definition::load_text("x.toml", &text).unwrap().rules
}

#[test]
fn only_rules_without_a_left_and_a_right_read_the_same_in_a_mirror() {
    for name in ["boyer-1951", "vchess", "football-960"] {
        assert!(load(name).unwrap().rules.reflects(), "{name}");
    }
    assert!(boyer_with("[pieces.R]\nkick = \"fR\"").reflects());
    // A goal off the middle file, a piece that kicks to one side, a forbidden square on one
    // wing: each has a left and a right.
    assert!(!boyer_with(
        "[goals]\nwhite = \"d9\"\nblack = \"d1\"\n[setup]\nfen = \"rnb1qkbnr/9/9/9/4a4/9/9/9/RNB1QKBNR w 0\"",
    ).reflects());
    assert!(!boyer_with("[pieces.R]\nkick = \"rW\"").reflects());
    assert!(!boyer_with("[ball]\nforbidden = \"a5\"").reflects());
    assert!(boyer_with("[ball]\nforbidden = \"a5 i5\"").reflects());
    assert!(
        !boyer_with(
            "[board]\nholes = \"a5\"\n[setup]\nfen = \"rnbq1kbnr/9/9/9/*3a4/9/9/9/RNBQ1KBNR w 0\""
        )
        .reflects()
    );
    assert!(!boyer_with("[pieces.K]\nzone = \"a1:h9\"").reflects());
    assert!(!boyer_with("[pieces.N]\nmoves = \"N\"\nkick = \"ffrN\"").reflects());
}

#[test]
fn a_setup_and_its_mirror_image_are_solved_once_with_the_same_verdict() {
    use kickoff::analysis::survey::{starts, twins};
    let rules = load("football-960").unwrap().rules;
    let all = starts(&rules);
    let twins = twins(&rules, &all);
    // No arrangement of K Q R R B B N N is its own mirror image (one king): 1440 pairs.
    assert_eq!(twins.iter().filter(|t| t.is_some()).count(), 1440);
    let board = rules.board();
    for (i, twin) in twins.iter().enumerate() {
        let Some(j) = *twin else { continue };
        assert!(j < i);
        assert_eq!(twins[j], None);
        // Each piece stands on the mirror square of its twin's.
        let (a, b) = (all[i].1.placement(), all[j].1.placement());
        for &(square, side, kind) in &a.pieces {
            assert!(b.pieces.contains(&(board.reflect(square), side, kind)), "{i} {j}");
        }
    }
    // Solved apart, every 40th pair agrees within two turns, and the pairs of setup 1000
    // (White forces a goal in two) and of setup 156 (in three).
    let solved = |i: usize, turns: u32| {
        let v = verdict(None, &all[i].1, turns, SolveLimits::default());
        (v.white, v.black, v.unknown)
    };
    let pairs: Vec<(usize, usize)> =
        twins.iter().enumerate().filter_map(|(i, t)| t.map(|j| (i, j))).collect();
    for &(i, j) in pairs.iter().step_by(40) {
        assert_eq!(solved(i, 2), solved(j, 2), "setups {i} and {j}");
    }
    for n in [1000, 156] {
        let (i, j) = pairs.iter().copied().find(|&(i, j)| i == n || j == n).unwrap();
        let turns = if n == 1000 { 2 } else { 3 };
        let (a, b) = (solved(i, turns), solved(j, turns));
        assert_eq!(a, b, "setups {i} and {j}");
        assert_eq!(a.0, Some(turns));
    }
}

#[test]
fn a_forced_goal_of_white_leaves_black_none_as_a_search_finds() {
    use kickoff::analysis::solve_reply;
    let rules = load("football-960").unwrap().rules;
    let random = rules.random_setup().unwrap();
    for (n, turns) in [(1000, 2), (156, 3)] {
        let number = kickoff::setup::SetupNumber { white: n, black: None };
        let pos = kickoff::setup::position(&rules, random, number).unwrap();
        let v = verdict(None, &pos, turns, SolveLimits::default());
        assert_eq!((v.white, v.black, v.unknown), (Some(turns), None, false), "setup {n}");
        // The survey did not search Black's question; the solver answers it the same way.
        let black = solve_reply(&pos, turns, SolveLimits::default());
        assert_eq!(black.verdict, kickoff::analysis::Verdict::NoWin, "setup {n}");
    }
}

#[test]
fn a_proof_that_black_has_no_forced_goal_stays_small() {
    use kickoff::analysis::solve_reply;
    // Ordering each defence by the attacker's replies it leaves keeps these proofs to a few
    // thousand positions (setup 0: 8,915 within three turns, against 362,620 when ordered by
    // the ball's distance alone). A bound well above today's count catches a lost ordering.
    let rules = load("football-960").unwrap().rules;
    let random = rules.random_setup().unwrap();
    for (n, bound) in [(0, 40_000), (576, 40_000), (2592, 120_000)] {
        let number = kickoff::setup::SetupNumber { white: n, black: None };
        let pos = kickoff::setup::position(&rules, random, number).unwrap();
        let black = solve_reply(&pos, 3, SolveLimits::default());
        assert_eq!(black.verdict, kickoff::analysis::Verdict::NoWin, "setup {n}");
        assert!(black.nodes < bound, "setup {n}: {} positions", black.nodes);
    }
}

#[test]
fn setup_47_is_a_forced_goal_in_four_and_not_in_three() {
    // One of the 62 setups the four-turn survey adds to the shipped three-turn list.
    let rules = load("football-960").unwrap().rules;
    let random = rules.random_setup().unwrap();
    let number = kickoff::setup::SetupNumber { white: 47, black: None };
    let pos = kickoff::setup::position(&rules, random, number).unwrap();
    assert!(!shipped_unfair(3).contains(&47));
    let v = verdict(None, &pos, 4, SolveLimits::default());
    assert_eq!((v.white, v.black, v.unknown), (Some(4), None, false));
    let out = kickoff()
        .args(["solve", "football-960", "--setup", "47", "--turns", "4", "--format", "json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((doc["verdict"].as_str(), doc["turns"].as_u64()), (Some("win"), Some(4)));
    assert_eq!(doc["turn"], "Qf6>b2");
}

/// The JSON of `analyze mini --compare FILE` with `extra` arguments.
fn comparison(other: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["analyze", "mini", "--compare", other, "--level", "1", "--format", "json"];
    args.extend(extra);
    let out = kickoff().args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `--compare` plays game k of both definitions from the same setup and seed: a definition
/// compared with itself gives pairs all alike, which say nothing, and a change gives pairs that
/// differ, counted and tested; the result does not depend on the threads.
#[test]
fn compare_pairs_the_games_of_two_definitions() {
    let same = comparison("mini", &["--games", "12", "--threads", "2"]);
    assert_eq!(same["pairs"]["played"], 12);
    assert_eq!(same["pairs"]["alike"], 12);
    assert_eq!(same["outcome"]["verdict"], "undecided");
    assert_eq!(same["a"]["play"]["list"], same["b"]["play"]["list"]);

    let changed = "tests/data/compare/mini-line.toml";
    let one = comparison(changed, &["--games", "60", "--threads", "1"]);
    let two = comparison(changed, &["--games", "60", "--threads", "2"]);
    for part in ["pairs", "outcome"] {
        assert_eq!(one[part], two[part], "{part} with one thread and with two");
    }
    assert_eq!(one["a"]["play"]["list"], two["a"]["play"]["list"]);
    assert_eq!(one["b"]["variant"], "Mini, kicks both ways");
    let pairs = &one["pairs"];
    let played = pairs["played"].as_u64().unwrap();
    assert_eq!(one["outcome"]["pairs"].as_u64().unwrap(), played);
    assert_eq!(one["a"]["play"]["games"].as_u64().unwrap(), played);
    assert_eq!(one["b"]["play"]["games"].as_u64().unwrap(), played);
    let counted = ["better_for_white", "better_for_black", "alike"]
        .iter()
        .map(|k| pairs[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(counted, played);
    assert!(
        pairs["better_for_white"].as_u64().unwrap() + pairs["better_for_black"].as_u64().unwrap()
            > 0
    );
    // Game k of A is the same whatever it is compared with.
    let a_alone = &same["a"]["play"]["list"].as_array().unwrap()[..12];
    assert_eq!(a_alone, &one["a"]["play"]["list"].as_array().unwrap()[..12]);
}

/// `--compare --format html` is a page of both: the rates of each side in one chart (escaped
/// names), the side-by-side table; `--delta` needs `--compare` and a share below one half.
#[test]
fn compare_writes_html_and_refuses_a_delta_alone() {
    let html = kickoff()
        .args(["analyze", "mini", "--compare", "tests/data/compare/mini-line.toml", "--games", "4"])
        .args(["--level", "1", "--format", "html"])
        .output()
        .unwrap();
    assert!(html.status.success(), "{}", String::from_utf8_lossy(&html.stderr));
    let page = String::from_utf8(html.stdout).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(page.contains("<h1>Mini Football against Mini, kicks both ways</h1>"), "{page}");
    for label in ["A: White wins", "B: White wins", "A: Draws", "B: Draws"] {
        assert!(page.contains(&format!(">{label}</text>")), "{label}: {page}");
    }
    assert!(page.contains("Sequential test"), "{page}");
    let delta = kickoff().args(["analyze", "mini", "--delta", "0.2"]).output().unwrap();
    assert_eq!(delta.status.code(), Some(2));
    let wide = kickoff()
        .args(["analyze", "mini", "--compare", "mini", "--delta", "0.5"])
        .output()
        .unwrap();
    assert_eq!(wide.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wide.stderr).contains("between 0 and 0.5"));
}

/// The HTML report links a game of each result to the web board's records page, the record
/// (and, for a file, its definition) in the link's fragment; the JSON report holds the same
/// samples.
#[test]
fn the_html_report_links_sample_games_to_the_board() {
    let run = |format: &str| {
        let out = kickoff()
            .args(["analyze", "tests/data/compare/mini-line.toml", "--games", "6", "--level", "1"])
            .args(["--threads", "1", "--board", "http://127.0.0.1:9/", "--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let samples = json["play"]["samples"].as_array().unwrap();
    assert!(!samples.is_empty(), "{json}");
    let html = run("html");
    let links: Vec<&str> = html
        .split("<a href=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .filter(|link| link.starts_with("http://127.0.0.1:9/records#record="))
        .collect();
    assert_eq!(links.len(), samples.len(), "{html}");
    let definition = std::fs::read_to_string("tests/data/compare/mini-line.toml").unwrap();
    for (link, sample) in links.iter().zip(samples) {
        let fragment = link.split_once('#').unwrap().1.replace("&amp;", "&");
        let mut parts = fragment.split('&');
        let decode = |part: &str, key: &str| {
            let value = part.strip_prefix(&format!("{key}=")).unwrap();
            percent_encoding::percent_decode_str(value).decode_utf8().unwrap().into_owned()
        };
        let record = decode(parts.next().unwrap(), "record");
        assert_eq!(record, sample["record"].as_str().unwrap());
        assert!(record.starts_with("[Variant \"tests/data/compare/mini-line.toml\"]"), "{record}");
        assert!(record.contains(&format!("[Result \"{}\"]", sample["result"].as_str().unwrap())));
        assert_eq!(decode(parts.next().unwrap(), "definition"), definition);
    }
}

/// The draws with the ball stuck: each last position given to the solver, and a wall it
/// proves is one that a search from scratch cannot break either.
#[test]
fn stuck_balls_are_proved_walls_or_shown_missed() {
    let out = kickoff()
        .args(["analyze", "boyer-1951", "--games", "20", "--level", "1", "--seed", "2"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let play = &report["play"];
    let stuck = play["draws_by_cause"]["stuck-ball"].as_u64().unwrap();
    assert!(stuck > 0, "{play}");
    let walls: u64 = play["walls"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(walls, stuck);
    let def = load("boyer-1951").unwrap();
    let mut held = 0;
    for game in play["list"].as_array().unwrap() {
        let is_stuck = game["draw"] == "stuck-ball";
        assert_eq!(game.get("wall").is_some(), is_stuck, "{game}");
        assert_eq!(game.get("last").is_some(), is_stuck, "{game}");
        if game["wall"] == "held" {
            held += 1;
            let pos = Position::from_fen(&def.rules, game["last"].as_str().unwrap()).unwrap();
            let v = verdict(None, &pos, 2, SolveLimits::default());
            assert_eq!((v.white, v.black, v.unknown), (None, None, false), "{game}");
        }
    }
    assert_eq!(play["walls"]["held"].as_u64().unwrap_or(0), held);
}

/// Without a ball nothing is stuck: a game cut by the turn limit is a turn-limit draw, and a
/// goal is the piece's that moved onto the goal square.
#[test]
fn a_game_without_a_ball_has_no_stuck_ball_and_its_goals_are_by_piece() {
    let out = kickoff()
        .args(["analyze", "footballchess-correa", "--turns", "1", "--games", "6", "--level", "1"])
        .args(["--max-turns", "40", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let play = &report["play"];
    let causes = play["draws_by_cause"].as_object().unwrap();
    assert!(!causes.contains_key("stuck-ball"), "{play}");
    assert!(causes.get("turn-limit").and_then(|v| v.as_u64()).unwrap_or(0) > 0, "{play}");
    let letters = ["C", "D", "M", "F"];
    let goals = play["goals_by_piece"].as_object().unwrap();
    assert!(goals.keys().all(|k| letters.contains(&k.as_str())), "{play}");
}
