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

/// A file that resizes a shipped variant's board is told, at its own `board` key, which
/// inherited values no longer fit; a resize that leaves inherited goals inside the board is a
/// warning, and the file stays valid.
#[test]
fn validate_points_at_the_resize_of_an_inherited_board() {
    assert_cmd_snapshot!(kickoff().args([
        "validate",
        "tests/data/bad/inherit-resized-goals.toml",
        "tests/data/warn/inherit-inner-goal.toml",
    ]));
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
    assert_cmd_snapshot!("help-play", kickoff().args(["play", "--help"]));
    assert_cmd_snapshot!("help-bestmove", kickoff().args(["bestmove", "--help"]));
    assert_cmd_snapshot!("help-match", kickoff().args(["match", "--help"]));
}

/// Runs `body` with search timings and node counts made stable: any tuning of the search
/// changes how many positions it visits, which is not what these snapshots are about.
fn without_search_time(body: impl FnOnce()) {
    insta::with_settings!({ filters => vec![
        (r"\d+ positions in \d+ ms \(\d+ positions/s\)", "[NODES] positions in [TIME] ms ([SPEED] positions/s)"),
        (r#""time_ms": \d+"#, r#""time_ms": [TIME]"#),
        (r#""nodes": \d+"#, r#""nodes": [NODES]"#),
    ] }, {
        body();
    });
}

#[test]
fn bestmove_finds_the_goal_and_explains_itself() {
    without_search_time(|| {
        let args = ["bestmove", "boyer-1951", "--depth", "2", "--fen"];
        let fen = "rnb2kbnr/4q4/7Q1/9/4a4/9/9/9/RNB2KBNR b 3";
        assert_cmd_snapshot!(kickoff().args(args).arg(fen));
        assert_cmd_snapshot!(kickoff().args(args).args([fen, "--format", "json"]));
    });
}

#[test]
fn bestmove_at_a_fixed_depth_from_the_start() {
    without_search_time(|| {
        assert_cmd_snapshot!(kickoff().args(["bestmove", "mini", "--depth", "2"]));
    });
}

#[test]
fn bestmove_refuses_bad_positions_and_levels() {
    assert_cmd_snapshot!(kickoff().args(["bestmove", "boyer-1951", "--fen", "9/9 w 0"]));
    assert_cmd_snapshot!(kickoff().args(["bestmove", "boyer-1951", "--level", "9"]));
    let over = "rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 7";
    assert_cmd_snapshot!(kickoff().args(["bestmove", "boyer-1951", "--fen", over]));
}

#[test]
fn a_match_between_random_and_greedy_is_reproducible() {
    let args = ["match", "mini", "--games", "6", "--white", "greedy", "--black", "random"];
    assert_cmd_snapshot!(kickoff().args(args).args(["--seed", "3"]));
}

#[test]
fn a_match_writes_each_record_and_they_replay() {
    let dir = tempdir("match-records");
    let status = kickoff()
        .args(["match", "mini", "--games", "2", "--white", "engine:1", "--black", "random"])
        .arg("--records")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(status.status.success());
    replays_cleanly(&dir, &["game-0001.txt", "game-0002.txt"]);
}

/// A game still going at `--max-turns` is recorded and replayed as a draw at the match's turn
/// cap, not as an agreement.
#[test]
fn a_match_records_its_turn_cap_as_such() {
    let dir = tempdir("match-cap");
    let out = kickoff()
        .args(["match", "boyer-1951", "--games", "2", "--white", "random", "--black", "random"])
        .args(["--max-turns", "6", "--seed", "1", "--records"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.join("game-0001.txt")).unwrap();
    assert!(text.contains("[Termination \"turn cap\"]"), "{text}");
    assert!(text.contains("[Adjudication \"draw after 6 turns\"]"), "{text}");
    let replay = stdout_of(&["replay", dir.join("game-0001.txt").to_str().unwrap()]);
    assert!(replay.contains("1/2-1/2 (draw: the game reached its turn cap)"), "{replay}");
}

/// The first `lines` lines of a match's output: its table (with a start played by both colours,
/// 9 lines down to the endings), without the engines' work.
fn match_table(out: &std::process::Output, lines: usize) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().take(lines).collect::<Vec<_>>().join("\n")
}

/// An interrupted match goes on where it stopped: the games recorded are counted, not played
/// again, and the others are played as they would have been.
#[test]
fn a_match_resumes_from_its_records() {
    let dir = tempdir("match-resume");
    let run = |extra: &[&str]| {
        kickoff()
            .args(["match", "football-960", "--games", "4", "--white", "engine:1"])
            .args(["--black", "random", "--setup", "random", "--max-turns", "40", "--records"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let whole = match_table(&run(&[]), 9);
    assert!(whole.lines().nth(8).is_some_and(|l| l.starts_with("endings: ")), "{whole}");
    let second = std::fs::read_to_string(dir.join("game-0002.txt")).unwrap();
    assert!(second.contains("[Event \"kickoff match, seed 1, turn cap 40\"]\n[Round \"2\"]"));
    std::fs::remove_file(dir.join("game-0002.txt")).unwrap();
    let out = run(&["--resume"]);
    assert_eq!(match_table(&out, 9), whole);
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 of the games were counted"));
    assert_eq!(std::fs::read_to_string(dir.join("game-0002.txt")).unwrap(), second);
    // Without --resume the records are not written over; with --force they are.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game-0001.txt holds a record already: --resume"), "{err}");
    assert_eq!(match_table(&run(&["--force"]), 9), whole);
}

/// A record that is not the resumed match's game is not counted: another seed, other players,
/// a changed record.
#[test]
fn a_match_resumes_only_its_own_games() {
    let dir = tempdir("match-resume-other");
    let run = |white: &str, seed: &str| {
        kickoff()
            .args(["match", "mini", "--games", "2", "--white", white, "--black", "random"])
            .args(["--seed", seed, "--max-turns", "30", "--resume", "--records"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    match_table(&run("greedy", "1"), 3);
    let refused = |out: std::process::Output, why: &str| {
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot resume from "), "{err}");
        assert!(err.contains(why), "{err}");
    };
    refused(run("greedy", "2"), "is not game 1 of a match with kickoff match, seed 2");
    refused(run("engine:1", "1"), "White is not engine:1 there");
    let path = dir.join("game-0001.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("[Result \"", "[Result \"*").replace("1. ", "1. Zz9 "))
        .unwrap();
    refused(run("greedy", "1"), "it does not replay");
}

#[test]
fn a_pair_of_games_shares_its_random_opening() {
    let dir = tempdir("match-opening");
    let out = kickoff()
        .args(["match", "boyer-1951", "--games", "2", "--white", "engine:1", "--black", "greedy"])
        .args(["--opening", "3", "--seed", "5", "--records"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let fen = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(text.contains("[SetUp \"1\"]"), "{text}");
        text.lines().find(|l| l.starts_with("[FEN ")).unwrap().to_owned()
    };
    let first = fen("game-0001.txt");
    assert_eq!(first, fen("game-0002.txt"));
    assert!(first.ends_with(" 3\"]"), "three turns played: {first}");
    replays_cleanly(&dir, &["game-0001.txt", "game-0002.txt"]);
}

#[test]
fn a_match_needs_computer_players() {
    assert_cmd_snapshot!(
        kickoff().args(["match", "mini", "--white", "human", "--black", "random"])
    );
    assert_cmd_snapshot!(
        kickoff().args(["match", "mini", "--white", "engine:7", "--black", "random"])
    );
    assert_cmd_snapshot!(kickoff().args([
        "match",
        "boyer-1951",
        "--white",
        "random",
        "--black",
        "random",
        "--setup",
        "random"
    ]));
}

/// Runs `body` with the perft timing line made stable.
fn without_time(body: impl FnOnce()) {
    insta::with_settings!({ filters => vec![(r"in \d+\.\d+ ms", "in [TIME] ms")] }, {
        body();
    });
}

#[test]
fn turns_as_text() {
    assert_cmd_snapshot!(kickoff().args([
        "turns",
        "boyer-1951",
        "--fen",
        "9/9/9/9/9/a8/R8/9/9 w 0"
    ]));
}

#[test]
fn turns_as_json() {
    assert_cmd_snapshot!(kickoff().args([
        "turns",
        "vchess",
        "--fen",
        "9/9/9/9/9/9/9/7N1/8a w 2",
        "--format",
        "json"
    ]));
}

#[test]
fn turns_of_the_start_position() {
    // The 74 turns themselves are pinned by the reference data (tests/reference.rs) and the
    // output's format by `turns_as_text`: here, each line is a turn's name and its result.
    let out = kickoff().args(["turns", "boyer-1951"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    let def = kickoff::definition::load("boyer-1951").unwrap();
    let pos = kickoff::Position::start(&def.rules);
    let turns = kickoff::movegen::legal_turns(&pos).unwrap();
    let names = kickoff::turn_text::names::names(&pos, &turns);
    let mut expected: Vec<String> = turns
        .iter()
        .zip(&names)
        .map(|(t, name)| format!("{name} {}", kickoff::movegen::play_unchecked(&pos, t).fen()))
        .collect();
    expected.sort();
    let mut shown: Vec<String> =
        String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect();
    shown.sort();
    assert_eq!(shown.len(), 74);
    assert_eq!(shown, expected);
}

#[test]
fn turns_of_a_finished_game_are_refused() {
    assert_cmd_snapshot!(kickoff().args([
        "turns",
        "boyer-1951",
        "--fen",
        "4a4/9/9/9/9/9/9/9/9 b 7"
    ]));
}

/// A game is over for more reasons than a ball on a goal square, and the refusal names the one.
#[test]
fn turns_and_bestmove_name_why_a_game_is_over() {
    let first_to_three = "tests/data/solve/boyer-match.toml";
    let start = "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR";
    assert_cmd_snapshot!(kickoff().args([
        "turns",
        first_to_three,
        "--fen",
        &format!("{start} w 0 3-0")
    ]));
    assert_cmd_snapshot!(kickoff().args([
        "bestmove",
        first_to_three,
        "--fen",
        &format!("{start} w 10 1-0")
    ]));
    let limit = "rnb1knr/7/7/3a3/7/7/RNB1KNR w 120";
    assert_cmd_snapshot!(kickoff().args(["solve", "mini", "--fen", limit, "--turns", "1"]));
    assert_cmd_snapshot!(kickoff().args([
        "turns",
        "tests/data/solve/royal-captures.toml",
        "--fen",
        "rk2n/5/2a2/5/N3R w 4"
    ]));
}

#[test]
fn turns_of_a_bad_position_point_at_the_mistake() {
    assert_cmd_snapshot!(kickoff().args(["turns", "vchess", "--fen", "4K4/9/9/9/4a4/9/9/9/9 w 0"]));
    assert_cmd_snapshot!(kickoff().args(["turns", "vchess", "--fen", "9/9/9 w 0"]));
}

#[test]
fn turns_of_an_unknown_or_broken_variant() {
    assert_cmd_snapshot!(kickoff().args(["turns", "boyer"]));
    assert_cmd_snapshot!(kickoff().args(["turns", "tests/data/cli/missing.toml"]));
    assert_cmd_snapshot!(kickoff().args(["turns", "tests/data/cli/broken.toml"]));
}

#[test]
fn perft_counts() {
    without_time(|| {
        assert_cmd_snapshot!(kickoff().args(["perft", "boyer-1951", "3"]));
        assert_cmd_snapshot!(kickoff().args(["perft", "vchess", "3", "--threads", "2"]));
        assert_cmd_snapshot!(kickoff().args(["perft", "vchess", "0"]));
    });
}

#[test]
fn perft_divide() {
    without_time(|| {
        assert_cmd_snapshot!(kickoff().args([
            "perft",
            "vchess",
            "2",
            "--divide",
            "--fen",
            "9/4a4/4R4/9/9/9/9/9/9 w 2"
        ]));
    });
}

#[test]
fn perft_usage_errors() {
    assert_cmd_snapshot!(kickoff().args(["perft", "vchess", "two"]));
    assert_cmd_snapshot!(kickoff().args(["perft", "vchess", "2", "--threads", "0"]));
}

#[test]
fn validate_simulate() {
    assert_cmd_snapshot!(kickoff().args([
        "validate",
        "--simulate",
        "3",
        "--seed",
        "5",
        "tests/data/warn/endless.toml",
        "mini"
    ]));
}

/// Asserts that `replay` accepts each of the records `names` in `dir`.
fn replays_cleanly(dir: &std::path::Path, names: &[&str]) {
    for name in names {
        let out = kickoff().arg("replay").arg(dir.join(name)).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// A fresh folder for one test.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kickoff-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A command on a definition with warnings shows each of them once, on stderr, and still works.
#[test]
fn commands_show_a_definitions_warnings_once() {
    let out =
        kickoff().args(["turns", "tests/data/warn/piece-without-moves.toml"]).output().unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.matches("warning[").count(), 3, "{stderr}");
    assert_eq!(stderr.matches("has no move at all").count(), 1, "{stderr}");
    assert!(!String::from_utf8(out.stdout).unwrap().contains("warning"));
}

/// The standard output of a kickoff run that succeeds.
fn stdout_of(args: &[&str]) -> String {
    let out = kickoff().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn setup_n_is_the_same_position_as_its_fen_on_every_command() {
    let shown = stdout_of(&["show", "football-960", "--setup", "1000"]);
    let fen = shown.lines().rev().nth(1).unwrap();
    assert!(fen.ends_with(" w 0"), "{shown}");
    assert_ne!(fen, stdout_of(&["show", "football-960"]).lines().rev().nth(1).unwrap());
    for args in [
        &["show", "football-960"][..],
        &["turns", "football-960"],
        &["perft", "football-960", "2", "--divide"],
        &["bestmove", "football-960", "--depth", "1", "--format", "json"],
        &["solve", "football-960", "--turns", "1"],
    ] {
        let by_number = stdout_of(&[args, &["--setup", "1000"]].concat());
        let by_fen = stdout_of(&[args, &["--fen", fen]].concat());
        // bestmove's JSON has its time; the rest must agree.
        let timeless = |s: &str| s.lines().filter(|l| !l.contains("time_ms")).collect::<String>();
        assert_eq!(timeless(&by_number), timeless(&by_fen), "{args:?}");
    }
    let out =
        kickoff().args(["turns", "football-960", "--setup", "1", "--fen", fen]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--setup and --fen conflict");
}

#[test]
fn perft_divide_names_turns_as_turns_does() {
    let fen = "rnbq1kbnr/9/9/3N5/4a4/9/9/9/R1BQ1KBNR w 3";
    let listed: Vec<String> = stdout_of(&["turns", "vchess", "--fen", fen])
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_owned())
        .collect();
    let divided = stdout_of(&["perft", "vchess", "1", "--divide", "--fen", fen]);
    let divided: Vec<String> =
        divided.lines().map(|l| l.split(' ').next().unwrap().to_owned()).collect();
    // The last line is the total.
    assert_eq!(listed, divided[..divided.len() - 1], "in the same order");
    assert!(listed.iter().any(|t| t.contains('>')), "kicks among them");
}

#[test]
fn turns_on_an_invalid_file_prints_its_located_problems() {
    let out = kickoff().args(["turns", "tests/data/bad/betza-lame.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("error[E0331]: in the moves of piece N"), "{stderr}");
    assert!(stderr.contains(" --> tests/data/bad/betza-lame.toml:5:10\n"), "{stderr}");
    assert!(stderr.contains("5 | moves = \"nN\"\n  |          ^^\n"), "{stderr}");
}

#[test]
fn a_position_without_its_turn_count_has_completed_none() {
    let shown =
        stdout_of(&["show", "boyer-1951", "--fen", "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR b"]);
    assert!(shown.contains("rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR b 0\n"), "{shown}");
    assert!(shown.ends_with("Black to move, 0 turns completed\n"), "{shown}");
}

/// `bestmove --moves` searches the position the turns reach, as `--fen` of that position does;
/// a turn that is not legal is refused with its number.
#[test]
fn bestmove_after_moves_searches_the_position_they_reach() {
    let moves = ["--moves", "Nc3 Nc7 Qd4"];
    let after = stdout_of(
        &[&["bestmove", "vchess", "--depth", "2", "--format", "json"][..], &moves].concat(),
    );
    let fen = "r1bq1knbr/9/2n6/9/4a4/3Q5/2N6/9/R1B2KNBR b 3";
    let direct =
        stdout_of(&["bestmove", "vchess", "--depth", "2", "--format", "json", "--fen", fen]);
    let turn = |s: &str| s.lines().find(|l| l.contains("\"turn\"")).unwrap().to_owned();
    assert_eq!(turn(&after), turn(&direct));
    let out = kickoff()
        .args(["bestmove", "vchess", "--depth", "1", "--moves", "Nc3 Nc7 Nc3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--moves: turn 3 `Nc3`"), "{stderr}");
}

/// A program plays a match through `bestmove`'s protocol (the start and the turns so far); its
/// games replay, and a program that answers nothing loses its games.
#[test]
fn a_match_against_a_program() {
    let dir = tempdir("match-program");
    let bin = get_cargo_bin("kickoff");
    let program = format!("program:{} bestmove mini --depth 1 --format json", bin.display());
    let out = kickoff()
        .args(["match", "mini", "--games", "2", "--white", &program, "--black", "random"])
        .args(["--max-turns", "12", "--records"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("program:kickoff bestmove mini --depth 1 --format json"), "{table}");
    assert!(!table.contains("program failure"), "{table}");
    replays_cleanly(&dir, &["game-0001.txt", "game-0002.txt"]);
    let failing = kickoff()
        .args(["match", "mini", "--games", "2", "--white", "program:false", "--black", "random"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&failing.stdout);
    assert!(table.contains("program failure 2"), "{table}");
    assert!(table.contains("program:false     0     0      2"), "{table}");
    // A program that gives no turn in time is stopped, and loses.
    let slow = dir.join("slow.sh");
    let pid_file = dir.join("slow.pid");
    std::fs::write(
        &slow,
        format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 30\n", pid_file.display()),
    )
    .unwrap();
    std::fs::set_permissions(&slow, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let stalled = kickoff()
        .args(["match", "mini", "--games", "1", "--program-time", "1", "--black", "random"])
        .arg("--white")
        .arg(format!("program:{}", slow.display()))
        .args(["--records"])
        .arg(dir.join("slow"))
        .output()
        .unwrap();
    // The program (the shell, then its sleep in the same process) is gone when the match ends.
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    assert!(!pid.is_empty());
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    assert!(
        status.is_empty() || status.contains("State:\tZ"),
        "the program {pid} still runs: {status}"
    );
    let table = String::from_utf8_lossy(&stalled.stdout);
    assert!(table.contains("program failure 1"), "{table}");
    let record = std::fs::read_to_string(dir.join("slow/game-0001.txt")).unwrap();
    assert!(record.contains("slow.sh gave no turn within 1 s"), "{record}");
}
