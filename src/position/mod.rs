//! Positions: a checked board, the side to move and the turn count.
//!
//! A [`Position`] is built from a [`Placement`] (itself checked from a parsed FEN) and borrows the
//! [`Rules`] it was checked against. It is small and cheap to copy, so that turn generation and
//! perft copy positions instead of undoing turns.

pub mod setup;
pub(crate) mod zobrist;

use std::fmt;

use crate::notation::{ParseError, fen};
use crate::rules::{PieceKind, Rules};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;
pub use setup::{Placement, place};
use zobrist::{BLACK_TO_MOVE, NO_GOAL_YET, SQUARE_KEYS};

/// The contents code of an empty square.
pub(crate) const EMPTY: u8 = 0;
/// The contents code of the ball.
pub(crate) const BALL: u8 = 1;

/// The contents code of a piece: 2 + 2 * kind + side.
#[inline]
pub(crate) const fn piece_code(side: Side, kind: usize) -> u8 {
    (2 + 2 * kind + side as usize) as u8
}

/// The side of a piece code.
#[inline]
pub(crate) const fn code_side(code: u8) -> Side {
    if code & 1 == 0 { Side::White } else { Side::Black }
}

/// The kind index of a piece code.
#[inline]
pub(crate) const fn code_kind(code: u8) -> usize {
    ((code - 2) >> 1) as usize
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The ball stands on a goal square: `winner` scored (an own goal if the side that kicked
    /// it, the one not to move, is not the winner).
    Goal {
        /// The side that scores.
        winner: Side,
        /// Whether the loser kicked the ball into its own goal.
        own_goal: bool,
    },
    /// The turn limit (`end.max_turns`) was reached without a goal: a draw.
    TurnLimit,
    /// The same position came back `end.repetition` times: a draw.
    Repetition,
}

/// Whether the last of `history` (the hashes of a game's positions, oldest first, as
/// [`Position::hash`] gives them) has occurred `end.repetition` times, which draws the game.
/// The position itself says nothing of this: only a game's history can.
#[must_use]
pub fn is_repetition(rules: &Rules, history: &[u64]) -> bool {
    let needed = rules.end().repetition as usize;
    match history.last() {
        Some(last) if needed > 0 => history.iter().filter(|&h| h == last).count() >= needed,
        _ => false,
    }
}

/// Why a position text could not be read: every problem found, with spans into the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct FenError {
    /// The problems, each with its bytes in the position text.
    pub problems: Vec<ParseError>,
}

/// A position of a variant: the board, the ball, the side to move and the turn count.
#[derive(Clone, Copy)]
pub struct Position<'r> {
    pub(crate) rules: &'r Rules,
    pub(crate) board: [u8; SQUARES],
    pub(crate) men: [SquareSet; 2],
    pub(crate) ball: Square,
    pub(crate) side: Side,
    pub(crate) turns: u32,
    pub(crate) hash: u64,
}

impl<'r> Position<'r> {
    /// The position of a checked placement.
    #[must_use]
    pub fn from_placement(rules: &'r Rules, placement: &Placement) -> Position<'r> {
        let mut pos = Position {
            rules,
            board: [EMPTY; SQUARES],
            men: [SquareSet::EMPTY; 2],
            ball: placement.ball,
            side: placement.side,
            turns: placement.turns,
            hash: 0,
        };
        pos.board[placement.ball.index()] = BALL;
        for &(square, side, kind) in &placement.pieces {
            pos.board[square.index()] = piece_code(side, kind.index());
            pos.men[side.index()].insert(square);
        }
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// Reads a position text (`<board> <side> <turns>`) and checks it against `rules`.
    ///
    /// # Errors
    /// Every problem found, with spans into `text`: syntax, board size, unknown letters, no ball
    /// or several, a piece on a goal square. A ball on a goal (a finished game) is accepted.
    pub fn from_fen(rules: &'r Rules, text: &str) -> Result<Position<'r>, FenError> {
        let parsed = fen::parse(text).map_err(|e| FenError { problems: vec![e] })?;
        let placement = place(rules, &parsed).map_err(|problems| FenError { problems })?;
        Ok(Position::from_placement(rules, &placement))
    }

    /// The variant's start position (`setup.fen`).
    ///
    /// # Errors
    /// None for a compiled definition (its setup was checked); the error is kept for safety.
    pub fn start(rules: &'r Rules) -> Result<Position<'r>, FenError> {
        Position::from_fen(rules, rules.setup_fen())
    }

    /// The rules this position belongs to.
    #[must_use]
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The side to move.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The number of completed turns.
    #[must_use]
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The ball's square.
    #[must_use]
    pub fn ball(&self) -> Square {
        self.ball
    }

    /// The position as a plain placement (for drawing and records).
    #[must_use]
    pub fn placement(&self) -> Placement {
        let mut pieces = Vec::new();
        for side in Side::ALL {
            for square in self.men[side.index()].iter() {
                if let Some((_, kind)) = self.piece_at(square) {
                    pieces.push((square, side, kind));
                }
            }
        }
        pieces.sort_by_key(|&(s, _, _)| s);
        Placement { pieces, ball: self.ball, side: self.side, turns: self.turns }
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<(Side, PieceKind)> {
        match self.board[square.index()] {
            EMPTY | BALL => None,
            code => Some((code_side(code), PieceKind(code_kind(code) as u8))),
        }
    }

    /// The squares of `side`'s pieces.
    #[must_use]
    pub fn pieces(&self, side: Side) -> SquareSet {
        self.men[side.index()]
    }

    /// Whether no goal may be scored yet (fewer than `turn.no_goal_before` turns completed).
    #[must_use]
    pub fn before_goals_allowed(&self) -> bool {
        self.turns < self.rules.turn().no_goal_before
    }

    /// The Zobrist hash: board, ball, side to move, and whether goals are allowed yet.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from nothing (the position keeps it up to date incrementally).
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (i, &code) in self.board.iter().enumerate() {
            if code != EMPTY {
                h ^= SQUARE_KEYS[i][usize::from(code)];
            }
        }
        if self.side == Side::Black {
            h ^= BLACK_TO_MOVE;
        }
        if self.before_goals_allowed() {
            h ^= NO_GOAL_YET;
        }
        h
    }

    /// How the game has ended, if it has: a goal, or the turn limit.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.rules.scorer(self.ball) {
            return Some(Outcome::Goal { winner, own_goal: winner == self.side });
        }
        let limit = self.rules.end().max_turns;
        (limit > 0 && self.turns >= limit).then_some(Outcome::TurnLimit)
    }

    /// Whether the ball stands on a goal square (the game is over; there are no turns).
    #[must_use]
    pub fn is_goal(&self) -> bool {
        self.rules.tables().goals.contains(self.ball)
    }

    /// The position text, exactly as vchess.club writes it.
    #[must_use]
    pub fn fen(&self) -> String {
        let board = self.rules.board();
        let mut out = String::with_capacity(100);
        for rank in (0..board.ranks).rev() {
            let mut run = 0;
            for file in 0..board.files {
                match self.letter(Square::new(file, rank)) {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        format!("{out} {} {}", self.side.fen_char(), self.turns)
    }

    /// The letter of what stands on `square`: a piece (Black lowercase), the ball, or none.
    fn letter(&self, square: Square) -> Option<char> {
        match self.board[square.index()] {
            EMPTY => None,
            BALL => Some(self.rules.ball_symbol()),
            code => {
                let c = self.rules.pieces()[code_kind(code)].letter;
                Some(match code_side(code) {
                    Side::White => c,
                    Side::Black => c.to_ascii_lowercase(),
                })
            }
        }
    }

    /// Moves the piece on `from` to the empty square `to`, keeping the hash.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square) {
        let code = self.board[from.index()];
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = code;
        let side = code_side(code).index();
        self.men[side].remove(from);
        self.men[side].insert(to);
        let code = usize::from(code);
        self.hash ^= SQUARE_KEYS[from.index()][code] ^ SQUARE_KEYS[to.index()][code];
    }

    /// Puts the ball on `to`, keeping the hash.
    #[inline]
    pub(crate) fn move_ball(&mut self, to: Square) {
        let from = self.ball;
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = BALL;
        self.ball = to;
        let b = usize::from(BALL);
        self.hash ^= SQUARE_KEYS[from.index()][b] ^ SQUARE_KEYS[to.index()][b];
    }

    /// Hands the move to the other side and counts the turn, keeping the hash.
    #[inline]
    pub(crate) fn end_turn(&mut self) {
        let before = self.before_goals_allowed();
        self.side = !self.side;
        self.turns = self.turns.saturating_add(1);
        self.hash ^= BLACK_TO_MOVE;
        if before != self.before_goals_allowed() {
            self.hash ^= NO_GOAL_YET;
        }
    }
}

impl PartialEq for Position<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.rules, other.rules)
            && self.board == other.board
            && self.ball == other.ball
            && self.side == other.side
            && self.turns == other.turns
    }
}

impl Eq for Position<'_> {}

impl fmt::Debug for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// The board as text, rank 1 at the bottom, `.` for empty squares and `+` for empty goals.
impl fmt::Display for Position<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.rules.board();
        for rank in (0..board.ranks).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..board.files {
                let square = Square::new(file, rank);
                let c = self.letter(square).unwrap_or(if self.rules.scorer(square).is_some() {
                    '+'
                } else {
                    '.'
                });
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for file in 0..board.files {
            write!(f, " {}", char::from(b'a' + file))?;
        }
        writeln!(f)?;
        write!(f, "{} to move, {} turns completed", self.side.name(), self.turns)
    }
}

/// The variant's start position (`setup.fen`), which was checked when the rules compiled.
#[must_use]
pub fn start_placement(rules: &Rules) -> Placement {
    let parsed =
        fen::parse(rules.setup_fen()).expect("setup.fen was checked when the rules compiled");
    place(rules, &parsed).expect("setup.fen was checked when the rules compiled")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load;

    #[test]
    fn fen_round_trip_and_hash() {
        let def = load("vchess").unwrap();
        let text = "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0";
        let pos = Position::from_fen(&def.rules, text).unwrap();
        assert_eq!(pos.fen(), text);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        assert!(pos.before_goals_allowed());
        assert_eq!(pos.outcome(), None);
        let mut next = pos;
        next.move_piece(Square::new(1, 0), Square::new(2, 2));
        next.move_ball(Square::new(4, 5));
        next.end_turn();
        assert_eq!(next.fen(), "rnbq1knbr/9/9/4a4/9/9/2N6/9/R1BQ1KNBR b 1");
        assert_eq!(next.hash(), next.hash_from_scratch());
    }

    #[test]
    fn bad_positions_are_refused_with_spans() {
        let def = load("boyer-1951").unwrap();
        let e = Position::from_fen(&def.rules, "9/9/9/9/9/9/9/9/9 w 0").unwrap_err();
        assert!(e.to_string().contains("no ball"), "{e}");
        let e = Position::from_fen(&def.rules, "4K4/9/9/9/4a4/9/9/9/9 w 0").unwrap_err();
        assert_eq!(e.problems[0].span, 1..2);
        assert!(Position::from_fen(&def.rules, "4a4/9/9/9/9/9/9/9/9 b 3").is_ok());
    }

    #[test]
    fn goals_and_long_runs() {
        let def = load("boyer-1951").unwrap();
        let pos = Position::from_fen(&def.rules, "4a4/9/9/9/9/9/9/9/9 b 3").unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Goal { winner: Side::White, own_goal: false }));
        assert!(pos.is_goal());
    }

    #[test]
    fn third_occurrence_is_a_repetition() {
        let def = load("boyer-1951").unwrap();
        let pos = Position::start(&def.rules).unwrap();
        let mut other = pos;
        other.move_piece(Square::new(1, 0), Square::new(2, 2));
        let (a, b) = (pos.hash(), other.hash());
        assert!(!is_repetition(&def.rules, &[a, b, a]));
        assert!(is_repetition(&def.rules, &[a, b, a, b, a]));
        assert!(!is_repetition(&def.rules, &[]));
    }
}
