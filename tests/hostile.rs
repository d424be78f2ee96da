//! Hostile inputs: whatever arrives, kickoff answers with a result or a clear error, never a
//! panic, a hang or an exhausted machine.

use std::path::{Path, PathBuf};

use kickoff::definition::{self, LoadError};

/// A scratch folder for one test.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("kickoff-hostile-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// Loads a file and returns every message it produced; the file must be refused.
fn refused(path: &Path) -> String {
    match definition::load_path(path) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(LoadError::Invalid { sources, diagnostics }) => {
            diagnostics.iter().map(|d| d.render(&sources, false)).collect::<Vec<_>>().join("\n")
        }
        Err(e) => e.to_string(),
    }
}

const BOYER_CHILD: &str = "extends = \"boyer-1951\"\n";

#[test]
fn nul_bytes() {
    let dir = Scratch::new("nul");
    let path = dir.write("nul.toml", b"extends = \"boyer-1951\"\n[variant]\nname = \"a\0b\"\n");
    assert!(refused(&path).contains("TOML syntax"));
    let path = dir.write("nul-key.toml", b"\0\0\0\0");
    assert!(refused(&path).contains("TOML syntax"));
}

#[test]
fn invalid_utf8() {
    let dir = Scratch::new("utf8");
    let path = dir.write("latin1.toml", b"[variant]\nname = \"Fu\xdfball\"\n");
    assert!(refused(&path).contains("not UTF-8"), "{}", refused(&path));
}

#[test]
fn huge_numbers() {
    let dir = Scratch::new("numbers");
    let text =
        format!("{BOYER_CHILD}[board]\nfiles = 99999999999999999999999999999999999999999999\n");
    let message = refused(&dir.write("files.toml", text.as_bytes()));
    assert!(message.contains("must be between 2 and 16"), "{message}");
    let text = format!("{BOYER_CHILD}[end]\nmax_turns = -9223372036854775808\n");
    assert!(refused(&dir.write("turns.toml", text.as_bytes())).contains("must be between"));
    let text = format!(
        "{BOYER_CHILD}[setup]\nfen = \"rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 99999999999999999999\"\n"
    );
    assert!(refused(&dir.write("fen.toml", text.as_bytes())).contains("too large"));
    let text = format!(
        "{BOYER_CHILD}[setup]\nfen = \"rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR99999999999999999999 w 0\"\n"
    );
    assert!(refused(&dir.write("run.toml", text.as_bytes())).contains("too long"));
}

#[test]
fn deep_nesting() {
    let dir = Scratch::new("deep");
    let arrays = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert!(refused(&dir.write("arrays.toml", arrays.as_bytes())).contains("TOML syntax"));
    let tables = format!("a = {}1{}\n", "{b = ".repeat(50_000), "}".repeat(50_000));
    assert!(refused(&dir.write("tables.toml", tables.as_bytes())).contains("TOML syntax"));
    let keys = format!("{} = 1\n", vec!["a"; 100_000].join("."));
    assert!(refused(&dir.write("keys.toml", keys.as_bytes())).contains("TOML syntax"));
}

#[test]
fn a_64_mib_file() {
    let dir = Scratch::new("big");
    let path = dir.0.join("big.toml");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(64 << 20).unwrap();
    let message = refused(&path);
    assert!(message.contains("definitions are at most"), "{message}");
}

#[test]
fn absurd_betza() {
    let dir = Scratch::new("betza");
    for (moves, words) in [
        ("W999", "range 999"),
        ("W99999999999999999999999", "range"),
        (&"K".repeat(10_000), "limit"),
        ("", "empty Betza string"),
    ] {
        let text = format!("{BOYER_CHILD}[pieces.K]\nmoves = \"{moves}\"\n");
        let message = refused(&dir.write("k.toml", text.as_bytes()));
        assert!(message.contains(words), "{moves}: {message}");
    }
}

#[test]
fn absurd_squares() {
    let dir = Scratch::new("squares");
    for (goal, words) in
        [("a1-a99", "off the board"), ("e99999", "expected"), (&"e9 ".repeat(2000), "limit")]
    {
        let text = format!("{BOYER_CHILD}[goals]\nwhite = \"{goal}\"\n");
        let message = refused(&dir.write("g.toml", text.as_bytes()));
        assert!(message.contains(words), "{goal}: {message}");
    }
}

#[test]
fn extends_outside_the_folder() {
    let dir = Scratch::new("extends");
    for target in ["/etc/passwd", "../../etc/passwd", "/dev/zero", "/proc/self/mem"] {
        let text = format!("extends = \"{target}\"\n");
        let message = refused(&dir.write("x.toml", text.as_bytes()));
        assert!(message.contains("outside this definition's folder"), "{target}: {message}");
    }
    let text = "extends = \".\"\n";
    assert!(refused(&dir.write("dot.toml", text.as_bytes())).contains("cannot extend"));
}

#[test]
fn long_extends_chains() {
    let dir = Scratch::new("chain");
    for i in 0..40 {
        let text = format!("extends = \"c{}.toml\"\n", i + 1);
        dir.write(&format!("c{i}.toml"), text.as_bytes());
    }
    dir.write("c40.toml", BOYER_CHILD.as_bytes());
    let message = refused(&dir.0.join("c0.toml"));
    assert!(message.contains("chain is longer than"), "{message}");
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops() {
    let dir = Scratch::new("links");
    std::os::unix::fs::symlink(dir.0.join("b.toml"), dir.0.join("a.toml")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("a.toml"), dir.0.join("b.toml")).unwrap();
    let path = dir.write("top.toml", b"extends = \"a.toml\"\n");
    let message = refused(&path);
    assert!(message.contains("cannot"), "{message}");
    assert!(matches!(
        definition::load_path(&dir.0.join("a.toml")),
        Err(LoadError::Unreadable { .. })
    ));
}

/// Kick chains that multiply beyond counting are refused quickly, not walked for ever.
#[test]
fn exploding_kick_chains() {
    let def = definition::load_path(Path::new("tests/data/hostile/exploding-kicks.toml")).unwrap();
    let pos = kickoff::Position::start(&def.rules);
    assert!(kickoff::movegen::count_turns(&pos).is_err());
    assert!(kickoff::movegen::legal_turns(&pos).is_err());
    // One turn is read by following it, however many turns the position has.
    let e = kickoff::turn_text::names::resolve(&pos, "Kb6").unwrap_err();
    assert!(e.to_string().contains("ambiguous: it could be K5b6, K7b6"), "{e}");
    let turn = kickoff::turn_text::names::resolve(&pos, "K5b6").unwrap();
    assert!(kickoff::movegen::play(&pos, &turn).is_ok());
    let kickoff_bin = env!("CARGO_BIN_EXE_kickoff");
    for args in [
        vec!["turns", "tests/data/hostile/exploding-kicks.toml"],
        vec!["perft", "tests/data/hostile/exploding-kicks.toml", "2"],
    ] {
        let out = std::process::Command::new(kickoff_bin).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("more than 2000000 turns"), "{args:?}: {err}");
    }
}

/// Runs `kickoff ARGS` and returns its exit code and standard error.
fn kickoff_run(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn hostile_records() {
    let dir = Scratch::new("records");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("nul.txt", b"[Variant \"boyer-1951\"]\n1. Nc3\0 *\n".to_vec(), "is not a turn"),
        ("latin1.txt", b"[White \"M\xfcller\"]\n".to_vec(), "not UTF-8"),
        ("unclosed.txt", b"[Variant \"boyer-1951\"]\n1. Nc3 {never closed".to_vec(), "malformed"),
        ("nested.txt", format!("[Variant \"boyer-1951\"]\n{}", "{".repeat(100_000)).into_bytes(), "malformed"),
        ("number.txt", b"[Variant \"boyer-1951\"]\n99999999999999999999999. Nc3 *\n".to_vec(), ""),
        ("long-token.txt", format!("[Variant \"boyer-1951\"]\n1. N{} *\n", "c3".repeat(10_000)).into_bytes(), "limit"),
        ("variant.txt", b"[Variant \"/etc/passwd\"]\n".to_vec(), "outside the record's folder"),
        ("setup.txt", b"[Variant \"football-960\"]\n[SetupNumber \"99999999999999999999999999999999999999999\"]\n".to_vec(), "SetupNumber"),
    ];
    for (name, bytes, words) in cases {
        let path = dir.0.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let (code, err) = kickoff_run(&["replay", path.to_str().unwrap()]);
        assert!(matches!(code, Some(0..=2)), "{name}: {code:?} {err}");
        assert!(err.contains(words), "{name}: {err}");
    }
    let big = dir.0.join("big.txt");
    std::fs::File::create(&big).unwrap().set_len(64 << 20).unwrap();
    let (code, err) = kickoff_run(&["replay", big.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("records are at most"), "{err}");
}

#[test]
fn hostile_positions_and_turns() {
    for fen in [
        "",
        "99999999999999999999/9 w 0",
        &"9/".repeat(10_000),
        "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0 extra",
    ] {
        let (code, err) = kickoff_run(&["turns", "boyer-1951", "--fen", fen]);
        assert_eq!(code, Some(1), "{fen:?}: {err}");
        assert!(err.contains("bad position"), "{fen:?}: {err}");
    }
    let long = "N".repeat(1000);
    for turn in ["\0", "Nc3\u{202e}", &long, ">>>>", "N>>e4", "--#"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
            .args(["play", "--black", "human"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(format!("{turn}\n").as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{turn:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("turn 1."), "{turn:?}");
    }
}

/// Device files and pipes are not read: `/dev/zero` would never end, a pipe could block.
#[cfg(unix)]
#[test]
fn special_files_are_refused() {
    let dir = Scratch::new("special");
    let fifo = dir.0.join("pipe.toml");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    for path in ["/dev/zero", fifo.to_str().unwrap()] {
        for args in [vec!["validate", path], vec!["replay", path], vec!["play", "--load", path]] {
            let (code, err) = kickoff_run(&args);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    let child = dir.0.join("child.toml");
    std::fs::write(&child, "extends = \"/dev/zero\"\n").unwrap();
    let (code, err) = kickoff_run(&["validate", "--allow-outside", child.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
}

/// Runs `kickoff ARGS` with `input` written to its standard input from another thread (kickoff
/// may stop reading early) and returns its exit code, standard output and standard error.
fn kickoff_with_input(args: &[&str], input: Vec<u8>) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // A broken pipe is expected: kickoff stops reading a line that is too long.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out.status.code(), out.stdout, out.stderr)
}

/// `play` reads at most 4 KiB a line: a line without end (`< /dev/zero`) is refused at once, and
/// a long turn is echoed cut, not in full.
#[test]
fn play_input_lines_are_bounded() {
    for (input, mode) in [(vec![0u8; 64 << 20], "script"), (vec![b'N'; 1 << 20], "prompt")] {
        let mut args = vec!["play", "--black", "human"];
        if mode == "prompt" {
            args.push("--interactive");
        }
        let (code, _, stderr) = kickoff_with_input(&args, input);
        let stderr = String::from_utf8_lossy(&stderr);
        assert_eq!(code, Some(2), "{mode}: {stderr}");
        assert!(stderr.contains("input line 1 is longer than 4096 bytes"), "{mode}: {stderr}");
        assert!(stderr.len() < 300, "{mode}: {} bytes of messages", stderr.len());
    }
    let (code, _, stderr) =
        kickoff_with_input(&["play", "--black", "human"], [b'N'; 4000].to_vec());
    let stderr = String::from_utf8_lossy(&stderr);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("turn 1. `NNNN") && stderr.contains("N…`"), "{stderr}");
    assert!(stderr.contains("a turn of 4000 bytes; the limit is 500"), "{stderr}");
    assert!(stderr.len() < 300, "{} bytes of messages", stderr.len());
}

/// A record's long token is echoed cut in replay's message.
#[test]
fn a_long_token_in_a_record_is_cut() {
    let dir = Scratch::new("long-token");
    let text = format!("[Variant \"boyer-1951\"]\n1. N{} *\n", "c3".repeat(1 << 20));
    let path = dir.write("long.txt", text.as_bytes());
    let (code, err) = kickoff_run(&["replay", path.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("turn 1. `Nc3c3") && err.contains("c3…`: `Nc3c3"), "{err}");
    assert!(err.len() < 2000, "{} bytes of messages", err.len());
}

#[test]
fn play_input_that_is_not_utf8() {
    let input = std::fs::read("tests/data/hostile/play-latin1.txt").unwrap();
    let (code, stdout, stderr) =
        kickoff_with_input(&["play", "--white", "human", "--black", "human"], input.clone());
    assert_eq!(code, Some(2));
    insta::assert_snapshot!(format!(
        "{}\n{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    ));
    // At the prompt, the line is refused and the game goes on.
    let (code, stdout, _) = kickoff_with_input(
        &["play", "--white", "human", "--black", "human", "--interactive"],
        input,
    );
    assert_eq!(code, Some(0));
    let stdout = String::from_utf8_lossy(&stdout);
    assert!(
        stdout
            .contains("input line 3 is not UTF-8 text (invalid byte at offset 4): type it again."),
        "{stdout}"
    );
    assert!(stdout.contains("> Bd8\n"), "the next line is read: {stdout}");
}

/// Names and tags from strangers' files never drive the terminal: control characters are shown
/// as visible signs.
#[test]
fn escape_sequences_never_reach_the_terminal() {
    let is_clean = |bytes: &[u8]| !bytes.iter().any(|&b| b == 0x1b || b == 0x07);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(["explain", "tests/data/hostile/name-escapes.toml"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(is_clean(&out.stdout), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("␛[31mred␛[0m ␇\n"));
    let (code, stdout, _) = kickoff_with_input(
        &["play", "tests/data/hostile/name-escapes.toml", "--black", "human", "--interactive"],
        b"quit\n".to_vec(),
    );
    assert_eq!(code, Some(0));
    assert!(is_clean(&stdout), "{}", String::from_utf8_lossy(&stdout));
    let dir = Scratch::new("escapes");
    // A C1 control (CSI) on a line a diagnostic shows.
    let path = dir
        .write("c1.toml", "extends = \"boyer-1951\"\n[board]\nfiles = 99 # \u{9b}2J\n".as_bytes());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
        .args(["validate", path.to_str().unwrap()])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(!shown.contains('\u{9b}') && shown.contains("# \u{FFFD}2J"), "{shown}");
    for (name, text) in [
        ("variant.txt", "[Variant \"\u{1b}]0;owned\u{7}\"]\n1. Nc3 *\n"),
        ("fen.txt", "[Variant \"boyer-1951\"]\n[FEN \"\u{1b}[2J w 0\"]\n"),
        ("result.txt", "[Variant \"boyer-1951\"]\n[Result \"\u{1b}[2J\"]\n1. Nc3 *\n"),
        ("token.txt", "[Variant \"boyer-1951\"]\n1. N\u{1b}[2J *\n"),
    ] {
        let path = dir.write(name, text.as_bytes());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
            .args(["replay", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(is_clean(&out.stdout) && is_clean(&out.stderr), "{name}: {out:?}");
        assert!(!out.stdout.is_empty() || !out.stderr.is_empty(), "{name}");
    }
}

/// What arguments and file names carry is shown as any text from a file: a path, a setup
/// number, an arrow or a turn typed on the command line cannot drive the terminal, and a long
/// one is cut.
#[test]
fn arguments_and_file_names_never_reach_the_terminal_raw() {
    let is_clean = |bytes: &[u8]| !bytes.iter().any(|&b| b == 0x1b || b == 0x07);
    let dir = Scratch::new("argument-escapes");
    let random = "extends = \"football-960\"\n";
    let plain = dir.write("b\u{1b}[31m.toml", BOYER_CHILD.as_bytes());
    let drawn = dir.write("r\u{1b}[31m.toml", random.as_bytes());
    let (plain, drawn) = (plain.to_str().unwrap(), drawn.to_str().unwrap());
    let long = "9".repeat(3000);
    let missing = dir.0.join("gone\u{1b}[31m.txt");
    let missing = missing.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["validate", plain],
        vec!["setup", plain],
        vec!["turns", drawn, "--setup", "\u{1b}[31m"],
        vec!["turns", "football-960", "--setup", &long],
        vec!["setup", "football-960", "--number", "12\u{1b}"],
        vec!["render", "boyer-1951", "--arrows", "e2\u{1b}[31m"],
        vec!["render", "boyer-1951", "--arrows", "z9>e5"],
        vec!["replay", missing],
        vec!["play", "--load", missing],
        vec!["bestmove", "boyer-1951", "--moves", "Nc3 \u{1b}[31m"],
        vec!["bestmove", "boyer-1951", "--moves", &long],
        vec!["solve", "vchess", "--turns", "1", "--check", missing],
    ];
    for args in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kickoff"))
            .args(&args)
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let all = [out.stdout, out.stderr].concat();
        let shown = String::from_utf8_lossy(&all);
        assert!(is_clean(&all), "{args:?}: {shown}");
        assert!(all.len() < 1000, "{args:?}: {shown}");
        assert!(shown.contains('␛') || !args.concat().contains('\u{1b}'), "{args:?}: {shown}");
    }
}

/// A position of almost two million turns is counted in full: perft and the turn count agree
/// with the general generator. Below a root whose kick chains are too many to record (every
/// position after its three turns has more than two million), perft counts without a record
/// and refuses, at once.
#[test]
fn large_walks_are_counted_in_full_or_refused() {
    use kickoff::Position;
    use kickoff::movegen::{PerftOptions, count_turns, general, perft};
    let def = kickoff::load("tests/data/hostile/near2m.toml").unwrap();
    let pos = Position::start(&def.rules);
    let general = general::count(&pos).unwrap();
    assert!(general > 1_000_000, "{general} turns");
    assert_eq!(count_turns(&pos).unwrap(), general);
    assert_eq!(perft(&pos, 1, &PerftOptions::default(), None).unwrap(), general);
    let def = kickoff::load("tests/data/hostile/explode16.toml").unwrap();
    let pos = Position::start(&def.rules);
    assert_eq!(perft(&pos, 1, &PerftOptions::default(), None).unwrap(), 3);
    assert!(perft(&pos, 2, &PerftOptions::default(), None).is_err());
    // Split between threads, or counting distinct results, the refusal comes as quickly.
    let threads = PerftOptions { threads: 2, ..PerftOptions::default() };
    assert!(perft(&pos, 3, &threads, None).is_err());
    let distinct = PerftOptions { distinct: true, ..PerftOptions::default() };
    assert!(perft(&pos, 3, &distinct, None).is_err());
}

/// A deadline that has not passed stops nothing: the walk of a position of almost two million
/// turns, which reads the clock every 16,384 steps, lists every result, as it does untimed.
#[test]
fn a_walk_with_time_left_is_complete() {
    use kickoff::Position;
    use kickoff::movegen::Results;
    let def = kickoff::load("tests/data/hostile/near2m.toml").unwrap();
    let pos = Position::start(&def.rules);
    let (mut untimed, mut timed) = (Vec::new(), Vec::new());
    let mut results = Results::new();
    results.fill(&pos, &mut untimed);
    assert!(!results.exhausted());
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    results.set_deadline(Some(far));
    results.fill(&pos, &mut timed);
    assert!(!results.exhausted(), "the walk stopped with an hour left");
    assert!(untimed.len() > 1, "{} results", untimed.len());
    assert_eq!(timed.len(), untimed.len());
    assert!(timed.iter().zip(&untimed).all(|(a, b)| a.position == b.position));
}
