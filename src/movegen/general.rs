//! Every turn of a position, walked action by action through [`Mid`] states: the listing,
//! counting and result grouping for every variant (Boyer's family also has the faster walk of
//! whole kick chains in `chains`, which `agree` checks against this one).

use std::time::Instant;

use crate::movegen::step::Mid;
use crate::movegen::turn::{Action, PieceMove};
use crate::movegen::{MAX_TURNS, TooManyTurns, null_allowed};
use crate::position::Position;
use crate::position::zobrist::HashKeyMap;

/// Walks every turn of `pos`, calling `visit` with its actions and the state it ends in; the
/// null turn where allowed, and the forced pass of a side with no turn where the variant has
/// one. `budget` bounds the states walked.
///
/// # Errors
/// More than `budget` states (the walk stops there).
pub fn each_turn<'r>(
    pos: &Position<'r>,
    budget: u64,
    mut visit: impl FnMut(&[Action], &Mid<'r>),
) -> Result<(), TooManyTurns> {
    each_turn_until(pos, budget, |actions, mid| {
        visit(actions, mid);
        false
    })
    .map(|_| ())
}

/// [`each_turn`] until `visit` returns true; returns whether it did.
///
/// # Errors
/// More than `budget` states (the walk stops there).
pub fn each_turn_until<'r>(
    pos: &Position<'r>,
    budget: u64,
    mut visit: impl FnMut(&[Action], &Mid<'r>) -> bool,
) -> Result<bool, TooManyTurns> {
    if pos.is_goal() {
        return Ok(false);
    }
    let start = Mid::start(pos);
    let mut walk = Walk { budget, any: false, done: false, stack: Vec::new(), buffers: Vec::new() };
    if null_allowed(pos) {
        walk.any = true;
        walk.done = visit(&[], &start);
    }
    if !walk.done {
        walk.walk(&start, 0, &mut visit)?;
    }
    if !walk.any && !pos.rules.end().no_moves_draws() {
        walk.done = visit(&[], &start);
    }
    Ok(walk.done)
}

/// The state of a depth-first walk over the actions of a turn.
struct Walk {
    budget: u64,
    /// Whether a turn has been visited.
    any: bool,
    /// Whether the visitor has asked to stop.
    done: bool,
    stack: Vec<Action>,
    /// One action buffer per depth, kept between positions.
    buffers: Vec<Vec<Action>>,
}

impl Walk {
    fn walk<'r>(
        &mut self,
        mid: &Mid<'r>,
        depth: usize,
        visit: &mut impl FnMut(&[Action], &Mid<'r>) -> bool,
    ) -> Result<(), TooManyTurns> {
        if self.budget == 0 {
            return Err(TooManyTurns);
        }
        self.budget -= 1;
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut actions = std::mem::take(&mut self.buffers[depth]);
        actions.clear();
        mid.actions(&mut actions);
        if depth > 0 && mid.may_stop(!actions.is_empty()) {
            self.any = true;
            self.done = visit(&self.stack, mid);
        }
        let mut result = Ok(());
        for &action in &actions {
            if self.done {
                break;
            }
            self.stack.push(action);
            result = self.walk(&mid.apply(action), depth + 1, visit);
            self.stack.pop();
            if result.is_err() {
                break;
            }
        }
        self.buffers[depth] = actions;
        result
    }
}

/// The number of legal turns of `pos`, counted by this walk ([`crate::movegen::count_turns`]
/// asks it for definitions beyond Boyer's family).
///
/// # Errors
/// More than [`MAX_TURNS`] turns.
pub fn count(pos: &Position<'_>) -> Result<u64, TooManyTurns> {
    let n = results(pos, budget())?.iter().map(|r| r.turns).sum::<u64>();
    if n > MAX_TURNS { Err(TooManyTurns) } else { Ok(n) }
}

/// The most distinct states one step of [`each_end`] keeps (under a kilobyte each).
const MAX_LAYER: usize = 250_000;

/// The states a walk may take per turn it allows: a turn is a path of states, up to eight as
/// `count_turns` allows.
pub(crate) const STATES_PER_TURN: u64 = 8;

/// The work bound of one listing: states walked (a turn is a path of states).
pub(crate) fn budget() -> u64 {
    STATES_PER_TURN * MAX_TURNS
}

/// A distinct result of a position's turns: the position they reach, with how many do.
#[derive(Clone, Copy, Debug)]
pub struct Reached<'r> {
    /// The position after the turn.
    pub position: Position<'r>,
    /// How many turns lead there.
    pub turns: u64,
    /// The first piece move of the first turn found that leads there.
    pub piece_move: Option<PieceMove>,
}

/// The distinct results of `pos`'s turns, each with its number of turns.
///
/// # Errors
/// More states than `budget`.
pub fn results<'r>(pos: &Position<'r>, budget: u64) -> Result<Vec<Reached<'r>>, TooManyTurns> {
    results_within(pos, budget, u64::MAX)
}

/// [`results`], unless the turns number more than `max_turns`: the walk stops as soon as they
/// do, so a position of far more turns than are wanted is refused quickly.
///
/// # Errors
/// More states than `budget`, or more turns than `max_turns`.
pub fn results_within<'r>(
    pos: &Position<'r>,
    budget: u64,
    max_turns: u64,
) -> Result<Vec<Reached<'r>>, TooManyTurns> {
    let mut found = Found { out: Vec::new(), index: HashKeyMap::default() };
    let mut turns = 0u64;
    let over = each_end(pos, budget, |mid, n, first| {
        found.add(mid, n, first);
        turns = turns.saturating_add(n);
        turns > max_turns
    })?;
    if over { Err(TooManyTurns) } else { Ok(found.out) }
}

/// [`results_within`], stopped as well when `deadline` passes (read every `CLOCK_EVERY` ends
/// of turns): `Ok(None)` then.
///
/// # Errors
/// More states than `budget`, or more turns than `max_turns`.
pub fn results_before<'r>(
    pos: &Position<'r>,
    budget: u64,
    max_turns: u64,
    deadline: Option<Instant>,
) -> Result<Option<Vec<Reached<'r>>>, TooManyTurns> {
    let mut found = Found { out: Vec::new(), index: HashKeyMap::default() };
    let (mut turns, mut ends, mut late) = (0u64, 0u64, false);
    let over = each_end(pos, budget, |mid, n, first| {
        found.add(mid, n, first);
        turns = turns.saturating_add(n);
        ends += 1;
        late = ends.is_multiple_of(CLOCK_EVERY) && deadline.is_some_and(|d| Instant::now() >= d);
        late || turns > max_turns
    })?;
    match (late, over) {
        (true, _) => Ok(None),
        (false, true) => Err(TooManyTurns),
        (false, false) => Ok(Some(found.out)),
    }
}

/// How many ends of turns [`results_before`] walks between readings of the clock.
const CLOCK_EVERY: u64 = 4096;

/// Calls `visit` with every state a turn of `pos` may end in, once each, with the number of
/// turns that end there and the first piece move of one of them, until `visit` returns true;
/// returns whether it did. The null turn and the forced pass end in the start state.
///
/// The turn's states are walked one action count at a time, and states that are the same
/// (different kickers sending the ball to one square, say) are walked once with the number of
/// ways they are reached: much less work than following every turn.
///
/// # Errors
/// More states than `budget`.
pub fn each_end<'r>(
    pos: &Position<'r>,
    budget: u64,
    mut visit: impl FnMut(&Mid<'r>, u64, Option<PieceMove>) -> bool,
) -> Result<bool, TooManyTurns> {
    if pos.is_goal() {
        return Ok(false);
    }
    let start = Mid::start(pos);
    let mut any = null_allowed(pos);
    if any && visit(&start, 1, None) {
        return Ok(true);
    }
    let mut layer: Vec<(Mid<'r>, u64, Option<PieceMove>)> = vec![(start, 1, None)];
    let (mut steps, mut depth) = (0u64, 0);
    let mut actions = Vec::new();
    while !layer.is_empty() {
        let mut next: Vec<(Mid<'r>, u64, Option<PieceMove>)> = Vec::new();
        let mut index: HashKeyMap<usize> = HashKeyMap::default();
        for (mid, n, first) in &layer {
            steps += 1;
            if steps > budget {
                return Err(TooManyTurns);
            }
            actions.clear();
            mid.actions(&mut actions);
            if depth > 0 && mid.may_stop(!actions.is_empty()) {
                any = true;
                if visit(mid, *n, *first) {
                    return Ok(true);
                }
            }
            for &action in &actions {
                let child = mid.apply(action);
                let first = first.or(match action {
                    Action::Move(m) => Some(m),
                    Action::Kick(_) => None,
                });
                match index.entry(child.key()) {
                    std::collections::hash_map::Entry::Occupied(e) => next[*e.get()].1 += n,
                    std::collections::hash_map::Entry::Vacant(e) => {
                        // A layer holds whole states: its size bounds the memory.
                        if next.len() >= MAX_LAYER {
                            return Err(TooManyTurns);
                        }
                        e.insert(next.len());
                        next.push((child, *n, first));
                    }
                }
            }
        }
        layer = next;
        depth += 1;
    }
    if !any && !pos.rules.end().no_moves_draws() {
        return Ok(visit(&start, 1, None));
    }
    Ok(false)
}

/// Results gathered so far, by the hash of their position.
struct Found<'r> {
    out: Vec<Reached<'r>>,
    index: HashKeyMap<usize>,
}

impl<'r> Found<'r> {
    /// Counts `n` turns ending in `mid`.
    fn add(&mut self, mid: &Mid<'r>, n: u64, piece_move: Option<PieceMove>) {
        let key = mid.result_hash();
        match self.index.get(&key) {
            Some(&i) => self.out[i].turns += n,
            None => {
                self.index.insert(key, self.out.len());
                self.out.push(Reached { position: mid.finish(), turns: n, piece_move });
            }
        }
    }
}
