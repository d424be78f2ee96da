//! Sets of squares: bit masks indexed like [`Square::index`].

use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

use crate::square::{SQUARES, Square};

const WORDS: usize = SQUARES / 64;

/// A set of squares of any board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; WORDS]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; WORDS]);

    /// Whether `square` is in the set.
    #[inline]
    #[must_use]
    pub fn contains(self, square: Square) -> bool {
        let i = square.index();
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Adds `square`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, square: Square) -> bool {
        let i = square.index();
        let word = &mut self.0[i >> 6];
        let bit = 1u64 << (i & 63);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    /// Removes `square`.
    #[inline]
    pub fn remove(&mut self, square: Square) {
        let i = square.index();
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0.iter().fold(0, |acc, &w| acc | w) == 0
    }

    /// A 64-bit digest of the set (equal sets, equal digests; for hashing states).
    #[must_use]
    pub fn digest(self) -> u64 {
        self.0.iter().fold(0x243F_6A88_85A3_08D3, |h: u64, &w| {
            (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
        })
    }

    /// The number of squares in the set.
    #[must_use]
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares in index order (rank by rank from a1).
    #[inline]
    pub fn iter(self) -> Iter {
        Iter { words: self.0, word: 0 }
    }
}

/// The squares of a [`SquareSet`] in index order.
#[derive(Clone, Debug)]
pub struct Iter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Iter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        // Empty words are skipped one test each: small boards use only the first ones.
        while let Some(&bits) = self.words.get(self.word) {
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(Square::from_index(self.word * 64 + bits.trailing_zeros() as usize));
            }
            self.word += 1;
        }
        None
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitand(self, o: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitor(self, o: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl BitOrAssign for SquareSet {
    #[inline]
    fn bitor_assign(&mut self, o: SquareSet) {
        *self = *self | o;
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn not(self) -> SquareSet {
        SquareSet(self.0.map(|w| !w))
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for s in iter {
            set.insert(s);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = SquareSet::EMPTY;
        assert!(s.insert(Square::new(0, 0)));
        assert!(!s.insert(Square::new(0, 0)));
        s.insert(Square::new(15, 15));
        s.insert(Square::new(4, 4));
        assert_eq!(s.len(), 3);
        let v: Vec<String> = s.iter().map(|q| q.to_string()).collect();
        assert_eq!(v, ["a1", "e5", "p16"]);
        s.remove(Square::new(4, 4));
        assert!(!s.contains(Square::new(4, 4)));
        assert!(s.contains(Square::new(15, 15)));
    }
}
