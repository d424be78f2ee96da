//! One turn at a time, without listing every turn: whether a turn is legal, the n-th turn in
//! listing order, the first turn that scores, the shortest turn to a result. A position may have
//! up to [`MAX_TURNS`](crate::movegen::MAX_TURNS) turns: holding them all costs hundreds of
//! megabytes, following one costs nothing, walking them all once costs no memory.

use std::time::Instant;

use crate::movegen::chains::{Visit, Walker};
use crate::movegen::general;
use crate::movegen::step::Mid;
use crate::movegen::{Child, Kick, PieceMove, Turn, null_allowed, pieces};
use crate::position::Position;
use crate::side::Side;
use crate::square::Square;

/// Whether `turn` is one of `legal_turns_unbounded(pos)`, checked by following it action by action.
#[must_use]
pub fn is_legal(pos: &Position<'_>, turn: &Turn) -> bool {
    if pos.is_goal() {
        return false;
    }
    let mut mid = Mid::start(pos);
    let mut actions = Vec::new();
    mid.actions(&mut actions);
    if turn.is_null() {
        return null_allowed(pos) || (actions.is_empty() && !pos.rules.end().no_moves_draws());
    }
    for &action in &turn.actions {
        if !actions.contains(&action) {
            return false;
        }
        mid = mid.apply(action);
        actions.clear();
        mid.actions(&mut actions);
    }
    mid.may_stop(!actions.is_empty())
}

/// Whether the side to move has no legal turn at all (not even a null turn) in a game that goes
/// on: where `end.no_moves = "draw"`, the game is drawn there.
#[must_use]
pub fn has_no_turn(pos: &Position<'_>) -> bool {
    if pos.is_goal() || null_allowed(pos) {
        return false;
    }
    let mut actions = Vec::new();
    Mid::start(pos).actions(&mut actions);
    actions.is_empty()
}

/// Hears every turn of a walk with its piece move, kicks and the ball's final square, until
/// `each` says it is done.
struct Turns<F: FnMut(Option<PieceMove>, &[Kick], Square) -> bool> {
    piece_move: Option<PieceMove>,
    kicks: Vec<Kick>,
    /// Whether the empty chain is left out (no piece move, no null turn).
    skip_empty: bool,
    done: bool,
    each: F,
}

impl<F: FnMut(Option<PieceMove>, &[Kick], Square) -> bool> Visit for Turns<F> {
    fn stop(&mut self, ball: Square) {
        let skipped = self.skip_empty && self.kicks.is_empty();
        if !self.done && !skipped {
            self.done = (self.each)(self.piece_move, &self.kicks, ball);
        }
    }

    fn enter(&mut self, kicker: Square, to: Square) {
        self.kicks.push(Kick { kicker, to });
    }

    fn leave(&mut self) {
        self.kicks.pop();
    }
}

/// Walks every turn of `pos` in the order of `legal_turns_unbounded` (without the forced pass), calling
/// `each` with its piece move, kicks and the ball's final square, until `each` returns true;
/// `budget` bounds the walk's steps. Returns whether `each` returned true.
fn walk_turns(
    pos: &Position<'_>,
    budget: u64,
    each: impl FnMut(Option<PieceMove>, &[Kick], Square) -> bool,
) -> bool {
    let mut walker = Walker::new(pos);
    walker.budget = budget;
    let skip_empty = !null_allowed(pos);
    let mut turns = Turns { piece_move: None, kicks: Vec::new(), skip_empty, done: false, each };
    walker.walk_plain(pos.kicked_ball(), &mut turns);
    turns.skip_empty = false;
    let mut moves = Vec::new();
    pieces::piece_moves(pos, &mut moves);
    for (from, to) in moves {
        if turns.done {
            break;
        }
        let letter = pos.piece_at(from).map_or('?', |(_, k)| pos.rules.piece(k).letter);
        turns.piece_move = Some(PieceMove::new(letter, from, to));
        walker.shift(from, to);
        walker.walk_plain(pos.kicked_ball(), &mut turns);
        walker.shift(to, from);
    }
    turns.done
}

/// The turn at `index` in the order of `legal_turns_unbounded(pos)` (the forced pass when the side has
/// no turn), found in one walk; `None` past the last turn or when the game is over. The
/// position should have passed [`count_turns`](crate::movegen::count_turns).
#[must_use]
pub fn nth_turn(pos: &Position<'_>, index: u64) -> Option<Turn> {
    if pos.is_goal() {
        return None;
    }
    let mut seen = 0;
    let mut found = None;
    if !pos.rules.tables().walks_chains() {
        let _ = general::each_turn_until(pos, u64::MAX, |actions, _| {
            if seen == index {
                found = Some(Turn { actions: actions.to_vec() });
            }
            seen += 1;
            found.is_some()
        });
        return found;
    }
    walk_turns(pos, u64::MAX, |piece_move, kicks, _| {
        if seen == index {
            found = Some(Turn::new(piece_move, kicks));
        }
        seen += 1;
        found.is_some()
    });
    match found {
        None if seen == 0 && index == 0 => Some(Turn::null()),
        found => found,
    }
}

/// The first turn of `pos`, in the order of `legal_turns_unbounded`, that scores for `side`.
#[must_use]
pub fn first_scoring_turn(pos: &Position<'_>, side: Side) -> Option<Turn> {
    if pos.is_goal() {
        return None;
    }
    let mut found = None;
    if !pos.rules.tables().walks_chains() {
        let _ = general::each_turn_until(pos, u64::MAX, |actions, mid| {
            if mid.scored() == Some(side) {
                found = Some(Turn { actions: actions.to_vec() });
            }
            found.is_some()
        });
        return found;
    }
    walk_turns(pos, u64::MAX, |piece_move, kicks, ball| {
        if pos.rules.scorer(ball) == Some(side) {
            found = Some(Turn::new(piece_move, kicks));
        }
        found.is_some()
    });
    found
}

/// The turn with the fewest actions (the first in the order of `legal_turns_unbounded` among equals)
/// that leads to the result `child`; the forced pass when that is the side's only turn.
/// `budget` bounds the walk's steps and `deadline` its time: past either, a longer turn may be
/// returned, or none.
#[must_use]
pub fn shortest_turn(
    pos: &Position<'_>,
    child: &Child<'_>,
    budget: u64,
    deadline: Option<Instant>,
) -> Option<Turn> {
    if pos.is_goal() {
        return None;
    }
    if !pos.rules.tables().walks_chains() {
        let mut best: Option<Vec<crate::movegen::Action>> = None;
        let result = child.position.hash();
        let _ = general::each_turn_until(pos, budget, |actions, mid| {
            let shorter = best.as_ref().is_none_or(|b| actions.len() < b.len());
            if shorter && mid.result_hash() == result {
                best = Some(actions.to_vec());
            }
            best.as_ref().is_some_and(|b| b.len() <= 1)
                || deadline.is_some_and(|d| Instant::now() >= d)
        });
        return best.map(|actions| Turn { actions });
    }
    let (piece_move, ball) = (child.piece_move, child.position.ball);
    let mut walker = Walker::new(pos);
    walker.budget = budget;
    walker.deadline = deadline;
    let piece_move = match piece_move {
        Some((from, to)) => {
            let letter = pos.piece_at(from).map_or('?', |(_, k)| pos.rules.piece(k).letter);
            walker.shift(from, to);
            Some(PieceMove::new(letter, from, to))
        }
        None => None,
    };
    let mut best: Option<Vec<Kick>> = None;
    let each = |_: Option<PieceMove>, kicks: &[Kick], at: Square| {
        if Some(at) == ball && best.as_ref().is_none_or(|b| kicks.len() < b.len()) {
            best = Some(kicks.to_vec());
        }
        // The empty chain cannot be beaten.
        best.as_ref().is_some_and(Vec::is_empty)
    };
    let skip_empty = piece_move.is_none() && !null_allowed(pos);
    let mut turns = Turns { piece_move, kicks: Vec::new(), skip_empty, done: false, each };
    walker.walk_plain(pos.kicked_ball(), &mut turns);
    match best {
        Some(kicks) => Some(Turn::new(piece_move, &kicks)),
        None if piece_move.is_none() && ball == pos.ball && !has_turn(pos) => Some(Turn::null()),
        None => None,
    }
}

/// Whether the side to move has a turn other than the null turn.
fn has_turn(pos: &Position<'_>) -> bool {
    let mut actions = Vec::new();
    Mid::start(pos).actions(&mut actions);
    !actions.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::load_shipped;
    use crate::movegen::Child;

    /// The shortest turn to a result that leaves everything in place is the null turn only
    /// where it is one: Boyer's game allows none, and a side with no turn passes.
    #[test]
    fn standing_still_is_a_turn_only_for_a_side_that_must_pass() {
        let rules = load_shipped("boyer-1951").unwrap().rules;
        let start = Position::start(&rules);
        let same = Child { position: start, piece_move: None };
        assert_eq!(shortest_turn(&start, &same, u64::MAX, None), None, "Boyer has no null turn");
        let stuck = Position::from_fen(&rules, "k8/9/9/9/4a4/9/9/9/9 w 4").unwrap();
        assert!(has_no_turn(&stuck));
        let pass = Child { position: stuck, piece_move: None };
        assert_eq!(shortest_turn(&stuck, &pass, u64::MAX, None), Some(Turn::null()));
    }
}
