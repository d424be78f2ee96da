//! Exact analysis for players and designers: forced goals proved or refuted, proofs checked,
//! forced goals surveyed over a variant's setups, fair setups. The search asks the solver for
//! forced goals (levels 3 and 4); the balance report and self-play, which play the search, are
//! [`crate::balance`]'s.

pub mod fair;
pub mod goal;
pub mod plain;
pub mod proof;
pub mod puzzle;
pub(crate) mod solve;
pub mod survey;

pub use proof::{Attack, Checked, Defence, ProofError, check};
pub use solve::{Solution, SolveLimits, Solver, Unknown, Verdict, solve, solve_reply};
