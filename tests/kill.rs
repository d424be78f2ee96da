//! Saving while being killed: `play --record` is fed a game slowly through a pipe and killed
//! (`kill -9`) at moments spread over many rounds. Whenever it dies, the record must be a whole
//! game that replays and holds every turn saved before; `--load` must resume it; once a run ends
//! normally, no temporary file may remain in the record's folder.

#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use kickoff::definition::load_shipped;
use kickoff::game::record;
use kickoff::notation::record::parse;

/// Killed rounds after the first, unkilled one.
const ROUNDS: u64 = 30;

/// The pause between two turns written to kickoff: a slow pipe.
const PACE: Duration = Duration::from_millis(2);

/// Turns played before the first kill, in a run that ends normally.
const FIRST: usize = 10;

/// Turns the killed rounds may reach; the last run plays the rest.
const KILLED_UP_TO: usize = 70;

/// A scratch folder, removed afterwards.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// The game's turns, one a line: White scores at the 79th.
fn game_turns() -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/turns-79.txt"),
    )
    .unwrap();
    text.lines().map(str::to_owned).collect()
}

/// Starts `play` in `dir`: resuming `game.txt` if it exists, else recording a new game to it.
fn start(dir: &Path) -> std::process::Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kickoff"));
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd.args(["play", "--white", "human", "--black", "human"]);
    if dir.join("game.txt").exists() {
        cmd.args(["--load", "game.txt"]);
    } else {
        cmd.args(["--record", "game.txt"]);
    }
    cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap()
}

/// Writes `turns` to the child's input, one every [`PACE`], until they end or the child dies.
fn feed(child: &mut std::process::Child, turns: Vec<String>) -> std::thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        for turn in turns {
            if stdin.write_all(format!("{turn}\n").as_bytes()).is_err() {
                return;
            }
            std::thread::sleep(PACE);
        }
    })
}

/// The turns of the record in `dir`, which must be a whole game of the variant; none if there
/// is no record yet.
fn recorded_turns(dir: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(dir.join("game.txt")) else { return Vec::new() };
    let parsed = parse(&text).unwrap_or_else(|e| panic!("a damaged record: {e:?}\n{text}"));
    let rules = load_shipped("boyer-1951").unwrap().rules;
    let game = record::read(&rules, "boyer-1951", &parsed)
        .unwrap_or_else(|e| panic!("a record that does not replay: {}\n{text}", e.error));
    game.plies().iter().map(|p| p.name.clone()).collect()
}

/// The temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// A fixed sequence of kill delays between 5 and 154 ms (a linear congruential generator): the
/// same rounds on every run, though where each kill lands depends on the machine's speed.
fn delays() -> impl Iterator<Item = Duration> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    std::iter::repeat_with(move || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        Duration::from_millis(5 + (state >> 33) % 150)
    })
}

#[test]
fn records_survive_kill_9() {
    let dir = Scratch(std::env::temp_dir().join(format!("kickoff-kill-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    std::fs::create_dir_all(&dir.0).unwrap();
    let turns = game_turns();

    // A first run ends normally: there is a record to resume from.
    let mut child = start(&dir.0);
    feed(&mut child, turns[..FIRST].to_vec()).join().unwrap();
    assert!(child.wait().unwrap().success());
    let mut saved = recorded_turns(&dir.0);
    assert_eq!(saved.len(), FIRST);

    // Each run removes what killed runs left, so at most one temporary file is ever seen.
    let (mut left_behind, mut progress) = (0, 0);
    for delay in delays().take(ROUNDS as usize) {
        let mut child = start(&dir.0);
        let rest = turns[saved.len()..KILLED_UP_TO.max(saved.len())].to_vec();
        let writer = feed(&mut child, rest);
        std::thread::sleep(delay);
        child.kill().unwrap();
        child.wait().unwrap();
        writer.join().unwrap();
        let now = recorded_turns(&dir.0);
        assert!(now.len() >= saved.len(), "turns were lost: {} after {}", now.len(), saved.len());
        assert_eq!(now[..], turns_named(&now, &saved), "the record changed what was saved");
        progress += now.len() - saved.len();
        left_behind += usize::from(!temporaries(&dir.0).is_empty());
        saved = now;
    }
    eprintln!(
        "{ROUNDS} kills: {progress} turns saved between them; {left_behind} left a temporary file"
    );

    // The last run resumes and ends normally: the whole game, and no temporary file.
    let mut child = start(&dir.0);
    feed(&mut child, turns[saved.len()..].to_vec()).join().unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(dir.0.join("game.txt")).unwrap();
    assert_eq!(recorded_turns(&dir.0).len(), turns.len());
    assert!(text.contains("[Result \"1-0\"]\n[Termination \"goal\"]"), "{text}");
    assert_eq!(temporaries(&dir.0), Vec::<String>::new());
}

/// `saved` followed by the turns `now` adds: checks that `now` starts with `saved`.
fn turns_named(now: &[String], saved: &[String]) -> Vec<String> {
    saved.iter().chain(&now[saved.len()..]).cloned().collect()
}
