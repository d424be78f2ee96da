//! Puzzles from self-play: positions a few turns before the goals of the engine's games, kept
//! where the solver proves a goal in exactly K turns with one first turn alone
//! ([`crate::analysis::puzzle`]).

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::analysis::proof::first_turn;
use crate::analysis::puzzle::{Puzzle, grade, unique_answer_within};
use crate::analysis::solve::SolveLimits;
use crate::game::Game;
use crate::position::{Outcome, Position};
use crate::rules::Rules;
use crate::search::{Limits, Searcher, random_turn};
use crate::setup::{self, SetupNumber};
use crate::turn_text::names::name;

/// How puzzles are looked for.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleSearch {
    /// How many puzzles.
    pub count: usize,
    /// Goals in this many turns, from the first to the second (both included).
    pub turns: (u32, u32),
    /// The seed of the games' setups and openings.
    pub seed: u64,
    /// The engine's level in the games.
    pub level: u8,
    /// Games played at once.
    pub threads: usize,
    /// The most games played.
    pub max_games: usize,
    /// The most positions the solver expands for one answer or one refutation.
    pub max_nodes: u64,
    /// Random turns that open each game, so that games from one start differ.
    pub opening: u32,
}

/// A game still going after this many turns gives no puzzle.
const MAX_TURNS: usize = 200;

/// How many of the scorer's turns before its goal are tried, the earliest first.
const TRIED_BEFORE_GOAL: usize = 4;

/// Up to `search.count` puzzles, in the order of the games they come from (the same whatever
/// the threads), at most one from each game; `progress` is called with the puzzles found and
/// the games played.
pub fn find(
    rules: &Rules,
    search: PuzzleSearch,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Puzzle> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let batch = search.threads.max(1) * 4;
    let mut next = 0;
    while found.len() < search.count && next < search.max_games {
        let numbers: Vec<usize> = (next..(next + batch).min(search.max_games)).collect();
        next += numbers.len();
        let out = Mutex::new(BTreeMap::new());
        let engine = || Searcher::with_table_bits(rules, 18);
        crate::parallel::for_each(search.threads, &numbers, engine, |searcher, &i| {
            searcher.forget();
            let puzzle = from_game(rules, &search, i, searcher);
            out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(i, puzzle);
        });
        let out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        for puzzle in out.into_values().flatten() {
            if found.len() < search.count && seen.insert(puzzle.fen.clone()) {
                found.push(puzzle);
            }
        }
        progress(found.len(), next);
    }
    found
}

/// Game `i` played by the engine against itself, and the first puzzle among the scorer's last
/// turns before its goal, if any.
fn from_game<'r>(
    rules: &'r Rules,
    search: &PuzzleSearch,
    i: usize,
    searcher: &mut Searcher<'r>,
) -> Option<Puzzle> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(search.seed.wrapping_mul(7_368_787).wrapping_add(i as u64));
    let start = rules
        .random_setup()
        .and_then(|random| {
            let number = SetupNumber::draw(
                setup::count(rules, random),
                random.black_independent(),
                &mut rng,
            );
            setup::position(rules, random, number).ok()
        })
        .unwrap_or_else(|| Position::start(rules));
    let mut game = Game::new("", start, None);
    let mut before = Vec::new();
    while game.ending().is_none() && before.len() < MAX_TURNS {
        let pos = *game.position();
        let turn = if (before.len() as u32) < search.opening {
            random_turn(&pos, &mut rng)
        } else {
            let history = game.hashes();
            let limits = Limits::level(search.level);
            searcher.search(&pos, &history[..history.len() - 1], limits).ok().and_then(|r| r.turn)
        };
        before.push(pos);
        turn.and_then(|t| game.play(t).ok())?;
    }
    let scorer = match game.position().outcome()? {
        Outcome::Goal { winner, own_goal: false } => winner,
        _ => return None,
    };
    let (fewest, most) = search.turns;
    let limits = SolveLimits { max_nodes: Some(search.max_nodes), deadline: None };
    // The scorer's turns before the goal (its scoring turn is the last), the earliest first:
    // the longer puzzles first.
    let scoring = before.len().checked_sub(1)?;
    (0..TRIED_BEFORE_GOAL).rev().filter_map(|j| scoring.checked_sub(2 * j)).find_map(|ply| {
        let pos = &before[ply];
        if pos.side() != scorer || ply < search.opening as usize {
            return None;
        }
        let (answer, turns, work) = unique_answer_within(pos, fewest..=most, limits).ok()?;
        let turn = first_turn(pos, &answer)?;
        Some(Puzzle {
            fen: pos.fen(),
            turns,
            solution: name(pos, &turn),
            work,
            grade: grade(work).to_owned(),
        })
    })
}
