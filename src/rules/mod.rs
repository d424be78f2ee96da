//! The compiled, immutable rule set of a variant.
//!
//! A [`Rules`] is built only by [`crate::definition`] from a checked definition file; everything
//! after (positions, turn generation, the game, the search) reads `&Rules`.

use std::sync::Arc;

pub mod leg;

use crate::movegen::tables::Tables;
use crate::position::Placement;
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::square_set::SquareSet;
pub use leg::{Leg, Modality, Reach};

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

/// The board's size, colouring and holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of files, 2..=16.
    pub files: u8,
    /// Number of ranks, 2..=24.
    pub ranks: u8,
    /// Whether a1 is a dark square.
    pub a1_dark: bool,
    /// Squares inside the rectangle that do not exist (`board.holes`): nothing stands on them,
    /// nothing passes over them, a position writes them `*`.
    pub holes: SquareSet,
}

impl Board {
    /// Every square of the board (holes left out), rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks)
            .flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
            .filter(move |&s| !self.holes.contains(s))
    }

    /// Whether `square` is a square of this board: inside the rectangle and not a hole.
    #[must_use]
    pub fn contains(self, square: Square) -> bool {
        self.in_rectangle(square) && !self.holes.contains(square)
    }

    /// Whether `square` is inside the board's rectangle (holes included).
    #[must_use]
    pub fn in_rectangle(self, square: Square) -> bool {
        square.file() < self.files && square.rank() < self.ranks
    }

    /// Whether `square` is a hole.
    #[must_use]
    pub fn is_hole(self, square: Square) -> bool {
        self.holes.contains(square)
    }

    /// The square `(df, dr)` away from `square`, if it is a square of this board.
    #[must_use]
    pub fn offset(self, square: Square, df: i32, dr: i32) -> Option<Square> {
        square.offset(df, dr, self.files, self.ranks).filter(|&s| !self.holes.contains(s))
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
    /// How it kicks the ball.
    pub kick_mode: KickMode,
    /// The squares it may stand on, in White's frame (Black's mirrored); `None`: everywhere.
    pub zone: Option<SquareSet>,
    /// Which goal squares it may stand on.
    pub goals: GoalAccess,
    /// Whether its capture scores a point for the capturer.
    pub royal: bool,
    /// What it becomes on reaching its promotion squares.
    pub promotion: Option<Promotion>,
    /// Its letter (White's, uppercase) while it holds a carried ball.
    pub holder: Option<char>,
}

/// `kick_mode`: where a kicker stands and where the ball flies from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KickMode {
    /// Next to the ball; the ball flies along the kicker->ball line (and by the kicker's leaps
    /// from the ball's square).
    Beside,
    /// Next to the ball; the ball moves by the kicker's kick pattern from the ball's square,
    /// whichever side the kicker stands on.
    FromBall,
    /// The kicker steps onto the ball's square and must kick it from there by its pattern; the
    /// square it left counts as empty. The step is one of the piece's moves of the turn.
    Enter,
}

/// `kick.enter`: how an entering kicker reaches the ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnterBy {
    /// From a square next to the ball (a king's step).
    Adjacent,
    /// By one of its own moves.
    Move,
}

/// `goals` of a piece: which goal squares it may stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalAccess {
    /// None.
    Never,
    /// Only by capturing a piece that stands there.
    Capture,
    /// Any.
    Always,
}

/// A piece's promotion (`[pieces.X.promotion]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The squares where it promotes, in White's frame (Black's mirrored).
    pub squares: SquareSet,
    /// The kinds it may become (the mover chooses).
    pub to: Vec<PieceKind>,
}

/// The ball's kick rules (`[kick]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickRules {
    /// How an entering kicker reaches the ball.
    pub enter: EnterBy,
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
    /// The most piece moves in one turn (each piece moves at most once).
    pub moves: u8,
    /// The most kicks in one turn; 0: no limit but `kick.per_piece`.
    pub kicks: u8,
    /// Whether moves and kicks may come in any order.
    pub order: Order,
    /// Whether a turn may end before its moves and kicks are used up.
    pub end_early: bool,
}

/// `turn.order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The piece moves first, then the kicks.
    MoveFirst,
    /// Moves and kicks in any order.
    Any,
}

/// Whether pieces capture (`[capture]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Captures {
    /// Never: a piece moves only to empty squares.
    None,
    /// By replacement: a piece that moves onto an enemy removes it.
    Replace,
}

/// The ball (`[ball]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BallRules {
    /// Its letter in positions.
    pub symbol: char,
    /// Kicked or carried.
    pub mode: BallMode,
    /// Squares it may not stop on.
    pub forbidden: SquareSet,
    /// What may be done with a carried ball.
    pub carried: CarriedRules,
}

/// `ball.mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallMode {
    /// A free ball that pieces kick.
    Kicked,
    /// A ball that a piece holds and carries.
    Carried,
}

/// The rules of a carried ball (`[ball]` keys that apply to `mode = "carried"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarriedRules {
    /// A holder may give the ball to a friend it could capture (neither moves).
    pub pass: bool,
    /// A piece may take the ball from a friend it could capture (neither moves).
    pub take_from_friend: bool,
    /// How the ball is taken from an enemy holder.
    pub steal: Steal,
    /// Whether a holder may capture.
    pub holder_captures: bool,
    /// Whether an in-place steal may be answered at once by the reverse steal.
    pub steal_back: bool,
}

/// `ball.steal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steal {
    /// An enemy holder cannot be robbed.
    None,
    /// By capturing the holder.
    Capture,
    /// In place: neither piece moves, the ball changes hands.
    InPlace,
    /// Either way (the mover chooses).
    Both,
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
    /// The number of turns after which the game ends (drawn, or won on goals in a match); 0 is
    /// no limit.
    pub max_turns: u32,
    /// The goals (points) that win the game.
    pub goals: u32,
    /// What follows a point that does not win the game.
    pub after_goal: AfterGoal,
    /// Who moves after a point.
    pub next: NextAfterGoal,
    /// What happens to a side with no legal turn.
    pub no_moves: NoMoves,
}

/// `end.after_goal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterGoal {
    /// The game ends with the first point.
    End,
    /// Every piece and the ball return to the start position; the score stays.
    Reset,
    /// Only the ball returns to its start square.
    BallToSpot,
}

/// `end.next`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextAfterGoal {
    /// The other side, as after any turn.
    Other,
    /// The side that conceded the point.
    Conceding,
}

/// `end.no_moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMoves {
    /// The side passes (its only turn is the null turn).
    Pass,
    /// The game is drawn.
    Draw,
}

impl EndRules {
    /// Whether the game is a match of points with a score (and not over at the first goal).
    #[must_use]
    pub fn keeps_score(&self) -> bool {
        self.after_goal != AfterGoal::End
    }
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
    pub(crate) ball: BallRules,
    pub(crate) capture: Captures,
    pub(crate) setup_fen: String,
    /// The start position (`setup.fen`), checked once.
    pub(crate) start: Placement,
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
        self.ball.symbol
    }

    /// The ball's rules.
    #[must_use]
    pub fn ball(&self) -> &BallRules {
        &self.ball
    }

    /// Whether pieces capture.
    #[must_use]
    pub fn captures(&self) -> Captures {
        self.capture
    }

    /// The kind whose holder letter (uppercase) is `letter`, for a carried ball.
    #[must_use]
    pub fn kind_of_holder(&self, letter: char) -> Option<PieceKind> {
        self.pieces.iter().position(|p| p.holder == Some(letter)).map(|i| PieceKind(i as u8))
    }

    /// The start position's text (`setup.fen`).
    #[must_use]
    pub fn setup_fen(&self) -> &str {
        &self.setup_fen
    }

    /// The start position (`setup.fen`), checked when the rules compiled.
    #[must_use]
    pub fn start(&self) -> &Placement {
        &self.start
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
