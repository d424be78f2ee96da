//! A second, plain algorithm for forced goals, to check the solver against: minimax over the
//! turn lists ([`legal_turns`] and [`play_unchecked`]), each position's results found by playing
//! every turn, no table, no ordering, no shared code with the solver's search. Far slower:
//! for tests on small positions.

use std::collections::HashSet;

use crate::movegen::{legal_turns, play_unchecked};
use crate::position::{Outcome, Position};
use crate::side::Side;

/// Whether the side to move in `pos` forces a goal within `turns` of its own turns
/// (repetitions counted from `pos` on); none when a position has too many turns to list.
#[must_use]
pub fn forced_goal(pos: &Position<'_>, turns: u32) -> Option<bool> {
    let plain = Plain { attacker: pos.side(), start_score: pos.score()[pos.side().index()] };
    plain.attack(pos, turns.max(1), &mut vec![pos.hash()])
}

/// Whether the side *not* to move in `pos` forces a goal within `turns` of its own turns,
/// whatever the side to move does first; none when a position has too many turns to list.
#[must_use]
pub fn forced_reply(pos: &Position<'_>, turns: u32) -> Option<bool> {
    let attacker = !pos.side();
    let plain = Plain { attacker, start_score: pos.score()[attacker.index()] };
    plain.defend(pos, turns.max(1), &mut vec![pos.hash()])
}

struct Plain {
    attacker: Side,
    start_score: u16,
}

impl Plain {
    /// Some(true) when the attacker scored a point, Some(false) when the game ended otherwise.
    fn over(&self, pos: &Position<'_>) -> Option<bool> {
        let scored = pos.score()[self.attacker.index()] > self.start_score;
        match pos.outcome() {
            _ if scored => Some(true),
            None => None,
            Some(Outcome::Goal { winner, .. } | Outcome::RoyalCaptured { winner }) => {
                Some(winner == self.attacker)
            }
            // The match's last point, by the attacker or against it.
            Some(Outcome::Match { winner }) => Some(winner == self.attacker),
            // The turn limit ends the game without a goal, whoever leads.
            Some(Outcome::MostGoals { .. } | Outcome::TurnLimit | Outcome::Repetition) => {
                Some(false)
            }
        }
    }

    /// Whether `pos`, just reached at `path`'s end, draws: it occurred the times that draw,
    /// and the rules draw at once or the side to move in it may claim the draw and wants it
    /// (the defender, after the attacker's turn).
    fn drawn_by_repetition(pos: &Position<'_>, path: &[u64], defender_to_move: bool) -> bool {
        let end = pos.rules().end();
        let needed = end.repetition as usize;
        let claimed = end.repetition_claimed();
        needed > 0
            && (defender_to_move || !claimed)
            && path.iter().filter(|&&h| h == pos.hash()).count() >= needed
    }

    /// The distinct positions after the turns of `pos`.
    fn results<'r>(pos: &Position<'r>) -> Option<Vec<Position<'r>>> {
        let mut seen = HashSet::new();
        let turns = legal_turns(pos).ok()?;
        Some(
            turns
                .iter()
                .map(|t| play_unchecked(pos, t))
                .filter(|p| seen.insert(p.hash()))
                .collect(),
        )
    }

    /// The value of `after` (just played, on `path`'s end) with the attacker `k` turns left,
    /// `attacking` when the attacker moves next.
    fn next(
        &self,
        after: &Position<'_>,
        k: u32,
        attacking: bool,
        path: &mut Vec<u64>,
    ) -> Option<bool> {
        if let Some(scored) = self.over(after) {
            return Some(scored);
        }
        if Self::drawn_by_repetition(after, path, !attacking) {
            return Some(false);
        }
        if attacking { self.attack(after, k, path) } else { self.defend(after, k, path) }
    }

    fn attack(&self, pos: &Position<'_>, k: u32, path: &mut Vec<u64>) -> Option<bool> {
        let mut unknown = false;
        for after in Self::results(pos)? {
            path.push(after.hash());
            let v = match self.over(&after) {
                Some(scored) => Some(scored),
                None if k == 1 => Some(false),
                None => self.next(&after, k - 1, false, path),
            };
            path.pop();
            match v {
                Some(true) => return Some(true),
                None => unknown = true,
                Some(false) => {}
            }
        }
        if unknown { None } else { Some(false) }
    }

    fn defend(&self, pos: &Position<'_>, k: u32, path: &mut Vec<u64>) -> Option<bool> {
        let results = Self::results(pos)?;
        if results.is_empty() && pos.rules().end().no_moves_draws() {
            return Some(false);
        }
        let mut unknown = false;
        for after in results {
            path.push(after.hash());
            let v = self.next(&after, k, true, path);
            path.pop();
            match v {
                Some(false) => return Some(false),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if unknown { None } else { Some(true) }
    }
}
