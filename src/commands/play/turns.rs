//! The commands of the prompt that enter, list, take back and save turns.

use std::path::Path;

use kickoff::game::Ending;
use kickoff::game::record;
use kickoff::movegen::Action;
use kickoff::movegen::{Turn, legal_turns};
use kickoff::position::Position;
use kickoff::side::BySide;
use kickoff::text::{excerpt, printable_path};
use kickoff::turn_text::names::notation_error;
use kickoff::turn_text::names::{can_continue, names, next_kicks, resolve_step};

use super::Session;
use super::seats::Seat;
use super::start::same_file;

impl<'r> Session<'r> {
    pub(super) fn enter_turn(&mut self, text: &str) {
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

    pub(super) fn play_human(&mut self, turn: Turn) {
        match self.commit(turn) {
            Ok(()) => self.show_board(),
            Err(e) => println!("{e}"),
        }
    }

    pub(super) fn end_partial_turn(&mut self) {
        if self.partial.is_null() {
            return;
        }
        let turn = std::mem::take(&mut self.partial);
        self.play_human(turn);
    }

    pub(super) fn step_back(&mut self) {
        self.partial.actions.pop();
        self.show_board();
    }

    pub(super) fn list_turns(&self, piece: Option<&&str>) {
        let pos = self.game.position();
        let turns = match legal_turns(pos) {
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

    pub(super) fn list_kicks(&self) {
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

    pub(super) fn undo(&mut self, seats: &BySide<Seat<'r>>) {
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

    pub(super) fn redo(&mut self) {
        if self.game.redo() {
            self.changed();
            self.save();
            self.show_board();
        } else {
            println!("Nothing to redo.");
        }
    }

    /// `save FILE`: writes the record to FILE, asking first when FILE holds something else.
    pub(super) fn save_as(&mut self, path: &Path) {
        match record::target(path) {
            Err(e) => println!("Could not save to {}: {e}", printable_path(path)),
            Ok(target) if target.exists && !self.is_own_file(path) => {
                self.pending_save = Some(path.to_path_buf());
            }
            Ok(_) => self.write_to(path),
        }
    }

    /// Whether `path` is where this game was recorded or saved.
    pub(super) fn is_own_file(&self, path: &Path) -> bool {
        [&self.record_to, &self.saved_to].into_iter().flatten().any(|own| same_file(own, path))
    }

    pub(super) fn write_to(&mut self, path: &Path) {
        match record::save_atomically(path, &record::write_at(&self.game, path)) {
            Ok(()) => {
                println!("Saved to {}.", printable_path(path));
                self.saved = true;
                self.saved_to = Some(path.to_path_buf());
                if self.record_to.as_deref().is_some_and(|own| same_file(own, path)) {
                    self.recorded = true;
                    self.save_error = None;
                }
            }
            Err(e) => println!("Could not save to {}: {e}", printable_path(path)),
        }
    }

    pub(super) fn resign(&mut self) {
        if let Some(ending) = self.game.ending() {
            return println!("The game is over already: {ending}.");
        }
        let side = self.game.position().side();
        self.game.declare(Ending::Resignation { loser: side });
        self.changed();
        self.save();
    }

    /// Claims a draw by repetition, where the rules make it a claim.
    pub(super) fn claim(&mut self) {
        match self.game.claim_repetition() {
            Ok(()) => {
                self.changed();
                self.save();
            }
            Err(e) => println!("No draw: {e}."),
        }
    }

    pub(super) fn draw(&mut self) {
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

/// Whether turn `t` belongs to the piece named `piece`: a letter (`N`) or a square (`b1`).
pub(super) fn of_piece(pos: &Position<'_>, t: &Turn, piece: &str) -> bool {
    let mut chars = piece.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            t.moves().next().is_some_and(|m| m.letter == c.to_ascii_uppercase())
        }
        _ => {
            let square = kickoff::notation::squares::parse(piece)
                .ok()
                .and_then(|items| kickoff::notation::squares::expand(&items, 16, 16).ok())
                .and_then(|s| s.first().copied());
            square.is_some_and(|s| {
                let starts = match t.actions.first() {
                    Some(Action::Move(m)) => m.from == s,
                    Some(Action::Kick(k)) => k.kicker == s,
                    None => false,
                };
                starts && pos.piece_at(s).is_some()
            })
        }
    }
}

/// Names in columns that fit 80 characters.
pub(super) fn print_columns(names: &[&String]) {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0) + 2;
    let per_line = (80 / width.max(1)).max(1);
    for row in names.chunks(per_line) {
        let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
        println!("{}", line.trim_end());
    }
}
