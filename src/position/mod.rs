//! Positions: a checked board, the side to move, the turn count, and the state some variants
//! keep (the score of a match, who holds a carried ball, an en-passant square, the last in-place
//! steal).
//!
//! A [`Position`] is built from a [`Placement`] (itself checked from a parsed FEN) and borrows the
//! [`Rules`] it was checked against. It is small and cheap to copy, so that turn generation and
//! perft copy positions instead of undoing turns.

mod finished;
pub(crate) mod placement;
pub(crate) mod zobrist;

use std::fmt;

use crate::notation::{ParseError, fen};
pub use crate::rules::Placement;
use crate::rules::cell::{BALL, EMPTY, code_kind, code_side, piece_code};
use crate::rules::{PieceKind, Rules};
use crate::side::Side;
use crate::square::{SQUARES, Square};
use crate::square_set::SquareSet;
pub use finished::Finished;
pub use placement::place;
use zobrist::{BLACK_TO_MOVE, EXTRA_KEYS, NO_GOAL_YET, SCORE_KEYS, SQUARE_KEYS};

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
    /// `winner` captured the last royal piece of the other side.
    RoyalCaptured {
        /// The side that captured it.
        winner: Side,
    },
    /// `winner` reached the goals that win a match (`end.goals`).
    Match {
        /// The side with the winning score.
        winner: Side,
    },
    /// The turn limit of a match was reached and `winner` has more goals.
    MostGoals {
        /// The side with more goals.
        winner: Side,
    },
    /// The turn limit (`end.max_turns`) was reached without a goal: a draw.
    TurnLimit,
    /// The same position came back `end.repetition` times: a draw.
    Repetition,
}

impl Outcome {
    /// The side that won, if the game was won (none for a draw).
    #[must_use]
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Goal { winner, .. }
            | Outcome::RoyalCaptured { winner }
            | Outcome::Match { winner }
            | Outcome::MostGoals { winner } => Some(winner),
            Outcome::TurnLimit | Outcome::Repetition => None,
        }
    }
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
    /// The ball's square; `None` in a game without a ball.
    pub(crate) ball: Option<Square>,
    pub(crate) side: Side,
    pub(crate) turns: u32,
    pub(crate) hash: u64,
    /// Whether the piece on `ball` holds it (a carried ball).
    pub(crate) held: bool,
    /// Goals scored, White's first (always 0-0 where the first goal ends the game).
    pub(crate) score: [u16; 2],
    /// The square skipped by the last turn's double step, which may be taken en passant.
    pub(crate) en_passant: Option<Square>,
    /// The last turn's in-place steal (stealer, robbed), which may not be reversed at once.
    pub(crate) steal: Option<(Square, Square)>,
    /// The pieces still to make their move of the arrangement stage (empty once play begins).
    pub(crate) arranging: SquareSet,
    /// The placement stage's hands: see [`Placement::hand`] (both 0 once play begins).
    pub(crate) hand: [u32; 2],
    /// The keepers' state: see [`Placement::keepers`].
    pub(crate) keepers: u8,
}

/// The most pieces a placement stage's hand may hold (a position keeps a hand as 32 bits).
pub const MAX_HAND: usize = 32;

/// Why a [`Placement`] is not a position of a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// A piece or the ball stands off the board or on a hole.
    #[error("{0} is not a square of this board")]
    OffBoard(Square),
    /// Two pieces share a square.
    #[error("two pieces stand on {0}")]
    Crowded(Square),
    /// The position it describes breaks a rule of the variant.
    #[error("{0}")]
    Refused(FenError),
    /// It holds state the variant does not keep (a score, an en-passant square, a steal).
    #[error("the placement holds state this variant does not keep: it reads back as {0}")]
    Unkept(String),
}

impl<'r> Position<'r> {
    /// The position of `placement`, checked against `rules` exactly as a position text is.
    ///
    /// # Errors
    /// A square off the board, two pieces on one square, a kind of another variant, or any
    /// problem [`Position::from_fen`] reports for the same position.
    pub fn from_placement(
        rules: &'r Rules,
        placement: &Placement,
    ) -> Result<Position<'r>, PlacementError> {
        let board = rules.board();
        let mut taken = SquareSet::EMPTY;
        for &(square, _, kind) in &placement.pieces {
            if !board.contains(square) || kind.index() >= rules.pieces().len() {
                return Err(PlacementError::OffBoard(square));
            }
            if !taken.insert(square) {
                return Err(PlacementError::Crowded(square));
            }
        }
        if let Some(ball) = placement.ball
            && !board.contains(ball)
        {
            return Err(PlacementError::OffBoard(ball));
        }
        let text = placement.fen(rules);
        let pos = Position::from_fen(rules, &text).map_err(PlacementError::Refused)?;
        let mut read = pos.placement();
        let mut given = placement.clone();
        read.pieces.sort_unstable_by_key(|p| p.0);
        given.pieces.sort_unstable_by_key(|p| p.0);
        if read != given {
            return Err(PlacementError::Unkept(text));
        }
        Ok(pos)
    }

    /// The position of a placement the crate has already checked against `rules`.
    #[must_use]
    pub(crate) fn from_checked(rules: &'r Rules, placement: &Placement) -> Position<'r> {
        let mut pos = Position {
            rules,
            board: [EMPTY; SQUARES],
            men: [SquareSet::EMPTY; 2],
            ball: placement.ball,
            side: placement.side,
            turns: placement.turns,
            hash: 0,
            held: placement.held,
            score: placement.score,
            en_passant: placement.en_passant,
            steal: placement.steal,
            arranging: placement.arranging,
            hand: placement.hand,
            keepers: placement.keepers,
        };
        if let Some(ball) = placement.ball {
            pos.board[ball.index()] = BALL;
        }
        for &(square, side, kind) in &placement.pieces {
            pos.board[square.index()] = piece_code(side, kind.index());
            pos.men[side.index()].insert(square);
        }
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// Reads a position text (`<board> <side> <turns>`) and checks it against `rules`.
    ///
    /// ```
    /// use kickoff::{Position, Side, load};
    ///
    /// let def = load("boyer-1951")?;
    /// let pos = Position::from_fen(&def.rules, "rnbq1kbnr/9/9/9/4a4/9/2N6/9/R1BQ1KBNR b 1")?;
    /// assert_eq!((pos.side(), pos.turns()), (Side::Black, 1));
    ///
    /// // A position without a ball is refused, each problem with where it is in the text.
    /// let refused = Position::from_fen(&def.rules, "rnbq1kbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 0");
    /// assert!(!refused.unwrap_err().problems.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Every problem found, with spans into `text`: syntax, board size, unknown letters, no ball
    /// or several, a piece on a goal square. A ball on a goal (a finished game) is accepted.
    pub fn from_fen(rules: &'r Rules, text: &str) -> Result<Position<'r>, FenError> {
        let parsed = fen::parse(text).map_err(|e| FenError { problems: vec![e] })?;
        let placement = place(rules, &parsed).map_err(|problems| FenError { problems })?;
        Ok(Position::from_checked(rules, &placement))
    }

    /// The variant's start position (`setup.fen`).
    #[must_use]
    pub fn start(rules: &'r Rules) -> Position<'r> {
        Position::from_checked(rules, rules.start())
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

    /// The ball's square; `None` in a game without a ball (`ball.mode = "none"`).
    #[must_use]
    pub fn ball(&self) -> Option<Square> {
        self.ball
    }

    /// The ball's square in a game that has a ball: every game whose turns are walked as kick
    /// chains (Boyer's family, which has a kicked ball), and every caller that has checked
    /// [`Rules::has_ball`].
    #[inline]
    pub(crate) fn kicked_ball(&self) -> Square {
        self.ball.expect("a game with a ball has it on the board")
    }

    /// A piece of `side` standing on one of the squares where `side` scores: in a game without
    /// a ball, the piece that scored.
    #[must_use]
    pub(crate) fn piece_on_goal(&self, side: Side) -> Option<Square> {
        (self.rules.tables().goals_of[side.index()] & self.men[side.index()]).iter().next()
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
        Placement {
            pieces,
            ball: self.ball,
            held: self.held,
            side: self.side,
            turns: self.turns,
            score: self.score,
            en_passant: self.en_passant,
            steal: self.steal,
            arranging: self.arranging,
            hand: self.hand,
            keepers: self.keepers,
        }
    }

    /// Goals scored so far, White's first (0-0 in a variant where the first goal ends the game).
    #[must_use]
    pub fn score(&self) -> [u16; 2] {
        self.score
    }

    /// Whether the ball is held by the piece on its square (a carried ball).
    #[must_use]
    pub fn ball_held(&self) -> bool {
        self.held
    }

    /// The held ball's square and its holder's contents code, if a piece holds the ball.
    #[inline]
    pub(crate) fn holder(&self) -> Option<(Square, u8)> {
        let at = self.ball.filter(|_| self.held)?;
        let code = self.board[at.index()];
        (code >= 2).then_some((at, code))
    }

    /// The square that may be captured en passant this turn, if any.
    #[must_use]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The last turn's in-place steal (stealer, robbed), if it was one.
    #[must_use]
    pub fn last_steal(&self) -> Option<(Square, Square)> {
        self.steal
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
        h ^ self.extra_hash()
    }

    /// The part of the hash that the score, a held ball, en passant and a steal make.
    fn extra_hash(&self) -> u64 {
        let mut h = SCORE_KEYS[0][usize::from(self.score[0]) % 64]
            ^ SCORE_KEYS[1][usize::from(self.score[1]) % 64];
        if self.held
            && let Some(ball) = self.ball
        {
            h ^= EXTRA_KEYS[3][ball.index()];
        }
        if let Some(s) = self.en_passant {
            h ^= EXTRA_KEYS[0][s.index()];
        }
        if let Some((a, b)) = self.steal {
            h ^= EXTRA_KEYS[1][a.index()] ^ EXTRA_KEYS[2][b.index()];
        }
        if !self.arranging.is_empty() {
            h ^= self.arranging.digest().wrapping_mul(0xA076_1D64_78BD_642F) | 1;
        }
        if self.hand != [0, 0] {
            let hands = u64::from(self.hand[0]) | (u64::from(self.hand[1]) << 32);
            h ^= hands.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        }
        if self.keepers != 0 {
            h ^= u64::from(self.keepers).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) | 1;
        }
        h
    }

    /// Whether the game is still in its placement stage (a side has pieces to place).
    #[must_use]
    pub fn placing(&self) -> bool {
        self.hand != [0, 0]
    }

    /// The pieces of `side`'s hand still to be chosen from in the placement stage, in the
    /// order the hand is written (none once it has placed all it places).
    #[must_use]
    pub fn hand(&self, side: Side) -> Vec<PieceKind> {
        let Some(stage) = self.rules.placement_stage() else { return Vec::new() };
        stage.held(self.hand[side.index()]).map(|(_, kind)| kind).collect()
    }

    /// How many pieces `side` has still to place.
    #[must_use]
    pub fn to_place(&self, side: Side) -> usize {
        self.rules.placement_stage().map_or(0, |stage| stage.left_to_place(self.hand[side.index()]))
    }

    /// Whether the game is still in its arrangement stage (some piece has its arrangement
    /// move to make).
    #[must_use]
    pub fn arranging(&self) -> bool {
        !self.arranging.is_empty()
    }

    /// The pieces still to make their arrangement move.
    #[must_use]
    pub fn to_arrange(&self) -> SquareSet {
        self.arranging
    }

    /// How the game has ended, if it has: a goal (or the points of a match), a royal piece
    /// captured, or the turn limit.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.scored() {
            return Some(outcome);
        }
        let limit = self.rules.end().max_turns;
        if limit == 0 || self.turns < limit {
            return None;
        }
        let [w, b] = self.score;
        Some(match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::MostGoals { winner: Side::White },
            std::cmp::Ordering::Less => Outcome::MostGoals { winner: Side::Black },
            std::cmp::Ordering::Equal => Outcome::TurnLimit,
        })
    }

    /// How the game ended on the board, if it did: the goals of a match, a goal, a royal piece
    /// captured. The turn limit is not counted here (perft goes past it).
    fn scored(&self) -> Option<Outcome> {
        let rules = self.rules;
        if rules.end().keeps_score() {
            // 0 goals: no target, the game lasts until the turn limit.
            let target = match rules.end().goals {
                0 => u16::MAX,
                n => u16::try_from(n).unwrap_or(u16::MAX),
            };
            return Side::ALL
                .into_iter()
                .find(|&s| self.score[s.index()] >= target)
                .map(|winner| Outcome::Match { winner });
        }
        let t = rules.tables();
        match self.ball {
            Some(ball) if t.goals.contains(ball) => {
                let shot = rules.ball().carried.shoot && !self.held;
                let winner = if rules.carried_ball() && !shot {
                    // A carried ball scores when the side that just moved holds it on its goal
                    // (or, shot there, lies on a goal: `rules.scorer`).
                    (self.held
                        && self.piece_at(ball).is_some_and(|(side, _)| side != self.side)
                        && rules.goals(!self.side).contains(&ball))
                    .then_some(!self.side)
                } else {
                    rules.scorer(ball)
                };
                if let Some(winner) = winner {
                    return Some(Outcome::Goal { winner, own_goal: winner == self.side });
                }
            }
            Some(_) => {}
            // Without a ball, the side that just moved scores with a piece on its goal squares.
            None => {
                if self.piece_on_goal(!self.side).is_some() {
                    return Some(Outcome::Goal { winner: !self.side, own_goal: false });
                }
            }
        }
        if t.has_royals {
            for side in Side::ALL {
                if !self.men[side.index()].iter().any(|s| t.royal[self.board[s.index()] as usize]) {
                    return Some(Outcome::RoyalCaptured { winner: !side });
                }
            }
        }
        None
    }

    /// Whether the game ended on the board (a goal, the goals of a match, a royal piece
    /// captured): the position has no turns.
    #[must_use]
    pub fn is_goal(&self) -> bool {
        self.scored().is_some()
    }

    /// The position text, exactly as vchess.club writes it (with the variant's extra fields).
    #[must_use]
    pub fn fen(&self) -> String {
        let state = Placement {
            pieces: Vec::new(),
            ball: self.ball,
            held: self.held,
            side: self.side,
            turns: self.turns,
            score: self.score,
            en_passant: self.en_passant,
            steal: self.steal,
            arranging: self.arranging,
            hand: self.hand,
            keepers: self.keepers,
        };
        placement::write_fen(self.rules, |s| self.letter(s), &state)
    }

    /// The letter of what stands on `square`: a piece (Black lowercase; a holder's letter if
    /// it holds the ball), the ball, or none.
    fn letter(&self, square: Square) -> Option<char> {
        match self.board[square.index()] {
            EMPTY => None,
            BALL => Some(self.rules.ball_symbol()),
            code => Some(placement::piece_letter(
                self.rules,
                code_side(code),
                PieceKind(code_kind(code) as u8),
                self.held && Some(square) == self.ball,
            )),
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
        let from = self.kicked_ball();
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = BALL;
        self.ball = Some(to);
        let b = usize::from(BALL);
        self.hash ^= SQUARE_KEYS[from.index()][b] ^ SQUARE_KEYS[to.index()][b];
    }

    /// The piece on `kicker` steps onto the ball's square and the ball flies to `to` (which may
    /// be the square the piece left), keeping the hash.
    pub(crate) fn enter_ball(&mut self, kicker: Square, to: Square) {
        let from = self.kicked_ball();
        let b = usize::from(BALL);
        self.hash ^= SQUARE_KEYS[from.index()][b];
        self.board[from.index()] = EMPTY;
        self.move_piece(kicker, from);
        self.board[to.index()] = BALL;
        self.ball = Some(to);
        self.hash ^= SQUARE_KEYS[to.index()][b];
    }

    /// Puts a `side` piece of `kind` on the empty square `at` (a placement), keeping the hash.
    #[inline]
    pub(crate) fn put_piece(&mut self, at: Square, side: Side, kind: PieceKind) {
        if self.board[at.index()] != EMPTY {
            return;
        }
        let code = piece_code(side, kind.index());
        self.board[at.index()] = code;
        self.men[side.index()].insert(at);
        self.hash ^= SQUARE_KEYS[at.index()][usize::from(code)];
    }

    /// Removes the piece on `at` (a capture), keeping the hash.
    #[inline]
    pub(crate) fn remove_piece(&mut self, at: Square) {
        let code = self.board[at.index()];
        if code < 2 {
            return;
        }
        self.board[at.index()] = EMPTY;
        self.men[code_side(code).index()].remove(at);
        self.hash ^= SQUARE_KEYS[at.index()][usize::from(code)];
    }

    /// Makes the piece on `at` a `kind` (a promotion), keeping the hash.
    #[inline]
    pub(crate) fn set_kind(&mut self, at: Square, kind: PieceKind) {
        let old = self.board[at.index()];
        if old < 2 {
            return;
        }
        let new = piece_code(code_side(old), kind.index());
        self.board[at.index()] = new;
        self.hash ^=
            SQUARE_KEYS[at.index()][usize::from(old)] ^ SQUARE_KEYS[at.index()][usize::from(new)];
    }

    /// Changes the state kept beside the board (who holds the ball, the score, en passant,
    /// the last steal) with `change`, keeping the hash.
    #[inline]
    pub(crate) fn change_state(&mut self, change: impl FnOnce(&mut Position<'r>)) {
        self.hash ^= self.extra_hash();
        change(self);
        self.hash ^= self.extra_hash();
    }

    /// A carried ball leaves its holder's hands and lies free on `to` (an empty square), or is
    /// given to the piece on `to` (`held`), keeping the hash.
    pub(crate) fn place_ball(&mut self, to: Square, held: bool) {
        let b = usize::from(BALL);
        self.hash ^= self.extra_hash();
        if !self.held {
            let from = self.kicked_ball();
            self.board[from.index()] = EMPTY;
            self.hash ^= SQUARE_KEYS[from.index()][b];
        }
        self.ball = Some(to);
        self.held = held;
        if !held {
            self.board[to.index()] = BALL;
            self.hash ^= SQUARE_KEYS[to.index()][b];
        }
        self.hash ^= self.extra_hash();
    }

    /// Puts every piece and the ball back as in `start`, keeping the side, the turn count and
    /// the score (what follows a goal in a match).
    pub(crate) fn reset_to(&mut self, start: &Placement) {
        let mut next = Position::from_checked(self.rules, start);
        next.side = self.side;
        next.turns = self.turns;
        next.score = self.score;
        next.hash = next.hash_from_scratch();
        *self = next;
    }

    /// Hands the move to the other side without counting a turn, keeping the hash.
    pub(crate) fn pass_move(&mut self) {
        let before = self.before_goals_allowed();
        self.side = !self.side;
        self.hash ^= BLACK_TO_MOVE;
        if before != self.before_goals_allowed() {
            self.hash ^= NO_GOAL_YET;
        }
    }

    /// The hash the position will have after [`Position::end_turn`], without changing it.
    #[inline]
    pub(crate) fn hash_after_turn(&self) -> u64 {
        let mut h = self.hash ^ BLACK_TO_MOVE;
        let limit = self.rules.turn().no_goal_before;
        if self.turns < limit && self.turns.saturating_add(1) >= limit {
            h ^= NO_GOAL_YET;
        }
        h
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

    /// The hash of the position after a turn that moves a piece (`piece_move`, if any) and
    /// leaves the ball on `ball`, as [`Position::move_piece`], [`Position::move_ball`] and
    /// [`Position::end_turn`] would make it, without making that position.
    pub(crate) fn hash_after(&self, piece_move: Option<(Square, Square)>, ball: Square) -> u64 {
        let mut h = self.hash ^ BLACK_TO_MOVE;
        if let Some((from, to)) = piece_move {
            let code = usize::from(self.board[from.index()]);
            h ^= SQUARE_KEYS[from.index()][code] ^ SQUARE_KEYS[to.index()][code];
        }
        let b = usize::from(BALL);
        h ^= SQUARE_KEYS[self.kicked_ball().index()][b] ^ SQUARE_KEYS[ball.index()][b];
        let later = self.turns.saturating_add(1) < self.rules.turn().no_goal_before;
        if self.before_goals_allowed() != later {
            h ^= NO_GOAL_YET;
        }
        h
    }
}

impl PartialEq for Position<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.rules, other.rules)
            && self.board == other.board
            && self.ball == other.ball
            && self.side == other.side
            && self.turns == other.turns
            && self.held == other.held
            && self.score == other.score
            && self.en_passant == other.en_passant
            && self.steal == other.steal
            && self.keepers == other.keepers
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
                let square = Square::at(file, rank);
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
        next.move_piece(Square::at(1, 0), Square::at(2, 2));
        next.move_ball(Square::at(4, 5));
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
        let pos = Position::start(&def.rules);
        let mut other = pos;
        other.move_piece(Square::at(1, 0), Square::at(2, 2));
        let (a, b) = (pos.hash(), other.hash());
        assert!(!is_repetition(&def.rules, &[a, b, a]));
        assert!(is_repetition(&def.rules, &[a, b, a, b, a]));
        assert!(!is_repetition(&def.rules, &[]));
    }
}
