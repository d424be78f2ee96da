//! Exact analysis for players and designers: forced goals proved or refuted, proofs checked,
//! balance reports over a variant's setups and self-play.

pub mod fair;
pub mod goal;
pub mod plain;
pub mod proof;
pub mod report;
pub mod selfplay;
pub(crate) mod solve;
pub mod survey;

pub use proof::{Attack, Checked, Defence, ProofError, check};
pub use solve::{Solution, SolveLimits, Solver, Unknown, Verdict, solve, solve_reply};
