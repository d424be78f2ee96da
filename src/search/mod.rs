//! The computer opponent: iterative-deepening negamax with alpha-beta over whole turns.
//!
//! The search chooses among the distinct *results* of a position's turns (many turns leave the
//! same position), with a transposition table keyed by the Zobrist hash, results ordered by the
//! table's best, then goals, then results that leave the ball one kick from goal, then the
//! evaluation and a history of good results. It is a principal variation search
//! with late move reductions (`node.rs`); nodes one turn from the horizon weigh every result by
//! its static value before making any position (`frontier.rs`); at the horizon it asks whether
//! the side to move can score at once, so a goal in one is never hidden (`horizon.rs`). With
//! [`Limits::exact`] (levels 3 and 4) the exact solver looks for forced goals before and after it
//! (`exact.rs`). It works for any definition: everything it knows comes from the
//! [`Rules`](crate::rules::Rules).

mod exact;
mod frontier;
mod horizon;
mod limits;
mod node;
mod player;
mod selective;
mod table;

use std::time::{Duration, Instant};

use crate::eval::Eval;
pub use limits::{DEFAULT_LEVEL, LEVEL_CAP, Limits, MAX_LEVEL};
pub use player::{
    ParsePlayerError, Player, beyond_counting, greedy_turn, random_by_actions, random_turn,
};
use table::{Bound, Table};
pub use table::{ENTRY_BYTES, TABLE_BITS};

use crate::movegen::{
    Child, MAX_TURNS, Results, TooManyTurns, Turn, Uncounted, count_before, shortest_turn,
};
use crate::position::{Outcome, Position};
use crate::square::SQUARES;

/// The value of a goal for the side that scores it, less one per turn until it is scored.
pub const WIN: i32 = 30_000;
/// Scores at least this far from zero announce a goal within reach.
const WIN_BOUND: i32 = WIN - 1_000;

/// The ordering bonus of a result that leaves the ball one kick from the mover's goal.
const THREAT: i32 = 500;

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

impl Report<'_> {
    /// The report on a finished game: no turn to choose.
    fn over() -> Self {
        Report {
            turn: None,
            result: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            line: Vec::new(),
            truncated: false,
        }
    }
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

/// A search with its tables, kept from one turn to the next of a game.
pub struct Searcher<'r> {
    eval: Eval,
    results: Results<'r>,
    table: Table,
    history: Vec<i32>,
    children: Vec<Vec<Child<'r>>>,
    order: Vec<Vec<node::Ordered>>,
    path: Vec<u64>,
    past: Vec<u64>,
    nodes: u64,
    /// `movetime` from the start: no iteration starts after it; it stops those that may stop.
    deadline: Option<Instant>,
    /// Twice `movetime` from the start: everything stops.
    hard_deadline: Option<Instant>,
    /// When the first iteration stops ([`Limits::first_deadline`]; see [`Searcher::deepen`]).
    first_deadline: Option<Instant>,
    /// Whether the clock may stop the iteration under way (not those up to `min_depth`).
    may_stop: bool,
    stopped: bool,
    /// Whether a position's results were cut short by the walk's step bound.
    truncated: bool,
    /// The results of a frontier node (see `frontier.rs`), kept to allocate nothing.
    candidates: Vec<frontier::Candidate>,
    /// The horizon values of positions, by hash (direct-mapped).
    leaves: Vec<(u64, i32)>,
}

/// With [`Limits::exact`], `movetime` is shared in eighths ([`eighths`]): the exact solver has
/// the first [`EXACT_FIRST`] to prove a goal of the side to move (where one exists it is mostly
/// proved in far less, while showing that none exists can take seconds), the search runs until
/// [`SEARCH_UNTIL`], and the rest goes to the solver's check that the chosen turn concedes no
/// forced goal (at 250 ms a turn, a quarter of the time missed concessions that the solver
/// proves in 0.15 s to 0.4 s).
const EXACT_FIRST: u32 = 1;
/// See [`EXACT_FIRST`].
const SEARCH_UNTIL: u32 = 5;

/// `n` eighths of `time`.
fn eighths(time: Duration, n: u32) -> Duration {
    time * n / 8
}

/// The number of nodes between two readings of the clock (a node can take milliseconds in a
/// position with tens of thousands of turns; the walks inside a node read it too).
const CLOCK_NODES: u64 = 16;

/// The root's results with their last scores, best first.
type Root<'r> = Vec<(i32, Child<'r>)>;

/// An iteration at the root: the score of each result searched, with its index in the root,
/// and the best result with its score.
type Iteration<'r> = (Vec<(i32, usize)>, Option<(Child<'r>, i32)>);

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
        Searcher {
            eval: Eval::new(rules),
            results: Results::new(),
            table: Table::new(bits.clamp(10, 24)),
            history: vec![0; (SQUARES + 1) * SQUARES],
            children: Vec::new(),
            order: Vec::new(),
            path: Vec::new(),
            past: Vec::new(),
            nodes: 0,
            deadline: None,
            hard_deadline: None,
            first_deadline: None,
            may_stop: false,
            stopped: false,
            truncated: false,
            candidates: Vec::new(),
            leaves: vec![(0, 0); 1 << 16],
        }
    }

    /// Forgets what earlier searches left (the table, the move-ordering history, the horizon
    /// values), so that a new game is played the same whatever was searched before it: games
    /// split among threads or machines then come out as they would in one run.
    pub fn forget(&mut self) {
        self.table.clear();
        self.history.fill(0);
        self.leaves.fill((0, 0));
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
        // The count hears the clock: where it would end after everything must stop (twice the
        // time), the turn is built action by action in what time is left, as where it is too
        // large. Listing the results of a position whose count is unknown could walk for ever.
        match count_before(pos, limits.hard_deadline(start)) {
            Ok(_) => {}
            Err(Uncounted::TooMany) => {
                return self.search_selectively(pos, limits, start).ok_or(TooManyTurns);
            }
            Err(Uncounted::Late) => {
                return Ok(self
                    .search_selectively(pos, limits, start)
                    .unwrap_or_else(Report::over));
            }
        }
        self.begin(pos, history, limits, start);
        let Some(mut root) = self.root(pos) else { return Ok(Report::over()) };
        // With `exact`, the solver first (a goal of the side to move), the search, then the
        // solver again (a goal of the opponent after the chosen turn): see `EXACT_FIRST`.
        let exact = limits.movetime.filter(|_| limits.exact > 0);
        if let Some(time) = exact {
            // The solver does not know the game's past: a first result that repeats a position
            // of it (which may draw) is left to the search.
            let forced = self.forced_goal(pos, limits.exact, start + eighths(time, EXACT_FIRST));
            let forced =
                forced.filter(|f| self.past.binary_search(&f.child.position.hash()).is_err());
            if let Some(forced) = forced {
                let turn = shortest_turn(pos, &forced.child, u64::MAX, None);
                let turn = turn.unwrap_or_else(Turn::null);
                return Ok(Report {
                    line: vec![turn.clone()],
                    turn: Some(turn),
                    result: Some(forced.child.position),
                    score: forced.score,
                    depth: forced.turns,
                    nodes: forced.nodes,
                    time: start.elapsed(),
                    truncated: false,
                });
            }
            self.deadline = Some(start + eighths(time, SEARCH_UNTIL));
        }
        let (mut best, mut score, depth) = self.deepen(pos, &mut root, limits);
        if let Some(time) = exact {
            // At least an eighth of the time after a search that ran late, never past twice it.
            let deadline =
                (start + time).max(Instant::now() + eighths(time, 1)).min(start + time * 2);
            (best, score) = Searcher::safe_result(&root, (best, score), limits.exact, deadline);
        }
        // The turn to the chosen result is found in the root's chains alone (the root has at
        // most MAX_TURNS turns); the rest of the line only while the clock allows.
        let turn = shortest_turn(pos, &best, u64::MAX, None).unwrap_or_else(Turn::null);
        self.results.set_deadline(self.hard_deadline);
        Ok(Report {
            line: self.line(pos, &turn, &best.position, depth),
            turn: Some(turn),
            result: Some(best.position),
            score,
            depth,
            nodes: self.nodes,
            time: start.elapsed(),
            truncated: self.truncated,
        })
    }

    /// Readies the searcher for a search of `pos` started at `start`.
    fn begin(&mut self, pos: &Position<'r>, history: &[u64], limits: Limits, start: Instant) {
        self.nodes = 0;
        self.stopped = false;
        self.truncated = false;
        self.may_stop = false;
        self.deadline = limits.deadline(start);
        self.hard_deadline = limits.hard_deadline(start);
        self.first_deadline = limits.first_deadline(start);
        self.results.set_deadline(self.hard_deadline);
        self.past.clear();
        self.past.extend_from_slice(history);
        self.past.sort_unstable();
        self.path.clear();
        self.path.push(pos.hash());
        for h in &mut self.history {
            *h /= 8;
        }
    }

    /// The root's results ordered by a first look (goals, then the evaluation); none when the
    /// side to move has no turn.
    fn root(&mut self, pos: &Position<'r>) -> Option<Root<'r>> {
        let mut children = Vec::new();
        self.results.fill(pos, &mut children);
        let me = pos.side;
        let mut root: Root<'r> = children
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
        (!root.is_empty()).then_some(root)
    }

    /// Iterative deepening over the root's results: the best result, its score and the depth
    /// of the last completed iteration; `root` is left in the last completed iteration's order.
    fn deepen(
        &mut self,
        pos: &Position<'r>,
        root: &mut Root<'r>,
        limits: Limits,
    ) -> (Child<'r>, i32, u32) {
        let (mut best, mut best_score, mut completed) = (root[0].1, root[0].0, 0);
        let hard = self.hard_deadline;
        // The first iteration (every result of the root weighed at the horizon) is stopped by
        // the level's cap alone: where a variant's turns are so many that it takes longer than
        // the level's time, the choice still weighs all of them, not the first few in order.
        for depth in 1..=limits.depth.unwrap_or(64).clamp(1, 64) {
            self.hard_deadline = if depth == 1 { self.first_deadline } else { hard };
            self.may_stop = depth > limits.min_depth.max(1);
            let deadline = if self.may_stop { self.deadline } else { self.hard_deadline };
            self.results.set_deadline(deadline);
            let (scored, iteration_best) = self.iterate(root, depth);
            // Every scored result was searched to the end, even when the clock stopped the
            // iteration: the best of them is at least as good as the last iteration's.
            if let Some((child, score)) = iteration_best {
                (best, best_score) = (child, score);
            }
            if self.stopped {
                break;
            }
            completed = depth;
            // Next iteration: this iteration's order (moves not reached keep their place).
            *root = scored.iter().map(|&(s, i)| (s, root[i].1)).collect();
            root.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
            let result = best.position.hash();
            self.table.store(pos.hash(), depth, best_score, Bound::Exact, result, 0);
            if best_score.abs() >= WIN_BOUND || self.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        self.hard_deadline = hard;
        (best, best_score, completed)
    }

    /// One iteration at the root.
    fn iterate(&mut self, root: &Root<'r>, depth: u32) -> Iteration<'r> {
        let mut alpha = -WIN - 1;
        let mut best = None;
        let mut scored = Vec::with_capacity(root.len());
        for (i, &(_, child)) in root.iter().enumerate() {
            let score = self.searched(&child.position, depth, (alpha, WIN + 1), 1, i);
            if self.stopped {
                break;
            }
            scored.push((score, i));
            if score > alpha {
                alpha = score;
                best = Some((child, score));
            }
        }
        (scored, best)
    }

    /// The turn of a position with too many turns to list, built action by action (see
    /// [`selective`]); none when the side has no turn at all.
    fn search_selectively(
        &mut self,
        pos: &Position<'r>,
        limits: Limits,
        start: Instant,
    ) -> Option<Report<'r>> {
        let deadline = limits.deadline(start).or(limits.cap.and_then(|t| start.checked_add(t)));
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
            let Some(e) = self.table.get(at.hash()) else { break };
            if e.best == 0 || seen.contains(&e.best) {
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

    /// Whether the clock stops the search now: the deadline when the iteration may stop,
    /// twice it whatever the iteration.
    fn out_of_time(&self) -> bool {
        let now = Instant::now();
        let passed = |d: Option<Instant>| d.is_some_and(|d| now >= d);
        (self.may_stop && passed(self.deadline)) || passed(self.hard_deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::{Limits, Searcher, WIN, goal_in};
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
    fn a_side_that_can_only_pass_passes() {
        let def = crate::definition::load("tests/data/warn/forced-pass-at-start.toml").unwrap();
        let pos = Position::start(&def.rules);
        let report = Searcher::new(&def.rules).search(&pos, &[], Limits::level(2)).unwrap();
        assert!(report.turn.unwrap().is_null());
    }

    /// Where the time is up before the position's turns are counted (nearly two million here),
    /// the search does not wait for the count: it builds its turn action by action, visiting
    /// no position of the search.
    #[test]
    fn a_search_out_of_time_before_the_count_builds_its_turn() {
        let def = crate::definition::load("tests/data/hostile/near2m.toml").unwrap();
        let pos = Position::start(&def.rules);
        let none = Limits { movetime: Some(std::time::Duration::ZERO), ..Limits::default() };
        let report = Searcher::new(&def.rules).search(&pos, &[], none).unwrap();
        assert_eq!((report.depth, report.nodes), (1, 0));
        assert!(crate::movegen::is_legal(&pos, &report.turn.unwrap()));
    }

    #[test]
    fn a_finished_game_has_no_turn() {
        let def = crate::definition::load("boyer-1951").unwrap();
        let pos = Position::from_fen(&def.rules, "rnbqakbnr/9/9/9/9/9/9/9/RNBQ1KBNR w 7").unwrap();
        let report = Searcher::new(&def.rules).search(&pos, &[], Limits::level(1)).unwrap();
        assert!(report.turn.is_none() && report.result.is_none());
    }

    #[test]
    fn the_horizon_walks_as_far_as_the_listing_of_results() {
        let def = crate::definition::load("chessball-1957").unwrap();
        let pos = Position::start(&def.rules);
        assert!(!def.rules.tables().walks_chains());
        for steps in [1, crate::movegen::MAX_TURNS + 2] {
            let mut searcher = Searcher::new(&def.rules);
            searcher.results = crate::movegen::Results::bounded(steps);
            searcher.results.fill(&pos, &mut Vec::new());
            let listed_in_full = !searcher.results.exhausted();
            searcher.leaf(&pos, 0, -super::WIN - 1, super::WIN + 1);
            assert_eq!(searcher.truncated, !listed_in_full, "{steps} steps");
        }
    }
}
