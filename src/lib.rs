//! kickoff plays Football Chess and any football-style chess variant from a definition file.
//!
//! A definition (TOML, see `variants/` and `docs/rules.md`) compiles once into an immutable
//! [`Rules`]; positions, turn generation, games and the search read `&Rules` only. The
//! library never prints: problems come back as values ([`Diagnostic`]s with stable codes,
//! `thiserror` errors), and the `kickoff` command line is a client of this API.
//!
//! The obvious names are the checked ones: [`legal_turns`] refuses a position with too many
//! turns to list, [`play`] refuses an illegal turn, [`Position::from_fen`] and
//! [`Position::from_placement`] refuse a position the rules do not allow, [`Square::new`] a
//! square off every board. The forms that skip a check say so in their name
//! ([`movegen::play_unchecked`], [`movegen::legal_turns_unbounded`],
//! [`movegen::count_turns_unbounded`]).
//!
//! ```
//! use kickoff::{Position, legal_turns, load, play};
//!
//! // A shipped variant by name (or a path to a definition file), with the warnings found while
//! // reading it; the lint's football-specific warnings are asked for apart (or loaded with it,
//! // `kickoff::lint::load_checked`, as `kickoff validate` shows them).
//! let def = load("boyer-1951")?;
//! assert!(def.warnings.is_empty());
//! assert!(kickoff::lint::lint(&def).is_empty());
//! let start = Position::start(&def.rules);
//!
//! // Every legal turn of the side to move, in their long form.
//! let turns = legal_turns(&start)?;
//! assert_eq!(turns.len(), 74);
//! let knight = turns.iter().find(|t| t.to_string() == "Nb1-c3").expect("a knight move");
//!
//! // Play one: the other side is to move.
//! let after = play(&start, knight)?;
//! assert_eq!(after.side(), kickoff::Side::Black);
//! assert_eq!(after.fen(), "rnbq1kbnr/9/9/9/4a4/9/2N6/9/R1BQ1KBNR b 1");
//!
//! // An illegal turn is refused, not played.
//! assert!(play(&after, knight).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! Without its default features (`kickoff = { ..., default-features = false }`) the crate is
//! the engine alone: definitions, positions, turns, games and records, the search, the solver,
//! the analyses and the renderings as text. Each feature adds a part of the application and
//! the crates only it needs; all are on by default:
//!
//! - `svg`: board diagrams as SVG, `render::svg` (ttf-parser, for the letters).
//! - `png`: PNG pictures of them, `render::png` (resvg); takes `svg`.
//! - `server`: the web board and the lobby, `web` (axum, tokio, hyper, tower, SQLite through
//!   rusqlite, argon2, lettre); takes `svg`.
//! - `cli`: what only the `kickoff` program needs (clap, clap_complete, clap_mangen,
//!   indicatif, open, ureq); takes `server` and `png`. The binary requires it.
//!
//! `tests/library.rs` checks with `cargo tree` that the engine alone compiles none of these
//! crates.
//!
//! # Layers
//!
//! The library's modules stand in layers, listed here from the top: a module uses only modules
//! of the layers below its own, never one of its own layer or of a layer above, so that no two
//! modules depend on each other and each layer reads with only those below it in mind. Unit
//! tests (`#[cfg(test)]`) may use any module. `tests/layers.rs` reads every `crate::` path of
//! `src/` and holds the crate to this list. The `kickoff` binary (`main.rs`, `cli.rs`,
//! `commands/`) is a client of the whole library.
//!
//! - `web`: the web board's server, its pages and its lobby.
//! - `balance`, `lint`, `render`, `start`: self-play and the balance report; the lint of a
//!   definition and its random games; board diagrams, pictures and the rules in words; which
//!   start a game begins from (the variant's, a FEN, a random setup by number, drawn or fair).
//! - `search`: the engine's player, which asks the exact solver at its higher levels.
//! - `analysis`, `game`: the exact solver, its proofs, surveys of forced goals and fair setups;
//!   games, their endings and their records.
//! - `turn_text`: the text of a turn against a position, its long form and its names.
//! - `definition`, `eval`, `movegen`: definition files read, checked and compiled into rules;
//!   the evaluation of a position; turn generation, perft and play.
//! - `setup`: random (960-style) setups and their numbers.
//! - `position`: positions checked against the rules, and their FEN.
//! - `rules`: the compiled rules, placements, and the tables derived from the rules.
//! - `notation`, `square_set`: the parsers of the languages kickoff reads (Betza, squares, FEN,
//!   records, turns as written); sets of squares.
//! - `parallel`, `side`, `square`, `text`, `text_file`: independent jobs shared among threads;
//!   the two sides; squares; text made safe to print and lists in words; files read within a
//!   size limit.
//!
//! # Where things live
//!
//! Each rule of the definition format (a key such as `kick.goal_rank`) is written down once per
//! job, in these files (paths from `src/`):
//!
//! - `definition/keys.rs`: the key, with its type, default, one sentence for authors, its
//!   section of `docs/rules.md`, and which of its values keep a definition within Boyer's
//!   family. The checks of every file, the JSON Schema (`definition/json_schema.rs`), the key
//!   tables of README.md and `docs/rules.md`, and which turn generator a definition gets are
//!   derived from it.
//! - `definition/compile/`: the key read, and checked against the others, by the compiler, one
//!   file per part: `board.rs`, `pieces.rs`, `play.rs` (the ball and the kick, turn and end
//!   rules), `combinations.rs` (keys that contradict each other), `start.rs`, `random.rs`.
//! - `rules/mod.rs`: its compiled meaning, a field of [`Rules`] (an enum where the key is one of
//!   several words), and the questions other modules ask of it (`Rules::carried_ball`,
//!   `EndRules::no_moves_draws`, `KickRules::no_slide`...); `rules/tables.rs`: the square sets
//!   derived from it for the turn generator. Outside `definition`, `rules`, `movegen`, `render`
//!   and `lint`, no module matches a key's words itself (`tests/layers.rs` holds to this).
//! - `movegen/`: its use in turn generation: `step.rs` for every definition, action by action;
//!   for the values that keep a definition within Boyer's family, the walk of whole kick chains
//!   too (`chains.rs`, `recount.rs`, `pieces.rs`), which `agree.rs` checks against the first for
//!   every value of every key. Both share the kicks of `kicks.rs`.
//! - `notation/turn/` and `turn_text/`: its part, if any, in the text of a turn, which is read
//!   and written there and nowhere else: `notation/turn/mod.rs` reads typed notation (`Nc3>e6`)
//!   into its parts, `turn_text/long.rs` is the long form of a [`Turn`] (`Nb1-c3 d4>f6`, its
//!   `Display`), `turn_text/names.rs` names each legal turn of a position and reads typed text
//!   back into one.
//! - `render/explain/` (`turn.rs`, `ball.rs`, `end.rs`): its words in `kickoff explain`.
//! - `docs/rules.md`: its statement for players and authors, with examples that
//!   `tests/rule_examples.rs` plays.
//! - `definition/codes.rs` and `docs/diagnostics.md`: the codes of the problems a definition can
//!   have.
//!
//! Two rules followed through:
//!
//! - `kick.goal_rank`, whether a kick along a goal's rank may reach or cross the goal: declared
//!   in `definition/keys.rs`; read in `definition/compile/play.rs` into
//!   [`rules::KickRules::goal_rank`], a [`rules::GoalRank`]; one function of `rules/tables.rs`,
//!   `Tables::along_goal_rank`, says which kicks it forbids, from the goal files of each rank
//!   precomputed there; the evaluation's kick distances (`eval/mod.rs`) ask it, and kick
//!   generation (`movegen/kicks.rs`) applies the same test to the rank's goal files, read once
//!   per kick rather than once per square; `render/explain/ball.rs` tells it;
//!   `docs/rules.md`, "No kick along the goal rank", states it.
//! - `turn.null`, when a side may do nothing at all: declared in `definition/keys.rs`; read in
//!   `definition/compile/play.rs` into [`rules::TurnRules::null`], a [`rules::NullTurn`]; one
//!   function, [`movegen::null_allowed`], decides it for a position, and every turn generator,
//!   perft, the turn notation (`turn_text/names.rs`) and the search ask it;
//!   `render/explain/turn.rs` tells it; `docs/rules.md`, "The null turn", states it.

#![warn(missing_docs)]

pub mod analysis;
pub mod balance;
pub mod definition;
pub mod eval;
pub mod game;
pub mod lint;
pub mod movegen;
pub mod notation;
pub mod parallel;
pub mod position;
pub mod render;
pub mod rules;
pub mod search;
pub mod setup;
pub mod side;
pub mod square;
pub mod square_set;
pub mod start;
pub mod text;
pub mod text_file;
pub mod turn_text;
#[cfg(feature = "server")]
pub mod web;

pub use definition::{Definition, Diagnostic, LoadError, load};
pub use movegen::{Kick, PerftOptions, PieceMove, PlayError, Turn, legal_turns, perft, play};
pub use position::{Outcome, Position, is_repetition};
pub use rules::{PieceKind, Rules};
pub use side::{BySide, Side};
pub use square::Square;
pub use square_set::SquareSet;
