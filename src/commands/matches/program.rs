//! The seats of a match: kickoff's own players, or another program asked for each turn.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kickoff::game::Game;
use kickoff::movegen::Turn;
use kickoff::search::Player;
use kickoff::text::{excerpt, excerpt_within, printable};
use kickoff::turn_text::names::resolve;

/// A seat of the match: one of kickoff's players, or another program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Contestant {
    /// One of kickoff's players.
    Player(Player),
    /// `program:COMMAND`: a program asked for each turn (see [`Program`]).
    Program(Program),
}

impl std::fmt::Display for Contestant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contestant::Player(p) => p.fmt(f),
            Contestant::Program(p) => write!(f, "program:{}", p.name),
        }
    }
}

impl Contestant {
    pub(super) fn parse(text: &str) -> Result<Contestant, String> {
        match text.strip_prefix("program:") {
            Some(command) => Program::parse(command).map(Contestant::Program),
            None => text.parse().map(Contestant::Player).map_err(|e| e.to_string()),
        }
    }
}

/// Another program that plays: for each turn kickoff runs its command with `--fen START
/// --moves "TURNS"` added (the game's start position and its turns so far, in kickoff's
/// notation, as `kickoff bestmove` reads them) and reads the turn from what it prints, a JSON
/// object whose `"turn"` is the turn in kickoff's notation, as `kickoff bestmove ... --format
/// json` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Program {
    /// The command and its arguments, as given (split at spaces).
    argv: Vec<String>,
    /// The program's short name in tables and records: its file name, then its arguments.
    name: String,
}

impl Program {
    fn parse(command: &str) -> Result<Program, String> {
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        let Some(first) = argv.first() else {
            return Err("`program:` needs a command, e.g. `program:./other bestmove vchess \
                        --format json`"
                .into());
        };
        let file = std::path::Path::new(first)
            .file_name()
            .map_or_else(|| first.clone(), |f| f.to_string_lossy().into_owned());
        let name = std::iter::once(file).chain(argv[1..].iter().cloned()).collect::<Vec<_>>();
        // Tables, messages and records show the name.
        Ok(Program { argv, name: printable(&name.join(" ")).into_owned() })
    }

    /// The turn the program chooses in the game's position within `time`, or why it gave none
    /// (a program still running at `time` is killed).
    pub(super) fn choose(&self, game: &Game<'_>, time: Duration) -> Result<Turn, String> {
        let moves: Vec<&str> = game.plies().iter().map(|p| p.name.as_str()).collect();
        let pos = game.position();
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .args(["--fen", &game.start().fen(), "--moves", &moves.join(" ")])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", printable(&self.argv[0])))?;
        // Read while the program runs, so that a long output cannot fill the pipe and stall it.
        let mut stdout = child.stdout.take().ok_or("no output pipe")?;
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            stdout.by_ref().take(MAX_OUTPUT).read_to_end(&mut bytes)?;
            // The rest is read and dropped, so that the program can end.
            std::io::copy(&mut stdout, &mut std::io::sink())?;
            Ok::<_, std::io::Error>(bytes)
        });
        let deadline = Instant::now() + time;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("{} gave no turn within {} s", self.name, time.as_secs()));
                }
                Err(e) => return Err(format!("{}: {e}", self.name)),
            }
        };
        if !status.success() {
            return Err(format!("{} failed ({status})", self.name));
        }
        let bytes = match reader.join() {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(e)) => return Err(format!("cannot read what {} printed: {e}", self.name)),
            Err(_) => return Err(format!("cannot read what {} printed", self.name)),
        };
        let text = String::from_utf8_lossy(&bytes);
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!("{} printed no JSON object: {}", self.name, excerpt_within(&e.to_string(), 200))
        })?;
        let Some(turn) = json.get("turn").and_then(serde_json::Value::as_str) else {
            return Err(format!("{} printed no \"turn\"", self.name));
        };
        resolve(pos, turn).map_err(|e| format!("{} chose `{}`: {e}", self.name, excerpt(turn)))
    }
}

/// The most a program's answer is read of (a turn in JSON is far shorter).
const MAX_OUTPUT: u64 = 1 << 20;

/// How often a running program is checked on.
const POLL: Duration = Duration::from_millis(2);
