//! A game read from a script: one turn per line, then the final result.

use std::io::BufRead;

use crate::commands::{CommandResult, Status};
use kickoff::game::Ending;
use kickoff::side::BySide;
use kickoff::text::excerpt;
use kickoff::turn_text::names::notation_error;

use super::Session;
use super::input::Input;
use super::prompt::is_unknown_command;
use super::seats::Seat;

impl<'r> Session<'r> {
    /// The game in a script: one turn (or command) per line, then the result.
    pub(super) fn scripted(
        &mut self,
        seats: &mut BySide<Seat<'r>>,
        input: &mut Input<impl BufRead>,
    ) -> CommandResult {
        // A failure said as it happens: the game is still saved and its end told.
        let mut failed = None;
        self.announce_setup();
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
                    failed = Some(Status::Usage);
                    break;
                }
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Err(failure) = self.scripted_line(line) {
                failed = Some(failure);
                break;
            }
        }
        self.save();
        self.finish_script();
        self.final_exit(failed)
    }

    /// Plays one line of a script: a turn, `resign` or `draw`; a failure is said on stderr.
    pub(super) fn scripted_line(&mut self, line: &str) -> Result<(), Status> {
        let label = self.game.label(self.game.plies().len());
        match line {
            _ if is_unknown_command(line) => {
                eprintln!(
                    "error: turn {label}: `{}` is not a turn; a script may also say `resign`, `draw` or `claim`",
                    excerpt(line)
                );
                return Err(Status::Failure);
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
                    return Err(Status::Failure);
                }
                self.changed();
            }
            _ => match kickoff::turn_text::names::resolve(self.game.position(), line) {
                Ok(turn) => {
                    let _ = self.commit(turn);
                    let name = self.game.plies().last().map_or(String::new(), |p| p.name.clone());
                    println!("{label} {name}");
                }
                Err(e) => {
                    eprintln!("error: turn {label} `{}`: {}", excerpt(line), notation_error(&e));
                    return Err(Status::Failure);
                }
            },
        }
        Ok(())
    }

    pub(super) fn finish_script(&self) {
        println!("final position: {}", self.game.position().fen());
        match self.game.ending() {
            Some(ending) => println!("result: {} ({ending})", ending.result()),
            None => println!("result: * (the game is not finished)"),
        }
    }
}
