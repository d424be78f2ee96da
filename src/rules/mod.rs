//! The compiled, immutable rule set of a variant.
//!
//! A [`Rules`] is built only by [`crate::definition`] from a checked definition file; everything
//! after (positions, turn generation, the game, the search) reads `&Rules`. Every rule is stated,
//! with examples, in `docs/rules.md`; each type below names the section of the rule it encodes.

mod choice;

use std::sync::Arc;

pub use choice::Choice;
use choice::choice;

use crate::movegen::tables::Tables;
use crate::notation::betza::Leg;
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

/// The board's size and colouring (`[board]`; rule: `docs/rules.md#the-board-and-the-goals`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of files, 2..=16.
    pub files: u8,
    /// Number of ranks, 2..=16.
    pub ranks: u8,
    /// Whether a1 is a dark square.
    pub a1_dark: bool,
}

choice! {
    /// `board.a1`: the colour of a1, which decides every square's colour (rule:
    /// `docs/rules.md#the-board-and-the-goals`).
    pub enum SquareColour {
        /// The corner a1 is dark, as on Boyer's board.
        default Dark = "dark",
        /// The corner a1 is light.
        Light = "light",
    }
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

/// One type of piece (`[pieces.X]`; rules: `docs/rules.md#piece-moves`,
/// `docs/rules.md#line-kicks`, `docs/rules.md#leap-kicks`, `docs/rules.md#corner-jumps`).
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

/// The ball's kick rules (`[kick]`; rule: `docs/rules.md#how-the-ball-moves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickRules {
    /// Whether the ball may also fly backwards over the kicker.
    pub direction: KickDirection,
    /// How many times each piece may kick in one turn (rule: `docs/rules.md#kicks-and-passes`).
    pub per_piece: u8,
    /// Whether a leap kick may land next to its kicker (rule: `docs/rules.md#leap-kicks`).
    pub leap_adjacent: bool,
    /// Whether the leap adjacency exclusion is lifted when the ball is in a corner (rule:
    /// `docs/rules.md#the-corner-exception`).
    pub corner_exception: bool,
    /// Whether the ball may reach or cross a goal along the goal's own rank.
    pub goal_rank: GoalRank,
}

choice! {
    /// `kick.direction`: whether a line kick may also send the ball backwards, over its kicker
    /// (rule: `docs/rules.md#backward-kicks`).
    pub enum KickDirection {
        /// The ball flies directly away from its kicker.
        default Away = "away",
        /// It may also fly backwards, over its kicker.
        Line = "line",
    }
}

choice! {
    /// `kick.goal_rank`: whether a kick along a goal's rank may reach or cross the goal (rule:
    /// `docs/rules.md#no-kick-along-the-goal-rank`).
    pub enum GoalRank {
        /// From a goal's rank, no kick along that rank reaches or crosses the goal.
        default NoSlide = "no-slide",
        /// No such restriction: the ball may stop on the goal or fly past it.
        Allowed = "allowed",
    }
}

/// The turn rules (`[turn]`; rule: `docs/rules.md#a-turn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRules {
    /// When a side may do nothing at all.
    pub null: NullTurn,
    /// No goal may be scored while fewer turns than this have been completed (rule:
    /// `docs/rules.md#no-goal-on-the-first-turns`).
    pub no_goal_before: u32,
}

choice! {
    /// `turn.null`: when a side may do nothing at all (rule: `docs/rules.md#the-null-turn`).
    pub enum NullTurn {
        /// A turn moves a piece or kicks the ball (a side with no legal turn still passes).
        default Never = "never",
        /// Only when one of the side's pieces touches the ball as the turn starts.
        WhenAdjacent = "when-adjacent",
        /// At any time.
        Always = "always",
    }
}

/// The end-of-game rules (`[end]`; rule: `docs/rules.md#the-end-of-the-game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// What a kick into one's own goal does.
    pub own_goal: OwnGoal,
    /// The number of occurrences of a position that draws; 0 is off (rule:
    /// `docs/rules.md#repetition`).
    pub repetition: u32,
    /// The number of turns after which the game is drawn; 0 is no limit (rule:
    /// `docs/rules.md#the-turn-limit`).
    pub max_turns: u32,
}

choice! {
    /// `end.own_goal`: what a kick into one's own goal does (rule:
    /// `docs/rules.md#goals-and-own-goals`).
    pub enum OwnGoal {
        /// It scores for the opponent.
        default Counts = "counts",
        /// Such kicks are not legal.
        Forbidden = "forbidden",
    }
}

/// 960-style random back ranks (`[setup.random]`; rule: `docs/rules.md#random-setups`).
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

choice! {
    /// `setup.random.black`: how Black's pieces are placed (rule: `docs/rules.md#random-setups`).
    pub enum BlackSetup {
        /// Black copies White's arrangement on the mirrored squares.
        default Mirror = "mirror",
        /// Black's arrangement is drawn separately.
        Independent = "independent",
    }
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
