//! The computer opponent: iterative-deepening negamax with alpha-beta over whole turns.
//!
//! The search chooses among the distinct *results* of a position's turns (many turns leave the
//! same position), with a transposition table keyed by the Zobrist hash, results ordered by the
//! table's best, then goals, then the evaluation and a history of good results. At the horizon it
//! asks whether the side to move can score at once, so a goal in one is never hidden. It works
//! for any definition: everything it knows comes from the [`Rules`](crate::rules::Rules).

mod eval;
mod player;
mod selective;

use std::time::{Duration, Instant};

pub use eval::Eval;
pub use player::{ParsePlayerError, Player, beyond_counting, greedy_turn, random_turn};

use crate::movegen::{
    Child, MAX_TURNS, Results, TooManyTurns, Turn, check_turn_count, shortest_turn,
};
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
}

/// The cap of levels 1 and 2: far beyond what two turns take in the shipped variants (under
/// half a second), reached only where positions have tens of thousands of turns.
pub const LEVEL_CAP: Duration = Duration::from_secs(10);

impl Limits {
    /// The limits of a level, 1 ..= [`MAX_LEVEL`] (clamped): 1 looks one turn ahead, 2 two
    /// turns, 3 as deep as 200 ms allow, 4 as deep as one second allows; from 2 on, at least
    /// two turns deep unless that takes more than twice the level's time (levels 3 and 4) or
    /// [`LEVEL_CAP`] (levels 1 and 2).
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
            cap: depth.map(|_| LEVEL_CAP),
        }
    }

    /// When everything stops, counted from `start`: the cap, and twice the movetime.
    fn hard_deadline(&self, start: Instant) -> Option<Instant> {
        let twice = self.movetime.map(|t| t.saturating_mul(2));
        let limit = match (twice, self.cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limit.and_then(|t| start.checked_add(t))
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
    /// Whether the walk of some position searched ran out of its steps ([`MAX_TURNS`]), so
    /// the search weighed only the results it had found there.
    pub truncated: bool,
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

// All-zero bytes are an empty entry: `Exact` is 0 (see `zeroed_table`).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
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

/// A table of `len` empty entries, asked of the system zeroed, so that pages the search never
/// touches cost nothing (a short game uses few of them).
fn zeroed_table(len: usize) -> Box<[Entry]> {
    let layout = std::alloc::Layout::array::<Entry>(len).expect("table size");
    // SAFETY: `layout` has a non-zero size; all-zero bytes are a valid `Entry` (integers, and a
    // `Bound` whose `#[repr(u8)]` discriminant 0 is `Exact`), so the `len` entries are
    // initialised; the box frees the allocation with the same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    }
}

/// A search with its tables, kept from one turn to the next of a game.
pub struct Searcher<'r> {
    eval: Eval,
    results: Results<'r>,
    table: Box<[Entry]>,
    history: Vec<i32>,
    children: Vec<Vec<Child<'r>>>,
    order: Vec<Vec<(i32, usize)>>,
    squares: Vec<Square>,
    path: Vec<u64>,
    past: Vec<u64>,
    nodes: u64,
    /// `movetime` from the start: no iteration starts after it; it stops those that may stop.
    deadline: Option<Instant>,
    /// Twice `movetime` from the start: everything stops.
    hard_deadline: Option<Instant>,
    /// Whether the clock may stop the iteration under way (not those up to `min_depth`).
    may_stop: bool,
    stopped: bool,
    /// Whether a position's results were cut short by the walk's step bound.
    truncated: bool,
    /// The table has `2^bits` entries.
    bits: u32,
}

/// The size of a table entry, in bytes.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The number of table entries (24 bytes each) of a searcher made with [`Searcher::new`]:
/// 2^20, 24 MiB (the memory is taken as the table fills).
pub const TABLE_BITS: u32 = 20;

/// The number of nodes between two readings of the clock (a node can take milliseconds in a
/// position with tens of thousands of turns; the walks inside a node read it too).
const CLOCK_NODES: u64 = 16;

impl<'r> Searcher<'r> {
    /// A searcher for the variant of `rules`, with a table of 2^[`TABLE_BITS`] entries.
    #[must_use]
    pub fn new(rules: &'r crate::rules::Rules) -> Searcher<'r> {
        Searcher::with_table_bits(rules, TABLE_BITS)
    }

    /// A searcher with a table of 2^`bits` entries (24 bytes each; `bits` clamped to 10 ..= 24),
    /// for when many searchers run at once.
    #[must_use]
    pub fn with_table_bits(rules: &'r crate::rules::Rules, bits: u32) -> Searcher<'r> {
        let bits = bits.clamp(10, 24);
        Searcher {
            eval: Eval::new(rules),
            results: Results::new(),
            table: zeroed_table(1 << bits),
            history: vec![0; (SQUARES + 1) * SQUARES],
            children: Vec::new(),
            order: Vec::new(),
            squares: Vec::new(),
            path: Vec::new(),
            past: Vec::new(),
            nodes: 0,
            deadline: None,
            hard_deadline: None,
            may_stop: false,
            stopped: false,
            truncated: false,
            bits,
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
        let start = Instant::now();
        // Turns of several piece moves are far too many to list: they are built action by
        // action from the start, without counting them first.
        if player::beyond_counting(pos) {
            return self.search_selectively(pos, limits, start).ok_or(TooManyTurns);
        }
        if let Err(too_many) = check_turn_count(pos) {
            return self.search_selectively(pos, limits, start).ok_or(too_many);
        }
        self.nodes = 0;
        self.stopped = false;
        self.truncated = false;
        self.may_stop = false;
        self.deadline = limits.movetime.and_then(|t| start.checked_add(t));
        self.hard_deadline = limits.hard_deadline(start);
        self.results.set_deadline(self.hard_deadline);
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
            truncated: false,
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
            self.results.set_deadline(if self.may_stop {
                self.deadline
            } else {
                self.hard_deadline
            });
            let mut alpha = -WIN - 1;
            let mut iteration_best = None;
            let mut scored = Vec::with_capacity(root.len());
            for (i, &(_, child)) in root.iter().enumerate() {
                let score = -self.child_value(&child.position, depth - 1, -WIN - 1, -alpha, 1);
                if self.stopped {
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
            if self.stopped {
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
        // The turn to the chosen result is found in the root's chains alone (the root has at
        // most MAX_TURNS turns); the rest of the line only while the clock allows.
        let turn = shortest_turn(pos, &best, u64::MAX, None).unwrap_or_else(Turn::null);
        self.results.set_deadline(self.hard_deadline);
        report.line = self.line(pos, &turn, &best.position, report.depth);
        report.turn = Some(turn);
        report.nodes = self.nodes;
        report.time = start.elapsed();
        report.truncated = self.truncated;
        Ok(report)
    }

    /// The turn of a position with too many turns to list, built action by action (see
    /// [`selective`]); none when the side has no turn at all.
    fn search_selectively(
        &mut self,
        pos: &Position<'r>,
        limits: Limits,
        start: Instant,
    ) -> Option<Report<'r>> {
        let deadline = limits
            .movetime
            .and_then(|t| start.checked_add(t))
            .or(limits.cap.and_then(|t| start.checked_add(t)));
        let effort = selective::Effort::of(limits);
        let (turn, result, score) = selective::choose(&self.eval, pos, effort, deadline)?;
        Some(Report {
            line: vec![turn.clone()],
            turn: Some(turn),
            result: Some(result),
            score,
            depth: 1,
            nodes: 0,
            time: start.elapsed(),
            truncated: false,
        })
    }

    /// The expected line: the chosen turn (leading to `first`), then the table's best replies.
    fn line(
        &mut self,
        pos: &Position<'r>,
        turn: &Turn,
        first: &Position<'r>,
        depth: u32,
    ) -> Vec<Turn> {
        let mut line = vec![turn.clone()];
        let mut at = *first;
        let mut seen = vec![pos.hash(), at.hash()];
        while line.len() < depth as usize && !at.is_goal() && !self.results.timed_out() {
            let e = self.table[self.slot(at.hash())];
            if e.key != at.hash() || e.best == 0 || seen.contains(&e.best) {
                break;
            }
            let Some((next, turn)) = self.turn_leading_to(&at, e.best) else { break };
            seen.push(e.best);
            line.push(turn);
            at = next;
        }
        line
    }

    /// A turn from `pos` to the result of hash `result`, with that result: the turn with the
    /// fewest kicks (the first listed among equals). Bounded like the search's own walks.
    fn turn_leading_to(&mut self, pos: &Position<'r>, result: u64) -> Option<(Position<'r>, Turn)> {
        let mut children = Vec::new();
        self.results.fill(pos, &mut children);
        let child = children.into_iter().find(|c| c.position.hash() == result)?;
        let (budget, deadline) = (MAX_TURNS + 2, self.hard_deadline);
        let turn = shortest_turn(pos, &child, budget, deadline)?;
        // A walk cut by the clock may have missed the shortest turn: the line ends before.
        (!self.results.timed_out()).then_some((child.position, turn))
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - self.bits)) as usize
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
        if self.nodes.is_multiple_of(CLOCK_NODES) && self.out_of_time() {
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
        // A walk cut by the clock leaves results missing: this node's value would be wrong.
        self.stopped |= self.results.timed_out();
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
        } else if children.is_empty() {
            if self.results.exhausted() {
                // Too many turns to list: the results are unknown, not absent.
                self.truncated = true;
                best_score = self.eval.static_value(pos);
            } else {
                // No turn at all, not even a pass: the game is drawn (`end.no_moves = "draw"`).
                best_score = 0;
            }
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

    /// Whether the clock stops the search now: the deadline when the iteration may stop,
    /// twice it whatever the iteration.
    fn out_of_time(&self) -> bool {
        let now = Instant::now();
        let passed = |d: Option<Instant>| d.is_some_and(|d| now >= d);
        (self.may_stop && passed(self.deadline)) || passed(self.hard_deadline)
    }

    /// The horizon: a goal in one if the side to move has one, else the evaluation with how
    /// near it can bring the ball.
    fn leaf(&mut self, pos: &Position<'r>, ply: u32) -> i32 {
        if !pos.rules.tables().classic {
            return self.leaf_by_results(pos, ply);
        }
        let mut squares = std::mem::take(&mut self.squares);
        self.results.ball_squares(pos, &mut squares);
        self.stopped |= self.results.timed_out();
        self.truncated |= self.results.exhausted();
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
        let me = pos.side;
        let start = self.eval.to_goal(me, pos.ball);
        let (mut reach, mut point, mut win) = (start, false, false);
        let mut squares = crate::square_set::SquareSet::EMPTY;
        let walked = crate::movegen::general::each_end(pos, MAX_TURNS, |mid, _, _| {
            if mid.scored() == Some(me) {
                point = true;
                // A point that reaches the match's goals, or ends a one-goal game, wins.
                win = mid.finish().outcome().and_then(Outcome::winner) == Some(me);
                return win;
            }
            let ball = mid.position().ball;
            squares.insert(ball);
            reach = reach.min(self.eval.to_goal(me, ball));
            false
        });
        self.stopped |= walked.is_err() && self.out_of_time();
        self.truncated |= walked.is_err();
        if win {
            return WIN - ply as i32 - 1;
        }
        self.eval.with_reach(pos, reach, squares.len()) + if point { eval::POINT / 2 } else { 0 }
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
            assert!(reach(high) >= reach(low), "level {level}");
            // A level with a clock searches at least as long as the one below, if that has one.
            assert!(high.movetime >= low.movetime, "level {level}");
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
