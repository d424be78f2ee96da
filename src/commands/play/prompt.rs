//! A game at the terminal's prompt: the loop, the commands and their help.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use crate::commands::{CommandResult, Status};
use kickoff::side::BySide;
use kickoff::text::{excerpt, printable, printable_path};

use super::Session;
use super::input::{Input, InputError};
use super::seats::Seat;

impl<'r> Session<'r> {
    /// The game at a terminal.
    pub(super) fn interactive(
        &mut self,
        seats: &mut BySide<Seat<'r>>,
        input: &mut Input<impl BufRead>,
    ) -> CommandResult {
        println!("{}", printable(&self.game.rules().info().name));
        self.announce_setup();
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
                    return self.leave(None);
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
                    return self.leave(Some(Status::Usage));
                }
            };
            if !std::io::stdin().is_terminal() {
                // Typed input is echoed by the terminal; piped input is shown here instead.
                println!("{}", excerpt(line.trim_end()));
            }
            match self.handle(line.trim(), seats) {
                Flow::Continue => {}
                Flow::Quit => return self.leave(None),
            }
        }
    }

    pub(super) fn prompt(&self) {
        let pos = self.game.position();
        let text = if let Some(path) = &self.pending_save {
            format!("{} exists. Replace it? (yes/no)> ", printable_path(path))
        } else if self.game.ending().is_some() {
            "game over (undo, save FILE, quit)> ".to_owned()
        } else if self.partial.is_null() {
            let claim = if self.game.may_claim_repetition() { " (`claim` draws)" } else { "" };
            format!("{} {}{claim}> ", pos.side().name(), self.game.label(self.game.plies().len()))
        } else {
            let name = kickoff::turn_text::names::name(pos, &self.partial);
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
    pub(super) fn leave(&mut self, failed: Option<Status>) -> CommandResult {
        if self.save_error.is_some() {
            self.save();
        }
        match (&self.saved_to, self.saved) {
            (Some(path), true) => println!("The game is saved in {}.", printable_path(path)),
            _ if self.game.plies().is_empty() => {}
            _ => println!("The game was not saved."),
        }
        self.final_exit(failed)
    }

    pub(super) fn handle(&mut self, line: &str, seats: &BySide<Seat<'r>>) -> Flow {
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

    pub(super) fn quit(&mut self) -> Flow {
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
}

/// What to do after a line of input.
pub(super) enum Flow {
    Continue,
    Quit,
}

/// Whether `text` is a word that cannot be a turn (`castle`), so it must be a mistyped command.
pub(super) fn is_unknown_command(text: &str) -> bool {
    !matches!(text, "resign" | "draw" | "claim")
        && text.len() > 1
        && text.chars().all(|c| c.is_ascii_lowercase())
        && !(text.len() <= 3 && text[1..].chars().all(|c| c.is_ascii_digit()))
}

pub(super) fn print_help() {
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
