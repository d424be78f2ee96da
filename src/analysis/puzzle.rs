//! "Goal in K" puzzles: a position where the side to move forces a goal within K of its turns,
//! not fewer, and one first turn alone does so (as a result: turns that leave the same position
//! are one answer). The solver proves the answer and refutes every other first turn, and the
//! positions it expanded to do so grade the puzzle.

use serde::{Deserialize, Serialize};

use crate::analysis::goal::judge;
use crate::analysis::solve::{SolveLimits, Verdict, solve, solve_reply};
use crate::movegen::{Child, Results};
use crate::position::Position;

/// A puzzle as it is shipped and shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The position, the solver's side to move.
    pub fen: String,
    /// The goal comes in this many of the side's turns, and in no fewer.
    pub turns: u32,
    /// The one first turn that forces it, in kickoff's notation.
    pub solution: String,
    /// The positions the solver expanded to prove the answer and refute every other turn.
    pub work: u64,
    /// How hard the solver found it: `easy`, `medium` or `hard` (by [`grade`]).
    pub grade: String,
}

/// A file of puzzles, as `kickoff puzzles --format json` writes it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleFile {
    /// The variant, as named.
    pub variant: String,
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
}

/// The puzzles that ship with kickoff, by variant: each file's text (`puzzles/VARIANT.json`).
pub const SHIPPED: &[(&str, &str)] = &[
    ("boyer-1951", include_str!("../../puzzles/boyer-1951.json")),
    ("vchess", include_str!("../../puzzles/vchess.json")),
    ("football-960", include_str!("../../puzzles/football-960.json")),
    ("chessball-1957", include_str!("../../puzzles/chessball-1957.json")),
    ("stadium", include_str!("../../puzzles/stadium.json")),
];

/// The shipped puzzles of `variant`, if it has some (each file read once).
#[must_use]
pub fn shipped(variant: &str) -> Option<&'static [Puzzle]> {
    static READ: std::sync::OnceLock<Vec<(&'static str, Vec<Puzzle>)>> = std::sync::OnceLock::new();
    let read = READ.get_or_init(|| {
        let parse =
            |text| serde_json::from_str::<PuzzleFile>(text).map(|f| f.puzzles).unwrap_or_default();
        SHIPPED.iter().map(|&(name, text)| (name, parse(text))).collect()
    });
    read.iter().find(|(name, _)| *name == variant).map(|(_, p)| p.as_slice())
}

/// Why a position is not a puzzle of K turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAPuzzle {
    /// No goal is forced within K turns, or one is forced in fewer.
    NotExactly,
    /// Another first turn forces a goal within K turns too.
    NotUnique,
    /// The solver ran out of its limits (or a position had too many turns to list).
    Unknown,
}

/// The one first result of `pos` that forces a goal in exactly `turns` turns, and the
/// positions expanded to show it is the only one.
///
/// # Errors
/// The position is not a puzzle of `turns` turns, or the limits ran out ([`NotAPuzzle`]).
pub fn unique_answer<'r>(
    pos: &Position<'r>,
    turns: u32,
    limits: SolveLimits,
) -> Result<(Child<'r>, u64), NotAPuzzle> {
    unique_answer_within(pos, turns..=turns, limits).map(|(answer, _, work)| (answer, work))
}

/// [`unique_answer`] for a goal in any number of `turns`: the fewest turns that force one (if
/// within `turns`) settle the puzzle's, with one search.
///
/// # Errors
/// As [`unique_answer`].
pub fn unique_answer_within<'r>(
    pos: &Position<'r>,
    turns: std::ops::RangeInclusive<u32>,
    limits: SolveLimits,
) -> Result<(Child<'r>, u32, u64), NotAPuzzle> {
    let found = solve(pos, *turns.end(), limits);
    let turns = match (found.verdict, found.turns) {
        (Verdict::Unknown, _) => return Err(NotAPuzzle::Unknown),
        (Verdict::Win, Some(t)) if turns.contains(&t) && found.minimal => t,
        (Verdict::Win, Some(t)) if turns.contains(&t) => return Err(NotAPuzzle::Unknown),
        _ => return Err(NotAPuzzle::NotExactly),
    };
    let answer = found.first.ok_or(NotAPuzzle::Unknown)?;
    let mut work = found.nodes;
    let mut results = Results::new();
    let mut children = Vec::new();
    results.fill(pos, &mut children);
    if results.exhausted() {
        return Err(NotAPuzzle::Unknown);
    }
    let (me, score) = (pos.side(), pos.score()[pos.side().index()]);
    for child in &children {
        if child.position.hash() == answer.position.hash() {
            continue;
        }
        match judge(&child.position, me, score) {
            // A goal in one turn: another answer.
            Some(true) => return Err(NotAPuzzle::NotUnique),
            // The game ended otherwise (an own goal): no answer.
            Some(false) => continue,
            None => {}
        }
        if turns == 1 {
            continue;
        }
        let rest = solve_reply(&child.position, turns - 1, limits);
        work += rest.nodes;
        match rest.verdict {
            Verdict::Win => return Err(NotAPuzzle::NotUnique),
            Verdict::Unknown => return Err(NotAPuzzle::Unknown),
            Verdict::NoWin => {}
        }
    }
    Ok((answer, turns, work))
}

/// The grade of a puzzle whose proof took `work` positions: `easy` below 1,000, `medium` below
/// 100,000, `hard` from there.
#[must_use]
pub fn grade(work: u64) -> &'static str {
    match work {
        0..1_000 => "easy",
        1_000..100_000 => "medium",
        _ => "hard",
    }
}

/// Why a shipped or given puzzle does not hold.
#[derive(Debug, thiserror::Error)]
pub enum Broken {
    /// Its position is not one of these rules.
    #[error("its position does not read: {0}")]
    Position(String),
    /// Its answer is not a turn of its position.
    #[error("its answer `{0}` is not a turn there: {1}")]
    Answer(String, String),
    /// It is not a puzzle of its turns.
    #[error("it is not a goal in {0} with one answer: {1:?}")]
    NotAPuzzle(u32, NotAPuzzle),
    /// The solver's one answer is another turn.
    #[error("its answer `{0}` is not the one that forces the goal")]
    WrongAnswer(String),
}

/// Checks `puzzle` again under `rules`: a goal in exactly its turns, with one first result, the
/// one its answer leads to.
///
/// # Errors
/// What does not hold ([`Broken`]).
pub fn recheck(
    rules: &crate::rules::Rules,
    puzzle: &Puzzle,
    limits: SolveLimits,
) -> Result<u64, Broken> {
    let pos =
        Position::from_fen(rules, &puzzle.fen).map_err(|e| Broken::Position(e.to_string()))?;
    let turn = crate::turn_text::names::resolve(&pos, &puzzle.solution)
        .map_err(|e| Broken::Answer(puzzle.solution.clone(), e.to_string()))?;
    let (answer, work) = unique_answer(&pos, puzzle.turns, limits)
        .map_err(|e| Broken::NotAPuzzle(puzzle.turns, e))?;
    if crate::movegen::play_unchecked(&pos, &turn).hash() != answer.position.hash() {
        return Err(Broken::WrongAnswer(puzzle.solution.clone()));
    }
    Ok(work)
}
