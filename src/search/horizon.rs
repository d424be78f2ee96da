//! The horizon of the search: a goal in one if the side to move has one, else the evaluation
//! with how near the side can bring the ball.

use crate::position::{Outcome, Position};
use crate::search::{Searcher, WIN, eval};

impl<'r> Searcher<'r> {
    /// The horizon: a goal in one if the side to move has one, else the evaluation with how
    /// near it can bring the ball.
    pub(super) fn leaf(&mut self, pos: &Position<'r>, ply: u32) -> i32 {
        if !pos.rules.tables().classic {
            return self.leaf_by_results(pos, ply);
        }
        let mut squares = std::mem::take(&mut self.squares);
        self.results.ball_squares(pos, &mut squares);
        self.stopped |= self.results.timed_out();
        self.truncated |= self.results.exhausted();
        let me = pos.side;
        let rules = pos.rules;
        let mut reach = self.eval.to_goal(me, pos.ball);
        let mut scores = false;
        for &s in &squares {
            if rules.scorer(s) == Some(me) {
                scores = true;
                break;
            }
            reach = reach.min(self.eval.to_goal(me, s));
        }
        let count = squares.len();
        self.squares = squares;
        if scores { WIN - ply as i32 - 1 } else { self.eval.with_reach(pos, reach, count) }
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
