//! The puzzles that ship with kickoff, on the web board: `/puzzles` lists the sets,
//! `/puzzles/VARIANT` plays them. The player enters the turns; the board answers each with the
//! best defence, the one after which the goal takes longest, as the solver finds it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};

use crate::analysis::goal::judge;
use crate::analysis::proof::first_turn;
use crate::analysis::puzzle::{Puzzle, SHIPPED, shipped};
use crate::analysis::solve::{SolveLimits, Verdict, solve, solve_reply};
use crate::movegen::{Child, Results, play_unchecked};
use crate::position::Position;
use crate::rules::Rules;
use crate::turn_text::names::{name, resolve};
use crate::web::clients::Peer;
use crate::web::queue::Kind;
use crate::web::views::board;
use crate::web::{ApiError, App};

/// The most turns a line sent to be checked may hold (a puzzle of 4 turns has 7).
const MAX_LINE: usize = 16;

/// The most positions the solver expands for one answer of the board.
const MAX_NODES: u64 = 2_000_000;

/// The longest the solver thinks for one answer of the board.
const THINKING: Duration = Duration::from_secs(10);

/// A set of puzzles in the list.
#[derive(Serialize)]
pub struct SetView {
    variant: String,
    title: String,
    count: usize,
    /// How many goals in 1, 2, ... turns.
    turns: Vec<(u32, usize)>,
}

/// `GET /api/puzzles`: the shipped sets.
pub async fn sets(State(app): State<Arc<App>>) -> Json<Vec<SetView>> {
    let sets = SHIPPED
        .iter()
        .filter_map(|(variant, _)| {
            let puzzles = shipped(variant)?;
            let rules = app.shipped(variant)?;
            let mut turns = std::collections::BTreeMap::new();
            for p in puzzles {
                *turns.entry(p.turns).or_insert(0) += 1;
            }
            Some(SetView {
                variant: (*variant).to_owned(),
                title: rules.info().name.clone(),
                count: puzzles.len(),
                turns: turns.into_iter().collect(),
            })
        })
        .collect();
    Json(sets)
}

/// One puzzle as the page shows it.
#[derive(Serialize)]
pub struct PuzzleView {
    variant: String,
    title: String,
    number: usize,
    count: usize,
    fen: String,
    turns: u32,
    grade: String,
    work: u64,
    /// The side to move: "white" or "black".
    side: &'static str,
    /// The one first turn that forces the goal (shown when the player asks).
    answer: String,
    svg: String,
}

/// The rules and puzzle `number` (from 1) of the shipped set of `variant`.
fn puzzle_of(
    app: &App,
    variant: &str,
    number: usize,
) -> Result<(Arc<Rules>, Puzzle, usize), ApiError> {
    let none = || ApiError::NoSuch(format!("no puzzle {number} of {variant}"));
    let puzzles = shipped(variant).ok_or_else(none)?;
    let rules = app.shipped(variant).ok_or_else(none)?.clone();
    let count = puzzles.len();
    let puzzle = number.checked_sub(1).and_then(|i| puzzles.get(i)).cloned().ok_or_else(none)?;
    Ok((rules, puzzle, count))
}

/// `GET /api/puzzles/{variant}/{number}`: the puzzle, its board drawn.
pub async fn one(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((variant, number)): Path<(String, usize)>,
) -> Result<Json<PuzzleView>, ApiError> {
    let (rules, puzzle, count) = puzzle_of(&app, &variant, number)?;
    app.quick(peer.client, move || {
        let pos = Position::from_fen(&rules, &puzzle.fen)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        Ok(Json(PuzzleView {
            title: rules.info().name.clone(),
            variant,
            number,
            count,
            side: if pos.side() == crate::side::Side::White { "white" } else { "black" },
            svg: board(&pos, pos.side() == crate::side::Side::Black, &[], &[]),
            fen: puzzle.fen,
            turns: puzzle.turns,
            grade: puzzle.grade,
            work: puzzle.work,
            answer: puzzle.solution,
        }))
    })
    .await
}

/// The turns entered so far, the board's answers among them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryRequest {
    line: Vec<String>,
}

/// What the board says of a line.
#[derive(Debug, Serialize)]
pub struct TryAnswer {
    /// `solved`, `go-on` (the board answered; the player's turn again) or `wrong`.
    verdict: &'static str,
    /// The line as it stands, each turn by its name, the board's answer last when it gave one
    /// (a wrong turn is left out).
    line: Vec<String>,
    /// What happened, in words.
    message: String,
    /// The position after the line.
    fen: String,
    /// The board after the line.
    svg: String,
}

/// `POST /api/puzzles/{variant}/{number}/try`: the player's turns (and the board's answers,
/// as it gave them) checked; the board's next answer when the line forces the goal still.
pub async fn try_line(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((variant, number)): Path<(String, usize)>,
    Json(request): Json<TryRequest>,
) -> Result<Json<TryAnswer>, ApiError> {
    let (rules, puzzle, _) = puzzle_of(&app, &variant, number)?;
    if request.line.is_empty()
        || request.line.len() > MAX_LINE
        || request.line.iter().any(|t| t.len() > 200)
    {
        return Err(ApiError::BadRequest(format!(
            "a line of 1 to {MAX_LINE} turns, each at most 200 bytes"
        )));
    }
    app.queue
        .run(peer.client, Kind::Request, move || {
            let deadline = Instant::now().checked_add(THINKING);
            let limits = SolveLimits { max_nodes: Some(MAX_NODES), deadline };
            check_line(&rules, &puzzle, &request.line, limits).map(Json)
        })
        .await
}

/// Checks `line` against `puzzle` (see [`try_line`]).
fn check_line(
    rules: &Rules,
    puzzle: &Puzzle,
    line: &[String],
    limits: SolveLimits,
) -> Result<TryAnswer, ApiError> {
    let bad = |e: String| ApiError::BadRequest(e);
    let start = Position::from_fen(rules, &puzzle.fen).map_err(|e| bad(e.to_string()))?;
    let (me, score) = (start.side(), start.score()[start.side().index()]);
    let flipped = me == crate::side::Side::Black;
    let answer = resolve(&start, &puzzle.solution).map_err(|e| bad(e.to_string()))?;
    let answer = play_unchecked(&start, &answer).hash();
    let mut pos = start;
    let mut names = Vec::new();
    for (i, text) in line.iter().enumerate() {
        let turn = resolve(&pos, text).map_err(|e| bad(format!("turn {}: {e}", i + 1)))?;
        let after = play_unchecked(&pos, &turn);
        let named = name(&pos, &turn);
        if i % 2 == 1 {
            // The board's answer, as it gave it.
            let (best, reply) = best_defence(&pos, me, score, left(puzzle, i), limits)?;
            if best.position.hash() != after.hash() {
                return Err(bad(format!("turn {}: the board answers {reply}, not {named}", i + 1)));
            }
        } else {
            let own = left(puzzle, i);
            let scored = judge(&after, me, score) == Some(true);
            let holds = if scored {
                true
            } else if i == 0 {
                after.hash() == answer
            } else {
                own > 1 && solve_reply(&after, own - 1, limits).verdict == Verdict::Win
            };
            if !holds {
                let message =
                    format!("{named} does not force the goal: the defence holds. Try again.");
                return Ok(TryAnswer {
                    verdict: "wrong",
                    line: names,
                    message,
                    fen: pos.fen(),
                    svg: board(&pos, flipped, &[], &[]),
                });
            }
            if scored {
                if i + 1 != line.len() {
                    return Err(bad("the line goes on after the goal".into()));
                }
                names.push(named);
                let message = format!("Solved: a goal in {} turns.", i / 2 + 1);
                return Ok(TryAnswer {
                    verdict: "solved",
                    line: names,
                    message,
                    fen: after.fen(),
                    svg: board(&after, flipped, &[], &[]),
                });
            }
        }
        names.push(named);
        pos = after;
    }
    if line.len().is_multiple_of(2) {
        return Err(bad("the line ends with the board's answer: add your turn".into()));
    }
    let (best, reply) = best_defence(&pos, me, score, left(puzzle, line.len()), limits)?;
    names.push(reply.clone());
    let message = format!("The board answers {reply}. Your turn.");
    let (fen, svg) = (best.position.fen(), board(&best.position, flipped, &[], &[]));
    Ok(TryAnswer { verdict: "go-on", line: names, message, fen, svg })
}

/// The player's turns left at turn `i` of a line (counted from 0, the board's answers at the
/// odd turns): at the player's own turn, that turn included; at the board's, those after it.
fn left(puzzle: &Puzzle, i: usize) -> u32 {
    puzzle.turns.saturating_sub(u32::try_from(i.div_ceil(2)).unwrap_or(u32::MAX))
}

/// The defender's best answer in `pos`: the result after which `attacker`'s goal takes the
/// most of its `left` turns (the first of them in the results' order), and its name.
fn best_defence<'r>(
    pos: &Position<'r>,
    attacker: crate::side::Side,
    score: u16,
    left: u32,
    limits: SolveLimits,
) -> Result<(Child<'r>, String), ApiError> {
    let mut children = Vec::new();
    Results::new().fill(pos, &mut children);
    let mut best: Option<(u32, Child<'r>)> = None;
    for child in children {
        if judge(&child.position, attacker, score).is_some() {
            // An own goal, or the game over otherwise: no defence.
            continue;
        }
        let found = solve(&child.position, left, limits);
        let turns = match found.verdict {
            Verdict::Win => found.turns.unwrap_or(left),
            // Not known within the limits: counted as lasting longest.
            _ => left + 1,
        };
        if best.as_ref().is_none_or(|(t, _)| turns > *t) {
            best = Some((turns, child));
        }
    }
    let (_, child) = best.ok_or_else(|| ApiError::Conflict("the defence has no turn".into()))?;
    let turn = first_turn(pos, &child)
        .ok_or_else(|| ApiError::Conflict("the defence has no turn".into()))?;
    Ok((child, name(pos, &turn)))
}
