//! `kickoff play [VARIANT]`: a game in the terminal, against a person or the computer.
//!
//! On a terminal: a coloured board, a prompt that takes a whole turn or the turn in steps, and
//! commands (`help` lists them). Otherwise (a script): one turn per line, then the final result.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::commands::{Exit, color_stdout, load_variant, replay};
use crate::definition::{Definition, LoadOptions};
use crate::game::record::{self, BrokenRecord};
use crate::game::{Ending, Game, GameError};
use crate::movegen::Action;
use crate::movegen::notation::{can_continue, names, next_kicks, resolve_step};
use crate::movegen::{Turn, legal_turns_checked, play};
use crate::notation::record::RecordText;
use crate::position::Position;
use crate::render::printable::{excerpt, notation_error, printable};
use crate::render::terminal::{Style, board, legend_of, status};
use crate::setup::{self, SetupNumber};
use crate::side::{BySide, Side};
use crate::square::Square;

mod input;
mod seats;

pub use input::{Input, InputError, MAX_LINE};
pub use seats::Seat;

use crate::search::Player;

/// What `kickoff play` was asked for.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The variant (default: Boyer's game, or the loaded record's).
    pub variant: Option<String>,
    /// Who plays White: `human`, `random`, `greedy`, `engine[:LEVEL]`.
    pub white: String,
    /// Who plays Black.
    pub black: String,
    /// `--setup N|random`.
    pub setup: Option<String>,
    /// `--fen F`.
    pub fen: Option<String>,
    /// `--record FILE`: saved after every turn.
    pub record: Option<PathBuf>,
    /// `--force`: a new game may replace the record in the `--record` file.
    pub force: bool,
    /// `--load FILE`: resume a saved game.
    pub load: Option<PathBuf>,
    /// `--seed S`: the computer's random choices.
    pub seed: Option<u64>,
    /// The prompt even when the input is not a terminal (for tests and pipes).
    pub interactive: bool,
}

/// The shipped variant `play` uses when none is named.
pub const DEFAULT_VARIANT: &str = "boyer-1951";

/// Plays a game.
pub fn run(request: &Request, options: LoadOptions) -> Exit {
    let loaded = match &request.load {
        Some(path) => match read_saved(path) {
            Ok(parsed) => Some(parsed),
            Err(exit) => return exit,
        },
        None => None,
    };
    let variant = match pick_variant(request, loaded.as_ref(), options) {
        Ok(v) => v,
        Err(exit) => return exit,
    };
    let def = match load_variant(&variant, options) {
        Ok(def) => def,
        Err(exit) => return exit,
    };
    if let Some((path, parsed)) = &loaded
        && let Err(exit) = same_variant(path, parsed, &def, &variant, options)
    {
        return exit;
    }
    let mut seats = match seats::seats(&def.rules, &request.white, &request.black, request.seed) {
        Ok(seats) => seats,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Usage;
        }
    };
    let (game, record_to) = match start_game(request, &def, &variant, loaded.as_ref()) {
        Ok(started) => started,
        Err(exit) => return exit,
    };
    let interactive = request.interactive || std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = Input::new(stdin.lock());
    let resumed = loaded.as_ref().map(|(path, _)| path.as_path());
    let replaces = RecordCheck { path: record_to.as_deref(), resumed, force: request.force };
    let up_to_date = match replaces.check(interactive, &mut input) {
        Ok(up_to_date) => up_to_date,
        Err(exit) => return exit,
    };
    let mut session = Session::new(game, record_to, &seats);
    if up_to_date {
        session.mark_recorded();
    }
    if interactive {
        session.interactive(&mut seats, &mut input)
    } else {
        session.scripted(&mut seats, &mut input)
    }
}

/// Where a game is about to be recorded, to check before the first turn.
struct RecordCheck<'a> {
    /// The record file, if any.
    path: Option<&'a Path>,
    /// The record the game was resumed from, if any.
    resumed: Option<&'a Path>,
    /// `--force`.
    force: bool,
}

impl RecordCheck<'_> {
    /// Refuses a record path that is not a regular file (or a link to one), and an existing
    /// record that a new game would replace, unless `--force` says so or the person at the
    /// prompt agrees. Returns whether the game was resumed from that very file (which is then
    /// rewritten only when the game changes).
    fn check(&self, interactive: bool, input: &mut Input<impl BufRead>) -> Result<bool, Exit> {
        let Some(path) = self.path else { return Ok(false) };
        let target = record::target(path).map_err(|e| {
            eprintln!("error: cannot record the game in {}: {e}", path.display());
            Exit::Usage
        })?;
        // Temporary files of runs killed while saving there go now, whatever this run does.
        let folder = target.path.parent().filter(|f| !f.as_os_str().is_empty());
        record::remove_strays(folder.unwrap_or(Path::new(".")));
        if !target.exists {
            return Ok(false);
        }
        if self.resumed.is_some_and(|from| same_file(from, &target.path)) {
            return Ok(true);
        }
        if self.force || interactive && agrees_to_replace(path, input) {
            return Ok(false);
        }
        eprintln!("error: {} exists: a new game would replace what it holds", path.display());
        eprintln!(
            "  = help: pass --force to replace it, or resume the game in it with `kickoff play --load {}`",
            path.display()
        );
        Err(Exit::Usage)
    }
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Asks at the prompt whether `path` may be replaced.
fn agrees_to_replace(path: &Path, input: &mut Input<impl BufRead>) -> bool {
    print!("{} exists. Replace it with this game? (yes/no)> ", path.display());
    std::io::stdout().flush().ok();
    let answer = input.next_line().ok().flatten().unwrap_or_default();
    if !std::io::stdin().is_terminal() {
        println!("{}", answer.trim_end());
    }
    matches!(answer.trim(), "y" | "yes")
}

/// The record file named by `--load`, parsed.
fn read_saved(path: &Path) -> Result<(PathBuf, RecordText), Exit> {
    let shown = path.display().to_string();
    let text = replay::read_record_file(path).map_err(|reason| {
        eprintln!("error: cannot read {shown}: {reason}");
        Exit::Usage
    })?;
    Ok((path.to_path_buf(), replay::parse_record(&shown, &text)?))
}

/// The variant to play: named on the command line, else the loaded record's, else Boyer's.
fn pick_variant(
    request: &Request,
    loaded: Option<&(PathBuf, RecordText)>,
    options: LoadOptions,
) -> Result<String, Exit> {
    if let Some(v) = &request.variant {
        return Ok(v.clone());
    }
    match loaded.map(|(path, r)| (path, r.tag("Variant"))) {
        Some((path, Some(tag))) => replay::record_variant(path, tag, options).map_err(|message| {
            eprintln!("error: {}: {message}", path.display());
            Exit::Failure
        }),
        Some((_, None)) => {
            eprintln!(
                "error: the record names no variant (no Variant tag): name it, e.g. `kickoff play boyer-1951 --load FILE`"
            );
            Err(Exit::Usage)
        }
        None => Ok(DEFAULT_VARIANT.to_owned()),
    }
}

/// Refuses a record of another variant than the one named on the command line.
fn same_variant(
    path: &Path,
    record: &RecordText,
    def: &Definition,
    variant: &str,
    options: LoadOptions,
) -> Result<(), Exit> {
    let Some(tag) = record.tag("Variant") else { return Ok(()) };
    if tag == variant {
        return Ok(());
    }
    let theirs =
        crate::definition::load_with(tag, options).ok().map(|d| d.rules.info().name.clone());
    if theirs.as_deref() == Some(def.rules.info().name.as_str()) {
        return Ok(());
    }
    eprintln!("error: {} is a game of {}, not of {variant}", path.display(), excerpt(tag));
    eprintln!(
        "  = help: leave out the variant to resume it: `kickoff play --load {}`",
        path.display()
    );
    Err(Exit::Failure)
}

/// The game to play and the file to record it to.
fn start_game<'r>(
    request: &Request,
    def: &'r Definition,
    variant: &str,
    loaded: Option<&(PathBuf, RecordText)>,
) -> Result<(Game<'r>, Option<PathBuf>), Exit> {
    if let Some((path, parsed)) = loaded {
        return resume(path, parsed, def, variant, request.record.clone());
    }
    let (start, number) = start_position(request, def)?;
    let mut game = Game::new(variant, start, number);
    let describe = |s: &str| s.parse::<Player>().map_or_else(|_| s.to_owned(), |p| p.to_string());
    game.tags.push(("White".into(), describe(&request.white)));
    game.tags.push(("Black".into(), describe(&request.black)));
    game.tags.push(("Date".into(), today()));
    Ok((game, request.record.clone()))
}

/// A saved game to continue; a damaged record continues from where it breaks.
fn resume<'r>(
    path: &Path,
    parsed: &RecordText,
    def: &'r Definition,
    variant: &str,
    record_to: Option<PathBuf>,
) -> Result<(Game<'r>, Option<PathBuf>), Exit> {
    match record::read(&def.rules, variant, parsed) {
        // An intact record goes on being recorded where it was.
        Ok(game) => Ok((game, record_to.or_else(|| Some(path.to_path_buf())))),
        Err(BrokenRecord { game: Some(game), error }) => {
            let game = *game;
            let text = replay::read_record_file(path).unwrap_or_default();
            replay::report_broken(&path.display().to_string(), &text, &error);
            eprintln!(
                "resuming after turn {} (the rest of the record is not used); {}",
                game.plies().len(),
                if record_to.is_some() {
                    "recording to the --record file"
                } else {
                    "not recording: pass --record FILE to save"
                }
            );
            Ok((game, record_to))
        }
        Err(BrokenRecord { game: None, error }) => {
            eprintln!("error: {}: {}", path.display(), printable(&error.to_string()));
            Err(Exit::Failure)
        }
    }
}

/// The start: `--fen`, else `--setup`, else a random setup for variants that have one, else
/// the variant's start position.
fn start_position<'r>(
    request: &Request,
    def: &'r Definition,
) -> Result<(Position<'r>, Option<SetupNumber>), Exit> {
    let rules = &def.rules;
    if request.fen.is_some() {
        return Ok((crate::commands::load_position(def, request.fen.as_deref())?, None));
    }
    let Some(random) = rules.random_setup() else {
        if request.setup.is_some() {
            eprintln!(
                "error: this variant has no random setup (no [setup.random] in its definition)"
            );
            return Err(Exit::Failure);
        }
        return Ok((crate::commands::load_position(def, None)?, None));
    };
    let independent = setup::independent_by_default(random);
    let number = match request.setup.as_deref() {
        None | Some("random") => SetupNumber::draw(
            setup::count(rules, random),
            independent,
            &mut seats::rng(request.seed),
        ),
        Some(text) => SetupNumber::parse(text, independent).map_err(|e| {
            eprintln!("error: {e}");
            Exit::Failure
        })?,
    };
    let placement = setup::placement(rules, random, number).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Failure
    })?;
    Ok((Position::from_placement(rules, &placement), Some(number)))
}

/// Today's date as records write it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day count from 1970-01-01 (proleptic Gregorian).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A game being played, with who sits where and where it is saved.
struct Session<'r> {
    game: Game<'r>,
    record_to: Option<PathBuf>,
    style: Style,
    /// The side that offered a draw, until the other answers.
    draw_offer: Option<Side>,
    /// The turn being entered step by step.
    partial: Turn,
    /// Whether the game as it stands is saved somewhere.
    saved: bool,
    /// Whether the record file (if any) holds the game as it stands.
    recorded: bool,
    /// Why the last save to the record file failed, if it did.
    save_error: Option<String>,
    /// A file `save FILE` would replace, waiting for a yes.
    pending_save: Option<PathBuf>,
    /// Where the game was last saved.
    saved_to: Option<PathBuf>,
    /// Whether leaving without saving has been warned of once.
    quit_warned: bool,
    /// Whether the end has been announced.
    announced: bool,
    humans: BySide<bool>,
}

impl<'r> Session<'r> {
    fn new(game: Game<'r>, record_to: Option<PathBuf>, seats: &BySide<Seat<'r>>) -> Self {
        let humans = BySide::from_fn(|s| matches!(seats[s], Seat::Human));
        // Black's view when only Black is human.
        let flipped = humans.black && !humans.white;
        Session {
            game,
            record_to,
            style: Style { color: color_stdout(), flipped },
            draw_offer: None,
            partial: Turn::null(),
            saved: false,
            recorded: false,
            save_error: None,
            pending_save: None,
            saved_to: None,
            quit_warned: false,
            announced: false,
            humans,
        }
    }

    /// The record file holds the game as it stands already (it was resumed from it).
    fn mark_recorded(&mut self) {
        self.recorded = true;
        self.saved = true;
        self.saved_to.clone_from(&self.record_to);
    }

    /// The game changed: it is saved nowhere any more.
    fn changed(&mut self) {
        self.saved = false;
        self.recorded = false;
    }

    /// Saves the game to the record file, if there is one and it is out of date; reports a
    /// failure without stopping.
    fn save(&mut self) {
        let Some(path) = self.record_to.clone() else { return };
        if self.recorded {
            return;
        }
        match record::save_atomically(&path, &record::write(&self.game)) {
            Ok(()) => {
                self.saved = true;
                self.recorded = true;
                self.save_error = None;
                self.saved_to = Some(path);
            }
            Err(e) => {
                eprintln!("warning: could not save the game to {}: {e}", path.display());
                self.save_error = Some(e.to_string());
            }
        }
    }

    /// The exit status once the game is left: a failure when the record file does not hold
    /// the game as it stands (said on stderr), else `exit`.
    fn final_exit(&self, exit: Exit) -> Exit {
        match (&self.record_to, &self.save_error) {
            (Some(path), Some(reason)) if !self.recorded => {
                eprintln!(
                    "error: {} does not hold the game as it stands: {reason}",
                    path.display()
                );
                if exit == Exit::Success { Exit::Failure } else { exit }
            }
            _ => exit,
        }
    }

    /// Plays a turn and saves.
    fn commit(&mut self, turn: Turn) -> Result<(), GameError> {
        self.game.play(turn)?;
        self.partial = Turn::null();
        // Playing on instead of accepting declines the opponent's offer.
        if self.draw_offer == Some(self.game.position().side()) {
            self.draw_offer = None;
        }
        self.changed();
        self.save();
        Ok(())
    }

    /// The squares the last turn touched: the piece's two squares and the ball's path.
    fn last_squares(&self) -> Vec<Square> {
        let Some(ply) = self.game.plies().last() else { return Vec::new() };
        let before = match self.game.plies().len() {
            1 => self.game.start().ball(),
            n => self.game.position_at(n - 1).ball(),
        };
        let mut squares = Vec::new();
        let mut ball = before;
        for action in &ply.turn.actions {
            match action {
                Action::Move(m) => squares.extend([m.from, m.to]),
                Action::Kick(k) => {
                    squares.extend([ball, k.to]);
                    ball = k.to;
                }
            }
        }
        squares.dedup();
        squares
    }

    fn show_board(&self) {
        let pos = if self.partial.is_null() {
            self.game.position().placement()
        } else {
            play(self.game.position(), &self.partial).placement()
        };
        println!();
        print!("{}", board(self.game.rules(), &pos, &self.last_squares(), self.style));
        println!("{}", legend_of(self.game.rules(), self.style));
        for line in status(self.game.position()) {
            println!("{line}");
        }
        if let Some(ply) = self.game.plies().last() {
            let i = self.game.plies().len() - 1;
            println!("Last turn: {} {}", self.game.label(i), ply.name);
        }
    }

    /// Announces the end once, and saves.
    fn announce_end(&mut self) -> bool {
        let Some(ending) = self.game.ending() else {
            self.announced = false;
            return false;
        };
        if !self.announced {
            println!("Game over: {ending} ({}).", ending.result());
            self.announced = true;
            self.save();
        }
        true
    }

    /// The computer plays its turn; returns false if it is not a computer's turn.
    fn computer_turn(&mut self, seats: &mut BySide<Seat<'r>>, verbose: bool) -> bool {
        let side = self.game.position().side();
        let Seat::Computer(computer) = &mut seats[side] else { return false };
        if verbose && computer.thinks() {
            println!("{} ({}) is thinking ...", side.name(), computer.describe());
        }
        if self.game.may_claim_repetition() && computer.claims_draw(self.game.position()) {
            println!("{} ({}) claims a draw by repetition.", side.name(), computer.describe());
            let _ = self.game.claim_repetition();
            self.changed();
            return true;
        }
        let Some(turn) = computer.choose(&self.game) else {
            println!(
                "{} ({}) cannot list its turns here (too many) and resigns.",
                side.name(),
                computer.describe()
            );
            self.game.declare(Ending::Resignation { loser: side });
            self.changed();
            return true;
        };
        let label = self.game.label(self.game.plies().len());
        if let Err(e) = self.commit(turn) {
            eprintln!("error: the computer chose an illegal turn: {e}");
            return false;
        }
        let name = &self.game.plies().last().map_or(String::new(), |p| p.name.clone());
        if verbose {
            println!("{} ({}) plays {label} {name}", side.name(), computer.describe());
        } else {
            println!("{label} {name}");
        }
        true
    }

    /// The game in a script: one turn (or command) per line, then the result.
    fn scripted(&mut self, seats: &mut BySide<Seat<'r>>, input: &mut Input<impl BufRead>) -> Exit {
        let mut exit = Exit::Success;
        loop {
            if self.game.ending().is_some() {
                break;
            }
            if self.computer_turn(seats, false) {
                continue;
            }
            let line = match input.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    eprintln!("error: {e}");
                    exit = Exit::Usage;
                    break;
                }
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Err(failure) = self.scripted_line(line) {
                exit = failure;
                break;
            }
        }
        self.save();
        self.finish_script();
        self.final_exit(exit)
    }

    /// Plays one line of a script: a turn, `resign` or `draw`.
    fn scripted_line(&mut self, line: &str) -> Result<(), Exit> {
        let label = self.game.label(self.game.plies().len());
        match line {
            _ if is_unknown_command(line) => {
                eprintln!(
                    "error: turn {label}: `{}` is not a turn; a script may also say `resign`, `draw` or `claim`",
                    excerpt(line)
                );
                return Err(Exit::Failure);
            }
            "resign" => {
                self.game.declare(Ending::Resignation { loser: self.game.position().side() });
                self.changed();
            }
            "draw" if self.humans.white && self.humans.black => {
                self.game.declare(Ending::Agreement);
                self.changed();
            }
            "draw" => println!("{label} the computer declines the draw"),
            "claim" => {
                if let Err(e) = self.game.claim_repetition() {
                    eprintln!("error: turn {label}: no draw to claim: {e}");
                    return Err(Exit::Failure);
                }
                self.changed();
            }
            _ => match crate::movegen::notation::resolve(self.game.position(), line) {
                Ok(turn) => {
                    let _ = self.commit(turn);
                    let name = self.game.plies().last().map_or(String::new(), |p| p.name.clone());
                    println!("{label} {name}");
                }
                Err(e) => {
                    eprintln!("error: turn {label} `{}`: {}", excerpt(line), notation_error(&e));
                    return Err(Exit::Failure);
                }
            },
        }
        Ok(())
    }

    fn finish_script(&self) {
        println!("final position: {}", self.game.position().fen());
        match self.game.ending() {
            Some(ending) => println!("result: {} ({ending})", ending.result()),
            None => println!("result: * (the game is not finished)"),
        }
    }

    /// The game at a terminal.
    fn interactive(
        &mut self,
        seats: &mut BySide<Seat<'r>>,
        input: &mut Input<impl BufRead>,
    ) -> Exit {
        println!("{}", printable(&self.game.rules().info().name));
        if let Some(n) = self.game.setup_number() {
            println!("Random setup number {n}.");
        }
        println!("Type a turn such as Nc3 or Nc3>e6, or `help`.");
        self.show_board();
        loop {
            if self.pending_save.is_none()
                && !self.announce_end()
                && self.computer_turn(seats, true)
            {
                self.show_board();
                continue;
            }
            self.prompt();
            let line = match input.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => {
                    println!();
                    return self.leave(Exit::Success);
                }
                Err(e @ InputError::NotUtf8 { .. }) => {
                    if !std::io::stdin().is_terminal() {
                        println!();
                    }
                    println!("{e}: type it again.");
                    continue;
                }
                Err(e) => {
                    println!();
                    eprintln!("error: {e}");
                    return self.leave(Exit::Usage);
                }
            };
            if !std::io::stdin().is_terminal() {
                // Typed input is echoed by the terminal; piped input is shown here instead.
                println!("{}", excerpt(line.trim_end()));
            }
            match self.handle(line.trim(), seats) {
                Flow::Continue => {}
                Flow::Quit => return self.leave(Exit::Success),
            }
        }
    }

    fn prompt(&self) {
        let pos = self.game.position();
        let text = if let Some(path) = &self.pending_save {
            format!("{} exists. Replace it? (yes/no)> ", path.display())
        } else if self.game.ending().is_some() {
            "game over (undo, save FILE, quit)> ".to_owned()
        } else if self.partial.is_null() {
            let claim = if self.game.may_claim_repetition() { " (`claim` draws)" } else { "" };
            format!("{} {}{claim}> ", pos.side().name(), self.game.label(self.game.plies().len()))
        } else {
            let name = crate::movegen::notation::name(pos, &self.partial);
            format!(
                "{} {} {name} (kick, or Enter to end the turn)> ",
                pos.side().name(),
                self.game.label(self.game.plies().len())
            )
        };
        print!("{text}");
        std::io::stdout().flush().ok();
    }

    /// Leaving: tries once more a save that failed, says where the game is, or that it is not
    /// saved.
    fn leave(&mut self, exit: Exit) -> Exit {
        if self.save_error.is_some() {
            self.save();
        }
        match (&self.saved_to, self.saved) {
            (Some(path), true) => println!("The game is saved in {}.", path.display()),
            _ if self.game.plies().is_empty() => {}
            _ => println!("The game was not saved."),
        }
        self.final_exit(exit)
    }

    fn handle(&mut self, line: &str, seats: &BySide<Seat<'r>>) -> Flow {
        if let Some(path) = self.pending_save.take() {
            if matches!(line, "y" | "yes") {
                self.write_to(&path);
            } else {
                println!("Not saved.");
            }
            return Flow::Continue;
        }
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match (command, rest.as_slice()) {
            ("", []) | ("done", []) => self.end_partial_turn(),
            ("help" | "?", []) => print_help(),
            ("turns" | "moves", []) => self.list_turns(None),
            ("turns" | "moves", [piece]) => self.list_turns(Some(piece)),
            ("kicks", []) => self.list_kicks(),
            ("back", []) => self.step_back(),
            ("undo", []) => self.undo(seats),
            ("redo", []) => self.redo(),
            ("save", [file]) => self.save_as(Path::new(file)),
            ("save", []) => println!("save what? `save FILE` writes the game's record to FILE"),
            ("save", _) => {
                println!("`save` takes one FILE, a name without spaces: `save game.txt`");
            }
            ("board", []) => self.show_board(),
            ("flip", []) => {
                self.style.flipped = !self.style.flipped;
                self.show_board();
            }
            ("resign", []) => self.resign(),
            ("draw", []) => self.draw(),
            ("claim", []) => self.claim(),
            ("quit" | "exit", []) => return self.quit(),
            _ if is_unknown_command(line) => {
                println!("`{}` is neither a turn nor a command: `help` lists them.", excerpt(line));
            }
            _ => self.enter_turn(line),
        }
        Flow::Continue
    }

    fn quit(&mut self) -> Flow {
        if self.saved
            || self.game.plies().is_empty()
            || self.record_to.is_some()
            || self.quit_warned
        {
            return Flow::Quit;
        }
        println!("The game is not saved: `save FILE` keeps it; `quit` again leaves anyway.");
        self.quit_warned = true;
        Flow::Continue
    }

    fn enter_turn(&mut self, text: &str) {
        if let Some(ending) = self.game.ending() {
            println!("The game is over: {ending}. `undo` takes back the last turn.");
            return;
        }
        let pos = *self.game.position();
        match resolve_step(&pos, &self.partial, text) {
            Err(e) => println!("{}", notation_error(&e)),
            Ok(step) => {
                if step.is_null() || !can_continue(&pos, &step) {
                    self.play_human(step);
                } else {
                    self.partial = step;
                    self.show_board();
                    self.list_kicks();
                }
            }
        }
    }

    fn play_human(&mut self, turn: Turn) {
        match self.commit(turn) {
            Ok(()) => self.show_board(),
            Err(e) => println!("{e}"),
        }
    }

    fn end_partial_turn(&mut self) {
        if self.partial.is_null() {
            return;
        }
        let turn = std::mem::take(&mut self.partial);
        self.play_human(turn);
    }

    fn step_back(&mut self) {
        self.partial.actions.pop();
        self.show_board();
    }

    fn list_turns(&self, piece: Option<&&str>) {
        let pos = self.game.position();
        let turns = match legal_turns_checked(pos) {
            Ok(turns) => turns,
            Err(e) => return println!("{e}"),
        };
        let all = names(pos, &turns);
        let mut shown: Vec<&String> = match piece {
            None => all.iter().collect(),
            Some(p) => turns
                .iter()
                .zip(&all)
                .filter(|(t, _)| of_piece(pos, t, p))
                .map(|(_, n)| n)
                .collect(),
        };
        shown.sort();
        const MAX: usize = 400;
        println!(
            "{} legal turn{}{}:",
            shown.len(),
            if shown.len() == 1 { "" } else { "s" },
            piece.map_or(String::new(), |p| format!(" of {}", excerpt(p)))
        );
        print_columns(&shown[..shown.len().min(MAX)]);
        if shown.len() > MAX {
            println!(
                "... and {} more: `turns N` (a piece letter) or `turns b1` (a square) shows fewer.",
                shown.len() - MAX
            );
        }
    }

    fn list_kicks(&self) {
        let pos = self.game.position();
        let kicks = next_kicks(pos, &self.partial);
        if kicks.is_empty() {
            println!("No kick is possible now.");
        } else {
            println!("Kicks now:");
            let refs: Vec<&String> = kicks.iter().collect();
            print_columns(&refs);
        }
    }

    fn undo(&mut self, seats: &BySide<Seat<'r>>) {
        self.partial = Turn::null();
        if !self.game.undo() {
            println!("Nothing to undo.");
            return;
        }
        // Against the computer, take back its reply too, to give the turn back to a person.
        while !self.humans[self.game.position().side()] && self.game.undo() {}
        let _ = seats;
        self.announced = false;
        self.changed();
        self.save();
        self.show_board();
    }

    fn redo(&mut self) {
        if self.game.redo() {
            self.changed();
            self.save();
            self.show_board();
        } else {
            println!("Nothing to redo.");
        }
    }

    /// `save FILE`: writes the record to FILE, asking first when FILE holds something else.
    fn save_as(&mut self, path: &Path) {
        match record::target(path) {
            Err(e) => println!("Could not save to {}: {e}", path.display()),
            Ok(target) if target.exists && !self.is_own_file(path) => {
                self.pending_save = Some(path.to_path_buf());
            }
            Ok(_) => self.write_to(path),
        }
    }

    /// Whether `path` is where this game was recorded or saved.
    fn is_own_file(&self, path: &Path) -> bool {
        [&self.record_to, &self.saved_to].into_iter().flatten().any(|own| same_file(own, path))
    }

    fn write_to(&mut self, path: &Path) {
        match record::save_atomically(path, &record::write(&self.game)) {
            Ok(()) => {
                println!("Saved to {}.", path.display());
                self.saved = true;
                self.saved_to = Some(path.to_path_buf());
                if self.record_to.as_deref().is_some_and(|own| same_file(own, path)) {
                    self.recorded = true;
                    self.save_error = None;
                }
            }
            Err(e) => println!("Could not save to {}: {e}", path.display()),
        }
    }

    fn resign(&mut self) {
        if let Some(ending) = self.game.ending() {
            return println!("The game is over already: {ending}.");
        }
        let side = self.game.position().side();
        self.game.declare(Ending::Resignation { loser: side });
        self.changed();
        self.save();
    }

    /// Claims a draw by repetition, where the rules make it a claim.
    fn claim(&mut self) {
        match self.game.claim_repetition() {
            Ok(()) => {
                self.changed();
                self.save();
            }
            Err(e) => println!("No draw: {e}."),
        }
    }

    fn draw(&mut self) {
        if let Some(ending) = self.game.ending() {
            return println!("The game is over already: {ending}.");
        }
        let side = self.game.position().side();
        if !self.humans[!side] {
            println!("The computer declines the draw.");
        } else if self.draw_offer == Some(!side) {
            self.game.declare(Ending::Agreement);
            self.changed();
            self.save();
        } else if self.draw_offer == Some(side) {
            println!("{} has offered a draw already: play your turn.", side.name());
        } else {
            self.draw_offer = Some(side);
            println!(
                "{} offers a draw: {} may type `draw` to accept, or play on.",
                side.name(),
                (!side).name()
            );
        }
    }
}

/// What to do after a line of input.
enum Flow {
    Continue,
    Quit,
}

/// Whether `text` is a word that cannot be a turn (`castle`), so it must be a mistyped command.
fn is_unknown_command(text: &str) -> bool {
    !matches!(text, "resign" | "draw" | "claim")
        && text.len() > 1
        && text.chars().all(|c| c.is_ascii_lowercase())
        && !(text.len() <= 3 && text[1..].chars().all(|c| c.is_ascii_digit()))
}

/// Whether turn `t` belongs to the piece named `piece`: a letter (`N`) or a square (`b1`).
fn of_piece(pos: &Position<'_>, t: &Turn, piece: &str) -> bool {
    let mut chars = piece.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            t.moves().next().is_some_and(|m| m.letter == c.to_ascii_uppercase())
        }
        _ => {
            let square = crate::notation::squares::parse(piece)
                .ok()
                .and_then(|items| crate::notation::squares::expand(&items, 16, 16).ok())
                .and_then(|s| s.first().copied());
            square.is_some_and(|s| match t.actions.first() {
                Some(Action::Move(m)) => m.from == s,
                Some(Action::Kick(k)) => k.kicker == s,
                None => false,
            }) && pos.piece_at(square.unwrap_or(pos.ball())).is_some()
        }
    }
}

/// Names in columns that fit 80 characters.
fn print_columns(names: &[&String]) {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0) + 2;
    let per_line = (80 / width.max(1)).max(1);
    for row in names.chunks(per_line) {
        let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
        println!("{}", line.trim_end());
    }
}

fn print_help() {
    println!(
        "\
A turn: an optional piece move, then kicks. Type it whole or in steps:
  Nc3            move a knight to c3 (Nbc3, N1c3 or Nb1-c3 when two knights can)
  Nc3>e6         ... then kick the ball to e6
  >e6  N>e6      kick without moving (name the kicker when several pieces could)
  --             do nothing (when the rules allow it)
  After a move or a kick that can go on, type the next kick (`e6` or `>e6`),
  `back` to take back a step, or Enter (or `done`) to end the turn.
Commands:
  turns          every legal turn      turns N / turns b1   the turns of a piece
  kicks          the kicks possible now
  undo / redo    take back / replay a turn (against the computer: its reply too)
  save FILE      write the game's record      board / flip   redraw / turn the board
  resign         give up                      draw           offer or accept a draw
  claim          a draw by repetition, where the rules make it a claim
  quit           leave"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
