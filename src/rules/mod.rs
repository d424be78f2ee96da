//! The compiled, immutable rule set of a variant.
//!
//! A [`Rules`] is built only by [`crate::definition`] from a checked definition file; everything
//! after (positions, turn generation, the game, the search) reads `&Rules`.

use std::sync::Arc;

pub mod leg;

use crate::movegen::tables::Tables;
pub use leg::{Leg, Modality, Reach};
use crate::side::{BySide, Side};
use crate::square::Square;

/// Names a piece type of a variant: an index into [`Rules::pieces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The index into [`Rules::pieces`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who wrote the variant and what it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantInfo {
    /// The variant's name.
    pub name: String,
    /// Its inventor or author.
    pub author: Option<String>,
    /// The year it was published.
    pub year: Option<i64>,
    /// A short description.
    pub description: Option<String>,
    /// Where its rules come from (a URL).
    pub source: Option<String>,
}

/// The board's size and colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of files, 2..=16.
    pub files: u8,
    /// Number of ranks, 2..=16.
    pub ranks: u8,
    /// Whether a1 is a dark square.
    pub a1_dark: bool,
}

impl Board {
    /// Every square of the board, rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
    }

    /// Whether `square` is on this board.
    #[must_use]
    pub fn contains(self, square: Square) -> bool {
        square.file() < self.files && square.rank() < self.ranks
    }

    /// Whether `square` is dark.
    #[must_use]
    pub fn is_dark(self, square: Square) -> bool {
        (square.file() + square.rank()).is_multiple_of(2) == self.a1_dark
    }

    /// Whether `square` is one of the four corners.
    #[must_use]
    pub fn is_corner(self, square: Square) -> bool {
        (square.file() == 0 || square.file() == self.files - 1)
            && (square.rank() == 0 || square.rank() == self.ranks - 1)
    }

    /// The square seen from the other side: same file, rank mirrored.
    #[must_use]
    pub fn mirror(self, square: Square) -> Square {
        Square::new(square.file(), self.ranks - 1 - square.rank())
    }
}

/// One type of piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// White's letter (uppercase); Black writes it in lowercase.
    pub letter: char,
    /// Its name, e.g. "knight".
    pub name: String,
    /// The Betza string of its moves, as written.
    pub moves_betza: String,
    /// The Betza string of its kicks, as written (the moves when not given).
    pub kick_betza: String,
    /// Its moves in White's frame.
    pub moves: Vec<Leg>,
    /// Its kicks in White's frame.
    pub kicks: Vec<Leg>,
    /// Whether it may jump out of a corner when it has no move.
    pub corner_jump: bool,
}

/// The ball's kick rules (`[kick]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickRules {
    /// Whether the ball may also fly backwards over the kicker.
    pub direction: KickDirection,
    /// How many times each piece may kick in one turn.
    pub per_piece: u8,
    /// Whether a leap kick may land next to its kicker.
    pub leap_adjacent: bool,
    /// Whether the leap adjacency exclusion is lifted when the ball is in a corner.
    pub corner_exception: bool,
    /// Whether the ball may reach or cross a goal along the goal's own rank.
    pub goal_rank: GoalRank,
}

/// `kick.direction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KickDirection {
    /// Only directly away from the kicker.
    Away,
    /// Away, and also backwards over the kicker.
    Line,
}

/// `kick.goal_rank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalRank {
    /// From a goal's rank, no kick along that rank may reach or cross the goal.
    NoSlide,
    /// No restriction.
    Allowed,
}

/// The turn rules (`[turn]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRules {
    /// When a side may do nothing at all.
    pub null: NullTurn,
    /// No goal may be scored while fewer turns than this have been completed.
    pub no_goal_before: u32,
}

/// `turn.null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullTurn {
    /// Never (a side with no legal turn still passes).
    Never,
    /// When a piece of the side to move touches the ball at the start of the turn.
    WhenAdjacent,
    /// Always.
    Always,
}

/// The end-of-game rules (`[end]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// What a kick into one's own goal does.
    pub own_goal: OwnGoal,
    /// The number of occurrences of a position that draws; 0 is off.
    pub repetition: u32,
    /// The number of turns after which the game is drawn; 0 is no limit.
    pub max_turns: u32,
}

/// `end.own_goal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnGoal {
    /// It scores for the opponent.
    Counts,
    /// Such kicks are not legal.
    Forbidden,
}

/// 960-style random back ranks (`[setup.random]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomSetup {
    /// White's squares, in the order their letters are read (files, then ranks).
    pub squares: Vec<Square>,
    /// White's pieces placed on them, as many as squares.
    pub pieces: Vec<PieceKind>,
    /// Kinds whose two copies stand on squares of different colours.
    pub opposite_colors: Vec<PieceKind>,
    /// How Black's pieces are placed.
    pub black: BlackSetup,
}

/// `setup.random.black`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlackSetup {
    /// Black mirrors White on the mirrored squares.
    Mirror,
    /// Black is drawn independently.
    Independent,
}

/// The compiled rule set of a variant.
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) info: VariantInfo,
    pub(crate) board: Board,
    pub(crate) goals: BySide<Vec<Square>>,
    pub(crate) pieces: Vec<PieceType>,
    pub(crate) ball: char,
    pub(crate) setup_fen: String,
    pub(crate) random: Option<RandomSetup>,
    pub(crate) kick: KickRules,
    pub(crate) turn: TurnRules,
    pub(crate) end: EndRules,
    /// Lookup tables for turn generation, derived from the fields above.
    pub(crate) tables: Arc<Tables>,
}

impl Rules {
    /// The variant's name and credits.
    #[must_use]
    pub fn info(&self) -> &VariantInfo {
        &self.info
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The squares into which `side` must bring the ball.
    #[must_use]
    pub fn goals(&self, side: Side) -> &[Square] {
        &self.goals[side]
    }

    /// Which side scores when the ball stops on `square`, if it is a goal square.
    #[must_use]
    pub fn scorer(&self, square: Square) -> Option<Side> {
        Side::ALL.into_iter().find(|&s| self.goals[s].contains(&square))
    }

    /// Every piece type; [`PieceKind`] indexes it.
    #[must_use]
    pub fn pieces(&self) -> &[PieceType] {
        &self.pieces
    }

    /// One piece type.
    #[must_use]
    pub fn piece(&self, kind: PieceKind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    /// The kind whose White letter is `letter` (uppercase).
    #[must_use]
    pub fn kind_of(&self, letter: char) -> Option<PieceKind> {
        self.pieces.iter().position(|p| p.letter == letter).map(|i| PieceKind(i as u8))
    }

    /// The ball's symbol in positions.
    #[must_use]
    pub fn ball_symbol(&self) -> char {
        self.ball
    }

    /// The start position's text (`setup.fen`).
    #[must_use]
    pub fn setup_fen(&self) -> &str {
        &self.setup_fen
    }

    /// The random setup, if the variant has one.
    #[must_use]
    pub fn random_setup(&self) -> Option<&RandomSetup> {
        self.random.as_ref()
    }

    /// The kick rules.
    #[must_use]
    pub fn kick(&self) -> &KickRules {
        &self.kick
    }

    /// The turn rules.
    #[must_use]
    pub fn turn(&self) -> &TurnRules {
        &self.turn
    }

    /// The end-of-game rules.
    #[must_use]
    pub fn end(&self) -> &EndRules {
        &self.end
    }

    /// The lookup tables of turn generation.
    #[must_use]
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }
}
