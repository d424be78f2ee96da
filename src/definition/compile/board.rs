//! The board, the goals and the square lists written on them.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::notation::squares;
use crate::rules::{Board, SquareColour};
use crate::side::BySide;
use crate::square::Square;
use crate::square_set::SquareSet;

use super::Compiler;

impl Compiler<'_> {
    /// The board, if both its sizes are known.
    pub(super) fn board(&mut self) -> Option<Board> {
        let files = self.optional(&["board", "files"]);
        let ranks = self.optional(&["board", "ranks"]);
        let a1: SquareColour = self.setting(&["board", "a1"]);
        let mut board = Board {
            files: files?,
            ranks: ranks?,
            a1_dark: a1 == SquareColour::Dark,
            holes: SquareSet::EMPTY,
        };
        if let Some(holes) = self.squares(&["board", "holes"], board, "the board's holes") {
            board.holes = holes.into_iter().collect();
        }
        Some(board)
    }

    /// Each side's goal squares, if both lists read and no square is a goal of both. Where a
    /// piece is a goal (`targets`), a list left out has no square.
    pub(super) fn goals(&mut self, board: Board, targets: bool) -> Option<BySide<Vec<Square>>> {
        let mut list = |side: &str, what: &str| {
            if targets && self.node(&["goals", side]).is_none() {
                Some(Vec::new())
            } else {
                self.squares(&["goals", side], board, what)
            }
        };
        let white = list("white", "White's goal");
        let black = list("black", "Black's goal");
        let (white, black) = (white?, black?);
        if let Some(both) = white.iter().find(|s| black.contains(s)) {
            let node = self.node(&["goals", "black"])?;
            self.out.push(Diagnostic::new(
                Code::SharedGoal,
                format!("{both} is a goal of both White and Black"),
                node.at.clone(),
            ));
            return None;
        }
        Some(BySide { white, black })
    }

    /// The squares of the list at `path` on `board` (`what` names it in a message).
    pub(super) fn squares(
        &mut self,
        path: &[&str],
        board: Board,
        what: &str,
    ) -> Option<Vec<Square>> {
        let (text, node) = self.str(path)?;
        let parsed = squares::parse(text)
            .and_then(|items| squares::expand(&items, board.files, board.ranks));
        match parsed {
            Ok(list) => Some(list),
            Err(e) => {
                self.string_error(Code::BadSquares, node, text, e, &format!("in {what}"));
                None
            }
        }
    }
}
