//! The horizon of the search: a goal in one if the side to move has one, else the evaluation
//! with how near the side can bring the ball. Where pieces are captured, the captures and
//! steals of the side to move are searched on past the horizon (a quiescence search), so that
//! a piece left where it is taken is not counted as kept.

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
    pub(super) fn leaf(&mut self, pos: &Position<'r>, ply: u32, alpha: i32, beta: i32) -> i32 {
        // The walk of the side's turns can only raise the static value (a goal, or bonuses for
        // how near and how widely it can move the ball): a static value at or above beta is
        // already a cut-off, as a lower bound.
        let fixed = self.eval.static_value(pos);
        if fixed >= beta {
            return fixed;
        }
        if !pos.rules.tables().walks_chains() {
            return self.leaf_by_results(pos, ply, (alpha, beta), QUIESCENCE);
        }
        let key = pos.hash();
        let slot = key as usize & (self.leaves.len() - 1);
        if let (hash, value) = self.leaves[slot]
            && hash == key
        {
            return if value == SCORES { WIN - ply as i32 - 1 } else { value };
        }
        let (me, ball, rules) = (pos.side, pos.kicked_ball(), pos.rules);
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
    /// whether it can score a point now. Where pieces are captured, the value is at least that
    /// of the side's best capture or steal (searched `quiet` turns on, within the window).
    fn leaf_by_results(
        &mut self,
        pos: &Position<'r>,
        ply: u32,
        (mut alpha, beta): (i32, i32),
        quiet: u32,
    ) -> i32 {
        let me = pos.side;
        // Without a ball there is no reach: the race of the pieces is in the static value.
        let start = pos.ball.map_or(0, |ball| self.eval.to_goal(me, ball));
        let (mut reach, mut point, mut win) = (start, false, false);
        let mut squares = crate::square_set::SquareSet::EMPTY;
        let captures = self.eval.captures();
        let (mut ends, mut tactical) = (0, Vec::new());
        // The same bound as the listing of the position's results.
        let budget = self.results.states();
        let walked = crate::movegen::general::each_end(pos, budget, |mid, _, _| {
            if mid.scored() == Some(me) {
                point = true;
                // A point that reaches the match's goals, or ends a one-goal game, wins.
                win = mid.finish().outcome().and_then(Outcome::winner) == Some(me);
                return win;
            }
            let at = mid.position();
            if let Some(ball) = at.ball {
                squares.insert(ball);
                reach = reach.min(self.eval.to_goal(me, ball));
            }
            if captures {
                ends += 1;
                if eval::takes(pos, at, me) {
                    let child = mid.finish();
                    if tactical.iter().all(|(_, p): &(i32, Position<'r>)| p.hash() != child.hash())
                    {
                        tactical.push((self.eval.static_value(&child), child));
                    }
                }
            }
            false
        });
        self.stopped |= walked.is_err() && self.out_of_time();
        self.truncated |= walked.is_err();
        if win {
            return WIN - ply as i32 - 1;
        }
        let mut value = self.eval.with_reach(pos, reach, squares.len())
            + if point { eval::POINT / 2 } else { 0 };
        if !captures {
            return value;
        }
        let threats = i32::try_from(tactical.len()).unwrap_or(i32::MAX);
        value += eval::horizon_captures(self.eval.weights(), threats, ends);
        if quiet == 0 || value >= beta || self.stopped {
            return value;
        }
        // The side may also stand: its value is at least the static one.
        alpha = alpha.max(value);
        // The best for the side first (the lowest values for the other side), the few best alone.
        tactical.sort_by_key(|&(v, _)| v);
        tactical.truncate(TACTICAL);
        for (_, child) in tactical {
            let v = match child.outcome().map(|o| o.winner()) {
                Some(Some(w)) if w == me => WIN - ply as i32 - 1,
                Some(Some(_)) => -(WIN - ply as i32 - 1),
                Some(None) => 0,
                None if self.repeats(child.hash()) => 0,
                None => -self.leaf_by_results(&child, ply + 1, (-beta, -alpha), quiet - 1),
            };
            if self.stopped {
                break;
            }
            value = value.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        value
    }
}

/// How many turns of captures and steals the horizon searches on (see
/// [`Searcher::leaf_by_results`]).
const QUIESCENCE: u32 = 4;

/// How many captures and steals of a position the horizon searches on: the best by their
/// static values (in a variant where most turns capture, each is a walk of the other side's
/// turns).
const TACTICAL: usize = 4;

#[cfg(test)]
mod tests {
    use crate::definition::load_shipped;
    use crate::position::Position;
    use crate::search::{Limits, Searcher};

    /// vchess.club's Ball: White's queen on d3 can take the pawn on d6, which the pawn on e7
    /// takes back. One turn deep, only the search on past the horizon sees the queen lost.
    #[test]
    fn a_capture_lost_to_a_recapture_past_the_horizon_is_not_played() {
        let rules = load_shipped("vchess-ball").unwrap().rules;
        let pos = Position::from_fen(&rules, "r8/9/4p4/3p5/8a/9/3Q5/9/R8 w 0 - -").unwrap();
        let report = Searcher::new(&rules).search(&pos, &[], Limits::level(1)).unwrap();
        let turn = report.turn.unwrap().to_string();
        assert_ne!(turn, "Qd3-d6", "{turn}");
        // Without the pawn on e7, the pawn on d6 is free to take, and it is taken.
        let pos = Position::from_fen(&rules, "r8/9/9/3p5/8a/9/3Q5/9/R8 w 0 - -").unwrap();
        let report = Searcher::new(&rules).search(&pos, &[], Limits::level(1)).unwrap();
        assert_eq!(report.turn.unwrap().to_string(), "Qd3-d6");
    }
}
