//! Forced goals over every start of a variant: each random setup (Black mirroring White), or
//! the one start position, solved for both sides on every core.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::analysis::solve::{SolveLimits, Verdict, solve, solve_reply};
use crate::position::Position;
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
    if setup::independent_by_default(random) || count > MAX_SETUPS {
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
#[must_use]
pub fn verdict(
    number: Option<SetupNumber>,
    pos: &Position<'_>,
    turns: u32,
    limits: SolveLimits,
) -> StartVerdict {
    let white = solve(pos, turns, limits);
    let black = solve_reply(pos, turns, limits);
    StartVerdict {
        setup: number.map(|n| n.to_string()),
        fen: pos.fen(),
        white: white.turns,
        black: black.turns,
        unknown: white.verdict == Verdict::Unknown || black.verdict == Verdict::Unknown,
    }
}

/// Every start of the variant solved within `turns` on `threads` threads (in setup order), each
/// start given `per_start` time from when its solving begins (a shared deadline would leave the
/// later starts unknown); `progress` is called with the number done after each start.
pub fn forced_goals(
    rules: &Rules,
    turns: u32,
    threads: usize,
    per_start: Option<Duration>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<StartVerdict>, Duration) {
    let start = Instant::now();
    let all = starts(rules);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out = Mutex::new(vec![None; all.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((number, pos)) = all.get(i) else { break };
                    let deadline = per_start.and_then(|t| Instant::now().checked_add(t));
                    let limits = SolveLimits { max_nodes: None, deadline };
                    let v = verdict(*number, pos, turns, limits);
                    out.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(v);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, all.len());
                }
            });
        }
    });
    let out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    (out.into_iter().flatten().collect(), start.elapsed())
}
