//! The clocks of lobby games. A live game gives each side `initial` seconds and adds
//! `increment` after each of its turns; a correspondence game gives each turn `days` days. The
//! side to move's time runs from the moment the other side's turn ended (from the game's start
//! for the first turn); a side whose time runs out before its turn is played loses.

use crate::side::Side;
use crate::web::db::{ClockSpec, ClockState};

const DAY_MS: i64 = 86_400_000;

/// The clocks at the start of a game made at `now`.
#[must_use]
pub fn start(spec: ClockSpec, now: i64) -> ClockState {
    let each = match spec {
        ClockSpec::Live { initial, .. } => i64::from(initial) * 1000,
        ClockSpec::Correspondence { days } => i64::from(days) * DAY_MS,
    };
    ClockState { white: each, black: each, since: now }
}

/// What `side` had left when the side to move started.
#[must_use]
pub fn held(state: &ClockState, side: Side) -> i64 {
    match side {
        Side::White => state.white,
        Side::Black => state.black,
    }
}

fn set(state: &mut ClockState, side: Side, ms: i64) {
    match side {
        Side::White => state.white = ms,
        Side::Black => state.black = ms,
    }
}

/// What `side` has left at `now`, `to_move` being the side whose time runs.
#[must_use]
pub fn left(state: &ClockState, side: Side, to_move: Side, now: i64) -> i64 {
    let held = held(state, side);
    if side == to_move { held - (now - state.since).max(0) } else { held }
}

/// When `to_move` runs out of time.
#[must_use]
pub fn deadline(state: &ClockState, to_move: Side) -> i64 {
    state.since.saturating_add(held(state, to_move))
}

/// Whether `to_move` has run out of time at `now`.
#[must_use]
pub fn flagged(state: &ClockState, to_move: Side, now: i64) -> bool {
    left(state, to_move, to_move, now) <= 0
}

/// The clocks after `mover` ended its turn at `now` (in time: see [`flagged`]).
#[must_use]
pub fn after_turn(spec: ClockSpec, state: &ClockState, mover: Side, now: i64) -> ClockState {
    let mut next = *state;
    let kept = match spec {
        ClockSpec::Live { increment, .. } => {
            left(state, mover, mover, now) + i64::from(increment) * 1000
        }
        ClockSpec::Correspondence { days } => i64::from(days) * DAY_MS,
    };
    set(&mut next, mover, kept);
    next.since = now;
    next
}

/// The clocks stopped at `now` when the game ended with `to_move` to move: its time used is
/// taken off.
#[must_use]
pub fn stopped(state: &ClockState, to_move: Side, now: i64) -> ClockState {
    let mut next = *state;
    set(&mut next, to_move, left(state, to_move, to_move, now).max(0));
    next.since = now;
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: ClockSpec = ClockSpec::Live { initial: 60, increment: 2 };

    #[test]
    fn a_live_clock_runs_for_the_side_to_move_and_adds_the_increment() {
        let s = start(BLITZ, 1_000);
        assert_eq!((s.white, s.black), (60_000, 60_000));
        assert_eq!(left(&s, Side::White, Side::White, 11_000), 50_000);
        assert_eq!(left(&s, Side::Black, Side::White, 11_000), 60_000);
        let after = after_turn(BLITZ, &s, Side::White, 11_000);
        assert_eq!((after.white, after.black, after.since), (52_000, 60_000, 11_000));
        assert_eq!(deadline(&after, Side::Black), 71_000);
        assert!(!flagged(&after, Side::Black, 70_999));
        assert!(flagged(&after, Side::Black, 71_000));
    }

    #[test]
    fn a_correspondence_turn_gets_its_days_whatever_was_used() {
        let spec = ClockSpec::Correspondence { days: 2 };
        let s = start(spec, 0);
        let after = after_turn(spec, &s, Side::White, DAY_MS + 5);
        assert_eq!(after.white, 2 * DAY_MS);
        assert_eq!(deadline(&after, Side::Black), 3 * DAY_MS + 5);
        assert!(flagged(&after, Side::Black, 3 * DAY_MS + 5));
    }

    #[test]
    fn a_stopped_clock_keeps_what_was_left() {
        let s = start(BLITZ, 0);
        let end = stopped(&s, Side::White, 70_000);
        assert_eq!((end.white, end.black), (0, 60_000));
        let end = stopped(&s, Side::White, 5_000);
        assert_eq!(end.white, 55_000);
    }
}
