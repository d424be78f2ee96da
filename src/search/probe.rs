//! Exact forced-goal checks around a search on the clock, made by the solver
//! ([`crate::analysis::solve`]), which proves what the alpha-beta search can only estimate:
//! before the search, a goal the side to move forces within [`ATTACK_TURNS`] of its turns is
//! played at once; after it, a chosen result from which the other side forces a goal within
//! [`DEFENCE_TURNS`] is exchanged for the best one from which it is not proved to.

use std::time::Instant;

use crate::analysis::{SolveLimits, Solver, Verdict};
use crate::movegen::Child;
use crate::position::Position;

/// The most own turns of a forced goal looked for before the search.
pub(super) const ATTACK_TURNS: u32 = 3;

/// The most turns of the other side's forced goal looked for after the chosen result.
pub(super) const DEFENCE_TURNS: u32 = 3;

/// The shares of a search's time, in percent: proving a forced goal before the search, the
/// search, and checking its choice after it.
pub(super) const SHARES: (u32, u32, u32) = (30, 30, 40);

/// The first result of a goal the side to move in `pos` forces within [`ATTACK_TURNS`], with
/// the number of its turns and of the positions the proof expanded, when the solver proves one
/// before `deadline`.
pub(super) fn forced_goal<'r>(
    pos: &Position<'r>,
    deadline: Instant,
) -> Option<(Child<'r>, u32, u64)> {
    let limits = SolveLimits { max_nodes: None, deadline: Some(deadline) };
    let mut solver = Solver::new(pos, pos.side(), limits);
    let found = solver.solve(pos, ATTACK_TURNS);
    match found.verdict {
        Verdict::Win => Some((found.first?, found.turns?, found.nodes)),
        Verdict::NoWin | Verdict::Unknown => None,
    }
}

/// Which of `candidates` (results of `pos`, best first) to choose: the first after which the
/// other side is not proved to force a goal within [`DEFENCE_TURNS`] before `deadline` (a
/// result not settled in time counts as safe: only a proof sets a result aside). `None` when
/// every candidate loses so: then the search's choice stands.
pub(super) fn safe_choice(
    pos: &Position<'_>,
    candidates: &[Child<'_>],
    deadline: Instant,
) -> Option<usize> {
    let limits = SolveLimits { max_nodes: None, deadline: Some(deadline) };
    let mut solver = Solver::new(pos, !pos.side(), limits);
    for (i, child) in candidates.iter().enumerate() {
        if Instant::now() >= deadline {
            return Some(i);
        }
        match solver.solve(&child.position, DEFENCE_TURNS).verdict {
            Verdict::NoWin | Verdict::Unknown => return Some(i),
            Verdict::Win => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::analysis::solve_reply;
    use crate::definition::load_shipped;
    use crate::movegen::Results;

    /// A deadline no test reaches: the probes' answers must not depend on the clock.
    fn far() -> Instant {
        Instant::now() + Duration::from_secs(3600)
    }

    #[test]
    fn a_forced_goal_is_found_with_its_first_turn() {
        let rules = load_shipped("football-960").unwrap().rules;
        // White forces a goal within three turns (the first is Qa5), not within two.
        let pos = Position::from_fen(&rules, "qk1r1bnnb/9/9/9/9/5B3/2r6/9/QKRR1BNNa w 2").unwrap();
        let (first, turns, _) = forced_goal(&pos, far()).expect("a forced goal");
        assert_eq!(turns, 3);
        let after = solve_reply(&first.position, 2, SolveLimits::default());
        assert_eq!(
            after.verdict,
            Verdict::Win,
            "White still forces it after {}",
            first.position.fen()
        );
        // From Boyer's start no side forces a goal within three turns.
        let rules = load_shipped("boyer-1951").unwrap().rules;
        assert!(forced_goal(&Position::start(&rules), far()).is_none());
    }

    #[test]
    fn a_result_that_loses_by_force_is_set_aside() {
        let rules = load_shipped("football-960").unwrap().rules;
        let pos = Position::from_fen(&rules, "qkrr1bnnb/9/9/9/9/5B3/9/9/QKRR1BNNa b 1").unwrap();
        let mut children = Vec::new();
        Results::new().fill(&pos, &mut children);
        let after = |fen: &str| {
            *children.iter().find(|c| c.position.fen() == fen).expect("a result of the position")
        };
        // After Rc3 White forces a goal within three turns; after Qe5 it does not.
        let rc3 = after("qk1r1bnnb/9/9/9/9/5B3/2r6/9/QKRR1BNNa w 2");
        let qe5 = after("1krr1bnnb/9/9/9/4q4/5B3/9/9/QKRR1BNNa w 2");
        assert_eq!(safe_choice(&pos, &[rc3, qe5], far()), Some(1));
        assert_eq!(safe_choice(&pos, &[qe5, rc3], far()), Some(0));
        assert_eq!(safe_choice(&pos, &[rc3], far()), None);
        // A deadline already passed proves nothing: the first candidate stands.
        assert_eq!(safe_choice(&pos, &[rc3, qe5], Instant::now()), Some(0));
    }
}
