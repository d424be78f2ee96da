//! The engine's choice where a position has too many turns to list: a game whose turn is up to
//! five piece moves (Soccer Chess), or kick chains that multiply beyond
//! [`MAX_TURNS`](crate::movegen::MAX_TURNS). The turn is built action by action with a beam:
//! after each action only the most promising states are kept, judged by the evaluation of the
//! position the turn would leave if it ended there. The best ends are then tried against the
//! opponent's best reply, found the same way.

use std::time::Instant;

use crate::eval::Eval;
use crate::movegen::step::Mid;
use crate::movegen::{Action, Turn};
use crate::position::{Outcome, Position};
use crate::search::{Limits, WIN};

/// How wide the beam is and how many ends are tried against a reply, per level of effort.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    /// States kept after each action.
    pub beam: usize,
    /// Ends of the turn tried against the opponent's reply (0: none).
    pub replies: usize,
}

impl Effort {
    /// The effort for search limits: more with more time or depth.
    pub(crate) fn of(limits: Limits) -> Effort {
        let deep = limits.depth.is_none_or(|d| d >= 2);
        let timed = limits.movetime.is_some_and(|t| t.as_millis() >= 500);
        match (deep, timed) {
            (false, _) => Effort { beam: 24, replies: 0 },
            (true, false) => Effort { beam: 32, replies: 8 },
            (true, true) => Effort { beam: 48, replies: 16 },
        }
    }
}

/// A state of the turn being built, with its actions and its value if the turn ended there.
#[derive(Clone)]
struct Partial<'r> {
    mid: Mid<'r>,
    actions: Vec<Action>,
    value: i32,
}

/// The value for the side that just moved of the position a turn leaves.
fn value_of(eval: &Eval, before: &Position<'_>, mid: &Mid<'_>) -> i32 {
    let after = mid.finish();
    let me = before.side();
    match after.outcome().and_then(Outcome::winner) {
        Some(winner) if winner == me => return WIN - 1,
        Some(_) => return -(WIN - 1),
        None => {}
    }
    -eval.static_value(&after)
}

/// The best turns of `pos` found by a beam of `beam` states, best first, at most `keep` of
/// them, with their values; stops at `deadline`.
fn best_turns<'r>(
    eval: &Eval,
    pos: &Position<'r>,
    beam: usize,
    keep: usize,
    deadline: Option<Instant>,
) -> Vec<(Turn, Position<'r>, i32)> {
    let start = Mid::start(pos);
    let mut ends: Vec<Partial<'r>> = Vec::new();
    if crate::movegen::null_allowed(pos) {
        ends.push(Partial { mid: start, actions: Vec::new(), value: value_of(eval, pos, &start) });
    }
    let mut layer = vec![Partial { mid: start, actions: Vec::new(), value: 0 }];
    let mut actions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while !layer.is_empty() {
        let mut next: Vec<Partial<'r>> = Vec::new();
        for p in &layer {
            actions.clear();
            p.mid.actions(&mut actions);
            if !p.actions.is_empty() && p.mid.may_stop(!actions.is_empty()) {
                ends.push(p.clone());
            }
            for &a in &actions {
                let mid = p.mid.apply(a);
                if !seen.insert(mid.key()) {
                    continue;
                }
                let mut list = p.actions.clone();
                list.push(a);
                next.push(Partial { value: value_of(eval, pos, &mid), mid, actions: list });
            }
        }
        next.sort_by_key(|p| std::cmp::Reverse(p.value));
        next.truncate(beam);
        layer = next;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            ends.extend(layer.drain(..).filter(|p| p.mid.may_stop(true)));
        }
    }
    if ends.is_empty() {
        // A side with no turn passes (or has none, where that draws).
        return if pos.rules().end().no_moves_draws() {
            Vec::new()
        } else {
            vec![(Turn::null(), start.finish(), 0)]
        };
    }
    ends.sort_by_key(|p| std::cmp::Reverse(p.value));
    ends.truncate(keep);
    ends.into_iter().map(|p| (Turn { actions: p.actions }, p.mid.finish(), p.value)).collect()
}

/// The engine's turn for `pos` built action by action: the best end of the beam, or with
/// replies the end whose best reply is weakest. Returns the turn, the position it leaves, its
/// value and the number of positions judged.
pub(crate) fn choose<'r>(
    eval: &Eval,
    pos: &Position<'r>,
    effort: Effort,
    deadline: Option<Instant>,
) -> Option<(Turn, Position<'r>, i32)> {
    let keep = effort.replies.max(1);
    let candidates = best_turns(eval, pos, effort.beam, keep, deadline);
    if effort.replies == 0 || candidates.len() <= 1 {
        return candidates.into_iter().next();
    }
    let mut best: Option<(Turn, Position<'r>, i32)> = None;
    for (turn, after, value) in candidates {
        if deadline.is_some_and(|d| Instant::now() >= d) && best.is_some() {
            break;
        }
        let reply = if after.is_goal() {
            None
        } else {
            best_turns(eval, &after, effort.beam / 2, 1, deadline).into_iter().next()
        };
        // The reply's value is for the opponent: the end is worth what it leaves us.
        let score = reply.map_or(value, |(_, _, v)| -v);
        if best.as_ref().is_none_or(|b| score > b.2) {
            best = Some((turn, after, score));
        }
    }
    best
}
