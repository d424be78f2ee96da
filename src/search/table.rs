//! The transposition table: the value of positions already searched, by Zobrist hash, with the
//! result that was best there.

use crate::search::WIN_BOUND;

/// What a stored score says of the true value.
// All-zero bytes are an empty entry: `Exact` is 0 (see `zeroed_table`).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (a cut-off).
    Lower,
    /// The value is at most the score (nothing beat alpha).
    Upper,
}

impl Bound {
    /// What the best score of a search with window `alpha`..`beta` says of the value.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored position.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    key: u64,
    /// The hash of the best result found, 0 if none.
    pub best: u64,
    score: i32,
    depth: u8,
    bound: Bound,
}

impl Entry {
    /// The stored score at `ply`, if it settles a search of `depth` within `alpha`..`beta`.
    pub fn cutoff(&self, depth: u32, alpha: i32, beta: i32, ply: u32) -> Option<i32> {
        if u32::from(self.depth) < depth {
            return None;
        }
        let s = from_table(self.score, ply);
        match self.bound {
            Bound::Exact => Some(s),
            Bound::Lower if s >= beta => Some(s),
            Bound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }
}

/// The size of a table entry, in bytes.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The number of table entries (24 bytes each) of a searcher made with
/// [`Searcher::new`](super::Searcher::new): 2^20, 24 MiB (the memory is taken as the table
/// fills).
pub const TABLE_BITS: u32 = 20;

/// A table of 2^`bits` entries, one per slot, replaced by deeper or exact results.
pub(super) struct Table {
    entries: Box<[Entry]>,
    bits: u32,
}

impl Table {
    /// An empty table of 2^`bits` entries.
    pub fn new(bits: u32) -> Table {
        Table { entries: zeroed_table(1 << bits), bits }
    }

    /// Empties the table (its memory asked of the system afresh, zeroed as it is touched).
    pub fn clear(&mut self) {
        self.entries = zeroed_table(self.entries.len());
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - self.bits)) as usize
    }

    /// The entry of `key`, if the table holds it.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key).then_some(e)
    }

    /// Stores a search's score of the position `key` at `ply`, unless the slot holds a deeper
    /// search of the same position that this one is not exact enough to replace.
    pub fn store(&mut self, key: u64, depth: u32, score: i32, bound: Bound, best: u64, ply: u32) {
        let score = to_table(score, ply);
        let slot = self.slot(key);
        let e = &mut self.entries[slot];
        if e.key != key || u32::from(e.depth) <= depth || bound == Bound::Exact {
            *e = Entry { key, best, score, depth: depth.min(255) as u8, bound };
        }
    }
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
    use super::{Bound, Table};
    use crate::search::WIN;

    #[test]
    fn goal_scores_are_kept_relative_to_their_node() {
        let mut t = Table::new(10);
        // A goal in one found 3 plies from the root is a goal in one wherever it is read.
        t.store(42, 2, WIN - 3 - 1, Bound::Exact, 7, 3);
        let e = t.get(42).unwrap();
        assert_eq!(e.best, 7);
        assert_eq!(e.cutoff(2, -WIN, WIN, 5), Some(WIN - 5 - 1));
        assert_eq!(e.cutoff(3, -WIN, WIN, 5), None, "a shallower search settles nothing");
        assert!(t.get(43).is_none());
    }

    #[test]
    fn bounds_settle_only_beyond_the_window() {
        let mut t = Table::new(10);
        t.store(1, 4, 100, Bound::Lower, 0, 0);
        let e = t.get(1).unwrap();
        assert_eq!(e.cutoff(4, 0, 100, 0), Some(100));
        assert_eq!(e.cutoff(4, 0, 101, 0), None);
        // A shallower upper bound does not replace the deeper entry; an exact one does.
        t.store(1, 2, 50, Bound::Upper, 0, 0);
        assert_eq!(t.get(1).unwrap().cutoff(4, 0, 100, 0), Some(100));
        t.store(1, 2, 50, Bound::Exact, 0, 0);
        assert_eq!(t.get(1).unwrap().cutoff(2, 0, 100, 0), Some(50));
    }
}
