//! The distinct results of a position's turns, for the search: many turns (different kickers,
//! different chains) leave the same position, and a player only chooses among positions.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::movegen::chains::{Histogram, Tally, Walker};
use crate::movegen::{MAX_TURNS, general, null_allowed, pieces};
use crate::position::Position;
use crate::square::Square;
use crate::square_set::SquareSet;

/// One result of a turn: the position after it and what led there.
#[derive(Clone, Copy, Debug)]
pub struct Child<'r> {
    /// The position after the turn (the other side to move).
    pub position: Position<'r>,
    /// The piece move of the turns that lead here, if they have one.
    pub piece_move: Option<(Square, Square)>,
}

/// Lists results and answers "can the side to move score?"; keeps its buffers from one
/// position to the next, so that it allocates nothing once warmed up.
pub struct Results<'r> {
    walker: Option<Walker<'r>>,
    /// The walk steps allowed per position.
    budget: u64,
    /// When walks must stop, however many steps they have left.
    deadline: Option<Instant>,
    moves: Vec<(Square, Square)>,
    base: Box<Histogram>,
    scratch: Box<Histogram>,
    /// Whether the last walk ran out of its steps (or was stopped by the deadline).
    exhausted: bool,
    /// The turns of the last position filled (saturating).
    turns: u64,
}

impl Default for Results<'_> {
    fn default() -> Self {
        Results::new()
    }
}

impl<'r> Results<'r> {
    /// A generator with empty buffers.
    #[must_use]
    pub fn new() -> Self {
        Results {
            walker: None,
            // A bound on the work, against definitions whose kick chains explode: past it, the
            // results are incomplete rather than late. A walk takes at most one step per turn
            // (and one for the empty chain), so a position kickoff plays is always complete.
            budget: MAX_TURNS + 2,
            deadline: None,
            moves: Vec::new(),
            base: Box::new(Histogram::new()),
            scratch: Box::new(Histogram::new()),
            exhausted: false,
            turns: 0,
        }
    }

    /// A generator whose walks take at most `budget` steps per position.
    pub(crate) fn bounded(budget: u64) -> Self {
        Results { budget, ..Results::new() }
    }

    /// Stops every walk at `deadline` (none: walks end when their steps do): the results of a
    /// walk stopped by the clock are incomplete, and [`Results::timed_out`] says so.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The states a walk of rules beyond Boyer's family may take per position: the steps
    /// allowed, [`general::STATES_PER_TURN`] each.
    pub(crate) fn states(&self) -> u64 {
        self.budget.saturating_mul(general::STATES_PER_TURN)
    }

    /// Whether the deadline has passed.
    #[must_use]
    pub fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the last position's walk ran out of its steps (its results are incomplete).
    #[must_use]
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// The number of turns that lead to the results [`Results::fill`] gave last (the forced
    /// pass counted as one turn): a walk counts results, and a position may have far more
    /// turns than results, more than [`MAX_TURNS`] with a walk well within its steps.
    #[must_use]
    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// Walks every turn of `pos`, calling `each` with every distinct (piece move, final ball
    /// square) pair and its number of turns; returns whether there was any (without any, the
    /// side must pass).
    pub(crate) fn each(
        &mut self,
        pos: &Position<'r>,
        mut each: impl FnMut(Option<(Square, Square)>, Square, u64),
    ) -> bool {
        let mut any = false;
        self.each_until(pos, |m, s, n| {
            any = true;
            each(m, s, n);
            ControlFlow::Continue(())
        });
        any
    }

    /// [`Results::each`], the pairs without a piece move first, stopping as soon as `each`
    /// breaks: whether it did.
    pub(crate) fn each_until(
        &mut self,
        pos: &Position<'r>,
        mut each: impl FnMut(Option<(Square, Square)>, Square, u64) -> ControlFlow<()>,
    ) -> bool {
        let mut walker = Walker::reuse(self.walker.take(), pos);
        walker.budget = self.budget;
        walker.deadline = self.deadline;
        self.base.reset();
        walker.walk_tracked(pos.kicked_ball(), &mut *self.base);
        // Without a move, the empty chain is the null turn: it counts only where allowed.
        let skip = (!null_allowed(pos)).then_some(pos.kicked_ball());
        let mut stopped = self
            .base
            .iter()
            .map(|(s, n)| (s, n - u64::from(skip == Some(s))))
            .any(|(s, n)| n > 0 && each(None, s, n).is_break());
        if !stopped {
            self.moves.clear();
            pieces::piece_moves(pos, &mut self.moves);
            let moves = std::mem::take(&mut self.moves);
            stopped = walker.each_move_until(
                pos.kicked_ball(),
                &moves,
                &*self.base,
                &mut *self.scratch,
                |m, hist| {
                    for (s, n) in hist.iter() {
                        each(Some(m), s, n)?;
                    }
                    ControlFlow::Continue(())
                },
            );
            self.moves = moves;
        }
        self.exhausted = walker.budget == 0;
        self.walker = Some(walker);
        stopped
    }

    /// Every distinct position the side to move can leave after one turn (goals included), in
    /// `out` (emptied first); the forced pass when there is no turn; nothing when the game is
    /// over.
    pub fn fill(&mut self, pos: &Position<'r>, out: &mut Vec<Child<'r>>) {
        out.clear();
        self.exhausted = false;
        self.turns = 0;
        if pos.is_goal() {
            return;
        }
        if !pos.rules.tables().walks_chains() {
            // The walk counts states; past its bound it gives nothing, and
            // [`Results::exhausted`] says so.
            let Ok(found) = general::results(pos, self.states()) else {
                self.exhausted = true;
                return;
            };
            self.turns = found.iter().fold(0, |all, r| all.saturating_add(r.turns));
            out.extend(found.into_iter().map(|r| Child {
                position: r.position,
                piece_move: r.piece_move.map(|m| (m.from, m.to)),
            }));
            return;
        }
        let mut turns = 0u64;
        let any = self.each(pos, |piece_move, ball, n| {
            turns = turns.saturating_add(n);
            let mut position = *pos;
            if let Some((from, to)) = piece_move {
                position.move_piece(from, to);
            }
            position.move_ball(ball);
            position.end_turn();
            out.push(Child { position, piece_move });
        });
        self.turns = turns;
        if !any {
            let mut position = *pos;
            position.end_turn();
            out.push(Child { position, piece_move: None });
            self.turns = 1;
        }
    }

    /// Calls `each` with every square the side to move can leave the ball on this turn, each
    /// once, the squares reached without a piece move first, until `each` breaks; returns
    /// whether it did. Nothing when the game is over or the side can only pass. For Boyer's
    /// family (turns walked as kick chains) only.
    pub(crate) fn ball_squares_until(
        &mut self,
        pos: &Position<'r>,
        mut each: impl FnMut(Square) -> ControlFlow<()>,
    ) -> bool {
        debug_assert!(pos.rules.tables().walks_chains());
        self.exhausted = false;
        if pos.is_goal() {
            return false;
        }
        let mut seen = SquareSet::EMPTY;
        self.each_until(
            pos,
            |_, s, _| {
                if seen.insert(s) { each(s) } else { ControlFlow::Continue(()) }
            },
        )
    }

    /// Every square the side to move can leave the ball on this turn, each once, in `out`
    /// (emptied first); empty when the game is over or the side can only pass.
    pub fn ball_squares(&mut self, pos: &Position<'r>, out: &mut Vec<Square>) {
        out.clear();
        self.exhausted = false;
        if pos.is_goal() {
            return;
        }
        let mut seen = crate::square_set::SquareSet::EMPTY;
        if !pos.rules.tables().walks_chains() {
            let mut children = Vec::new();
            self.fill(pos, &mut children);
            for ball in children.iter().filter_map(|c| c.position.ball) {
                if seen.insert(ball) {
                    out.push(ball);
                }
            }
            return;
        }
        self.each(pos, |_, ball, _| {
            if seen.insert(ball) {
                out.push(ball);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::Results;
    use crate::position::Position;

    #[test]
    fn exhausted_describes_the_last_walk() {
        let chessball = crate::definition::load("chessball-1957").unwrap();
        let boyer = crate::definition::load("boyer-1951").unwrap();
        let start = Position::start(&chessball.rules);
        let kings = Position::from_fen(&boyer.rules, "k8/9/9/9/4a4/9/9/9/K8 w 7").unwrap();
        let scored =
            Position::from_fen(&boyer.rules, "rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 7").unwrap();
        let mut results = Results::bounded(4);
        results.fill(&start, &mut Vec::new());
        assert!(results.exhausted());
        results.each(&kings, |_, _, _| {});
        assert!(!results.exhausted());
        results.fill(&start, &mut Vec::new());
        results.ball_squares(&kings, &mut Vec::new());
        assert!(!results.exhausted());
        results.fill(&start, &mut Vec::new());
        results.ball_squares(&scored, &mut Vec::new());
        assert!(!results.exhausted());
    }

    #[test]
    fn turns_are_counted_as_the_turn_count_counts_them() {
        let near2m = crate::definition::load("tests/data/hostile/near2m.toml").unwrap();
        let positions = [
            ("boyer-1951", "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0"),
            ("vchess", "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0"),
            ("boyer-1951", "k8/9/9/9/4a4/9/9/9/K8 w 7"),
            ("chessball-1957", ""),
            ("vchess-ball", ""),
        ];
        for (variant, fen) in positions {
            let def = crate::definition::load(variant).unwrap();
            let pos = if fen.is_empty() {
                Position::start(&def.rules)
            } else {
                Position::from_fen(&def.rules, fen).unwrap()
            };
            let mut results = Results::new();
            results.fill(&pos, &mut Vec::new());
            let counted = crate::movegen::count_turns(&pos).unwrap();
            assert_eq!(results.turns(), counted, "{variant} {fen}");
        }
        // Just under the limit: far fewer results than turns.
        let pos = Position::start(&near2m.rules);
        let mut results = Results::new();
        let mut out = Vec::new();
        results.fill(&pos, &mut out);
        assert_eq!(results.turns(), 1_997_829);
        assert!(out.len() < 100_000, "{} results", out.len());
    }
}
