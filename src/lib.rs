//! kickoff plays Football Chess and any football-style chess variant from a definition file.
//!
//! A definition (TOML, see `variants/`) compiles once into an immutable [`Rules`]; the engine,
//! the game and the tools read `&Rules` only.

pub mod cli;
pub mod commands;
pub mod definition;
pub mod game;
pub mod lint;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod render;
pub mod rules;
pub mod search;
pub mod setup;
pub mod side;
pub mod square;
pub mod square_set;
pub mod text_file;
pub mod web;

pub use definition::{Definition, Diagnostic, LoadError, load};
pub use movegen::{Kick, PerftOptions, PieceMove, Turn, legal_turns, perft, play};
pub use position::{Outcome, Position, is_repetition};
pub use rules::{PieceKind, Rules};
pub use side::{BySide, Side};
pub use square::Square;
pub use square_set::SquareSet;
