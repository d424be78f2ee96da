//! The balance of a variant for designers: the engine against itself from fairly drawn setups
//! (self-play), and the report of `kickoff analyze` that gathers it with the forced goals of
//! every start.

pub mod compare;
pub mod puzzles;
pub mod report;
pub mod selfplay;
pub mod tune;
