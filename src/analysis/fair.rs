//! Fair random setups: setups in which neither side forces a goal within N turns.
//!
//! For football-960 the setups with a forced goal within three turns are shipped
//! (`football-960-forced.txt`, written by `kickoff analyze football-960 --turns 3 --format
//! json`, some minutes on two cores); other variants and larger N are checked
//! at run time by solving each drawn setup.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::Rng;

use crate::analysis::solve::SolveLimits;
use crate::analysis::survey::{StartVerdict, verdict};
use crate::definition::Definition;
use crate::position::Position;
use crate::rules::Rules;
use crate::setup::{self, SetupNumber};

/// Football-960's setups with a forced goal within [`SHIPPED_TURNS`] turns: `setup white
/// black`, the fewest turns of each side or `-`.
pub const FOOTBALL_960_FORCED: &str = include_str!("football-960-forced.txt");

/// The turns the shipped list was computed for.
pub const SHIPPED_TURNS: u32 = 3;

/// The turns `fair` stands for (without `:N`).
pub const DEFAULT_FAIR_TURNS: u32 = 2;

/// How many setups a fair draw tries before it gives up.
const MAX_DRAWS: usize = 200;

/// Why no fair setup could be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// The variant has no random setup.
    #[error("the variant has no random setup")]
    NoRandomSetup,
    /// Every setup tried had a forced goal (or could not be solved).
    #[error(
        "no fair setup found in {0} draws: every one tried has a forced goal (or could not be solved)"
    )]
    NoneFound(usize),
}

/// Whether the definition is shipped football-960 itself, whose list of unfair setups ships
/// (however it was named: by name, or through a record that names it).
#[must_use]
pub fn is_shipped(def: &Definition) -> bool {
    def.shipped_name() == Some("football-960")
}

/// One line of the shipped list: the setup and the fewest turns of White and Black.
#[must_use]
pub fn shipped_line(line: &str) -> Option<(u128, Option<u32>, Option<u32>)> {
    let mut parts = line.split_whitespace();
    let number = parts.next()?.parse().ok()?;
    let turns = |t: Option<&str>| t.and_then(|t| t.parse().ok());
    Some((number, turns(parts.next()), turns(parts.next())))
}

/// The football-960 setups with a forced goal within `turns` (<= [`SHIPPED_TURNS`]).
#[must_use]
pub fn shipped_unfair(turns: u32) -> Vec<u128> {
    let within = |t: Option<u32>| t.is_some_and(|t| t <= turns);
    FOOTBALL_960_FORCED
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(shipped_line)
        .filter(|&(_, w, b)| within(w) || within(b))
        .map(|(n, _, _)| n)
        .collect()
}

/// Whether neither side forces a goal within `turns` from `pos` (none: the solver could not
/// tell within `limits`).
#[must_use]
pub fn is_fair(pos: &Position<'_>, turns: u32, limits: SolveLimits) -> Option<bool> {
    let v = verdict(None, pos, turns, limits);
    if v.white.is_some() || v.black.is_some() {
        Some(false)
    } else if v.unknown {
        None
    } else {
        Some(true)
    }
}

/// A setup of `def` drawn uniformly among the fair ones: from the shipped list where it
/// applies (the variant is football-960 itself, [`is_shipped`]), else by drawing and solving.
///
/// # Errors
/// No random setup, or no fair setup among the draws.
pub fn draw_fair(
    def: &Definition,
    turns: u32,
    rng: &mut impl Rng,
) -> Result<SetupNumber, FairError> {
    let rules = &def.rules;
    let random = rules.random_setup().ok_or(FairError::NoRandomSetup)?;
    if is_shipped(def) && turns <= SHIPPED_TURNS {
        let unfair = shipped_unfair(turns);
        return draw_excluding(rules, |n| unfair.contains(&n), MAX_DRAWS, rng);
    }
    let count = setup::count(rules, random);
    let independent = random.black_independent();
    for _ in 0..MAX_DRAWS {
        let number = SetupNumber::draw(count, independent, rng);
        let Ok(pos) = setup::position(rules, random, number) else { continue };
        if is_fair(&pos, turns, SolveLimits::default()) == Some(true) {
            return Ok(number);
        }
    }
    Err(FairError::NoneFound(MAX_DRAWS))
}

/// A setup drawn uniformly among those whose White arrangement is not `unfair` (drawing again
/// until one is keeps the draw uniform), within `tries` draws.
///
/// # Errors
/// No random setup, or every draw was unfair.
pub fn draw_excluding(
    rules: &Rules,
    unfair: impl Fn(u128) -> bool,
    tries: usize,
    rng: &mut impl Rng,
) -> Result<SetupNumber, FairError> {
    let random = rules.random_setup().ok_or(FairError::NoRandomSetup)?;
    let count = setup::count(rules, random);
    let independent = random.black_independent();
    (0..tries)
        .map(|_| SetupNumber::draw(count, independent, rng))
        .find(|n| !unfair(n.white))
        .ok_or(FairError::NoneFound(tries))
}

/// The setups in which a side forces a goal within some turns, as a survey of every start
/// ([`crate::analysis::survey`]) finds them: those it has solved, and any other solved when
/// first asked about, so that a part of the survey's work (a shard) answers as the whole does.
pub struct Unfair<'r> {
    rules: &'r Rules,
    turns: u32,
    per_start: Option<Duration>,
    /// Whether the survey covers the setups (else it solved only the start, and no setup
    /// counts as unfair).
    covers: bool,
    known: Mutex<HashMap<u128, bool>>,
}

impl<'r> Unfair<'r> {
    /// What `verdicts` (a survey's, within `turns` turns, `per_start` time a start) tell;
    /// `covers` is whether the survey's starts are the setups.
    #[must_use]
    pub fn new<'v>(
        rules: &'r Rules,
        turns: u32,
        per_start: Option<Duration>,
        covers: bool,
        verdicts: impl IntoIterator<Item = &'v StartVerdict>,
    ) -> Unfair<'r> {
        let known = verdicts
            .into_iter()
            .filter_map(|v| {
                let n = v.setup.as_deref()?.parse().ok()?;
                Some((n, v.white.is_some() || v.black.is_some()))
            })
            .collect();
        Unfair { rules, turns, per_start, covers, known: Mutex::new(known) }
    }

    /// Whether setup `white` (Black mirroring it) has a forced goal.
    pub fn contains(&self, white: u128) -> bool {
        if !self.covers {
            return false;
        }
        let lock = || self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&known) = lock().get(&white) {
            return known;
        }
        let Some(random) = self.rules.random_setup() else { return false };
        let number = SetupNumber { white, black: None };
        let Ok(pos) = setup::position(self.rules, random, number) else { return false };
        let deadline = self.per_start.and_then(|t| Instant::now().checked_add(t));
        let v = verdict(Some(number), &pos, self.turns, SolveLimits { max_nodes: None, deadline });
        let unfair = v.white.is_some() || v.black.is_some();
        lock().insert(white, unfair);
        unfair
    }
}
