//! Turn generation: piece moves, kick chains, null turns and the forced pass, for any variant.
//!
//! A turn is an optional piece move followed by kicks (rule: `docs/rules.md#a-turn`).
//! [`legal_turns`] lists them for people and tools, [`play`] plays one; [`perft()`] counts them fast, grouping turns by their result (see
//! the `perft` and `recount` modules for how).
//!
//! Two walks generate turns. The walk action by action (`step`, `general`) follows every rule
//! of every definition; the walk of whole kick chains (`chains`, `recount`, `pieces`) follows
//! those of Boyer's family alone, five to nine times faster (perft), and is used wherever a
//! definition is within it. The key table decides which (`definition::keys::Family`): each
//! key says which of its values keep a definition within the family, and every caller asks the
//! tables (`Tables::walks_chains`); `agree` tries every value of every key and checks that a
//! definition either leaves the family or walks alike.
//!
//! The text of a turn, its long form and the names people type, is read and written in
//! [`crate::turn_text`].

#[cfg(test)]
mod agree;
mod chains;
pub mod general;
mod kicks;
pub mod perft;
mod pieces;
mod recount;
mod results;
mod single;
pub(crate) mod step;
mod turn;

use crate::position::Position;
use crate::rules::NullTurn;
use crate::square::Square;
use chains::{Visit, Walker};
pub use perft::{PerftOptions, perft, perft_divide};
pub use results::{Child, Results};
pub use single::{first_scoring_turn, has_no_turn, is_legal, nth_turn, shortest_turn};
pub use step::Mid;
pub use turn::{Action, Kick, MoveKind, PieceMove, Turn};

/// Why a turn cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over on the board (a goal, a match won, a royal piece captured): nobody
    /// moves any more.
    #[error("the game is over: {0}")]
    Finished(crate::position::Finished),
    /// The position has too many turns to check.
    #[error(transparent)]
    TooManyTurns(#[from] TooManyTurns),
    /// The turn is not among the legal turns of the position.
    #[error("`{turn}` is not a legal turn in {fen}")]
    Illegal {
        /// The turn's long form.
        turn: String,
        /// The position.
        fen: String,
    },
}

/// Whether the side to move may do nothing at all (`turn.null`), before the forced pass.
#[must_use]
pub fn null_allowed(pos: &Position<'_>) -> bool {
    if pos.arranging() || pos.placing() {
        // In a stage before play a side passes only when it has no move of the stage.
        let mut moves = Vec::new();
        Mid::start(pos).actions(&mut moves);
        return moves.is_empty();
    }
    match pos.rules.turn().null {
        NullTurn::Never => false,
        NullTurn::Always => true,
        NullTurn::WhenAdjacent => pos.ball.is_some_and(|ball| {
            !(pos.rules.tables().neighbours[ball.index()] & pos.men[pos.side.index()]).is_empty()
        }),
    }
}

/// Hands every chain to `each` as a turn, built in one buffer.
struct Collect<F: FnMut(&Turn)> {
    piece_move: Option<PieceMove>,
    kicks: Vec<Kick>,
    skip_empty: bool,
    turn: Turn,
    any: bool,
    each: F,
}

impl<F: FnMut(&Turn)> Visit for Collect<F> {
    fn stop(&mut self, _ball: Square) {
        if !(self.skip_empty && self.kicks.is_empty()) {
            self.turn.actions.clear();
            self.turn.actions.extend(self.piece_move.map(Action::Move));
            self.turn.actions.extend(self.kicks.iter().map(|&k| Action::Kick(k)));
            self.any = true;
            (self.each)(&self.turn);
        }
    }

    fn enter(&mut self, kicker: Square, to: Square) {
        self.kicks.push(Kick { kicker, to });
    }

    fn leave(&mut self) {
        self.kicks.pop();
    }
}

/// Every legal turn of the side to move, in generation order, however many there are (see
/// [`legal_turns`] for the bounded list); a side with none gets the forced pass (the null
/// turn). Empty when the game is over (the ball is on a goal).
#[must_use]
pub fn legal_turns_unbounded(pos: &Position<'_>) -> Vec<Turn> {
    let mut out = Vec::new();
    each_legal_turn(pos, |turn| out.push(turn.clone()));
    out
}

/// Calls `each` with every turn of [`legal_turns_unbounded`], in its order, holding one turn
/// at a time: a position's two million turns are walked without being kept (as a list they
/// take hundreds of megabytes).
pub fn each_legal_turn(pos: &Position<'_>, mut each: impl FnMut(&Turn)) {
    if !pos.rules.tables().walks_chains() {
        let mut turn = Turn::null();
        let _ = general::each_turn(pos, u64::MAX, |actions, _| {
            turn.actions.clear();
            turn.actions.extend_from_slice(actions);
            each(&turn);
        });
        return;
    }
    if pos.is_goal() {
        return;
    }
    let mut walker = Walker::new(pos);
    let mut collect = Collect {
        piece_move: None,
        kicks: Vec::new(),
        skip_empty: !null_allowed(pos),
        turn: Turn::null(),
        any: false,
        each,
    };
    walker.walk_plain(pos.kicked_ball(), &mut collect);
    collect.skip_empty = false;
    let mut moves = Vec::new();
    pieces::piece_moves(pos, &mut moves);
    for (from, to) in moves {
        let letter = pos.piece_at(from).map_or('?', |(_, k)| pos.rules.piece(k).letter);
        collect.piece_move = Some(PieceMove::new(letter, from, to));
        walker.shift(from, to);
        walker.walk_plain(pos.kicked_ball(), &mut collect);
        walker.shift(to, from);
    }
    if !collect.any {
        (collect.each)(&Turn::null());
    }
}

/// The position after `turn`, with no check that it is legal: for a turn the caller knows is
/// one of [`legal_turns`] (or the first actions of one), where [`play`]'s check would repeat
/// the walk. An illegal turn gives a meaningless position, but never panics.
#[must_use]
pub fn play_unchecked<'r>(pos: &Position<'r>, turn: &Turn) -> Position<'r> {
    let mut mid = Mid::start(pos);
    for &action in &turn.actions {
        mid = mid.apply(action);
    }
    mid.finish()
}

/// The position after `turn`, once it is checked to be legal here.
///
/// # Errors
/// The game is over, the position has too many turns to check ([`MAX_TURNS`]), or the turn is
/// not legal here.
pub fn play<'r>(pos: &Position<'r>, turn: &Turn) -> Result<Position<'r>, PlayError> {
    if pos.is_goal()
        && let Some(finished) = pos.finished()
    {
        return Err(PlayError::Finished(finished));
    }
    // Following the turn is cheap however many turns the position has: no count needed.
    if is_legal(pos, turn) {
        Ok(play_unchecked(pos, turn))
    } else {
        Err(PlayError::Illegal { turn: turn.to_string(), fen: pos.fen() })
    }
}

/// The most turns a position may have for kickoff to list them, play them or read one typed
/// (counting kick chains beyond this would take too long and too much memory).
pub const MAX_TURNS: u64 = 2_000_000;

/// A position with more turns than kickoff handles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "this position has more than {MAX_TURNS} turns (its kick chains multiply through many \
     pieces): too many to list or check"
)]
pub struct TooManyTurns;

/// The number of legal turns, or [`TooManyTurns`] as soon as the count passes [`MAX_TURNS`]
/// (it stops counting there, so it answers quickly however many turns there are).
///
/// # Errors
/// More than [`MAX_TURNS`] turns.
pub fn count_turns(pos: &Position<'_>) -> Result<u64, TooManyTurns> {
    count_before(pos, None).map_err(|_| TooManyTurns)
}

/// Why [`count_before`] gave no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Uncounted {
    /// More than [`MAX_TURNS`] turns.
    TooMany,
    /// The deadline passed before the count was done.
    Late,
}

/// [`count_turns`], stopped at `deadline`: the count of two million turns takes a tenth
/// of a second on an idle machine, and the search's clock must be heard within it. The clock
/// is read every 16,384 steps of the walk (the count of rules beyond Boyer's family does not
/// read it).
///
/// # Errors
/// More than [`MAX_TURNS`] turns, or the deadline passed first.
pub(crate) fn count_before(
    pos: &Position<'_>,
    deadline: Option<std::time::Instant>,
) -> Result<u64, Uncounted> {
    if pos.is_goal() {
        return Ok(0);
    }
    if !pos.rules.tables().walks_chains() {
        return general::count(pos).map_err(|_| Uncounted::TooMany);
    }
    let mut walker = Walker::new(pos);
    walker.budget = MAX_TURNS + 1;
    walker.deadline = deadline;
    let mut base = chains::Count(0);
    walker.walk_tracked(pos.kicked_ball(), &mut base);
    let mut moves = Vec::new();
    pieces::piece_moves(pos, &mut moves);
    // A move that changes no square the chains read has the same chains: counted once.
    let mut total = base.0;
    let mut scratch = chains::Count(0);
    walker.each_move(pos.kicked_ball(), &moves, &base, &mut scratch, |_, chains| {
        total = total.saturating_add(chains.0);
    });
    // Without a move, the empty chain is the null turn: it counts only where allowed; a side
    // with no turn at all has the forced pass.
    let count = total.saturating_sub(u64::from(!null_allowed(pos))).max(1);
    if walker.budget == 0 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
        Err(Uncounted::Late)
    } else if walker.budget == 0 || count > MAX_TURNS {
        Err(Uncounted::TooMany)
    } else {
        Ok(count)
    }
}

/// Every legal turn of the side to move, in generation order, unless the position has more
/// than [`MAX_TURNS`]; a side with none gets the forced pass (the null turn). Empty when the
/// game is over (the ball is on a goal).
///
/// # Errors
/// More than [`MAX_TURNS`] turns.
pub fn legal_turns(pos: &Position<'_>) -> Result<Vec<Turn>, TooManyTurns> {
    count_turns(pos)?;
    Ok(legal_turns_unbounded(pos))
}

/// Every square the piece on `kicker` could kick the ball to with one kick, for the side to
/// move in `pos` (the piece must be that side's and stand next to the ball).
#[must_use]
pub fn kick_destinations(pos: &Position<'_>, kicker: Square) -> Vec<Square> {
    let mut actions = Vec::new();
    Mid::start(pos).actions(&mut actions);
    actions
        .into_iter()
        .filter_map(|a| match a {
            Action::Kick(k) if k.kicker == kicker => Some(k.to),
            _ => None,
        })
        .collect()
}

/// The number of legal turns (perft 1), counted without listing them, however many there are
/// (see [`count_turns`] for the bounded count); 0 when the game is over.
#[must_use]
pub fn count_turns_unbounded(pos: &Position<'_>) -> u64 {
    perft::Counter::new().count(pos)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::{Uncounted, count_before};
    use crate::definition::load;
    use crate::position::Position;

    /// A count stops at its deadline, well before the end of two million turns, and says so;
    /// a count past the limit says that instead.
    #[test]
    fn a_count_hears_its_deadline() {
        let near = load("tests/data/hostile/near2m.toml").unwrap();
        let pos = Position::start(&near.rules);
        assert_eq!(count_before(&pos, None), Ok(1_997_829));
        assert_eq!(count_before(&pos, Some(Instant::now())), Err(Uncounted::Late));
        let exploding = load("tests/data/hostile/exploding-kicks.toml").unwrap();
        let pos = Position::start(&exploding.rules);
        assert_eq!(count_before(&pos, None), Err(Uncounted::TooMany));
    }
}
