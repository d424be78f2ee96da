//! What a square of a position's board holds, as one byte: the encoding positions store and the
//! turn generator's tables are indexed by.

use crate::side::Side;

/// The contents code of an empty square.
pub(crate) const EMPTY: u8 = 0;
/// The contents code of the ball.
pub(crate) const BALL: u8 = 1;

/// The contents code of a piece: 2 + 2 * kind + side.
#[inline]
pub(crate) const fn piece_code(side: Side, kind: usize) -> u8 {
    (2 + 2 * kind + side as usize) as u8
}

/// The side of a piece code.
#[inline]
pub(crate) const fn code_side(code: u8) -> Side {
    if code & 1 == 0 { Side::White } else { Side::Black }
}

/// The kind index of a piece code.
#[inline]
pub(crate) const fn code_kind(code: u8) -> usize {
    ((code - 2) >> 1) as usize
}
