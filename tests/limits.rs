//! Memory and time stay bounded on hostile inputs: each case runs the kickoff binary as a child
//! under an address-space limit and a timeout, and checks its answer (a result or a clear
//! error), its exit status, its peak resident memory and its time.
//!
//! The inputs are in `tests/data/hostile/` or made here; `scripts/limits.sh` runs the larger
//! ones (an 8 MiB record, two million turns listed) and prints their figures.

use std::io::Write;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The most memory a command may hold: 1 GiB resident.
const MAX_RSS: u64 = 1 << 30;

/// The address space of a single-threaded command: an allocation that would pass 1 GiB fails.
const ONE_THREAD_SPACE: u64 = 1 << 30;

/// The address space of commands with many threads: each thread reserves stack and malloc
/// arenas that it never fills, so the limit is wider and the resident memory is what is checked.
const THREADS_SPACE: u64 = 4 << 30;

/// What a run of kickoff gave.
struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    /// The output's first `Case::keep` bytes.
    stdout: String,
    /// The output's length, in bytes.
    stdout_bytes: u64,
    stderr: String,
    /// Peak resident memory, in bytes.
    rss: u64,
    /// The processor time the command took (user and system): what a busy machine, which
    /// stretches the wall time, leaves as it is.
    cpu: Duration,
    elapsed: Duration,
}

/// One run: its arguments, the folder it runs in, its input and its bounds.
struct Case<'a> {
    args: &'a [&'a str],
    dir: PathBuf,
    stdin: Vec<u8>,
    space: u64,
    timeout: Duration,
    /// The most resident memory the command may take.
    max_rss: u64,
    /// How many bytes of the output are kept (the rest is counted): a listing of two million
    /// turns is hundreds of megabytes.
    keep: usize,
}

impl<'a> Case<'a> {
    /// `kickoff ARGS` in `tests/data/hostile`, no input, one thread's address space, `seconds`.
    fn new(args: &'a [&'a str], seconds: u64) -> Self {
        Case {
            args,
            dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile"),
            stdin: Vec::new(),
            space: ONE_THREAD_SPACE,
            timeout: Duration::from_secs(seconds),
            max_rss: MAX_RSS,
            keep: usize::MAX,
        }
    }

    /// At most `mib` MiB resident, where the command should stay far below the bound.
    fn within_mib(mut self, mib: u64) -> Self {
        self.max_rss = mib << 20;
        self
    }

    /// Keeps only the output's first `bytes`.
    fn keep(mut self, bytes: usize) -> Self {
        self.keep = bytes;
        self
    }

    fn threads(mut self) -> Self {
        self.space = THREADS_SPACE;
        self
    }

    fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = dir.to_path_buf();
        self
    }

    /// Runs the case; kills the child when the time is up (the test then fails).
    // The child is reaped by `wait4`, which also gives its peak memory.
    #[allow(clippy::zombie_processes)]
    fn run(&self) -> Outcome {
        let space = self.space;
        let mut command = Command::new(env!("CARGO_BIN_EXE_kickoff"));
        command
            .args(self.args)
            .current_dir(&self.dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: between fork and exec the closure only calls setrlimit, which is
        // async-signal-safe, on a value on its own stack.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit { rlim_cur: space, rlim_max: space };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let start = Instant::now();
        let mut child = command.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = self.stdin.clone();
        let feeder = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let reader = |mut pipe: Box<dyn std::io::Read + Send>, keep: usize| {
            std::thread::spawn(move || {
                let (mut text, mut buffer, mut bytes) = (Vec::new(), vec![0; 1 << 16], 0);
                while let Ok(n @ 1..) = pipe.read(&mut buffer) {
                    text.extend_from_slice(&buffer[..n.min(keep.saturating_sub(text.len()))]);
                    bytes += n as u64;
                }
                (String::from_utf8_lossy(&text).into_owned(), bytes)
            })
        };
        let (out, err) = (reader(Box::new(out), self.keep), reader(Box::new(err), usize::MAX));
        let (status, rss, cpu) = wait_with_rusage(child.id(), self.timeout, start);
        let elapsed = start.elapsed();
        feeder.join().unwrap().ok();
        let (stdout, stdout_bytes) = out.join().unwrap();
        Outcome {
            code: status.code(),
            signal: status.signal(),
            stdout,
            stdout_bytes,
            stderr: err.join().unwrap().0,
            rss,
            cpu,
            elapsed,
        }
    }

    /// Runs the case and checks that it ended by itself with `code`, within its memory and
    /// time; returns its outcome for further checks.
    fn expect(&self, code: i32) -> Outcome {
        let outcome = self.run();
        let what = format!("kickoff {}", self.args.join(" "));
        assert!(outcome.elapsed < self.timeout, "{what}: still running after {:?}", self.timeout);
        assert_eq!(outcome.signal, None, "{what}: killed by a signal\n{}", outcome.stderr);
        assert_eq!(outcome.code, Some(code), "{what}\n{}", outcome.stderr);
        assert!(outcome.rss < self.max_rss, "{what}: {} MiB resident", outcome.rss >> 20);
        assert!(!outcome.stderr.contains("panicked"), "{what}: {}", outcome.stderr);
        outcome
    }
}

/// Waits for the child `pid`, killing it after `timeout`; its exit status, peak resident
/// memory and processor time (the kernel's own account of the reaped child).
fn wait_with_rusage(
    pid: u32,
    timeout: Duration,
    start: Instant,
) -> (std::process::ExitStatus, u64, Duration) {
    let pid = pid as libc::pid_t;
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: a zeroed `rusage` is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 on our own child, with pointers to live locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            let rss = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
            let time = |t: libc::timeval| {
                let seconds = Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0));
                seconds + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
            };
            let cpu = time(usage.ru_utime) + time(usage.ru_stime);
            return (std::process::ExitStatus::from_raw(status), rss, cpu);
        }
        assert!(done == 0, "wait4: {}", std::io::Error::last_os_error());
        if !killed && start.elapsed() > timeout {
            // SAFETY: signalling our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A scratch folder for generated inputs.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("kickoff-limits-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

const TOO_MANY: &str = "more than 2000000 turns";

/// validate lints a start with more than two million turns without listing them.
#[test]
fn validate_on_exploding_starts() {
    for file in ["nightriders16.toml", "exploding-kicks.toml"] {
        let out = Case::new(&["validate", file], 10).expect(0);
        assert!(out.stdout.contains(TOO_MANY), "{file}: {}", out.stdout);
        assert!(out.stdout.contains("valid, 1 warning"), "{file}: {}", out.stdout);
    }
}

/// Random games abandoned at a position with too many turns are reported as such, and no
/// conclusion is drawn from them.
#[test]
fn simulated_games_that_explode() {
    let out = Case::new(&["validate", "--simulate", "3", "explode16.toml"], 20).expect(0);
    assert!(out.stdout.contains("3 of 3 random games reached a position with more than"));
    assert!(!out.stdout.contains("never kicked"), "{}", out.stdout);
    assert!(!out.stdout.contains("no goal on"), "{}", out.stdout);
    // Just under the limit: a game is played, and its turns are drawn without listing them.
    Case::new(&["validate", "--simulate", "1", "near2m.toml"], 20).expect(0);
}

/// A random game stops at kickoff's own bound whatever the definition's turn limit (here a
/// million turns, minutes of play a game), and is said to be stopped there, not endless.
#[test]
fn simulated_games_stop_at_their_bound() {
    let out = Case::new(&["validate", "--simulate", "3", "longsim.toml"], 20).expect(0);
    let stopped = "3 of 3 random games were stopped after 500 turns, the most kickoff plays of a \
                   random game, before the turn limit (1000000 turns) could end them";
    assert!(out.stdout.contains(stopped), "{}", out.stdout);
    assert!(!out.stdout.contains("did not end"), "{}", out.stdout);
}

/// The engine's expected line passes through positions with too many turns: it is found and
/// named without listing them.
#[test]
fn engine_lines_through_exploding_positions() {
    for args in [
        &["bestmove", "explode16.toml", "--depth", "2"][..],
        &["bestmove", "explode16-pass.toml", "--level", "2"],
    ] {
        let out = Case::new(args, 20).expect(0);
        assert!(out.stdout.contains("depth 2"), "{args:?}: {}", out.stdout);
        assert!(out.stdout.contains("line:"), "{args:?}: {}", out.stdout);
    }
    // The engine plays on where no position's turns can all be listed: it builds its turns
    // action by action.
    let mut case =
        Case::new(&["play", "explode16.toml", "--white", "engine:2", "--black", "human"], 20);
    case.stdin = b"resign\n".to_vec();
    let out = case.expect(0);
    assert!(out.stdout.contains("1. K"), "{}", out.stdout);
    assert!(out.stdout.contains("Black resigns"), "{}", out.stdout);
    let args = [
        "match",
        "explode16.toml",
        "--games",
        "2",
        "--white",
        "engine:2",
        "--black",
        "random",
        "--max-turns",
        "6",
    ];
    let out = Case::new(&args, 30).expect(0);
    assert!(out.stdout.contains("2 games, colours alternating"), "{}", out.stdout);
    assert!(out.stderr.contains("turns chosen, mean depth"), "{}", out.stderr);
}

/// The clock holds within twice its time where a position costs milliseconds or more (these
/// took 20 s or more when it did not). What is checked is what a busy machine cannot change:
/// the processor time of the process, at most twice the search's time (the clock stops it at
/// twice its time however slow the machine, and a process cannot use more processor time than
/// wall time, having one thread) and 600 ms for what runs outside the clock, measured on an idle
/// machine at 0.25 s at most: loading the definition (which counts the start's turns, 0.12 s
/// for near2m.toml), the turn to the chosen result (a walk of at most two million steps) and,
/// at level 3, the exact solver's walks of positions of more than two million turns, which do
/// not read the clock. A machine busy with other work stretches the wall time but seldom the
/// processor time.
#[test]
fn the_clock_holds() {
    for (args, ms) in [
        (&["bestmove", "nr16-pp1.toml", "--movetime", "100"][..], 100),
        (&["bestmove", "near2m.toml", "--movetime", "100"], 100),
        (&["bestmove", "near2m.toml", "--movetime", "10"], 10),
        (&["bestmove", "explode16.toml", "--level", "3"], 200),
        (&["bestmove", "explode16-pass.toml", "--level", "3"], 200),
        (&["bestmove", "nr16-pp1.toml", "--level", "3"], 200),
    ] {
        let out = Case::new(args, 20).expect(0);
        let bound = Duration::from_millis(2 * ms + 600);
        assert!(out.cpu < bound, "{args:?}: {:?} of processor time", out.cpu);
        assert!(out.stdout.contains(" positions in "), "{args:?}: {}", out.stdout);
    }
}

/// perft refuses a position with too many turns below the root, and a depth beyond 64.
#[test]
fn perft_below_the_root_and_its_depth() {
    for args in [
        &["perft", "explode16.toml", "2"][..],
        &["perft", "explode16.toml", "2", "--divide"],
        &["perft", "explode16.toml", "3", "--threads", "4"],
    ] {
        let case = Case::new(args, 10);
        let out =
            if args.contains(&"--threads") { case.threads().expect(1) } else { case.expect(1) };
        assert!(out.stderr.contains(TOO_MANY) && out.stderr.contains("too many to count"));
    }
    for depth in ["65", "1000000000", "18446744073709551616"] {
        let out = Case::new(&["perft", "boyer-1951", depth], 10).expect(2);
        assert!(out.stderr.contains("<DEPTH>"), "{depth}: {}", out.stderr);
    }
    let out = Case::new(&["perft", "near2m.toml", "2"], 20).expect(0);
    assert!(out.stdout.starts_with("8135421"), "{}", out.stdout);
}

/// Replaying a record takes time in proportion to its turns: 100,000 null turns in seconds
/// (they took 38 s when each turn rebuilt the game's history).
#[test]
fn long_records_replay_in_linear_time() {
    let dir = Scratch::new("records");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile/nulls.toml"),
        dir.0.join("nulls.toml"),
    )
    .unwrap();
    let mut record = String::from("[Variant \"nulls.toml\"]\n\n");
    for i in 1..=50_000 {
        record += &format!("{i}. -- -- ");
        if i % 8 == 0 {
            record.push('\n');
        }
    }
    record += "*\n";
    dir.write("nulls-100000.txt", &record);
    let out = Case::new(&["replay", "nulls-100000.txt"], 20).in_dir(&dir.0).expect(0);
    assert!(out.stdout.starts_with("turns: 100000\n"), "{}", out.stdout);
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
}

/// A definition with a hundred thousand problems is reported in about a second: the first
/// 200, then a count.
#[test]
fn many_problems_are_reported_in_linear_time() {
    let dir = Scratch::new("problems");
    let mut text = String::from("extends = \"boyer-1951\"\n");
    for i in 0..100_000 {
        text += &format!("[x{i}]\n");
    }
    dir.write("many.toml", &text);
    let out = Case::new(&["validate", "many.toml"], 20).in_dir(&dir.0).expect(1);
    assert!(out.stdout.contains("... and 99800 more (99800 errors, 0 warnings)"));
    assert_eq!(out.stdout.matches("error[E0201]: unknown key").count(), 200);
    assert!(out.stdout.ends_with("many.toml: invalid, 100000 errors\n"), "{}", out.stdout);
    let out =
        Case::new(&["validate", "--format", "json", "many.toml"], 20).in_dir(&dir.0).expect(1);
    assert_eq!(out.stdout.matches("\"severity\": \"error\"").count(), 100_000);
    assert!(out.stdout.contains("\"line\": 100001"), "the last problem's line");
    let out = Case::new(&["show", "many.toml"], 20).in_dir(&dir.0).expect(1);
    assert!(out.stderr.contains("... and 99800 more"), "{}", out.stderr);
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
}

/// Just under the turn limit: positions with nearly two million turns are played, counted and
/// listed within the memory bound, on several threads too.
#[test]
fn positions_just_under_the_limit() {
    let args = ["match", "near2m.toml", "--games", "4", "--white", "random", "--black", "greedy"];
    let args = [&args[..], &["--max-turns", "1", "--threads", "4"]].concat();
    let out = Case::new(&args, 60).threads().expect(0);
    assert!(out.stdout.contains("4 games"), "{}", out.stdout);
}

/// The turns of a position with nearly two million turns are listed, named and sorted, and
/// counted one by one, in a fifth of the memory bound (they took 1.2 GB as separate turns,
/// names and lines); the output is whole (its length is known).
#[test]
fn listing_nearly_two_million_turns() {
    for (args, first, bytes) in [
        (
            &["turns", "near2m.toml", "--format", "json"][..],
            "{\n  \"turns\": 1997829,",
            345_258_252,
        ),
        (&["perft", "near2m.toml", "1", "--divide"], ">f5 1\n>f5>e5 1\n", 157_427_352),
    ] {
        let out = Case::new(args, 120).within_mib(256).keep(1 << 16).expect(0);
        assert!(
            out.stdout.starts_with(first),
            "{args:?}: {}",
            out.stdout.lines().next().unwrap_or("")
        );
        assert_eq!(out.stdout_bytes, bytes, "{args:?}");
    }
}

/// Many engines at once share the memory bound: their tables are sized to the threads.
#[test]
fn match_threads_with_engines() {
    let args = [
        "match",
        "mini",
        "--games",
        "64",
        "--white",
        "engine:1",
        "--black",
        "engine:1",
        "--threads",
        "64",
        "--max-turns",
        "4",
    ];
    let out = Case::new(&args, 30).threads().expect(0);
    assert!(out.stdout.contains("64 games"), "{}", out.stdout);
    let args = [
        "match",
        "boyer-1951",
        "--games",
        "64",
        "--white",
        "engine",
        "--black",
        "engine:3",
        "--threads",
        "64",
        "--max-turns",
        "2",
        "--movetime",
        "1",
    ];
    Case::new(&args, 30).threads().expect(0);
}

/// The shipped variants, at their defaults, stay far within the bounds.
#[test]
fn shipped_variants_at_their_defaults() {
    for variant in ["boyer-1951", "vchess", "football-960", "mini", "stadium"] {
        Case::new(&["validate", "--simulate", "2", variant], 20).expect(0);
        Case::new(&["turns", variant], 10).expect(0);
        Case::new(&["perft", variant, "3"], 20).expect(0);
        let out = Case::new(&["bestmove", variant, "--level", "3"], 10).expect(0);
        assert!(out.elapsed < Duration::from_secs(3), "{variant}: {:?}", out.elapsed);
    }
}
