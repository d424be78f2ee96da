//! The text of a turn against a position, written and read here and nowhere else (turn
//! notation as written, without a position, is read by [`crate::notation::turn`]):
//!
//! - [`long`]: the long form of a [`Turn`](crate::movegen::Turn), every action written out
//!   (`Nb1-c3 d4>f6 f5>f8`, `--`): its `Display` and [`long::parse_long`].
//! - [`names`]: turn notation against a position: the canonical name of each legal turn, and
//!   typed text read back into a legal turn, whole or step by step.

pub mod long;
pub mod names;
