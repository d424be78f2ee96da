//! The horizon of the search: a goal in one if the side to move has one, else the evaluation
//! with how near the side can bring the ball.

use std::ops::ControlFlow;

use crate::eval;
use crate::position::{Outcome, Position};
use crate::search::{Searcher, WIN};

/// The horizon value of a position whose side to move scores at once (the score then depends
/// on the ply).
const SCORES: i32 = i32::MIN;

impl<'r> Searcher<'r> {
    /// The horizon: a goal in one if the side to move has one, else the evaluation with how
    /// near it can bring the ball.
    pub(super) fn leaf(&mut self, pos: &Position<'r>, ply: u32, beta: i32) -> i32 {
        // The walk of the side's turns can only raise the static value (a goal, or bonuses for
        // how near and how widely it can move the ball): a static value at or above beta is
        // already a cut-off, as a lower bound.
        let fixed = self.eval.static_value(pos);
        if fixed >= beta {
            return fixed;
        }
        if !pos.rules.tables().walks_chains() {
            return self.leaf_by_results(pos, ply);
        }
        let key = pos.hash();
        let slot = key as usize & (self.leaves.len() - 1);
        if let (hash, value) = self.leaves[slot]
            && hash == key
        {
            return if value == SCORES { WIN - ply as i32 - 1 } else { value };
        }
        let (me, ball, rules) = (pos.side, pos.ball, pos.rules);
        let eval = &self.eval;
        let (mut reach, mut count, mut scores) = (eval.to_goal(me, ball), 0, false);
        // Each square found can only raise the value: the walk stops once it reaches beta.
        let cut = self.results.ball_squares_until(pos, |s| {
            if rules.scorer(s) == Some(me) {
                scores = true;
                return ControlFlow::Break(());
            }
            reach = reach.min(eval.to_goal(me, s));
            count += 1;
            if fixed + eval.reach_bonus(me, ball, reach, count) >= beta {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        self.stopped |= self.results.timed_out();
        self.truncated |= self.results.exhausted();
        let value = if scores { SCORES } else { fixed + eval.reach_bonus(me, ball, reach, count) };
        // A walk that stopped at beta gave a lower bound, not the value.
        if (scores || !cut) && !self.results.exhausted() && !self.stopped {
            self.leaves[slot] = (key, value);
        }
        if value == SCORES { WIN - ply as i32 - 1 } else { value }
    }

    /// The horizon for rules beyond Boyer's family, from the results of the position: a win in
    /// one if there is one, else the evaluation with how near the side can bring the ball and
    /// whether it can score a point now.
    fn leaf_by_results(&mut self, pos: &Position<'r>, ply: u32) -> i32 {
        let me = pos.side;
        let start = self.eval.to_goal(me, pos.ball);
        let (mut reach, mut point, mut win) = (start, false, false);
        let mut squares = crate::square_set::SquareSet::EMPTY;
        // The same bound as the listing of the position's results.
        let budget = self.results.states();
        let walked = crate::movegen::general::each_end(pos, budget, |mid, _, _| {
            if mid.scored() == Some(me) {
                point = true;
                // A point that reaches the match's goals, or ends a one-goal game, wins.
                win = mid.finish().outcome().and_then(Outcome::winner) == Some(me);
                return win;
            }
            let ball = mid.position().ball;
            squares.insert(ball);
            reach = reach.min(self.eval.to_goal(me, ball));
            false
        });
        self.stopped |= walked.is_err() && self.out_of_time();
        self.truncated |= walked.is_err();
        if win {
            return WIN - ply as i32 - 1;
        }
        self.eval.with_reach(pos, reach, squares.len()) + if point { eval::POINT / 2 } else { 0 }
    }
}
