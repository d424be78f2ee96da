//! Exact forced-goal solving: does a side force a goal within N of its own turns?
//!
//! A dedicated AND/OR search over the distinct results of each position's turns: at the
//! attacker's nodes one result must win, at the defender's every result must (null turns and
//! forced passes are results like any other). There is no evaluation and no cut-off beyond the
//! proof itself: the evaluation only orders the results, after the turns that proved the last
//! nodes of the same depth (killers: a defender's refutation often refutes its siblings too).
//! A transposition table keyed by the position's hash, the turns left and the turn count keeps
//! what was proved; repetitions (a draw, so a defence) are counted from the solved position
//! on, and a result that a repetition could change is kept only where the position's past
//! cannot reach it (see `Solver::context_free`).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::analysis::goal;
use crate::analysis::proof::{Attack, ProofError};
use crate::eval::Eval;
use crate::movegen::{Child, MAX_TURNS, Results, general};
use crate::position::Position;
use crate::position::zobrist::KeyHasher;
use crate::side::Side;
use crate::square::Square;

/// The answer of a search: proved, refuted, or not known within the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The attacker forces a goal.
    Win,
    /// The defender can stop every goal within the turns asked.
    NoWin,
    /// The limits ran out, or a position had too many turns to list.
    Unknown,
}

/// How much a search may do.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits {
    /// The most positions to expand (none: no bound).
    pub max_nodes: Option<u64>,
    /// When to give up (none: never).
    pub deadline: Option<Instant>,
}

/// Why a search could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// A position had more turns than kickoff lists.
    TooManyTurns {
        /// The position.
        fen: String,
    },
    /// The node bound was reached.
    Nodes(u64),
    /// The deadline passed.
    Time,
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unknown::TooManyTurns { fen } => write!(
                f,
                "the position {fen} has more than {MAX_TURNS} turns: too many to list, so its \
                 turns cannot all be tried and proved"
            ),
            Unknown::Nodes(n) => write!(f, "gave up after {n} positions (the node bound)"),
            Unknown::Time => f.write_str("gave up when the time ran out"),
        }
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug)]
pub struct Solution<'r> {
    /// The verdict for "the side to move forces a goal within the turns asked".
    pub verdict: Verdict,
    /// For a win, the fewest own turns that force it.
    pub turns: Option<u32>,
    /// For a win, whether every smaller number of turns was refuted (false when a smaller
    /// one ran out of limits, so that fewer turns may still win).
    pub minimal: bool,
    /// For a win, the result of the first turn (name it with [`first_turn`](crate::analysis::proof::first_turn)).
    pub first: Option<Child<'r>>,
    /// Why the verdict is unknown (or why a smaller number of turns is).
    pub unknown: Option<Unknown>,
    /// Positions expanded.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Proves or refutes "the side to move in `pos` forces a goal within `turns` of its own
/// turns", trying 1, 2, ... `turns` so that a win is found with the fewest turns.
///
/// ```
/// use kickoff::analysis::{SolveLimits, Verdict, solve};
/// use kickoff::{Position, load};
///
/// let def = load("boyer-1951")?;
/// // The rook on e6 kicks the ball on e7 up the file into the goal.
/// let pos = Position::from_fen(&def.rules, "rnbq1kbnr/9/4a4/4R4/9/9/9/9/1NBQ1KBNR w 10")?;
/// let found = solve(&pos, 2, SolveLimits::default());
/// assert_eq!((found.verdict, found.turns), (Verdict::Win, Some(1)));
/// // From the start, no goal is forced in one turn.
/// let start = Position::start(&def.rules);
/// assert_eq!(solve(&start, 1, SolveLimits::default()).verdict, Verdict::NoWin);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn solve<'r>(pos: &Position<'r>, turns: u32, limits: SolveLimits) -> Solution<'r> {
    let mut solver = Solver::new(pos, pos.side(), limits);
    solver.iterate(pos, turns, Role::Attack)
}

/// Proves or refutes "the side *not* to move in `pos` forces a goal within `turns` of its own
/// turns, whatever the side to move does first" (a setup's danger for the side moving second).
#[must_use]
pub fn solve_reply<'r>(pos: &Position<'r>, turns: u32, limits: SolveLimits) -> Solution<'r> {
    let mut solver = Solver::new(pos, !pos.side(), limits);
    solver.iterate(pos, turns, Role::Defend)
}

/// Who is to move at a node: the side that wants the goal, or the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Attack,
    Defend,
}

/// A value in the search: proved, refuted, or unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    /// Proved; at an attacker's node, with the hash of the winning result.
    Win(u64),
    NoWin,
    Unknown,
}

/// (position hash, own turns left, turns completed): the turn count matters for the turn
/// limit and `no_goal_before`, which the hash does not fully hold.
type Key = (u64, u32, u32);

/// The most entries the table keeps before it is emptied (about 40 bytes each).
const TABLE_LIMIT: usize = 1 << 23;

/// A turn by what it does: its piece move and the square it leaves the ball on. A turn that
/// proved its node (the defender's refutation, the attacker's win) is tried first at the nodes
/// of the same depth after it: one blocking move or one shot often settles many siblings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Killer {
    piece_move: Option<(Square, Square)>,
    ball: Option<Square>,
}

impl Killer {
    fn of(child: &Child<'_>) -> Killer {
        Killer { piece_move: child.piece_move, ball: child.position.ball() }
    }
}

/// From how many of the attacker's turns below a result on the results are ordered by the
/// replies each leaves ([`Solver::by_replies`]); nearer the leaves the last proofs' turns
/// (killers) and the ball's distance order them.
const NARROW_FROM: u32 = 2;

/// The most replies counted when ordering (more order the same).
const REPLIES_COUNTED: usize = 1 << 20;

/// How often (in expanded positions) progress is reported.
const PROGRESS_EVERY: u64 = 1 << 12;

/// The AND/OR search and what it keeps.
pub struct Solver<'r, 'p> {
    attacker: Side,
    /// The attacker's goals at the solved position (a match counts the next one).
    start_score: u16,
    /// Whether a goal is read from the ball's squares alone (Boyer's family, first goal ends).
    ball_only: bool,
    results: Results<'r>,
    eval: Eval,
    buffers: Vec<Vec<Child<'r>>>,
    orders: Vec<Vec<(i32, usize)>>,
    /// Per depth: the last two turns that proved a node there, the latest first.
    killers: Vec<[Option<Killer>; 2]>,
    /// The results of a result, counted when ordering.
    replies: Vec<Child<'r>>,
    table: HashMap<Key, Val, BuildHasherDefault<KeyHasher>>,
    /// The hashes of the positions from the solved one to the current node.
    path: Vec<u64>,
    /// Repetition draws met so far (a result that met one depends on the path).
    repetitions: u64,
    nodes: u64,
    limits: SolveLimits,
    stop: Option<Unknown>,
    progress: Option<&'p mut dyn FnMut(u64)>,
}

impl<'r, 'p> Solver<'r, 'p> {
    /// A solver for goals of `attacker`, counted from `pos`.
    #[must_use]
    pub fn new(pos: &Position<'r>, attacker: Side, limits: SolveLimits) -> Solver<'r, 'p> {
        let rules = pos.rules();
        // Kick chains give each result as a piece move and the ball's square: a goal is the
        // ball on a goal square, never a point of another kind.
        let ball_only = rules.tables().walks_chains();
        // The walk of a position's results hears the clock too: one of millions of turns
        // takes a quarter of a second, and the engine gives the solver slices of a second.
        let mut results = Results::new();
        results.set_deadline(limits.deadline);
        Solver {
            attacker,
            start_score: pos.score()[attacker.index()],
            ball_only,
            results,
            eval: Eval::new(rules),
            buffers: Vec::new(),
            orders: Vec::new(),
            killers: Vec::new(),
            replies: Vec::new(),
            table: HashMap::default(),
            path: Vec::new(),
            repetitions: 0,
            nodes: 0,
            limits,
            stop: None,
            progress: None,
        }
    }

    /// Calls `report` with the positions expanded so far, every few thousand positions.
    pub fn on_progress(&mut self, report: &'p mut dyn FnMut(u64)) {
        self.progress = Some(report);
    }

    /// The positions expanded so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves or refutes a goal of the side to move in `pos` within `turns` of its turns
    /// (the solver must have been made for that side).
    pub fn solve(&mut self, pos: &Position<'r>, turns: u32) -> Solution<'r> {
        self.iterate(pos, turns, Role::Attack)
    }

    /// The proof of a win this solver found for the side to move in `pos` within `k` turns.
    ///
    /// # Errors
    /// A position with too many turns, or a value that cannot be proved again.
    pub fn proof(&mut self, pos: &Position<'r>, k: u32) -> Result<Attack, ProofError> {
        self.limits = SolveLimits::default();
        crate::analysis::proof::prove(self, pos, k)
    }

    /// Tries 1 ..= `turns` own turns from `pos`, where `role` says who moves first.
    pub(crate) fn iterate(&mut self, pos: &Position<'r>, turns: u32, role: Role) -> Solution<'r> {
        let start = Instant::now();
        let mut unknown = None;
        for k in 1..=turns.max(1) {
            self.stop = None;
            let v = self.root(pos, k, role);
            if let Val::Win(best) = v {
                let first = self.first_result(pos, role, best);
                return Solution {
                    verdict: Verdict::Win,
                    turns: Some(k),
                    minimal: unknown.is_none(),
                    first,
                    unknown,
                    nodes: self.nodes,
                    time: start.elapsed(),
                };
            }
            if v == Val::Unknown {
                unknown = unknown.or_else(|| self.stop.clone());
                // Out of nodes or time: a larger k would only run out again.
                if matches!(self.stop, Some(Unknown::Nodes(_) | Unknown::Time)) {
                    break;
                }
            }
        }
        let verdict = if unknown.is_some() { Verdict::Unknown } else { Verdict::NoWin };
        Solution {
            verdict,
            turns: None,
            minimal: false,
            first: None,
            unknown,
            nodes: self.nodes,
            time: start.elapsed(),
        }
    }

    /// The value of `pos` for `k` own turns of the attacker, `role` moving first.
    pub(crate) fn root(&mut self, pos: &Position<'r>, k: u32, role: Role) -> Val {
        self.path.clear();
        self.path.push(pos.hash());
        match role {
            Role::Attack => self.attack(pos, k).0,
            Role::Defend => self.defend(pos, k).0,
        }
    }

    /// The winning first result of an attacker's root (none for a defender's root).
    fn first_result(&mut self, pos: &Position<'r>, role: Role, best: u64) -> Option<Child<'r>> {
        if role == Role::Defend {
            return None;
        }
        let mut children = Vec::new();
        if self.expand(pos, &mut children).is_ok()
            && let Some(chosen) = children.iter().find(|c| c.position.hash() == best)
        {
            return Some(*chosen);
        }
        self.scoring_child(pos).ok().flatten()
    }

    /// Whether the game is over in `pos` for the attacker: Some(true) when it scored a point,
    /// Some(false) when the game ended otherwise, None when it goes on ([`goal::judge`]).
    pub(crate) fn judge(&self, pos: &Position<'_>) -> Option<bool> {
        goal::judge(pos, self.attacker, self.start_score)
    }

    /// Whether `hash`, played now, makes a position occur the times that draw.
    fn repeats(&self, pos: &Position<'_>, hash: u64) -> bool {
        let needed = pos.rules().end().repetition as usize;
        needed > 0 && self.path.iter().filter(|&&h| h == hash).count() + 1 >= needed
    }

    /// Whether no repetition can happen below the current node (the last of `path`) within
    /// `span` more turns, whatever its past: then its value holds on every path to it.
    fn context_free(&self, needed: u32, span: usize) -> bool {
        if needed == 0 {
            return true;
        }
        let p = self.path.len() - 1;
        // The plies of each parity below the node, and the most a position of that parity
        // already occurs on the path.
        (1..=span.min(2)).all(|first| {
            let parity = (p + first) % 2;
            let later = (span - first) / 2 + 1;
            let most = self.most_repeated(parity);
            most + later < needed as usize
        })
    }

    /// The most times one position of the plies of `parity` occurs on the path.
    fn most_repeated(&self, parity: usize) -> usize {
        let of_parity: Vec<u64> = self.path.iter().skip(parity).step_by(2).copied().collect();
        of_parity.iter().map(|h| of_parity.iter().filter(|&x| x == h).count()).max().unwrap_or(0)
    }

    /// Counts an expanded position and checks the limits.
    fn count_node(&mut self) -> Result<(), Unknown> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(PROGRESS_EVERY)
            && let Some(report) = self.progress.as_mut()
        {
            report(self.nodes);
        }
        // The clock is read at every position (an expansion costs far more than reading it):
        // the engine gives the solver slices of a second.
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Unknown::Time);
        }
        match self.limits.max_nodes {
            Some(max) if self.nodes > max => Err(Unknown::Nodes(max)),
            _ => Ok(()),
        }
    }

    /// Every distinct result of `pos` in `out`, or why they cannot all be listed.
    ///
    /// A position with more than [`MAX_TURNS`] turns is refused even where its results could be
    /// walked (many turns may share a result): a proof lists every turn of the defender's
    /// positions and names a turn to each result it takes, and the checker lists them again,
    /// so the search decides only what a proof can hold.
    pub(crate) fn expand(
        &mut self,
        pos: &Position<'r>,
        out: &mut Vec<Child<'r>>,
    ) -> Result<(), Unknown> {
        self.count_node()?;
        let too_many = || Unknown::TooManyTurns { fen: pos.fen() };
        if pos.rules().tables().walks_chains() {
            self.results.fill(pos, out);
            if self.results.exhausted() && self.results.timed_out() {
                return Err(Unknown::Time);
            }
            let listed = !self.results.exhausted() && self.results.turns() <= MAX_TURNS;
            return if listed { Ok(()) } else { Err(too_many()) };
        }
        out.clear();
        let found =
            general::results_before(pos, general::budget(), MAX_TURNS, self.limits.deadline)
                .map_err(|_| too_many())?
                .ok_or(Unknown::Time)?;
        out.extend(found.into_iter().map(|r| Child {
            position: r.position,
            piece_move: r.piece_move.map(|m| (m.from, m.to)),
        }));
        Ok(())
    }

    /// Whether the attacker, to move in `pos`, scores with its next turn: the hash of the
    /// result where it does.
    fn scores_now(&mut self, pos: &Position<'r>) -> Result<Option<u64>, Unknown> {
        Ok(self.scoring_child(pos)?.map(|c| c.position.hash()))
    }

    /// A result of `pos` in which the attacker, to move, scores, if there is one. Where a goal
    /// is read from the ball's squares alone, the walk stops at the first goal, so the position
    /// may have more turns than kickoff lists: a proof names that one turn without a list.
    pub(crate) fn scoring_child(
        &mut self,
        pos: &Position<'r>,
    ) -> Result<Option<Child<'r>>, Unknown> {
        if !self.ball_only {
            let mut children = Vec::new();
            self.expand(pos, &mut children)?;
            return Ok(children.into_iter().find(|c| self.judge(&c.position) == Some(true)));
        }
        self.count_node()?;
        let (me, rules) = (self.attacker, pos.rules());
        let mut found = None;
        self.results.each_until(pos, |piece_move, ball, _| {
            if rules.scorer(ball) == Some(me) {
                found = Some((piece_move, ball));
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if self.results.exhausted() {
            if self.results.timed_out() {
                return Err(Unknown::Time);
            }
            return Err(Unknown::TooManyTurns { fen: pos.fen() });
        }
        Ok(found.map(|(piece_move, ball)| {
            let mut position = *pos;
            if let Some((from, to)) = piece_move {
                position.move_piece(from, to);
            }
            position.move_ball(ball);
            position.end_turn();
            Child { position, piece_move }
        }))
    }

    fn buffer(&mut self) -> (Vec<Child<'r>>, Vec<(i32, usize)>) {
        let depth = self.path.len();
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
            self.orders.push(Vec::new());
            self.killers.push([None; 2]);
        }
        (std::mem::take(&mut self.buffers[depth]), std::mem::take(&mut self.orders[depth]))
    }

    /// The order key of `child` at the current depth: a killer's first (the latest first),
    /// else `key`.
    fn ordered(&self, child: &Child<'_>, key: i32) -> i32 {
        let killers = &self.killers[self.path.len()];
        let this = Some(Killer::of(child));
        if killers[0] == this {
            i32::MIN
        } else if killers[1] == this {
            i32::MIN + 1
        } else {
            key
        }
    }

    /// Puts first the results after which the side to move next has the fewest results of its
    /// own, ties in the order of `order`'s keys: a defence that leaves the attacker little to
    /// try is refuted soonest and refutes most often, an attack that leaves few defences is
    /// proved soonest. It costs an expansion per result, so it is done only where each result
    /// still has [`NARROW_FROM`] or more of the attacker's turns below it.
    ///
    /// # Errors
    /// The node bound or the deadline, met while counting.
    fn by_replies(
        &mut self,
        children: &[Child<'r>],
        order: &mut [(i32, usize)],
    ) -> Result<(), Unknown> {
        let mut replies = std::mem::take(&mut self.replies);
        let mut counted = Ok(());
        for entry in order.iter_mut() {
            let count = match self.expand(&children[entry.1].position, &mut replies) {
                Ok(()) => replies.len().min(REPLIES_COUNTED),
                // A result whose results cannot all be listed goes among the last.
                Err(why) if is_local(&why) => REPLIES_COUNTED,
                Err(why) => {
                    counted = Err(why);
                    break;
                }
            };
            entry.0 = (count as i32) * 1024 + entry.0.clamp(-512, 511);
        }
        self.replies = replies;
        counted
    }

    /// Remembers `child` as the turn that proved the node at the current depth.
    fn proved_by(&mut self, child: &Child<'_>) {
        let killers = &mut self.killers[self.path.len()];
        let this = Some(Killer::of(child));
        if killers[0] != this {
            killers[1] = killers[0];
            killers[0] = this;
        }
    }

    fn give_back(&mut self, children: Vec<Child<'r>>, order: Vec<(i32, usize)>) {
        let depth = self.path.len();
        self.buffers[depth] = children;
        self.orders[depth] = order;
    }

    fn lookup(&self, key: Key, span: usize, needed: u32) -> Option<Val> {
        match self.table.get(&key) {
            Some(&Val::NoWin) => Some(Val::NoWin),
            Some(&v @ Val::Win(_)) if self.context_free(needed, span) => Some(v),
            _ => None,
        }
    }

    /// Keeps a proved value: a win only where no repetition could change it, a refutation
    /// wherever it used no repetition (more repetitions only help the defender).
    fn keep(&mut self, key: Key, v: Val, span: usize, needed: u32, tainted: bool) {
        let keep = match v {
            Val::Win(_) => self.context_free(needed, span),
            Val::NoWin => !tainted || self.context_free(needed, span),
            Val::Unknown => false,
        };
        if keep {
            if self.table.len() >= TABLE_LIMIT {
                self.table.clear();
            }
            self.table.insert(key, v);
        }
    }

    /// The attacker to move in `pos` (the last of `path`), with `k` own turns left.
    fn attack(&mut self, pos: &Position<'r>, k: u32) -> (Val, bool) {
        let needed = pos.rules().end().repetition;
        let span = 2 * k as usize - 2;
        let key = (pos.hash(), k, pos.turns());
        if let Some(v) = self.lookup(key, span, needed) {
            return (v, false);
        }
        let before = self.repetitions;
        let v = if k == 1 { self.attack_last(pos) } else { self.attack_deeper(pos, k) };
        let tainted = self.repetitions != before;
        self.keep(key, v, span, needed, tainted);
        (v, tainted)
    }

    /// The attacker's last turn: a goal now or nothing.
    fn attack_last(&mut self, pos: &Position<'r>) -> Val {
        match self.scores_now(pos) {
            Ok(Some(best)) => Val::Win(best),
            Ok(None) => Val::NoWin,
            Err(why) => self.unknown(why),
        }
    }

    /// Records why a value is unknown: a limit overrides a position with too many turns.
    fn unknown(&mut self, why: Unknown) -> Val {
        if is_local(&why) {
            self.stop.get_or_insert(why);
        } else {
            self.stop = Some(why);
        }
        Val::Unknown
    }

    /// The attacker with `k` >= 2 turns left: a goal now, or a result from which every
    /// defence loses; results that bring the ball nearest the goal first.
    fn attack_deeper(&mut self, pos: &Position<'r>, k: u32) -> Val {
        let (mut children, mut order) = self.buffer();
        if let Err(why) = self.expand(pos, &mut children) {
            self.give_back(children, order);
            return self.unknown(why);
        }
        order.clear();
        let narrow = k > NARROW_FROM;
        let mut result = None;
        for (i, c) in children.iter().enumerate() {
            match self.judge(&c.position) {
                Some(true) => {
                    result = Some(Val::Win(c.position.hash()));
                    break;
                }
                Some(false) => {}
                None if self.repeats(pos, c.position.hash()) => self.repetitions += 1,
                None => {
                    let near = self.eval.to_score(self.attacker, &c.position);
                    order.push((if narrow { near } else { self.ordered(c, near) }, i));
                }
            }
        }
        let ordered = if narrow && result.is_none() {
            self.by_replies(&children, &mut order)
        } else {
            Ok(())
        };
        let v = match (result, ordered) {
            (Some(v), _) => v,
            (None, Err(why)) => self.unknown(why),
            (None, Ok(())) => {
                order.sort_unstable_by_key(|&(d, _)| d);
                self.first_winning(&children, &order, k)
            }
        };
        self.give_back(children, order);
        v
    }

    /// The first of `order` whose every defence loses within `k - 1` more turns.
    fn first_winning(&mut self, children: &[Child<'r>], order: &[(i32, usize)], k: u32) -> Val {
        let mut unknown = false;
        for &(_, i) in order {
            let child = children[i].position;
            self.path.push(child.hash());
            let (v, _) = self.defend(&child, k - 1);
            self.path.pop();
            match v {
                Val::Win(_) => {
                    self.proved_by(&children[i]);
                    return Val::Win(child.hash());
                }
                Val::Unknown if self.stop.as_ref().is_some_and(|s| !is_local(s)) => {
                    return Val::Unknown;
                }
                Val::Unknown => unknown = true,
                Val::NoWin => {}
            }
        }
        if unknown { Val::Unknown } else { Val::NoWin }
    }

    /// The defender to move in `pos` (the last of `path`); the attacker has `k` turns after.
    fn defend(&mut self, pos: &Position<'r>, k: u32) -> (Val, bool) {
        let needed = pos.rules().end().repetition;
        let span = 2 * k as usize - 1;
        let key = (pos.hash(), k, pos.turns());
        if let Some(v) = self.lookup(key, span, needed) {
            return (v, false);
        }
        let before = self.repetitions;
        let v = self.defend_all(pos, k);
        let tainted = self.repetitions != before;
        self.keep(key, v, span, needed, tainted);
        (v, tainted)
    }

    /// Every defence must lose: one that scores, draws or repeats refutes at once; the others
    /// are tried with the ball farthest from the attacker's goal first.
    fn defend_all(&mut self, pos: &Position<'r>, k: u32) -> Val {
        let (mut children, mut order) = self.buffer();
        if let Err(why) = self.expand(pos, &mut children) {
            self.give_back(children, order);
            return self.unknown(why);
        }
        order.clear();
        let narrow = k >= NARROW_FROM;
        // No turn at all where the rules draw then: the defender is saved.
        let mut refuted = children.is_empty();
        for (i, c) in children.iter().enumerate() {
            match self.judge(&c.position) {
                Some(true) => {}
                Some(false) => refuted = true,
                // Where a repetition must be claimed, the attacker, to move after this defence,
                // could play on; but it stood in that very position before with more turns
                // left and no fewer options, so playing on gains it nothing: a draw either way.
                None if self.repeats(pos, c.position.hash()) => {
                    self.repetitions += 1;
                    refuted = true;
                }
                None => {
                    let far = -self.eval.to_score(self.attacker, &c.position);
                    order.push((if narrow { far } else { self.ordered(c, far) }, i));
                }
            }
            if refuted {
                break;
            }
        }
        let ordered =
            if narrow && !refuted { self.by_replies(&children, &mut order) } else { Ok(()) };
        let v = match (refuted, ordered) {
            (true, _) => Val::NoWin,
            (false, Err(why)) => self.unknown(why),
            (false, Ok(())) => {
                order.sort_unstable_by_key(|&(d, _)| d);
                self.every_defence_loses(&children, &order, k)
            }
        };
        self.give_back(children, order);
        v
    }

    fn every_defence_loses(
        &mut self,
        children: &[Child<'r>],
        order: &[(i32, usize)],
        k: u32,
    ) -> Val {
        let mut unknown = false;
        for &(_, i) in order {
            let child = children[i].position;
            self.path.push(child.hash());
            let (v, _) = self.attack(&child, k);
            self.path.pop();
            match v {
                Val::NoWin => {
                    self.proved_by(&children[i]);
                    return Val::NoWin;
                }
                Val::Unknown if self.stop.as_ref().is_some_and(|s| !is_local(s)) => {
                    return Val::Unknown;
                }
                Val::Unknown => unknown = true,
                Val::Win(_) => {}
            }
        }
        if unknown { Val::Unknown } else { Val::Win(0) }
    }

    /// Proved values for `pos`, for proofs: the attacker's winning result at an attacker's
    /// node (`path` must end with `pos`).
    pub(crate) fn attack_value(&mut self, pos: &Position<'r>, k: u32) -> Val {
        self.attack(pos, k).0
    }

    /// Pushes `hash` on the path (proofs walk the tree the search proved).
    pub(crate) fn enter(&mut self, hash: u64) {
        self.path.push(hash);
    }

    /// Pops the last position off the path.
    pub(crate) fn leave(&mut self) {
        self.path.pop();
    }

    /// Starts a proof's walk at `pos`.
    pub(crate) fn start_path(&mut self, pos: &Position<'r>) {
        self.path.clear();
        self.path.push(pos.hash());
        self.stop = None;
    }
}

/// Whether an unknown concerns one position only (the search may still prove or refute by
/// another way) rather than the whole search (limits).
fn is_local(why: &Unknown) -> bool {
    matches!(why, Unknown::TooManyTurns { .. })
}

#[cfg(test)]
mod tests {
    use super::{SolveLimits, Solver};
    use crate::position::Position;

    /// A solver whose path is `path` (hashes, the solved position first).
    fn with_path<'r>(pos: &Position<'r>, path: &[u64]) -> Solver<'r, 'static> {
        let mut solver = Solver::new(pos, pos.side(), SolveLimits::default());
        solver.path = path.to_vec();
        solver
    }

    #[test]
    fn values_below_a_node_are_kept_only_where_no_repetition_can_reach() {
        let def = crate::definition::load("boyer-1951").unwrap();
        let pos = Position::start(&def.rules);
        // At the root, three turns deep (five plies), a position may occur at plies 0, 2, 4.
        assert!(!with_path(&pos, &[1]).context_free(3, 4));
        assert!(with_path(&pos, &[1]).context_free(3, 3));
        assert!(with_path(&pos, &[1]).context_free(4, 4));
        assert!(with_path(&pos, &[1]).context_free(0, 9));
        // Two plies down, a third occurrence needs the root's position twice more: impossible
        // within two plies unless it is already there twice.
        assert!(with_path(&pos, &[1, 2, 3]).context_free(3, 2));
        assert!(!with_path(&pos, &[1, 2, 1]).context_free(3, 2));
        // The other parity's repeats do not matter to a span of one ply.
        assert!(with_path(&pos, &[1, 2, 3, 2]).context_free(3, 1));
        assert!(!with_path(&pos, &[1, 2, 1, 4]).context_free(3, 1));
    }
}
