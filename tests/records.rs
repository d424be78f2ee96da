//! Records of a variant of one's own: the record names the definition from its own folder and
//! carries its hash, so that it replays from any working directory and a changed definition is
//! noticed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use insta_cmd::get_cargo_bin;
use kickoff::game::record::definition_hash;

mod common;
use common::run;

/// A short game of Boyer's board: White's bishops score in two turns.
const QUICK_GOAL: &str = "Bd4>g7\nBa3\nBh6>e9#\n";

/// The definition the games are played under.
const DEFINITION: &str = include_str!("data/records/wazir-kicks.toml");

fn kickoff_in(dir: &Path) -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Folders `games` (the definition and the record), `player` (where the game was played) and
/// `elsewhere` (where it is read back) under a scratch root.
struct Folders {
    root: tempfile::TempDir,
}

impl Folders {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        for name in ["games", "player", "elsewhere"] {
            std::fs::create_dir(root.path().join(name)).unwrap();
        }
        std::fs::write(root.path().join("games/wazir-kicks.toml"), DEFINITION).unwrap();
        Folders { root }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// Runs kickoff in the folder `dir` with `args` and `input`.
    fn run(&self, dir: &str, args: &[&str], input: &str) -> Output {
        run(kickoff_in(&self.path(dir)).args(args), input)
    }

    /// Plays `input` from the `player` folder, recording to `games/game.txt`.
    fn play(&self, input: &str) -> Output {
        let args = ["play", "../games/wazir-kicks.toml", "--black", "human"];
        let out =
            self.run("player", &[&args[..], &["--record", "../games/game.txt"]].concat(), input);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    }

    /// `replay games/game.txt` from the `elsewhere` folder.
    fn replay(&self) -> Output {
        kickoff_in(&self.path("elsewhere")).args(["replay", "../games/game.txt"]).output().unwrap()
    }

    fn change_definition(&self, added: &str) {
        let path = self.path("games/wazir-kicks.toml");
        std::fs::write(path, format!("{DEFINITION}{added}")).unwrap();
    }
}

#[test]
fn a_record_names_its_definition_from_its_own_folder_with_its_hash() {
    let folders = Folders::new();
    folders.play(QUICK_GOAL);
    let record = std::fs::read_to_string(folders.path("games/game.txt")).unwrap();
    let def = kickoff::definition::load_path(&folders.path("games/wazir-kicks.toml")).unwrap();
    let hash = definition_hash(&def.sources);
    assert!(record.starts_with("[Variant \"wazir-kicks.toml\"]\n"), "{record}");
    assert!(record.contains(&format!("\n[VariantHash \"{hash}\"]\n")), "{record}");
}

#[test]
fn a_record_replays_from_another_working_directory() {
    let folders = Folders::new();
    folders.play(QUICK_GOAL);
    let out = folders.replay();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("result: 1-0 (White scores a goal)"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(text(&out.stderr), "", "an unchanged definition is not warned of");
}

#[test]
fn play_load_resumes_from_another_working_directory() {
    let folders = Folders::new();
    folders.play("Bd4>g7\n");
    let args = ["play", "--load", "../games/game.txt", "--black", "human"];
    let out = folders.run("elsewhere", &args, "Ba3\nBh6>e9\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("result: 1-0"), "{}", text(&out.stdout));
    let record = std::fs::read_to_string(folders.path("games/game.txt")).unwrap();
    assert!(record.starts_with("[Variant \"wazir-kicks.toml\"]\n"), "{record}");
    assert!(record.contains("1. Bd4>g7 Ba3 2. Bh6>e9# 1-0"), "{record}");
}

#[test]
fn a_changed_definition_is_warned_of() {
    let folders = Folders::new();
    folders.play(QUICK_GOAL);
    folders.change_definition("\n# a comment added after the game\n");
    let out = folders.replay();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let warning = "warning: ../games/game.txt: the definition of Football Chess with wazir kicks \
                   changed since the game was saved";
    assert!(text(&out.stderr).starts_with(warning), "{}", text(&out.stderr));
    let resumed = folders.run("elsewhere", &["play", "--load", "../games/game.txt"], "");
    assert!(text(&resumed.stderr).contains(warning), "{}", text(&resumed.stderr));
}

#[test]
fn a_definition_whose_change_breaks_the_turns_is_an_error() {
    let folders = Folders::new();
    folders.play(QUICK_GOAL);
    folders.change_definition("\n[pieces.B]\nmoves = \"W\"\n");
    let out = folders.replay();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("changed since the game was saved"), "{stderr}");
    assert!(stderr.contains("turn 1. `Bd4>g7`"), "{stderr}");
}

#[test]
fn an_older_record_names_its_file_from_the_working_directory() {
    let folders = Folders::new();
    std::fs::create_dir(folders.path("games/saved")).unwrap();
    let old = "[Variant \"games/wazir-kicks.toml\"]\n\n1. Bd4>g7 Ba3 2. Bh6>e9# 1-0\n";
    std::fs::write(folders.path("games/saved/old.txt"), old).unwrap();
    let out =
        kickoff_in(folders.root.path()).args(["replay", "games/saved/old.txt"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("result: 1-0"), "{}", text(&out.stdout));
}

#[test]
fn a_record_with_its_definition_replays_with_no_other_file() {
    let folders = Folders::new();
    let args = ["play", "../games/wazir-kicks.toml", "--black", "human", "--embed"];
    let out = folders.run(
        "player",
        &[&args[..], &["--record", "../elsewhere/game.txt"]].concat(),
        QUICK_GOAL,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(folders.path("games")).unwrap();
    let record = std::fs::read_to_string(folders.path("elsewhere/game.txt")).unwrap();
    assert!(record.contains(&format!("\n{{definition\n{DEFINITION}}}\n")), "{record}");
    let replay = |dir: &str| {
        kickoff_in(&folders.path(dir)).args(["replay", "../elsewhere/game.txt"]).output().unwrap()
    };
    let out = replay("player");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("result: 1-0 (White scores a goal)"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(text(&out.stderr), "");
    // The definition a record carries is checked like a file, its problems shown in the record.
    let broken = record.replace("kick = \"W\"", "kick = \"Wx\"");
    std::fs::write(folders.path("elsewhere/game.txt"), &broken).unwrap();
    let line = 1 + broken.lines().position(|l| l == "kick = \"Wx\"").unwrap();
    let out = replay("player");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&format!(" --> ../elsewhere/game.txt:{line}:10\n")), "{stderr}");
    assert!(stderr.contains(&format!("{line} | kick = \"Wx\"\n")), "{stderr}");
    assert!(stderr.ends_with("error: the definition ../elsewhere/game.txt carries is not valid\n"));
}

/// A record whose line ends became CRLF (saved on Windows, say) still carries its definition.
#[test]
fn a_record_with_crlf_line_ends_carries_its_definition() {
    let folders = Folders::new();
    let args = ["play", "../games/wazir-kicks.toml", "--black", "human", "--embed"];
    let out = folders.run(
        "player",
        &[&args[..], &["--record", "../elsewhere/game.txt"]].concat(),
        QUICK_GOAL,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(folders.path("games")).unwrap();
    let record = std::fs::read_to_string(folders.path("elsewhere/game.txt")).unwrap();
    std::fs::write(folders.path("elsewhere/game.txt"), record.replace('\n', "\r\n")).unwrap();
    let out = kickoff_in(&folders.path("elsewhere")).args(["replay", "game.txt"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("result: 1-0"), "{}", text(&out.stdout));
}

/// A game resumed under a changed definition carries the definition played, with its hash.
#[test]
fn a_resumed_record_carries_the_definition_played() {
    let folders = Folders::new();
    let args = ["play", "wazir-kicks.toml", "--black", "human", "--embed", "--record", "game.txt"];
    let out = folders.run("games", &args, "Bd4>g7\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let added = "\n# a comment added after the first turn\n";
    folders.change_definition(added);
    let args = ["play", "wazir-kicks.toml", "--black", "human", "--load", "game.txt"];
    let out = folders.run("games", &args, "Ba3\nBh6>e9\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record = std::fs::read_to_string(folders.path("games/game.txt")).unwrap();
    assert!(record.contains(&format!("\n{{definition\n{DEFINITION}{added}}}\n")), "{record}");
    std::fs::remove_file(folders.path("games/wazir-kicks.toml")).unwrap();
    let out = folders.run("games", &["replay", "game.txt"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "the hash is the carried definition's");
}

#[test]
fn a_record_carries_only_a_definition_that_extends_shipped_variants() {
    let folders = Folders::new();
    let child = "extends = \"wazir-kicks.toml\"\n\n[variant]\nname = \"Child\"\n";
    std::fs::write(folders.path("games/child.toml"), child).unwrap();
    let out = folders.run("games", &["play", "child.toml", "--embed", "--record", "game.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("it extends another file"), "{}", text(&out.stderr));
    let help = "help: `kickoff definition child.toml --resolved > one.toml` writes the whole \
                definition as one file, which a record can carry";
    assert!(text(&out.stderr).contains(help), "{}", text(&out.stderr));
    assert!(!folders.path("games/game.txt").exists());
    let resolved = folders.run("games", &["definition", "child.toml", "--resolved"], "");
    std::fs::write(folders.path("games/one.toml"), &resolved.stdout).unwrap();
    let out = folders.run("games", &["play", "one.toml", "--embed", "--record", "game.txt"], "");
    assert!(out.status.success(), "the help works: {}", text(&out.stderr));
}

#[test]
fn match_records_carry_the_definition_with_embed() {
    let folders = Folders::new();
    let out = kickoff_in(&folders.path("player"))
        .args(["match", "../games/wazir-kicks.toml", "--games", "2", "--white", "random"])
        .args(["--black", "random", "--max-turns", "20", "--records", "../elsewhere", "--embed"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_dir_all(folders.path("games")).unwrap();
    for game in ["game-0001.txt", "game-0002.txt"] {
        let out = kickoff_in(&folders.path("elsewhere")).args(["replay", game]).output().unwrap();
        assert!(out.status.success(), "{game}: {}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with("turns: "), "{}", text(&out.stdout));
    }
}

/// A `setup.fen` that leaves out the score (`... w 0`) is still the start position: a game from
/// it carries no `SetUp` or `FEN` tag, and one from elsewhere still does.
#[test]
fn a_start_fen_without_its_score_is_the_start_position() {
    let folders = Folders::new();
    let definition = include_str!("data/records/to-three.toml");
    std::fs::write(folders.path("games/to-three.toml"), definition).unwrap();
    let args = ["play", "to-three.toml", "--black", "human", "--record", "game.txt"];
    let out = folders.run("games", &args, QUICK_GOAL);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record = std::fs::read_to_string(folders.path("games/game.txt")).unwrap();
    assert!(!record.contains("[SetUp ") && !record.contains("[FEN "), "{record}");
    let moved = "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR b 0";
    let args = ["play", "to-three.toml", "--fen", moved, "--record", "moved.txt"];
    let out = folders.run("games", &[&args[..], &["--black", "human"]].concat(), "Nc7\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let record = std::fs::read_to_string(folders.path("games/moved.txt")).unwrap();
    assert!(record.contains("[SetUp \"1\"]\n[FEN \"rnbq1kbnr/"), "{record}");
}

/// A record saved away from its definition names it with `..`, which `replay` reads only with
/// `--allow-outside`: saving one warns so, and names --embed; a record beside it does not.
#[test]
fn saving_a_record_outside_the_definitions_folder_warns() {
    let folders = Folders::new();
    let args = ["play", "wazir-kicks.toml", "--black", "human", "--record", "../elsewhere/g.txt"];
    let out = folders.run("games", &args, QUICK_GOAL);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let warned = "warning: the record names its definition as `../games/wazir-kicks.toml`, \
                  outside the record's folder";
    assert!(text(&out.stderr).contains(warned), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--embed makes the record stand alone"));
    let out = kickoff_in(&folders.path("elsewhere")).args(["replay", "g.txt"]).output().unwrap();
    assert!(text(&out.stderr).contains("--allow-outside"), "the warning was true");
    let out = folders.play(QUICK_GOAL);
    assert!(!text(&out.stderr).contains("warning"), "{}", text(&out.stderr));
    let out = folders.run("games", &[&args[..], &["--embed", "--force"]].concat(), QUICK_GOAL);
    assert!(!text(&out.stderr).contains("warning"), "{}", text(&out.stderr));
    let out = kickoff_in(&folders.path("player"))
        .args(["match", "../games/wazir-kicks.toml", "--games", "1", "--white", "random"])
        .args(["--black", "random", "--max-turns", "4", "--records", "../elsewhere"])
        .output()
        .unwrap();
    assert!(text(&out.stderr).contains(warned), "{}", text(&out.stderr));
}
