//! The computer opponent: iterative-deepening negamax with alpha-beta over whole turns.
//!
//! The search chooses among the distinct *results* of a position's turns (many turns leave the
//! same position), with a transposition table keyed by the Zobrist hash, results ordered by the
//! table's best, then goals, then the evaluation and a history of good results. At the horizon it
//! asks whether the side to move can score at once, so a goal in one is never hidden. It works
//! for any definition: everything it knows comes from the [`Rules`](crate::rules::Rules).

mod eval;
mod player;

use std::time::{Duration, Instant};

pub use eval::Eval;
pub use player::{ParsePlayerError, Player, greedy_turn, random_turn};

use crate::movegen::{Child, Results, TooManyTurns, Turn, check_turn_count, legal_turns, play};
use crate::position::{Outcome, Position};
use crate::square::{SQUARES, Square};

/// The value of a goal for the side that scores it, less one per turn until it is scored.
pub const WIN: i32 = 30_000;
/// Scores at least this far from zero announce a goal within reach.
const WIN_BOUND: i32 = WIN - 1_000;

/// The ordering bonus of a result that leaves the ball one kick from the mover's goal.
const THREAT: i32 = 500;

/// The strongest level.
pub const MAX_LEVEL: u8 = 4;
/// The level of `engine` without a number.
pub const DEFAULT_LEVEL: u8 = 4;

/// How long the search may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in turns.
    pub depth: Option<u32>,
    /// The time for the whole search.
    pub movetime: Option<Duration>,
    /// Iterations the clock cannot stop (at least 1): with 2, a goal in one, a defence against
    /// a goal in one and a win in two are never missed, whatever the time.
    pub min_depth: u32,
}

impl Limits {
    /// The limits of a level, 1 ..= [`MAX_LEVEL`] (clamped): 1 looks one turn ahead, 2 two
    /// turns, 3 as deep as 200 ms allow, 4 as deep as one second allows; from 2 on, at least
    /// two turns deep whatever the time.
    #[must_use]
    pub fn level(level: u8) -> Limits {
        let (depth, ms) = match level.clamp(1, MAX_LEVEL) {
            1 => (Some(1), None),
            2 => (Some(2), None),
            3 => (None, Some(200)),
            _ => (None, Some(1_000)),
        };
        Limits {
            depth,
            movetime: ms.map(Duration::from_millis),
            min_depth: if level > 1 { 2 } else { 1 },
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Report<'r> {
    /// The chosen turn (none when the game is over).
    pub turn: Option<Turn>,
    /// The position after it.
    pub result: Option<Position<'r>>,
    /// Its value for the side to move: points, or near ±[`WIN`] when a goal is forced.
    pub score: i32,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The expected line of play, the chosen turn first.
    pub line: Vec<Turn>,
}

/// In how many turns (of the side to move, counting the one that scores) a goal is forced:
/// positive when the side to move scores, negative when it concedes.
#[must_use]
pub fn goal_in(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some((WIN - score + 1) / 2)
    } else if score <= -WIN_BOUND {
        Some(-((WIN + score) / 2))
    } else {
        None
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    best: u64,
    score: i32,
    depth: u8,
    bound: Bound,
}

const EMPTY_ENTRY: Entry = Entry { key: 0, best: 0, score: 0, depth: 0, bound: Bound::Exact };

/// A search with its tables, kept from one turn to the next of a game.
pub struct Searcher<'r> {
    eval: Eval,
    results: Results<'r>,
    table: Vec<Entry>,
    history: Vec<i32>,
    children: Vec<Vec<Child<'r>>>,
    order: Vec<Vec<(i32, usize)>>,
    squares: Vec<Square>,
    /// The results of a position at the horizon (rules beyond Boyer's family).
    leaf_children: Vec<Child<'r>>,
    path: Vec<u64>,
    past: Vec<u64>,
    nodes: u64,
    deadline: Option<Instant>,
    /// Whether the clock may stop the iteration under way (never the first).
    may_stop: bool,
    stopped: bool,
}

/// The number of table entries (24 bytes each): 2^20, 24 MiB.
const TABLE_BITS: u32 = 20;

impl<'r> Searcher<'r> {
    /// A searcher for the variant of `rules`.
    #[must_use]
    pub fn new(rules: &'r crate::rules::Rules) -> Searcher<'r> {
        Searcher {
            eval: Eval::new(rules),
            results: Results::new(),
            table: vec![EMPTY_ENTRY; 1 << TABLE_BITS],
            history: vec![0; (SQUARES + 1) * SQUARES],
            children: Vec::new(),
            order: Vec::new(),
            squares: Vec::new(),
            leaf_children: Vec::new(),
            path: Vec::new(),
            past: Vec::new(),
            nodes: 0,
            deadline: None,
            may_stop: false,
            stopped: false,
        }
    }

    /// Chooses a turn for the side to move in `pos`. `history` holds the hashes of the game's
    /// earlier positions (a result that repeats one counts as a draw).
    ///
    /// # Errors
    /// The position has more turns than kickoff lists ([`TooManyTurns`]).
    pub fn search(
        &mut self,
        pos: &Position<'r>,
        history: &[u64],
        limits: Limits,
    ) -> Result<Report<'r>, TooManyTurns> {
        check_turn_count(pos)?;
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.deadline = limits.movetime.map(|t| start + t);
        self.past.clear();
        self.past.extend_from_slice(history);
        self.past.sort_unstable();
        self.path.clear();
        self.path.push(pos.hash());
        for h in &mut self.history {
            *h /= 8;
        }
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        let mut children = Vec::new();
        self.results.fill(pos, &mut children);
        let mut report = Report {
            turn: None,
            result: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            line: Vec::new(),
        };
        if children.is_empty() {
            return Ok(report);
        }
        // Root results with their last scores, best first.
        let me = pos.side;
        let mut root: Vec<(i32, Child<'r>)> = children
            .iter()
            .map(|c| {
                let key = match c.position.outcome().and_then(Outcome::winner) {
                    Some(winner) if winner == me => WIN,
                    Some(_) => -WIN,
                    None => -self.eval.static_value(&c.position),
                };
                (key, *c)
            })
            .collect();
        root.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let mut best = root[0].1;
        let mut best_score = root[0].0;
        for depth in 1..=max_depth {
            self.may_stop = depth > limits.min_depth.max(1);
            let mut alpha = -WIN - 1;
            let mut iteration_best = None;
            let mut scored = Vec::with_capacity(root.len());
            for (i, &(_, child)) in root.iter().enumerate() {
                let score = -self.child_value(&child.position, depth - 1, -WIN - 1, -alpha, 1);
                if self.stopped && depth > 1 {
                    break;
                }
                scored.push((score, i));
                if score > alpha {
                    alpha = score;
                    iteration_best = Some((child, score));
                }
            }
            // Every scored result was searched to the end, even when the clock stopped the
            // iteration: the best of them is at least as good as the last iteration's.
            if let Some((child, score)) = iteration_best {
                best = child;
                best_score = score;
            }
            if !self.stopped {
                report.depth = depth;
            }
            if self.stopped && depth > 1 {
                break;
            }
            // Next iteration: this iteration's order (moves not reached keep their place).
            let mut next: Vec<(i32, Child<'r>)> =
                scored.iter().map(|&(s, i)| (s, root[i].1)).collect();
            next.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
            root = next;
            self.store(pos.hash(), depth, best_score, Bound::Exact, best.position.hash(), 0);
            if best_score.abs() >= WIN_BOUND {
                break;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        report.score = best_score;
        report.result = Some(best.position);
        let turn = turn_to(pos, &best.position);
        report.line = self.line(pos, &turn, &best.position, report.depth);
        report.turn = Some(turn);
        report.nodes = self.nodes;
        report.time = start.elapsed();
        Ok(report)
    }

    /// The expected line: the chosen turn (leading to `first`), then the table's best replies.
    fn line(&self, pos: &Position<'r>, turn: &Turn, first: &Position<'r>, depth: u32) -> Vec<Turn> {
        let mut line = vec![turn.clone()];
        let mut at = *first;
        let mut seen = vec![pos.hash(), at.hash()];
        while line.len() < depth as usize && !at.is_goal() {
            let e = self.table[self.slot(at.hash())];
            if e.key != at.hash() || e.best == 0 || seen.contains(&e.best) {
                break;
            }
            let Some((next, turn)) = turn_leading_to(&at, e.best) else { break };
            seen.push(e.best);
            line.push(turn);
            at = next;
        }
        line
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    fn store(&mut self, key: u64, depth: u32, score: i32, bound: Bound, best: u64, ply: u32) {
        let score = to_table(score, ply);
        let slot = self.slot(key);
        let e = &mut self.table[slot];
        if e.key != key || u32::from(e.depth) <= depth || bound == Bound::Exact {
            *e = Entry { key, best, score, depth: depth.min(255) as u8, bound };
        }
    }

    /// The value of `pos` (the side to move's) after checking the end of the game and
    /// repetitions.
    fn child_value(
        &mut self,
        pos: &Position<'r>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        match pos.outcome().map(|o| (o, o.winner())) {
            Some((_, Some(winner))) => {
                let v = WIN - ply as i32;
                return if winner == pos.side { v } else { -v };
            }
            Some(_) => return 0,
            None => {}
        }
        let h = pos.hash();
        if self.path.contains(&h) || self.past.binary_search(&h).is_ok() {
            return 0;
        }
        self.path.push(h);
        let v = self.negamax(pos, depth, alpha, beta, ply);
        self.path.pop();
        v
    }

    fn negamax(
        &mut self,
        pos: &Position<'r>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.may_stop
            && self.nodes & 1023 == 0
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth == 0 {
            return self.leaf(pos, ply);
        }
        let key = pos.hash();
        let slot = self.slot(key);
        let entry = self.table[slot];
        let mut tt_best = 0;
        if entry.key == key {
            tt_best = entry.best;
            if u32::from(entry.depth) >= depth {
                let s = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let level = ply as usize;
        while self.children.len() <= level {
            self.children.push(Vec::new());
            self.order.push(Vec::new());
        }
        let mut children = std::mem::take(&mut self.children[level]);
        let mut order = std::mem::take(&mut self.order[level]);
        self.results.fill(pos, &mut children);
        order.clear();
        let me = pos.side;
        let mut win = false;
        for (i, c) in children.iter().enumerate() {
            let key = match c.position.outcome().and_then(Outcome::winner) {
                Some(winner) if winner == me => {
                    win = true;
                    break;
                }
                Some(_) => i32::MIN,
                _ if c.position.hash() == tt_best => i32::MAX,
                _ => {
                    // Then results that threaten a goal, then by value and history.
                    let threat = if self.eval.threatens(me, c.position.ball) { THREAT } else { 0 };
                    threat - self.eval.static_value(&c.position)
                        + self.history[history_index(c)].min(4_000) / 40
                }
            };
            order.push((key, i));
        }
        let mut best_score = -WIN - 1;
        let mut best_hash = 0;
        if win {
            best_score = WIN - ply as i32 - 1;
        } else {
            order.sort_unstable_by_key(|&(k, _)| std::cmp::Reverse(k));
            let original_alpha = alpha;
            for &(_, i) in &order {
                let child = children[i];
                let score = -self.child_value(&child.position, depth - 1, -beta, -alpha, ply + 1);
                if self.stopped {
                    break;
                }
                if score > best_score {
                    best_score = score;
                    best_hash = child.position.hash();
                }
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    let h = &mut self.history[history_index(&child)];
                    *h = h.saturating_add((depth * depth) as i32);
                    break;
                }
            }
            if !self.stopped {
                let bound = if best_score >= beta {
                    Bound::Lower
                } else if best_score > original_alpha {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                self.store(key, depth, best_score, bound, best_hash, ply);
            }
        }
        self.children[level] = children;
        self.order[level] = order;
        best_score
    }

    /// The horizon: a goal in one if the side to move has one, else the evaluation with how
    /// near it can bring the ball.
    fn leaf(&mut self, pos: &Position<'r>, ply: u32) -> i32 {
        if !pos.rules.tables().classic {
            return self.leaf_by_results(pos, ply);
        }
        let mut squares = std::mem::take(&mut self.squares);
        self.results.ball_squares(pos, &mut squares);
        let me = pos.side;
        let rules = pos.rules;
        let mut reach = self.eval.to_goal(me, pos.ball);
        let mut scores = false;
        for &s in &squares {
            if rules.scorer(s) == Some(me) {
                scores = true;
                break;
            }
            reach = reach.min(self.eval.to_goal(me, s));
        }
        let count = squares.len();
        self.squares = squares;
        if scores { WIN - ply as i32 - 1 } else { self.eval.with_reach(pos, reach, count) }
    }
}

impl<'r> Searcher<'r> {
    /// The horizon for rules beyond Boyer's family, from the results of the position: a win in
    /// one if there is one, else the evaluation with how near the side can bring the ball and
    /// whether it can score a point now.
    fn leaf_by_results(&mut self, pos: &Position<'r>, ply: u32) -> i32 {
        let mut children = std::mem::take(&mut self.leaf_children);
        self.results.fill(pos, &mut children);
        let me = pos.side;
        let mut reach = self.eval.to_goal(me, pos.ball);
        let mut point = false;
        let mut win = false;
        for c in &children {
            if c.position.outcome().and_then(Outcome::winner) == Some(me) {
                win = true;
                break;
            }
            point |= c.position.score[me.index()] > pos.score[me.index()];
            reach = reach.min(self.eval.to_goal(me, c.position.ball));
        }
        let count = children.len();
        self.leaf_children = children;
        if win {
            return WIN - ply as i32 - 1;
        }
        self.eval.with_reach(pos, reach, count) + if point { eval::POINT / 2 } else { 0 }
    }
}

/// The slot of a result in the history table: the moved piece's destination and the ball's.
fn history_index(child: &Child<'_>) -> usize {
    let to = child.piece_move.map_or(SQUARES, |(_, t)| t.index());
    to * SQUARES + child.position.ball.index()
}

/// A goal score as the table keeps it: relative to the node at `ply`, not to the root.
fn to_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// A score read from the table at `ply` (the inverse of [`to_table`]).
fn from_table(score: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// A turn from `pos` to the position of hash `result`, with that position: the turn with the
/// fewest kicks (the first listed among equals).
fn turn_leading_to<'r>(pos: &Position<'r>, result: u64) -> Option<(Position<'r>, Turn)> {
    legal_turns(pos)
        .into_iter()
        .map(|t| (play(pos, &t), t))
        .filter(|(after, _)| after.hash() == result)
        .min_by_key(|(_, t)| t.actions.len())
}

/// A turn from `pos` that leaves `result` (the null turn if none does).
#[must_use]
pub fn turn_to(pos: &Position<'_>, result: &Position<'_>) -> Turn {
    turn_leading_to(pos, result.hash()).map_or_else(Turn::null, |(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::{Limits, MAX_LEVEL, Searcher, WIN, goal_in};
    use crate::position::Position;

    #[test]
    fn goal_distances_read_from_scores() {
        assert_eq!(goal_in(WIN - 1), Some(1));
        assert_eq!(goal_in(WIN - 3), Some(2));
        assert_eq!(goal_in(-(WIN - 2)), Some(-1));
        assert_eq!(goal_in(-(WIN - 4)), Some(-2));
        assert_eq!(goal_in(250), None);
    }

    #[test]
    fn higher_levels_search_at_least_as_much() {
        let reach = |l: Limits| (l.depth.unwrap_or(64), l.movetime.map_or(0, |t| t.as_millis()));
        for level in 2..=MAX_LEVEL {
            let (low, high) = (Limits::level(level - 1), Limits::level(level));
            assert!(high.min_depth >= low.min_depth);
            assert!(reach(high) >= reach(low) || high.depth.is_none(), "level {level}");
        }
        assert_eq!(Limits::level(2).min_depth, 2);
    }

    #[test]
    fn a_side_that_can_only_pass_passes() {
        let def = crate::definition::load("tests/data/warn/forced-pass-at-start.toml").unwrap();
        let pos = Position::start(&def.rules);
        let report = Searcher::new(&def.rules).search(&pos, &[], Limits::level(2)).unwrap();
        assert!(report.turn.unwrap().is_null());
    }

    #[test]
    fn a_finished_game_has_no_turn() {
        let def = crate::definition::load("boyer-1951").unwrap();
        let pos = Position::from_fen(&def.rules, "rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 7").unwrap();
        let report = Searcher::new(&def.rules).search(&pos, &[], Limits::level(1)).unwrap();
        assert!(report.turn.is_none() && report.result.is_none());
    }
}
