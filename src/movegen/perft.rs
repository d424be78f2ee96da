//! perft: the number of turn sequences of a given depth (rule:
//! `docs/rules.md#naming-and-counting-turns`). A scoring turn is a leaf; a forced pass counts one.
//!
//! Turns are grouped by result: a turn's result depends only on its piece move and the ball's
//! final square, so each (move, final square) is played once with its number of kick chains as
//! a multiplicity. The last ply is counted without playing it, and the kick chains of a piece
//! move that touches no square the chains read are those of the position without the move.
//! Results are memoised in a transposition table shared by the threads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::movegen::chains::{Count, Walker};
use crate::movegen::{MAX_TURNS, Results, TooManyTurns};
use crate::movegen::{each_legal_turn, general, null_allowed, pieces, play_unchecked};
use crate::position::Position;
use crate::position::zobrist::splitmix;
use crate::square::Square;

/// How to run perft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The transposition table's largest size, in MiB.
    pub table_mib: usize,
    /// Count only sequences of exactly the depth asked, as chess perft does: a finished
    /// position has no turns, so a scoring turn counts only at the last depth. Otherwise
    /// (kickoff's default) a scoring turn ends its sequence and counts 1 at any depth.
    pub exact: bool,
    /// Count each distinct result of a position once, however many turns lead to it: the
    /// number of sequences of distinct positions (comparable between rule sets that count
    /// turns differently).
    pub distinct: bool,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions { threads: 1, table_mib: 256, exact: false, distinct: false }
    }
}

/// Reports progress: (work items done, work items in all).
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// One slot of the lockless table: the value, and the key XORed with it (a torn write fails
/// the check instead of returning a wrong count).
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    value: AtomicU64,
}

/// A transposition table of perft counts, keyed by position hash, depth and goal allowance.
pub(crate) struct TransTable {
    slots: Box<[Slot]>,
    mask: usize,
}

impl TransTable {
    /// A table of `2^bits` slots.
    fn new(bits: u32) -> TransTable {
        let len = 1usize << bits;
        let layout = std::alloc::Layout::array::<Slot>(len).expect("table size");
        // The table is asked of the system zeroed, so that pages it never touches cost nothing
        // (a shallow perft uses few of them).
        // SAFETY: `layout` has a non-zero size; all-zero bytes are a valid `Slot` (two
        // `AtomicU64` holding 0), so the `len` slots are initialised; the box frees the
        // allocation with the same layout.
        let slots = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout).cast::<Slot>();
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
        };
        TransTable { mask: len - 1, slots }
    }

    /// A table sized for a perft of `depth` from the root, at most `mib` MiB.
    fn for_depth(depth: usize, mib: usize) -> TransTable {
        let cap = (mib.max(1) << 20) / std::mem::size_of::<Slot>();
        let cap_bits = usize::BITS - 1 - cap.leading_zeros();
        let want = (3 * depth as u32 + 8).clamp(10, 40);
        TransTable::new(want.min(cap_bits))
    }

    fn get(&self, key: u64) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let value = slot.value.load(Ordering::Relaxed);
        (slot.check.load(Ordering::Relaxed) ^ value == key).then_some(value)
    }

    fn put(&self, key: u64, value: u64) {
        let slot = &self.slots[key as usize & self.mask];
        slot.check.store(key ^ value, Ordering::Relaxed);
        slot.value.store(value, Ordering::Relaxed);
    }
}

/// The table key of `pos` searched to `depth`. Besides the hash it holds how many turns remain
/// before goals are allowed: two positions both under `turn.no_goal_before` may still differ
/// in how soon they leave it.
fn table_key(pos: &Position<'_>, depth: usize) -> u64 {
    let limit = pos.rules.turn().no_goal_before;
    let left = u64::from(limit - pos.turns.min(limit));
    pos.hash ^ splitmix((depth as u64) << 32 | left).1
}

/// A result of a position: the position after some turns, and how many turns lead to it.
type Child<'r> = (Position<'r>, u64);

/// The deepest perft kickoff runs (a deeper one would not end in a lifetime anyway).
pub const MAX_DEPTH: usize = 64;

/// The walk steps allowed per position below the root: a position that needs more has more
/// than [`MAX_TURNS`] turns, and the count stops with [`TooManyTurns`] rather than walk for ever.
/// (The walk action by action, of rules beyond Boyer's family, counts states, several a turn:
/// it is allowed [`general::STATES_PER_TURN`] states a step, as the listing of results is.)
const STEPS: u64 = MAX_TURNS + 2;

/// Counts turns; owns the buffers reused at each depth so that nothing is allocated per turn.
pub(crate) struct Counter<'a, 'r> {
    table: Option<&'a TransTable>,
    /// The walk steps allowed per position.
    steps: u64,
    /// Set when a position needed more steps (the count is then meaningless); shared by the
    /// threads of one perft, so that all of them stop.
    too_many: Option<&'a AtomicBool>,
    /// The same, for a counter without threads.
    exploded: bool,
    walker: Option<Walker<'r>>,
    /// The distinct results of a position with their numbers of turns.
    results: Results<'r>,
    /// The piece moves of the position being counted.
    moves: Vec<(Square, Square)>,
    children: Vec<Vec<Child<'r>>>,
    /// Whether a scoring turn counts only at the last depth (see [`PerftOptions::exact`]).
    exact: bool,
    /// Whether each distinct result counts once (see [`PerftOptions::distinct`]).
    distinct: bool,
}

impl<'a, 'r> Counter<'a, 'r> {
    /// A counter without a table.
    pub(crate) fn new() -> Self {
        Counter {
            table: None,
            steps: u64::MAX,
            too_many: None,
            exploded: false,
            walker: None,
            results: Results::bounded(u64::MAX),
            moves: Vec::new(),
            children: Vec::new(),
            exact: false,
            distinct: false,
        }
    }

    /// A counter whose walks are bounded (see [`STEPS`]), with a table and a flag shared with
    /// other threads.
    fn bounded(table: Option<&'a TransTable>, too_many: Option<&'a AtomicBool>) -> Self {
        Counter {
            table,
            steps: STEPS,
            too_many,
            results: Results::bounded(STEPS),
            ..Counter::new()
        }
    }

    /// [`Counter::bounded`] counting as `options` say.
    fn with(
        options: &PerftOptions,
        table: Option<&'a TransTable>,
        too_many: Option<&'a AtomicBool>,
    ) -> Self {
        Counter {
            exact: options.exact,
            distinct: options.distinct,
            ..Counter::bounded(table, too_many)
        }
    }

    /// Whether some position had too many turns: the counts are then meaningless.
    fn stopped(&self) -> bool {
        self.exploded || self.too_many.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    fn explode(&mut self) {
        self.exploded = true;
        if let Some(flag) = self.too_many {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The (emptied) children buffer of `depth` (put it back when done).
    fn buffer(&mut self, depth: usize) -> Vec<Child<'r>> {
        while self.children.len() <= depth {
            self.children.push(Vec::new());
        }
        let mut children = std::mem::take(&mut self.children[depth]);
        children.clear();
        children
    }

    /// The kept walker, loaded with `pos` (put it back when done).
    fn walker_for(&mut self, pos: &Position<'r>) -> Walker<'r> {
        Walker::reuse(self.walker.take(), pos)
    }

    /// The number of legal turns of `pos` (0 if the game is over).
    pub(crate) fn count(&mut self, pos: &Position<'r>) -> u64 {
        if pos.is_goal() {
            return 0;
        }
        if self.distinct {
            let mut children = Vec::new();
            let leaves = self.results(pos, &mut children);
            return leaves + children.len() as u64;
        }
        if !pos.rules.tables().walks_chains() {
            // The walk counts states, several a turn: as many as the results' walk may take.
            let states = self.steps.saturating_mul(general::STATES_PER_TURN);
            let mut n = 0;
            if general::each_turn(pos, states, |_, _| n += 1).is_err() {
                self.explode();
            }
            return n;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        pieces::piece_moves(pos, &mut moves);
        let mut walker = self.walker_for(pos);
        walker.budget = self.steps;
        let total = match walker.count_recorded(pos.kicked_ball()) {
            Some(base) => Self::recount_moves(&mut walker, pos, base, &moves),
            None => Self::count_plain(&mut walker, pos, &moves),
        };
        if walker.budget == 0 {
            self.explode();
        }
        self.moves = moves;
        self.walker = Some(walker);
        // Without a move, the empty chain is the null turn; a side with no turn passes.
        (total - 1 + u64::from(null_allowed(pos))).max(1)
    }

    /// The chains of every move, the chains without a move (`base`) having been recorded.
    fn recount_moves(
        walker: &mut Walker<'r>,
        pos: &Position<'r>,
        base: u64,
        moves: &[(Square, Square)],
    ) -> u64 {
        let touched = walker.touched;
        let mut total = base;
        for &(from, to) in moves {
            total += if touched.contains(from) || touched.contains(to) {
                walker.shift(from, to);
                let n = walker.recount(pos.kicked_ball(), from, to);
                walker.shift(to, from);
                n
            } else {
                base
            };
        }
        total
    }

    /// The chains without a move and after every move, walked without a record (a walk too
    /// large to record).
    fn count_plain(walker: &mut Walker<'r>, pos: &Position<'r>, moves: &[(Square, Square)]) -> u64 {
        let mut base = Count(0);
        walker.walk_tracked(pos.kicked_ball(), &mut base);
        let mut total = base.0;
        let mut scratch = Count(0);
        walker.each_move(pos.kicked_ball(), moves, &base, &mut scratch, |_, c| total += c.0);
        total
    }

    /// Fills `children` with the non-scoring results of `pos`; returns the scoring turns.
    fn results(&mut self, pos: &Position<'r>, children: &mut Vec<Child<'r>>) -> u64 {
        if !self.distinct {
            return self.all_results(pos, children);
        }
        // Every result once: scoring ones are found among the children, then counted as
        // leaves unless `exact`.
        let start = children.len();
        let exact = std::mem::replace(&mut self.exact, true);
        self.all_results(pos, children);
        self.exact = exact;
        let mut leaves = 0;
        let mut i = start;
        while i < children.len() {
            if children[i].0.is_goal() && !exact {
                leaves += 1;
                children.swap_remove(i);
            } else {
                children[i].1 = 1;
                i += 1;
            }
        }
        leaves
    }

    /// [`Counter::results`] with every turn counted.
    fn all_results(&mut self, pos: &Position<'r>, children: &mut Vec<Child<'r>>) -> u64 {
        if !pos.rules.tables().walks_chains() {
            let mut leaves = 0;
            let states = self.steps.saturating_mul(general::STATES_PER_TURN);
            let Ok(results) = general::results(pos, states) else {
                self.explode();
                return 0;
            };
            for r in results {
                if r.position.is_goal() && !self.exact {
                    leaves += r.turns;
                } else {
                    children.push((r.position, r.turns));
                }
            }
            return leaves;
        }
        let goals = pos.rules.tables().goals;
        let mut leaves = 0;
        let exact = self.exact;
        let any = self.results.each(pos, |piece_move, ball, n| {
            // (An exhausted walk's results are incomplete; the count is then abandoned.)
            if goals.contains(ball) && !exact {
                leaves += n;
                return;
            }
            let mut child = *pos;
            if let Some((from, to)) = piece_move {
                child.move_piece(from, to);
            }
            child.move_ball(ball);
            child.end_turn();
            children.push((child, n));
        });
        if self.results.exhausted() {
            self.explode();
        }
        if !any {
            let mut pass = *pos;
            pass.end_turn();
            children.push((pass, 1));
        }
        leaves
    }

    /// perft of `pos` to `depth`.
    pub(crate) fn perft(&mut self, pos: &Position<'r>, depth: usize) -> u64 {
        match depth {
            0 => return 1,
            _ if pos.is_goal() || self.stopped() => return 0,
            _ => {}
        }
        let key = table_key(pos, depth);
        if let Some(n) = self.table.and_then(|t| t.get(key)) {
            return n;
        }
        if depth == 1 {
            let n = self.count(pos);
            if let Some(t) = self.table
                && !self.stopped()
            {
                t.put(key, n);
            }
            return n;
        }
        let mut children = self.buffer(depth);
        let mut total = self.results(pos, &mut children);
        for (child, n) in &children {
            total += n * self.perft(child, depth - 1);
        }
        self.children[depth] = children;
        if let Some(t) = self.table
            && !self.stopped()
        {
            t.put(key, total);
        }
        total
    }

    /// The results of every child in `items`, one level deeper, multiplicities multiplied.
    fn expand(&mut self, items: &[Child<'r>]) -> (Vec<Child<'r>>, u64) {
        let mut out = Vec::new();
        let mut leaves = 0;
        for (pos, n) in items {
            let mut children = self.buffer(1);
            leaves += n * self.results(pos, &mut children);
            out.extend(children.iter().map(|&(c, m)| (c, m * n)));
            self.children[1] = children;
        }
        (out, leaves)
    }
}

/// The number of turn sequences of `depth` turns from `pos` (1 at depth 0; 0 if the game is
/// over). `progress`, if given, hears how many work items are done.
///
/// # Errors
/// A position below the root has more than [`MAX_TURNS`] turns (the root's own count is the
/// caller's to check, with [`count_turns`](crate::movegen::count_turns)).
pub fn perft(
    pos: &Position<'_>,
    depth: usize,
    options: &PerftOptions,
    progress: Option<Progress<'_>>,
) -> Result<u64, TooManyTurns> {
    if depth <= 2 || pos.is_goal() {
        let mut counter = Counter::with(options, None, None);
        let n = counter.perft(pos, depth);
        return if counter.stopped() { Err(TooManyTurns) } else { Ok(n) };
    }
    // Split the tree a ply or two down, so that every thread finds work.
    let mut counter = Counter::with(options, None, None);
    let (mut items, mut leaves) = counter.expand(&[(*pos, 1)]);
    let mut below = depth - 1;
    if below >= 3 && !counter.stopped() {
        let (deeper, more) = counter.expand(&items);
        (items, leaves, below) = (deeper, leaves + more, below - 1);
    }
    if counter.stopped() {
        return Err(TooManyTurns);
    }
    let table = TransTable::for_depth(depth, options.table_mib);
    let counts = run_items(&items, below, &table, options, progress)?;
    Ok(leaves + items.iter().zip(counts).map(|((_, n), c)| n * c).sum::<u64>())
}

/// The perft of each legal turn's result to `depth - 1` (a scoring turn counts 1), in the
/// order of [`legal_turns_unbounded`](crate::movegen::legal_turns_unbounded), which
/// [`each_legal_turn`] walks again to name them. Turns with the same result (piece move and the
/// ball's final square) are counted once; the turns themselves are not kept (a position's two
/// million turns would take hundreds of megabytes).
///
/// # Errors
/// As [`perft()`].
pub fn perft_divide(
    pos: &Position<'_>,
    depth: usize,
    options: &PerftOptions,
    progress: Option<Progress<'_>>,
) -> Result<Vec<u64>, TooManyTurns> {
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut items: Vec<Child<'_>> = Vec::new();
    let mut of_turn: Vec<usize> = Vec::new();
    each_legal_turn(pos, |t| {
        let after = play_unchecked(pos, t);
        let i = *index.entry(after.hash).or_insert_with(|| {
            items.push((after, 1));
            items.len() - 1
        });
        of_turn.push(i);
    });
    let table = TransTable::for_depth(depth, options.table_mib);
    let counts = run_items(&items, depth.saturating_sub(1), &table, options, progress)?;
    let count = |i: usize| if items[i].0.is_goal() && !options.exact { 1 } else { counts[i] };
    Ok(of_turn.into_iter().map(count).collect())
}

/// perft of each item's position to `depth`, shared among `options.threads` threads.
fn run_items(
    items: &[Child<'_>],
    depth: usize,
    table: &TransTable,
    options: &PerftOptions,
    progress: Option<Progress<'_>>,
) -> Result<Vec<u64>, TooManyTurns> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let too_many = AtomicBool::new(false);
    let counts: Vec<AtomicU64> = items.iter().map(|_| AtomicU64::new(0)).collect();
    // Each worker takes the next item until none is left, so that uneven items even out.
    let work = || {
        let mut counter = Counter::with(options, Some(table), Some(&too_many));
        while !counter.stopped() {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((pos, _)) = items.get(i) else { break };
            counts[i].store(counter.perft(pos, depth), Ordering::Relaxed);
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(report) = progress {
                report(finished, items.len());
            }
        }
    };
    if options.threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..options.threads {
                scope.spawn(work);
            }
        });
    }
    if too_many.into_inner() {
        return Err(TooManyTurns);
    }
    Ok(counts.into_iter().map(AtomicU64::into_inner).collect())
}

#[cfg(test)]
mod tests {
    use super::{Counter, Slot, TransTable};
    use crate::position::Position;

    /// Below the root, the walk action by action may take several states a turn, as the
    /// listing of results may: a position with no more turns than the steps allowed is counted
    /// and its results listed, never refused.
    #[test]
    fn the_walk_action_by_action_takes_several_states_a_turn() {
        let def = crate::definition::load("chessball-1957").unwrap();
        let pos = Position::start(&def.rules);
        assert!(!def.rules.tables().walks_chains());
        let turns = crate::movegen::count_turns_unbounded(&pos);
        let mut counter = Counter { steps: turns, ..Counter::new() };
        assert_eq!(counter.count(&pos), turns);
        let mut children = Vec::new();
        counter.all_results(&pos, &mut children);
        assert!(!counter.stopped() && !children.is_empty());
    }

    /// A perft gets a table to suit its depth (three bits a turn more), within its MiB.
    #[test]
    fn the_table_grows_with_the_depth_within_its_memory() {
        assert_eq!(TransTable::for_depth(1, 1024).mask + 1, 1 << 11);
        assert_eq!(TransTable::for_depth(2, 1024).mask + 1, 1 << 14);
        assert_eq!(TransTable::for_depth(5, 1024).mask + 1, 1 << 23);
        let one_mib = (1 << 20) / std::mem::size_of::<Slot>();
        assert_eq!(TransTable::for_depth(9, 1).mask + 1, one_mib);
    }

    /// A count stored is found again under its key, and not under another key of its slot
    /// (nor is an empty slot read as a count).
    #[test]
    fn the_table_finds_what_it_keeps_and_only_that() {
        let table = TransTable::new(10);
        let (key, other) = (0x1234_5678_9abc_def0_u64, 0x1234_5678_9abc_def0_u64 ^ (1 << 40));
        assert_eq!(table.get(key), None);
        table.put(key, 56_059_729);
        assert_eq!(table.get(key), Some(56_059_729));
        assert_eq!(table.get(other), None);
        table.put(other, 7);
        assert_eq!((table.get(other), table.get(key)), (Some(7), None));
    }
}
