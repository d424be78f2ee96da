//! A game in progress: playing a turn, the computer's turns, saving, and the end.

use std::path::PathBuf;

use crate::commands::{CommandError, CommandResult, Status, color_stdout};
use kickoff::game::record;
use kickoff::game::{Ending, Game, GameError};
use kickoff::movegen::Action;
use kickoff::movegen::{Turn, play_unchecked};
use kickoff::render::terminal::{Style, board, legend_of, status};
use kickoff::setup;
use kickoff::side::BySide;
use kickoff::square::Square;

use super::Session;
use super::seats::Seat;
use kickoff::text::printable_path;

impl<'r> Session<'r> {
    pub(super) fn new(
        game: Game<'r>,
        record_to: Option<PathBuf>,
        seats: &BySide<Seat<'r>>,
    ) -> Self {
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
            setup_drawn: false,
        }
    }

    /// The record file holds the game as it stands already (it was resumed from it).
    pub(super) fn mark_recorded(&mut self) {
        self.recorded = true;
        self.saved = true;
        self.saved_to.clone_from(&self.record_to);
    }

    /// The game changed: it is saved nowhere any more.
    pub(super) fn changed(&mut self) {
        self.saved = false;
        self.recorded = false;
    }

    /// Saves the game to the record file, if there is one and it is out of date; reports a
    /// failure without stopping.
    pub(super) fn save(&mut self) {
        let Some(path) = self.record_to.clone() else { return };
        if self.recorded {
            return;
        }
        match record::save_atomically(&path, &record::write_at(&self.game, &path)) {
            Ok(()) => {
                self.saved = true;
                self.recorded = true;
                self.save_error = None;
                self.saved_to = Some(path);
            }
            Err(e) => {
                eprintln!("warning: could not save the game to {}: {e}", printable_path(&path));
                self.save_error = Some(e.to_string());
            }
        }
    }

    /// How the game ends for the command once it is left: a failure when the record file does
    /// not hold the game as it stands, else as `failed` says (a failure said already, or none).
    pub(super) fn final_exit(&self, failed: Option<Status>) -> CommandResult {
        match (&self.record_to, &self.save_error) {
            (Some(path), Some(reason)) if !self.recorded => Err(CommandError::new(
                failed.unwrap_or(Status::Failure),
                format!("{} does not hold the game as it stands: {reason}", printable_path(path)),
            )),
            _ => failed.map_or(Ok(()), |status| Err(CommandError::quiet(status))),
        }
    }

    /// Plays a turn and saves.
    pub(super) fn commit(&mut self, turn: Turn) -> Result<(), GameError> {
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
    pub(super) fn last_squares(&self) -> Vec<Square> {
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
                    squares.extend(ball);
                    squares.push(k.to);
                    ball = Some(k.to);
                }
            }
        }
        squares.dedup();
        squares
    }

    pub(super) fn show_board(&self) {
        let pos = if self.partial.is_null() {
            self.game.position().placement()
        } else {
            play_unchecked(self.game.position(), &self.partial).placement()
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

    /// Names the setup the game started from, if it is one: drawn, given, or the definition's
    /// own arrangement.
    pub(super) fn announce_setup(&self) {
        let rules = self.game.rules();
        let own = || {
            let from_start = self.game.from_variant_start();
            rules.random_setup().filter(|_| from_start).and_then(|r| setup::start_number(rules, r))
        };
        match self.game.setup_number().or_else(own) {
            Some(n) if self.setup_drawn => println!("Random setup number {n}."),
            Some(n) => println!("Setup number {n}."),
            None => {}
        }
    }

    /// Announces the end once, and saves.
    pub(super) fn announce_end(&mut self) -> bool {
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
    pub(super) fn computer_turn(&mut self, seats: &mut BySide<Seat<'r>>, verbose: bool) -> bool {
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
}
