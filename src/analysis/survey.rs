//! Forced goals over every start of a variant: each random setup (Black mirroring White), or
//! the one start position, solved for both sides on every core.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::analysis::solve::{SolveLimits, Verdict, solve, solve_reply};
use crate::position::{Placement, Position};
use crate::rules::Rules;
use crate::setup::{self, SetupNumber};

/// The most setups a survey goes through.
pub const MAX_SETUPS: u128 = 100_000;

/// What the solver says of one start: the fewest turns in which each side forces a goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// Every start of the variant solved within `turns` on `threads` threads (in setup order), each
/// start given `per_start` time from when its solving begins (a shared deadline would leave the
/// later starts unknown); `progress` is called with the number done after each start. A start
/// that is the mirror image of an earlier one ([`twins`]) takes that one's verdict.
pub fn forced_goals(
    rules: &Rules,
    turns: u32,
    threads: usize,
    per_start: Option<Duration>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<StartVerdict>, Duration) {
    let start = Instant::now();
    let all = starts(rules);
    let twins = twins(rules, &all);
    let solved: Vec<usize> = (0..all.len()).filter(|&i| twins[i].is_none()).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out = Mutex::new(vec![None; all.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while let Some(&i) = solved.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (number, pos) = &all[i];
                    let deadline = per_start.and_then(|t| Instant::now().checked_add(t));
                    let limits = SolveLimits { max_nodes: None, deadline };
                    let v = verdict(*number, pos, turns, limits);
                    out.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(v);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, solved.len());
                }
            });
        }
    });
    let mut out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    for (i, twin) in twins.iter().enumerate() {
        if let Some(&j) = twin.as_ref() {
            let (number, pos) = &all[i];
            out[i] = out[j].clone().map(|v| StartVerdict {
                setup: number.map(|n| n.to_string()),
                fen: pos.fen(),
                ..v
            });
        }
    }
    (out.into_iter().flatten().collect(), start.elapsed())
}
