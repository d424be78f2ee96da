//! `play` driven by a script, records written and read back, `replay`, and every bad input.

use std::path::PathBuf;
use std::process::Command;

use std::io::Write;
use std::process::{Output, Stdio};

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
}

/// Runs `cmd` with `input` on its standard input.
fn run(cmd: &mut Command, input: &str) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A scratch folder, removed afterwards.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("kickoff-play-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A short game of Boyer's Football Chess: White's bishops score in two turns.
const QUICK_GOAL: &str = "Bd4>g7\nBa3\nBh6>e9#\n";

#[test]
fn a_scripted_game_from_the_start_to_a_goal() {
    assert_cmd_snapshot!(kickoff().args(["play", "--black", "human"]).pass_stdin(QUICK_GOAL));
}

#[test]
fn the_record_of_a_game_replays_to_the_same_end() {
    let dir = Scratch::new("record");
    let record = dir.0.join("game.txt");
    let out =
        run(kickoff().args(["play", "--black", "human", "--record"]).arg(&record), QUICK_GOAL);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let text = text.lines().filter(|l| !l.starts_with("[Date ")).collect::<Vec<_>>().join("\n");
    insta::assert_snapshot!("quick-goal-record", text);
    assert_cmd_snapshot!("replay-quick-goal", kickoff().arg("replay").arg(&record));
}

#[test]
fn a_game_against_the_computer_is_reproducible() {
    let game = || {
        run(kickoff().args(["play", "--white", "random", "--black", "greedy", "--seed", "7"]), "")
    };
    let (a, b) = (game(), game());
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    assert!(text.contains("final position:") && text.contains("result:"), "{text}");
}

#[test]
fn resuming_a_saved_game() {
    let dir = Scratch::new("resume");
    let record = dir.0.join("game.txt");
    let first =
        run(kickoff().args(["play", "--black", "human", "--record"]).arg(&record), "Bd4>g7\n");
    assert!(first.status.success());
    let second = run(
        kickoff().args(["play", "--load"]).arg(&record).args(["--black", "human"]),
        "Ba3\nBh6>e9\n",
    );
    let text = String::from_utf8(second.stdout).unwrap();
    assert!(text.contains("result: 1-0 (White scores a goal)"), "{text}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert!(saved.contains("1. Bd4>g7 Ba3 2. Bh6>e9# 1-0"), "{saved}");
}

#[test]
fn an_illegal_turn() {
    assert_cmd_snapshot!(kickoff().args(["play", "--black", "human"]).pass_stdin("Bd4>g7\nBb3\n"));
}

#[test]
fn an_ambiguous_turn() {
    // Both rooks can reach d4 from d1... and both knights can reach d2: `Nd2` names one only
    // when written with its file.
    assert_cmd_snapshot!(
        kickoff()
            .args(["play", "tests/data/records/two-knights.toml", "--black", "human"])
            .pass_stdin("Nd2\n")
    );
}

#[test]
fn an_unknown_command() {
    assert_cmd_snapshot!(kickoff().args(["play", "--black", "human"]).pass_stdin("castle\n"));
}

#[test]
fn an_unknown_player() {
    assert_cmd_snapshot!(kickoff().args(["play", "--black", "stockfish"]));
}

#[test]
fn a_malformed_record() {
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/malformed.txt"]));
}

#[test]
fn a_record_with_an_illegal_turn() {
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/illegal-turn.txt"]));
}

#[test]
fn a_record_of_another_variant() {
    assert_cmd_snapshot!(kickoff().args([
        "play",
        "vchess",
        "--load",
        "tests/data/records/boyer-game.txt"
    ]));
}

#[test]
fn replay_a_finished_record() {
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/boyer-game.txt"]));
}

#[test]
fn a_damaged_record_resumes_from_where_it_breaks() {
    let dir = Scratch::new("damaged");
    let out_file = dir.0.join("resumed.txt");
    let out = run(
        kickoff()
            .args([
                "play",
                "--load",
                "tests/data/records/illegal-turn.txt",
                "--black",
                "human",
                "--record",
            ])
            .arg(&out_file),
        "Nb6\n",
    );
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        stderr.contains("turn 3. `Nd3`") && stderr.contains("resuming after turn 4"),
        "{stderr}"
    );
    assert!(stdout.contains("3. Nb6"), "{stdout}");
    let saved = std::fs::read_to_string(&out_file).unwrap();
    assert!(saved.contains("1. Nc3 Nc7 2. Nd5 Ne6 3. Nb6 *"), "{saved}");
}

/// The prompt, driven through a pipe: a turn in steps, listings, undo and redo, a draw offered
/// and accepted between two people, saving.
#[test]
fn the_prompt_step_by_step() {
    let dir = Scratch::new("prompt");
    let save = dir.0.join("saved.txt");
    let input = format!(
        "help\nRc7\nd7\nkicks\nback\nturns R\n\ndraw\ndraw\nKf8\nundo\nredo\ndraw\nKg8\nsave {}\nquit\n",
        save.display()
    );
    let out = run(
        kickoff().args([
            "play",
            "--fen",
            "5k3/9/3R5/9/3a5/3R5/9/9/5K3 w 0",
            "--black",
            "human",
            "--interactive",
        ]),
        &input,
    );
    assert!(out.status.success());
    let text =
        String::from_utf8(out.stdout).unwrap().replace(&save.display().to_string(), "[FILE]");
    insta::assert_snapshot!(text);
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("[Result \"1/2-1/2\"]\n[Termination \"agreement\"]"), "{saved}");
}

#[test]
fn the_prompt_refuses_what_is_not_legal() {
    let input = "castle\nNd3\nNc3\nNc3\n--\nquit\nquit\n";
    let out = run(kickoff().args(["play", "--black", "human", "--interactive"]), input);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("  ") && !l.starts_with("    "))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(text);
}
