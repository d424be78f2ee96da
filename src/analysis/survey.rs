//! Forced goals over every start of a variant: each random setup (Black mirroring White), or
//! the one start position, solved for both sides on every core.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::analysis::solve::{SolveLimits, Verdict, solve, solve_reply};
use crate::position::{Placement, Position};
use crate::rules::Rules;
use crate::setup::{self, SetupNumber};

/// The most setups a survey goes through.
pub const MAX_SETUPS: u128 = 100_000;

/// What the solver says of one start: the fewest turns in which each side forces a goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartVerdict {
    /// The setup's number (none for a variant's single start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The start position.
    pub fen: String,
    /// The fewest turns in which White (to move) forces a goal, if within the bound.
    pub white: Option<u32>,
    /// The fewest turns in which Black (moving second) forces a goal, if within the bound.
    pub black: Option<u32>,
    /// Whether a side's answer is unknown (a position with too many turns, or the limits).
    pub unknown: bool,
}

/// The starts a survey solves: every setup of a variant whose Black mirrors White, else the
/// start position alone.
#[must_use]
pub fn starts(rules: &Rules) -> Vec<(Option<SetupNumber>, Position<'_>)> {
    let Some(random) = rules.random_setup() else {
        return vec![(None, Position::start(rules))];
    };
    let count = setup::count(rules, random);
    if random.black_independent() || count > MAX_SETUPS {
        return vec![(None, Position::start(rules))];
    }
    (0..count)
        .filter_map(|n| {
            let number = SetupNumber { white: n, black: None };
            Some((Some(number), setup::position(rules, random, number).ok()?))
        })
        .collect()
}

/// Solves one start for both sides within `turns`.
///
/// Where the first goal ends the game, a forced goal of the side to move settles the other
/// side's question without a search: every defence of the proof was tried, a goal of the
/// defender's among them, and none came before the attacker's goal, which ends the game.
#[must_use]
pub fn verdict(
    number: Option<SetupNumber>,
    pos: &Position<'_>,
    turns: u32,
    limits: SolveLimits,
) -> StartVerdict {
    let white = solve(pos, turns, limits);
    let first_goal_ends = !pos.rules().end().keeps_score();
    let (black, black_unknown) = if white.verdict == Verdict::Win && first_goal_ends {
        (None, false)
    } else {
        let black = solve_reply(pos, turns, limits);
        (black.turns, black.verdict == Verdict::Unknown)
    };
    StartVerdict {
        setup: number.map(|n| n.to_string()),
        fen: pos.fen(),
        white: white.turns,
        black,
        unknown: white.verdict == Verdict::Unknown || black_unknown,
    }
}

/// For each start, the earlier start that is its mirror image, where the rules read the same in
/// a mirror ([`Rules::reflects`]): the two have the same forced goals, so one is solved for
/// both.
#[must_use]
pub fn twins(rules: &Rules, all: &[(Option<SetupNumber>, Position<'_>)]) -> Vec<Option<usize>> {
    if !rules.reflects() {
        return vec![None; all.len()];
    }
    let board = rules.board();
    let placements: HashMap<Placement, usize> =
        all.iter().enumerate().map(|(i, (_, pos))| (pos.placement(), i)).collect();
    all.iter()
        .enumerate()
        .map(|(i, (_, pos))| {
            let image = pos.placement().reflected(board);
            placements.get(&image).copied().filter(|&j| j < i)
        })
        .collect()
}

/// The starts of a survey ([`starts`]) as jobs: the mirror image of an earlier start
/// ([`twins`]) is not a job of its own but takes that start's verdict.
pub struct Survey<'r> {
    all: Vec<(Option<SetupNumber>, Position<'r>)>,
    twins: Vec<Option<usize>>,
}

impl<'r> Survey<'r> {
    /// The starts of `rules` and their twins.
    #[must_use]
    pub fn new(rules: &'r Rules) -> Survey<'r> {
        let all = starts(rules);
        let twins = twins(rules, &all);
        Survey { all, twins }
    }

    /// The jobs: the indices of the starts that are solved (in order).
    #[must_use]
    pub fn jobs(&self) -> Vec<usize> {
        (0..self.all.len()).filter(|&i| self.twins[i].is_none()).collect()
    }

    /// Whether the starts are the variant's setups (else the start position alone).
    #[must_use]
    pub fn covers_setups(&self) -> bool {
        self.all.first().is_some_and(|(number, _)| number.is_some())
    }

    /// Solves the jobs `jobs` within `turns` on `threads` threads, each start given
    /// `per_start` time from when its solving begins (a shared deadline would leave the later
    /// starts unknown); `done` is called with each job and its verdict as it is found.
    pub fn solve(
        &self,
        jobs: &[usize],
        turns: u32,
        threads: usize,
        per_start: Option<Duration>,
        done: &(dyn Fn(usize, StartVerdict) + Sync),
    ) {
        crate::parallel::for_each(
            threads,
            jobs,
            || (),
            |(), &i| {
                let (number, pos) = &self.all[i];
                let deadline = per_start.and_then(|t| Instant::now().checked_add(t));
                done(i, verdict(*number, pos, turns, SolveLimits { max_nodes: None, deadline }));
            },
        );
    }

    /// Every start's verdict (in setup order) from the jobs' verdicts (`solved[i]` for job
    /// `i`); none if a job's is missing.
    #[must_use]
    pub fn verdicts(&self, solved: &HashMap<usize, StartVerdict>) -> Option<Vec<StartVerdict>> {
        (0..self.all.len())
            .map(|i| {
                let v = solved.get(&self.twins[i].unwrap_or(i))?;
                let (number, pos) = &self.all[i];
                Some(StartVerdict {
                    setup: number.map(|n| n.to_string()),
                    fen: pos.fen(),
                    ..v.clone()
                })
            })
            .collect()
    }
}

/// Every start of the variant solved within `turns` on `threads` threads (in setup order), each
/// start given `per_start` time from when its solving begins; `progress` is called with the
/// number done after each start. A start that is the mirror image of an earlier one ([`twins`])
/// takes that one's verdict.
pub fn forced_goals(
    rules: &Rules,
    turns: u32,
    threads: usize,
    per_start: Option<Duration>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<StartVerdict> {
    let survey = Survey::new(rules);
    let jobs = survey.jobs();
    let solved = Mutex::new(HashMap::new());
    survey.solve(&jobs, turns, threads, per_start, &|i, v| {
        let mut solved = solved.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        solved.insert(i, v);
        progress(solved.len(), jobs.len());
    });
    let solved = solved.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    survey.verdicts(&solved).unwrap_or_default()
}
