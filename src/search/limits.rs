//! How long the search may think: fixed depths, a clock, the levels of `engine:LEVEL`.

use std::time::{Duration, Instant};

/// The strongest level.
pub const MAX_LEVEL: u8 = 4;
/// The level of `engine` without a number.
pub const DEFAULT_LEVEL: u8 = 4;

/// How long the search may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in turns.
    pub depth: Option<u32>,
    /// The time for the whole search: no iteration starts after it, and iterations deeper than
    /// `min_depth` stop at it. At twice this time everything stops, whatever the depth.
    pub movetime: Option<Duration>,
    /// Iterations that `movetime` alone cannot stop (at least 1): with 2, a goal in one, a
    /// defence against a goal in one and a win in two are never missed when two turns can be
    /// searched in twice the time.
    pub min_depth: u32,
    /// A time after which everything stops, whatever the depth (levels 1 and 2 have no
    /// `movetime`, but a position whose turns number tens of thousands must not hold them for
    /// minutes).
    pub cap: Option<Duration>,
    /// Own turns within which the exact solver looks for a forced goal before the search, and
    /// for the opponent's forced goal after the chosen turn (0: never). It runs only with a
    /// `movetime`: an eighth of it before, three eighths after (see `Searcher::search`).
    pub exact: u32,
}

/// The cap of levels 1 and 2: far beyond what two turns take in the shipped variants (under
/// half a second), reached only where positions have tens of thousands of turns.
pub const LEVEL_CAP: Duration = Duration::from_secs(10);

impl Limits {
    /// The limits of a level, 1 ..= [`MAX_LEVEL`] (clamped): 1 looks one turn ahead, 2 two
    /// turns, 3 as deep as 200 ms allow, 4 as deep as one second allows; from 2 on, at least
    /// two turns deep unless that takes more than twice the level's time (levels 3 and 4) or
    /// [`LEVEL_CAP`] (levels 1 and 2). Levels 3 and 4 also ask the exact solver for forced
    /// goals within 2 and 3 turns (`exact`), for the side to move and against its choice.
    /// With a clock, the first iteration (each result weighed one turn deep) is stopped by
    /// [`LEVEL_CAP`] alone: the levels' time adapts to a variant whose turns are too many to
    /// weigh in it.
    #[must_use]
    pub fn level(level: u8) -> Limits {
        let (depth, ms, exact) = match level.clamp(1, MAX_LEVEL) {
            1 => (Some(1), None, 0),
            2 => (Some(2), None, 0),
            3 => (None, Some(200), 2),
            _ => (None, Some(1_000), 3),
        };
        Limits {
            depth,
            movetime: ms.map(Duration::from_millis),
            min_depth: if level > 1 { 2 } else { 1 },
            cap: depth.map(|_| LEVEL_CAP),
            exact,
        }
    }

    /// When no iteration starts any more, counted from `start`: the movetime.
    pub(super) fn deadline(&self, start: Instant) -> Option<Instant> {
        self.movetime.and_then(|t| start.checked_add(t))
    }

    /// When the first iteration stops, counted from `start`: with a movetime, not before
    /// [`LEVEL_CAP`] (the first iteration weighs every result of the position, however many);
    /// without one, when everything stops.
    pub(super) fn first_deadline(&self, start: Instant) -> Option<Instant> {
        let hard = self.hard_deadline(start);
        match (hard, self.movetime.and_then(|_| start.checked_add(LEVEL_CAP))) {
            (Some(h), Some(cap)) => Some(h.max(cap)),
            (h, _) => h,
        }
    }

    /// When everything stops, counted from `start`: the cap, and twice the movetime.
    pub(super) fn hard_deadline(&self, start: Instant) -> Option<Instant> {
        let twice = self.movetime.map(|t| t.saturating_mul(2));
        let limit = match (twice, self.cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limit.and_then(|t| start.checked_add(t))
    }
}

#[cfg(test)]
mod tests {
    use super::{Limits, MAX_LEVEL};

    /// With a clock, the first iteration runs to the cap, whatever the level's time; without
    /// one it stops when everything stops.
    #[test]
    fn the_first_iteration_stops_at_the_cap() {
        let start = std::time::Instant::now();
        let three = Limits::level(3);
        assert_eq!(three.first_deadline(start), Some(start + super::LEVEL_CAP));
        assert!(three.hard_deadline(start) < three.first_deadline(start));
        let two = Limits::level(2);
        assert_eq!(two.first_deadline(start), two.hard_deadline(start));
        assert_eq!(Limits::default().first_deadline(start), None);
    }

    #[test]
    fn higher_levels_search_at_least_as_much() {
        let reach = |l: Limits| (l.depth.unwrap_or(64), l.movetime.map_or(0, |t| t.as_millis()));
        for level in 2..=MAX_LEVEL {
            let (low, high) = (Limits::level(level - 1), Limits::level(level));
            assert!(high.min_depth >= low.min_depth);
            assert!(reach(high) >= reach(low), "level {level}");
            // A level with a clock searches at least as long as the one below, if that has one.
            assert!(high.movetime >= low.movetime, "level {level}");
        }
        assert_eq!(Limits::level(2).min_depth, 2);
        // Levels 1 and 2 search alone (a fixed depth, reproducible); 3 and 4 ask the solver.
        let exact: Vec<u32> = (1..=MAX_LEVEL).map(|l| Limits::level(l).exact).collect();
        assert_eq!(exact, [0, 0, 2, 3]);
    }
}
