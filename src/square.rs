//! Squares of boards up to 16 files and 32 ranks.

use std::fmt;

/// The largest number of files a board may have.
pub const MAX_FILES: u8 = 16;

/// The largest number of ranks a board may have (a board with crossbars beyond its end lines,
/// such as Soccer Chess's 11x19, needs more than 16).
pub const MAX_RANKS: u8 = 24;

/// The number of square indexes: every board shares them, so tables of this many entries cover
/// any board.
pub const SQUARES: usize = MAX_FILES as usize * MAX_RANKS as usize;

/// A square: file and rank packed as `rank * 16 + file`, both from 0.
///
/// The fixed stride of 16 makes every board size share one indexing, so tables of [`SQUARES`]
/// entries cover any board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square on `file` and `rank` (both from 0), if they are below [`MAX_FILES`] and
    /// [`MAX_RANKS`].
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_FILES && rank < MAX_RANKS { Some(Square::at(file, rank)) } else { None }
    }

    /// The square on `file` and `rank`, which the caller has checked are in range.
    #[must_use]
    pub(crate) const fn at(file: u8, rank: u8) -> Square {
        debug_assert!(file < MAX_FILES && rank < MAX_RANKS);
        Square((rank as u16) << 4 | file as u16)
    }

    /// The square with this packed index (`rank * 16 + file`, below [`SQUARES`]).
    #[must_use]
    pub(crate) const fn from_index(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u16)
    }

    /// Every square index, as squares (most are off any given board).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES).map(Square::from_index)
    }

    /// The packed index, `rank * 16 + file`, usable for tables of [`SQUARES`] entries.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, from 0 (`a`).
    #[must_use]
    pub const fn file(self) -> u8 {
        (self.0 & 15) as u8
    }

    /// The rank, from 0 (rank 1).
    #[must_use]
    pub const fn rank(self) -> u8 {
        (self.0 >> 4) as u8
    }

    /// The square `(df, dr)` away, if it is on a board of `files` x `ranks`.
    #[must_use]
    pub fn offset(self, df: i32, dr: i32, files: u8, ranks: u8) -> Option<Square> {
        let f = i32::from(self.file()) + df;
        let r = i32::from(self.rank()) + dr;
        if (0..i32::from(files)).contains(&f) && (0..i32::from(ranks)).contains(&r) {
            Some(Square::at(f as u8, r as u8))
        } else {
            None
        }
    }

    /// The king-step (Chebyshev) distance between two squares.
    #[must_use]
    pub fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()).max(self.rank().abs_diff(other.rank()))
    }

    /// The file letter, `a` for file 0.
    #[must_use]
    pub fn file_char(self) -> char {
        char::from(b'a' + self.file())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_offsets() {
        let e5 = Square::at(4, 4);
        assert_eq!(e5.to_string(), "e5");
        assert_eq!(Square::at(15, 15).to_string(), "p16");
        assert_eq!(e5.offset(1, 2, 9, 9), Some(Square::at(5, 6)));
        assert_eq!(e5.offset(5, 0, 9, 9), None);
        assert_eq!(e5.offset(-5, 0, 9, 9), None);
        assert_eq!(e5.distance(Square::at(6, 3)), 2);
        assert_eq!(Square::new(15, 23), Some(Square::at(15, 23)));
        assert_eq!(Square::new(16, 0), None);
        assert_eq!(Square::new(0, 24), None);
        assert_eq!(Square::new(15, 23), Some(Square::at(15, 23)));
        assert_eq!(Square::new(16, 0), None);
        assert_eq!(Square::new(0, 24), None);
    }
}
