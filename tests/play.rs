//! `play` driven by a script, records written and read back, `replay`, and every bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

mod common;
use common::run;

fn kickoff() -> Command {
    let mut cmd = Command::new(get_cargo_bin("kickoff"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    cmd
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
    // The hash changes with the shipped file; the snapshot shows the rest.
    let def = kickoff::definition::load_shipped("boyer-1951").unwrap();
    let hash = kickoff::game::record::definition_hash(&def.sources);
    assert!(text.contains(&format!("\n[VariantHash \"{hash}\"]\n")), "{text}");
    let text = text
        .lines()
        .filter(|l| !l.starts_with("[Date ") && !l.starts_with("[VariantHash "))
        .collect::<Vec<_>>()
        .join("\n");
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

/// `kickoff` run in `dir`, with the test data reachable as `DATA/...`.
fn kickoff_in(dir: &Scratch) -> Command {
    let mut cmd = kickoff();
    cmd.current_dir(&dir.0);
    cmd
}

/// The names in a folder, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The first `n` turns of a 79-turn game between two people that White wins with a goal.
fn turns(n: usize) -> String {
    let all = std::fs::read_to_string("tests/data/records/turns-79.txt").unwrap();
    all.lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// A game of `n` turns between two people, recorded in `dir/name`.
fn recorded_game(dir: &Scratch, name: &str, n: usize) -> Vec<u8> {
    let out = run(
        kickoff_in(dir).args(["play", "--white", "human", "--black", "human", "--record", name]),
        &turns(n),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(dir.0.join(name)).unwrap()
}

#[test]
fn a_new_game_never_replaces_a_saved_one() {
    let dir = Scratch::new("no-wipe");
    let saved = recorded_game(&dir, "saved.txt", 40);
    // `--record` typed instead of `--load`, with nothing to play: the saved game stays.
    assert_cmd_snapshot!(kickoff_in(&dir).args(["play", "--record", "saved.txt"]).pass_stdin(""));
    assert_eq!(std::fs::read(dir.0.join("saved.txt")).unwrap(), saved);
    // At the prompt, kickoff asks; anything but yes keeps the file.
    let out = run(
        kickoff_in(&dir).args([
            "play",
            "--black",
            "human",
            "--record",
            "saved.txt",
            "--interactive",
        ]),
        "no\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("saved.txt exists. Replace it with this game? (yes/no)> no")
    );
    assert_eq!(std::fs::read(dir.0.join("saved.txt")).unwrap(), saved);
    // --force replaces it.
    let out = run(
        kickoff_in(&dir).args(["play", "--black", "human", "--record", "saved.txt", "--force"]),
        "Nc3\n",
    );
    assert!(out.status.success());
    let text = std::fs::read_to_string(dir.0.join("saved.txt")).unwrap();
    assert!(text.contains("\n1. Nc3 *\n"), "{text}");
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_recorded_to() {
    let dir = Scratch::new("special");
    let fifo = dir.0.join("fifo.txt");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    assert_cmd_snapshot!(
        kickoff_in(&dir).args(["play", "--record", "fifo.txt"]).pass_stdin("Nc3\n")
    );
    assert_cmd_snapshot!(kickoff_in(&dir).args(["play", "--record", "."]).pass_stdin("Nc3\n"));
    std::os::unix::fs::symlink("nowhere.txt", dir.0.join("dangling.txt")).unwrap();
    assert_cmd_snapshot!(
        kickoff_in(&dir).args(["play", "--record", "dangling.txt"]).pass_stdin("Nc3\n")
    );
    // `save FILE` at the prompt refuses them too.
    let out = run(
        kickoff_in(&dir).args(["play", "--black", "human", "--interactive"]),
        "Nc3\nsave fifo.txt\nquit\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Could not save to fifo.txt: it is a named pipe, not a regular file"),
        "{stdout}"
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a pipe");
    assert_eq!(names_in(&dir.0), ["dangling.txt", "fifo.txt"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_written_through() {
    let dir = Scratch::new("link");
    std::fs::write(dir.0.join("notes.txt"), "my notes\n").unwrap();
    std::os::unix::fs::symlink("notes.txt", dir.0.join("link.txt")).unwrap();
    // The file behind the link holds something: a new game replaces it only when told to.
    let out =
        run(kickoff_in(&dir).args(["play", "--black", "human", "--record", "link.txt"]), "Bb2\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.0.join("notes.txt")).unwrap(), "my notes\n");
    let out = run(
        kickoff_in(&dir).args(["play", "--black", "human", "--record", "link.txt", "--force"]),
        "Bb2\n",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let link = std::fs::symlink_metadata(dir.0.join("link.txt")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is kept");
    let notes = std::fs::read_to_string(dir.0.join("notes.txt")).unwrap();
    assert!(notes.contains("\n1. Bb2 *\n"), "{notes}");
    assert_eq!(names_in(&dir.0), ["link.txt", "notes.txt"]);
}

/// The inode of a file: a save replaces it.
#[cfg(unix)]
fn inode(path: &std::path::Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().ino()
}

#[cfg(unix)]
#[test]
fn loading_a_finished_game_keeps_its_result() {
    let dir = Scratch::new("forfeit");
    let path = dir.0.join("forfeit.txt");
    let original = std::fs::read("tests/data/records/time-forfeit.txt").unwrap();
    std::fs::write(&path, &original).unwrap();
    let before = inode(&path);
    assert_cmd_snapshot!(
        kickoff_in(&dir).args(["play", "--load", "forfeit.txt", "--black", "human"]).pass_stdin("")
    );
    assert_eq!(std::fs::read(&path).unwrap(), original);
    assert_eq!(inode(&path), before, "a record is not rewritten when nothing changed");
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/time-forfeit.txt"]));
    // Written elsewhere, the result and its reason stay.
    let out = run(
        kickoff_in(&dir).args([
            "play",
            "--load",
            "forfeit.txt",
            "--black",
            "human",
            "--record",
            "copy.txt",
        ]),
        "",
    );
    assert!(out.status.success());
    let copy = std::fs::read_to_string(dir.0.join("copy.txt")).unwrap();
    assert!(
        copy.contains("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. Nc3 Nc7 1-0"),
        "{copy}"
    );
}

#[cfg(unix)]
#[test]
fn resuming_without_playing_leaves_the_record_alone() {
    let dir = Scratch::new("untouched");
    recorded_game(&dir, "game.txt", 10);
    let path = dir.0.join("game.txt");
    let (before, text) = (inode(&path), std::fs::read(&path).unwrap());
    let out = run(kickoff_in(&dir).args(["play", "--load", "game.txt", "--black", "human"]), "");
    assert!(out.status.success());
    assert_eq!((inode(&path), std::fs::read(&path).unwrap()), (before, text));
    let out = run(
        kickoff_in(&dir).args(["play", "--load", "game.txt", "--black", "human"]),
        &turns(11)[turns(10).len()..],
    );
    assert!(out.status.success());
    assert_ne!(inode(&path), before, "a turn played is saved");
}

/// The temporary file once had a predictable name (`.NAME.PID.tmp`) and was opened through a
/// link planted under that name, overwriting the link's target.
#[cfg(unix)]
#[test]
fn a_planted_link_is_not_followed() {
    let dir = Scratch::new("planted");
    std::fs::create_dir(dir.0.join("shared")).unwrap();
    std::fs::write(dir.0.join("victim.txt"), "precious\n").unwrap();
    let mut child = kickoff_in(&dir)
        .args(["play", "--white", "human", "--black", "human", "--record", "shared/game.txt"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    std::os::unix::fs::symlink("../victim.txt", dir.0.join(format!("shared/.game.txt.{pid}.tmp")))
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Nc3\n").unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_to_string(dir.0.join("victim.txt")).unwrap(), "precious\n");
    let names = names_in(&dir.0.join("shared"));
    assert_eq!(names, [format!(".game.txt.{pid}.tmp"), "game.txt".to_owned()]);
}

#[cfg(unix)]
#[test]
fn temporary_files_of_killed_runs_are_removed() {
    let dir = Scratch::new("strays");
    let mut ended = Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    let alive = std::process::id();
    let stray = format!(".game.txt.kickoff-{dead}-AbCd1234.tmp");
    let busy = format!(".game.txt.kickoff-{alive}-AbCd1234.tmp");
    for name in [&stray, &busy] {
        std::fs::write(dir.0.join(name), "half a record").unwrap();
    }
    let out =
        run(kickoff_in(&dir).args(["play", "--black", "human", "--record", "game.txt"]), "Nc3\n");
    assert!(out.status.success());
    assert_eq!(names_in(&dir.0), [busy, "game.txt".to_owned()], "only the ended run's file goes");
}

/// Under a file-size limit (`ulimit -f`), saving fails with a message instead of a signal
/// killing kickoff, the record keeps the last turn that fitted, and the exit status says so.
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_an_error_not_a_kill() {
    use std::os::unix::process::CommandExt;
    let dir = Scratch::new("fsize");
    let mut cmd = kickoff_in(&dir);
    cmd.args(["play", "--white", "human", "--black", "human", "--record", "game.txt"]);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 400, rlim_max: 400 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let out = run(&mut cmd, &turns(79));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("warning: could not save the game to game.txt: file too large"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: game.txt does not hold the game as it stands: file too large"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("result: 1-0"));
    assert_eq!(names_in(&dir.0), ["game.txt"], "no temporary file is left");
    let replay = kickoff_in(&dir).args(["replay", "game.txt"]).output().unwrap();
    assert!(replay.status.success(), "the record is whole");
    assert!(std::fs::metadata(dir.0.join("game.txt")).unwrap().len() <= 400);
}

/// `save FILE` at the prompt asks before replacing a file that is not this game's record.
#[test]
fn the_prompt_asks_before_replacing_a_file() {
    let dir = Scratch::new("ask");
    std::fs::write(dir.0.join("other.txt"), "keep me\n").unwrap();
    let out = run(
        kickoff_in(&dir).args(["play", "--black", "human", "--interactive"]),
        "Nc3\nsave a b\nsave other.txt\nno\nsave other.txt\nyes\nsave other.txt\nquit\n",
    );
    assert!(out.status.success());
    let text: String = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("  ") && !l.starts_with("White:") && !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!(text);
    let saved = std::fs::read_to_string(dir.0.join("other.txt")).unwrap();
    assert!(saved.contains("\n1. Nc3 *\n"), "{saved}");
}

#[test]
fn records_that_say_what_is_wrong() {
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/bom.txt"]));
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/fen-ball-goal.txt"]));
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/tag-unicode-name.txt"]));
    assert_cmd_snapshot!(kickoff().args(["replay", "tests/data/records/unclosed-comment.txt"]));
    assert_cmd_snapshot!(kickoff().args([
        "play",
        "--load",
        "tests/data/records/fen-ball-goal.txt"
    ]));
}

/// vchess.club's Ball from its standard start, knights shuffling so that the start occurs a
/// third time after eight turns.
const BALL_START: &str = "hbnrqrnhb/ppppppppp/9/9/4a4/9/9/PPPPPPPPP/HBNRQRNHB w 0 - -";
const BALL_SHUFFLE: &str = "Nb3\nNb7\nNc1\nNc9\nNb3\nNb7\nNc1\nNc9\n";

#[test]
fn a_repetition_is_a_draw_only_when_claimed_where_the_rules_say_so() {
    let humans = ["--white", "human", "--black", "human"];
    let ball = |extra: &str| {
        let mut cmd = kickoff();
        cmd.args(["play", "vchess-ball", "--fen", BALL_START]).args(humans);
        run(&mut cmd, &format!("{BALL_SHUFFLE}{extra}"))
    };
    // Not claimed: the game goes on past the third occurrence.
    let out = ball("Nb3\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("5. Nb3"), "{stdout}");
    assert!(stdout.contains("result: * (the game is not finished)"), "{stdout}");
    // Claimed: a draw, written to the record and read back from it.
    let dir = Scratch::new("claim");
    let record = dir.0.join("claim.txt");
    let mut cmd = kickoff();
    cmd.args(["play", "vchess-ball", "--fen", BALL_START])
        .args(humans)
        .arg("--record")
        .arg(&record);
    let out = run(&mut cmd, &format!("{BALL_SHUFFLE}claim\n"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1/2-1/2 (draw by repetition)"));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("[Termination \"repetition\"]"), "{text}");
    let out = kickoff().arg("replay").arg(&record).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("turns: 8") && stdout.contains("draw by repetition"), "{stdout}");
    // A claimed repetition that the turns do not show is not believed.
    std::fs::write(&record, text.replace("4. Nc1 Nc9 ", "")).unwrap();
    let out = kickoff().arg("replay").arg(&record).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("draw by repetition"), "{stdout}");
    // Too early: refused, and the script stops with an error.
    let mut cmd = kickoff();
    cmd.args(["play", "vchess-ball", "--fen", BALL_START]).args(humans);
    let out = run(&mut cmd, "Nb3\nclaim\n");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no draw to claim"), "{stderr}");
}

#[test]
fn a_repetition_ends_boyers_game_by_itself() {
    let mut cmd = kickoff();
    cmd.args(["play", "--white", "human", "--black", "human"]);
    let out = run(&mut cmd, "Nc3\nNc7\nNb1\nNb9\nNc3\nNc7\nNb1\nNb9\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1/2-1/2 (draw by repetition)"), "{stdout}");
}

#[test]
fn a_random_setup_variant_starts_from_its_definition_unless_setup_says_otherwise() {
    let play = |extra: &[&str]| {
        let out = run(kickoff().args(["play", "football-960", "--black", "human"]).args(extra), "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let shown = kickoff().args(["show", "football-960"]).output().unwrap().stdout;
    let start = String::from_utf8(shown).unwrap().lines().rev().nth(1).unwrap().to_owned();
    // The definition's own arrangement is setup 2502, and is named so.
    let plain = play(&[]);
    let unfinished = "result: * (the game is not finished)";
    assert_eq!(plain, format!("Setup number 2502.\nfinal position: {start}\n{unfinished}\n"));
    assert_eq!(play(&["--setup", "2502"]), plain);
    // A setup is named first, also in a script; "random" only when it was drawn.
    let numbered = play(&["--setup", "1000"]);
    assert!(numbered.starts_with("Setup number 1000.\nfinal position: "), "{numbered}");
    let drawn = play(&["--setup", "random", "--seed", "2"]);
    assert!(drawn.starts_with("Random setup number "), "{drawn}");
    assert!(!drawn.contains(&start), "{drawn}");
    // A fair setup is drawn, and named, as a random one outside the forced ones.
    let unfair = kickoff::analysis::fair::shipped_unfair(3);
    for seed in ["1", "2", "3"] {
        let fair = play(&["--setup", "fair:3", "--seed", seed]);
        let number = fair.strip_prefix("Random setup number ").and_then(|t| t.split('.').next());
        let number: u128 = number.unwrap_or_else(|| panic!("{fair}")).parse().unwrap();
        assert!(!unfair.contains(&number), "{fair}");
    }
    let out = run(kickoff().args(["play", "football-960", "--setup", "fair:0"]), "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad fair setup `fair:0`"), "{stderr}");
}

/// A variant whose definition places its own pieces names no setup, and refuses `--setup` as a
/// bad option (exit status 2).
#[test]
fn setup_on_a_variant_without_random_setups_is_a_usage_error() {
    let out = run(kickoff().args(["play", "boyer-1951", "--black", "human"]), "");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("etup number"));
    let out = run(kickoff().args(["play", "boyer-1951", "--setup", "random"]), "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("this variant has no random setup"), "{stderr}");
}
