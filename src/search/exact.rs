//! The exact solver beside the search (levels 3 and 4, `Limits::exact`): a forced goal of the
//! side to move is played as the solver proved it, and a chosen turn after which the opponent
//! forces a goal is replaced by one after which it does not, where one is found in time.
//!
//! The search's reductions and its horizon can hide a goal forced two or three turns away
//! that the solver, which weighs every defence, proves in a fraction of a second. The solver
//! counts repetitions from the searched position on, not from the game's start.

use std::time::Instant;

use super::{Root, Searcher, WIN, WIN_BOUND};
use crate::analysis::{SolveLimits, Solver, Verdict, solve};
use crate::eval::POINT;
use crate::movegen::Child;
use crate::position::Position;

/// A forced goal found by the solver: the first result, its score, the turns it takes and the
/// positions the solver expanded.
pub(super) struct Forced<'r> {
    pub child: Child<'r>,
    pub score: i32,
    pub turns: u32,
    pub nodes: u64,
}

/// The solver's limits: no node bound, `deadline`.
fn until(deadline: Instant) -> SolveLimits {
    SolveLimits { max_nodes: None, deadline: Some(deadline) }
}

impl<'r> Searcher<'r> {
    /// A goal the side to move in `pos` forces within `turns` of its turns, proved before
    /// `deadline`. Its score is a win's when the goal ends the game; in a match of points where
    /// it does not, the point's worth added to the first result's value.
    pub(super) fn forced_goal(
        &self,
        pos: &Position<'r>,
        turns: u32,
        deadline: Instant,
    ) -> Option<Forced<'r>> {
        let found = solve(pos, turns, until(deadline));
        let k = found.turns.filter(|_| found.verdict == Verdict::Win)?;
        let child = found.first?;
        let score = if wins_with_next_point(pos) {
            WIN - (2 * i32::try_from(k).ok()? - 1)
        } else {
            (POINT - self.eval.static_value(&child.position)).min(WIN_BOUND - 1)
        };
        Some(Forced { child, score, turns: k, nodes: found.nodes })
    }

    /// The chosen result `best` (with its score) unless the opponent forces a goal within
    /// `turns` after it: then the first result of `root` (best first) after which the solver
    /// proves no such goal before `deadline`, or finds none in time. `best` when every result
    /// checked concedes a goal, or when `best` scores itself. One solver checks them all, so
    /// what it proved after one result serves the others.
    pub(super) fn safe_result(
        root: &Root<'r>,
        best: (Child<'r>, i32),
        turns: u32,
        deadline: Instant,
    ) -> (Child<'r>, i32) {
        if best.1 >= WIN_BOUND {
            return best;
        }
        let opponent = best.0.position.side();
        let mut solver = Solver::new(&best.0.position, opponent, until(deadline));
        if !concedes(&mut solver, &best.0.position, turns) {
            return best;
        }
        let chosen = best.0.position.hash();
        for &(score, child) in root {
            if Instant::now() >= deadline {
                break;
            }
            if child.position.hash() != chosen && !concedes(&mut solver, &child.position, turns) {
                return (child, score);
            }
        }
        best
    }
}

/// Whether the next goal of the side to move in `pos` ends the game: always when the first goal
/// does, in a match when it brings the side's points to the goals that win.
fn wins_with_next_point(pos: &Position<'_>) -> bool {
    let end = pos.rules().end();
    let points = u32::from(pos.score()[pos.side().index()]);
    !end.keeps_score() || (end.goals > 0 && points + 1 >= end.goals)
}

/// Whether the side to move in `pos` (the opponent of the side that chose it) is proved by
/// `solver`, made for that side, to force a goal within `turns` of its turns. A finished game
/// concedes when the side to move in it won (an own goal).
fn concedes<'r>(solver: &mut Solver<'r, '_>, pos: &Position<'r>, turns: u32) -> bool {
    match pos.outcome() {
        Some(outcome) => outcome.winner() == Some(pos.side()),
        None => solver.solve(pos, turns).verdict == Verdict::Win,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{concedes, until};
    use crate::analysis::{SolveLimits, Solver, Verdict, solve};
    use crate::definition::load_shipped;
    use crate::eval;
    use crate::position::Position;
    use crate::search::{Limits, Searcher, goal_in};
    use crate::side::Side;

    /// Far enough that no check here runs out of time.
    fn far() -> Instant {
        Instant::now() + Duration::from_secs(600)
    }

    /// A football-960 middle game where White forces a goal in three turns (`Ne5`) that the
    /// search alone, at one second, does not see.
    const WHITE_FORCES_IN_THREE: &str = "1n1b3k1/4nr3/9/9/9/9/2BQqNb2/3rBRK2/3R1aN2 w 22";

    #[test]
    fn a_forced_goal_is_taken_from_the_solver_with_its_distance() {
        let def = load_shipped("football-960").unwrap();
        let pos = Position::from_fen(&def.rules, WHITE_FORCES_IN_THREE).unwrap();
        assert!(
            Searcher::new(&def.rules).forced_goal(&pos, 2, far()).is_none(),
            "not within two turns"
        );
        let forced =
            Searcher::new(&def.rules).forced_goal(&pos, 3, far()).expect("a goal in three");
        assert_eq!(forced.turns, 3);
        assert_eq!(goal_in(forced.score), Some(3));
        assert_eq!(
            forced.child.position.fen(),
            "1n1b3k1/4nr3/9/9/4N4/9/2BQq1b2/3rBRK2/3R1aN2 b 23"
        );
        // After it, Black cannot stop the goal: White still forces it within two more turns.
        let reply = crate::analysis::solve_reply(&forced.child.position, 2, SolveLimits::default());
        assert_eq!(reply.verdict, Verdict::Win);
    }

    #[test]
    fn a_forced_point_that_does_not_end_the_match_is_not_scored_as_a_win() {
        let def = load_shipped("apo-chessball").unwrap();
        // Black kicks the ball into White's goal this turn (Qe6>e7>d6>d1); three points win.
        let board =
            "***1k1***/2r3b2/9/4p4/3n1n3/9/4b1p2/1R7/2PQ1aP2/9/5N1NB/4P4/9/q1B3R2/***1K1***";
        let searcher = Searcher::new(&def.rules);
        let first = Position::from_fen(&def.rules, &format!("{board} b 0 0-0")).unwrap();
        let forced = searcher.forced_goal(&first, 1, far()).expect("a point in one");
        assert_eq!(forced.turns, 1);
        assert_eq!(goal_in(forced.score), None, "a first point is not the match");
        assert!(forced.score > eval::POINT / 2, "{}", forced.score);
        let last = Position::from_fen(&def.rules, &format!("{board} b 0 0-2")).unwrap();
        let forced = searcher.forced_goal(&last, 1, far()).expect("the third point in one");
        assert_eq!(goal_in(forced.score), Some(1), "the third point wins the match");
    }

    #[test]
    fn the_search_plays_the_solvers_goal_when_asked_to() {
        let def = load_shipped("football-960").unwrap();
        let pos = Position::from_fen(&def.rules, WHITE_FORCES_IN_THREE).unwrap();
        // One turn deep, the search alone sees no goal; a minute gives the solver all it needs.
        let alone = Limits { depth: Some(1), min_depth: 1, ..Limits::default() };
        let report = Searcher::new(&def.rules).search(&pos, &[], alone).unwrap();
        assert_eq!(goal_in(report.score), None);
        let asked = Limits { movetime: Some(Duration::from_secs(60)), exact: 3, ..alone };
        let report = Searcher::new(&def.rules).search(&pos, &[], asked).unwrap();
        assert_eq!(goal_in(report.score), Some(3));
        let turn = report.turn.unwrap();
        assert_eq!(crate::turn_text::names::name(&pos, &turn), "Ne5");
        // Where the game has passed through the position `Ne5` leads to, the search decides.
        let past = [report.result.unwrap().hash()];
        let report = Searcher::new(&def.rules).search(&pos, &past, asked).unwrap();
        assert_eq!(goal_in(report.score), None);
    }

    #[test]
    fn the_search_gives_up_a_turn_that_concedes_a_goal_when_asked_to() {
        let def = load_shipped("football-960").unwrap();
        let pos =
            Position::from_fen(&def.rules, "1nbr1bknr/9/9/9/4q4/3Q5/9/5K3/1NBR1BaNR b 3").unwrap();
        let concedes_in_two =
            |p: &Position<'_>| solve(p, 2, SolveLimits::default()).verdict == Verdict::Win;
        // One turn deep, the search alone chooses `Qh2>i3`, after which White forces a goal.
        let alone = Limits { depth: Some(1), min_depth: 1, ..Limits::default() };
        let report = Searcher::new(&def.rules).search(&pos, &[], alone).unwrap();
        assert!(concedes_in_two(&report.result.unwrap()));
        let asked = Limits { movetime: Some(Duration::from_secs(60)), exact: 2, ..alone };
        let report = Searcher::new(&def.rules).search(&pos, &[], asked).unwrap();
        assert!(!concedes_in_two(&report.result.unwrap()), "{:?}", report.turn);
    }

    #[test]
    fn a_result_that_concedes_a_goal_gives_way_to_the_first_that_does_not() {
        let def = load_shipped("football-960").unwrap();
        let pos = Position::from_fen(&def.rules, "7k1/3nnr3/9/4b4/5N3/9/3QBqb2/3rBRK2/3R1aN2 b 31")
            .unwrap();
        let mut searcher = Searcher::new(&def.rules);
        let root = searcher.root(&pos).unwrap();
        let concedes_in_one =
            |p: &Position<'_>| solve(p, 1, SolveLimits::default()).verdict == Verdict::Win;
        let losing = root.iter().find(|(_, c)| concedes_in_one(&c.position)).expect("a blunder");
        let (chosen, _) = Searcher::safe_result(&root, (losing.1, losing.0), 1, far());
        assert!(!concedes_in_one(&chosen.position), "{}", chosen.position.fen());
        let at =
            root.iter().position(|(_, c)| c.position.hash() == chosen.position.hash()).unwrap();
        assert!(root[..at].iter().all(|(_, c)| concedes_in_one(&c.position)), "the first safe one");
        // A result that does not concede stays.
        let (kept, _) = Searcher::safe_result(&root, (chosen, 0), 1, far());
        assert_eq!(kept.position.hash(), chosen.position.hash());
    }

    #[test]
    fn an_own_goal_concedes_and_a_goal_does_not() {
        let def = load_shipped("boyer-1951").unwrap();
        // Black to move with the ball in Black's goal (White scored), then in White's.
        let scored_by_white =
            Position::from_fen(&def.rules, "rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR b 7").unwrap();
        let mut solver = Solver::new(&scored_by_white, Side::Black, until(far()));
        assert!(!concedes(&mut solver, &scored_by_white, 2));
        let own_goal =
            Position::from_fen(&def.rules, "rnbq1kbnr/9/9/9/9/9/9/9/RNBQaKBNR b 7").unwrap();
        assert!(concedes(&mut solver, &own_goal, 2));
    }
}
