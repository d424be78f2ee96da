//! The compiled, immutable rule set of a variant.
//!
//! A [`Rules`] is built only by [`crate::definition`] from a checked definition file; everything
//! after (positions, turn generation, the game, the search) reads `&Rules`. Every rule is stated,
//! with examples, in `docs/rules.md`; each type below names the section of the rule it encodes.

pub(crate) mod cell;
mod choice;
mod placement;

use std::sync::Arc;

pub mod leg;
pub(crate) mod redundancy;
pub(crate) mod tables;

pub use choice::Choice;
use choice::choice;
pub use placement::{MUST_RELEASE, NO_BACKPASS, Placement};

use crate::rules::tables::Tables;
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::square_set::SquareSet;
pub use leg::{Leg, Modality, Reach};

/// Names a piece type of a variant: an index into [`Rules::pieces`]. Only the rules make one
/// ([`Rules::kinds`], [`Rules::kind_of`]), so a kind always names a piece of its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(pub(crate) u8);

impl PieceKind {
    /// The index into [`Rules::pieces`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who wrote the variant and what it is. In JSON (the variant lists and pages), its name is
/// `title`: `name` there is the name that commands and requests take.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct VariantInfo {
    /// The variant's name.
    #[serde(rename = "title")]
    pub name: String,
    /// A short description.
    pub description: Option<String>,
    /// Its inventor or author.
    pub author: Option<String>,
    /// The year it was published.
    pub year: Option<i64>,
    /// Where its rules come from (a URL).
    pub source: Option<String>,
}

/// The board's size, colouring and holes (`[board]`; rule:
/// `docs/rules.md#the-board-and-the-goals`).
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
    /// Every square of the board (holes left out), rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks)
            .flat_map(move |r| (0..self.files).map(move |f| Square::at(f, r)))
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

    /// The squares from `from` (excluded) by `step` repeated at most `most` times, until the
    /// edge or a hole.
    #[must_use]
    pub fn ray(self, from: Square, step: (i8, i8), most: usize) -> Vec<Square> {
        let mut out = Vec::new();
        let mut at = from;
        while out.len() < most {
            match self.offset(at, i32::from(step.0), i32::from(step.1)) {
                Some(next) => {
                    out.push(next);
                    at = next;
                }
                None => break,
            }
        }
        out
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

    /// The square in a mirror held along the files: same rank, the first file and the last
    /// swapped.
    #[must_use]
    pub fn reflect(self, square: Square) -> Square {
        Square::at(self.files - 1 - square.file(), square.rank())
    }

    /// `set` in that mirror.
    #[must_use]
    pub fn reflect_set(self, set: SquareSet) -> SquareSet {
        set.iter().map(|s| self.reflect(s)).collect()
    }

    /// The square seen from the other side: same file, rank mirrored.
    #[must_use]
    pub fn mirror(self, square: Square) -> Square {
        Square::at(square.file(), self.ranks - 1 - square.rank())
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
    /// Whether it may jump over a piece or the ball next to it (a king's step) to the empty
    /// square just beyond (rule: `docs/rules.md#jumps`).
    pub jump: bool,
    /// Whether its king's step onto an enemy piece is a tackle, pushing that piece one square
    /// on the same way (rule: `docs/rules.md#tackles`); a tackler never captures.
    pub tackle: bool,
    /// How it kicks the ball.
    pub kick_mode: KickMode,
    /// The squares it may stand on, in White's frame (Black's mirrored); `None`: everywhere.
    pub zone: Option<SquareSet>,
    /// Where a placement stage may place it, in White's frame (Black's mirrored), within the
    /// stage's squares (rule: `docs/rules.md#the-placement-stage`); `None`: any of them.
    pub place: Option<SquareSet>,
    /// Which goal squares it may stand on.
    pub goals: GoalAccess,
    /// Whether its capture scores a point for the capturer.
    pub royal: bool,
    /// Whether it is its side's goal: an enemy's shot that reaches it scores for the enemy.
    pub target: bool,
    /// How long it may keep a carried ball (rule: `docs/rules.md#the-keeper`).
    pub hold: Hold,
    /// Whether its teammates may pass it the ball back after it has given it up (rule:
    /// `docs/rules.md#the-keeper`).
    pub backpass: bool,
    /// What it becomes on reaching its promotion squares.
    pub promotion: Option<Promotion>,
    /// What it becomes when it scores (rule: `docs/rules.md#promotion-on-scoring`).
    pub goal_promotion: Option<PieceKind>,
    /// Its letter (White's, uppercase) while it holds a carried ball.
    pub holder: Option<char>,
    /// The Betza string of its sprints, as written (empty: none).
    pub sprint_betza: String,
    /// Its sprints in White's frame: moves that are an action but not a move, to squares its
    /// moves do not reach (rule: `docs/rules.md#sprints-and-dribbles`).
    pub sprint: Vec<Leg>,
    /// Whether, holding a carried ball, it may dribble: jump over an enemy next to it onto the
    /// empty square just beyond, an action but not a move (rule:
    /// `docs/rules.md#sprints-and-dribbles`).
    pub dribble: bool,
    /// Whether its shots fly over every piece: no piece takes or stops them (rule:
    /// `docs/rules.md#interception`).
    pub lob: bool,
}

choice! {
    /// `hold` of a piece: how long it may keep a carried ball (rule:
    /// `docs/rules.md#the-keeper`).
    pub enum Hold {
        /// As long as it likes.
        default Any = "any",
        /// It may end one of its side's turns holding the ball, not two in a row: at the end of the second the ball is released beside it.
        OneTurn = "one-turn",
    }
}

choice! {
    /// `kick_mode` of a piece (default `kick.mode`): where a kicker stands and where the ball
    /// flies from (rule: `docs/rules.md#kick-modes`).
    pub enum KickMode {
        /// Next to the ball; the ball flies along the kicker-to-ball line, and by the kicker's
        /// leaps from the ball's square.
        default Beside = "beside",
        /// Next to the ball; the ball moves by the kicker's whole kick pattern from the ball's
        /// square, whichever side the kicker stands on.
        FromBall = "from-ball",
        /// The kicker steps onto the ball's square, as one of its moves, and must kick it from
        /// there by its pattern; the square it left counts as empty.
        Enter = "enter",
    }
}

choice! {
    /// `kick.enter`: how a kicker of mode `enter` reaches the ball (rule:
    /// `docs/rules.md#kick-modes`).
    pub enum EnterBy {
        /// From a square next to the ball, by a king's step.
        default Adjacent = "adjacent",
        /// By one of its own moves.
        Move = "move",
        /// A push: from a square next to the ball, by a king's step, and the ball goes on the
        /// same way, as far as the kicker's kick pattern reaches along that line.
        Push = "push",
    }
}

impl PieceType {
    /// Whether this piece may never stand on a goal square (`goals = "never"`).
    #[must_use]
    pub fn never_on_goals(&self) -> bool {
        self.goals == GoalAccess::Never
    }
}

choice! {
    /// `goals` of a piece: which goal squares it may stand on (rule: `docs/rules.md#zones`).
    pub enum GoalAccess {
        /// None.
        default Never = "never",
        /// Only by capturing a piece that stands there.
        Capture = "capture",
        /// Any.
        Always = "always",
        /// Only the enemy's goal squares, carrying the ball there: a goal.
        Holder = "holder",
    }
}

/// A piece's promotion (`[pieces.X.promotion]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The squares where it promotes, in White's frame (Black's mirrored).
    pub squares: SquareSet,
    /// The kinds it may become (the mover chooses).
    pub to: Vec<PieceKind>,
}

/// The ball's kick rules (`[kick]`; rule: `docs/rules.md#how-the-ball-moves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KickRules {
    /// How an entering kicker reaches the ball.
    pub enter: EnterBy,
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
    /// Whether a kick may end on a teammate, who must kick the ball on in the same turn (rule:
    /// `docs/rules.md#relays`).
    pub relay: bool,
}

impl KickRules {
    /// Whether a kick may not slide the ball along the goal's rank into the goal (the
    /// no-horizontal-goal rule).
    #[must_use]
    pub fn no_slide(&self) -> bool {
        self.goal_rank == GoalRank::NoSlide
    }

    /// Whether a kicker may send the ball both ways along its line (towards itself too).
    #[must_use]
    pub fn both_ways(&self) -> bool {
        self.direction == KickDirection::Line
    }
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
    /// The most piece moves in one turn.
    pub moves: u8,
    /// The most moves of one piece in one turn.
    pub moves_per_piece: u8,
    /// The most actions (moves, kicks, shots, passes, takes) in one turn; 0: no such limit.
    pub actions: u8,
    /// The most kicks in one turn; 0: no limit but `kick.per_piece`.
    pub kicks: u8,
    /// Whether moves and kicks may come in any order.
    pub order: Order,
    /// Whether a turn may end before its moves and kicks are used up.
    pub end_early: bool,
    /// The fewest piece moves (not sprints, dribbles, kicks or takes) a turn must make, as far
    /// as it can.
    pub min_moves: u8,
}

choice! {
    /// `turn.order`: whether moves and kicks may come in any order (rule:
    /// `docs/rules.md#turn-budgets`).
    pub enum Order {
        /// The piece moves first, then the kicks.
        default MoveFirst = "move-first",
        /// Moves and kicks in any order.
        Any = "any",
    }
}

choice! {
    /// `capture.mode`: whether pieces capture (rule: `docs/rules.md#captures`).
    pub enum Captures {
        /// Never: a piece moves only to empty squares.
        default None = "none",
        /// By replacement: a piece that moves onto an enemy removes it.
        Replace = "replace",
        /// Only the holder of a carried ball, by a piece that takes the ball with it (`ball.steal`
        /// "capture" or "both").
        Holder = "holder",
    }
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

choice! {
    /// `ball.mode`: whether the ball is kicked or carried (rule: `docs/rules.md#a-carried-ball`).
    pub enum BallMode {
        /// A free ball that pieces kick.
        default Kicked = "kicked",
        /// A ball that a piece holds and carries.
        Carried = "carried",
        /// No ball: a piece that ends its move on one of its side's goal squares scores.
        None = "none",
    }
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
    /// Where a holder robbed by a tackle goes.
    pub tackle_push: TacklePush,
    /// Whether a holder may capture.
    pub holder_captures: bool,
    /// Whether an in-place steal may be answered at once by the reverse steal.
    pub steal_back: bool,
    /// Whether a holder may shoot: kick the ball by its kick pattern from its square, to an
    /// empty square where it lies free, into a goal, or to a friend (a pass, with `pass`).
    pub shoot: bool,
    /// Whether a shot flies over friends and is taken by the first enemy on its way, which
    /// ends the turn (with `shoot`).
    pub intercept: bool,
    /// With `intercept`: whether a shot flies over friends (false: the first piece on its way
    /// takes it, a friend by a pass, an enemy by an interception).
    pub over_friends: bool,
    /// Whether the free ball blocks no ride: a piece whose ride passes over it picks it up and
    /// holds it where the ride ends.
    pub sweep: bool,
    /// Squares (White's; mirrored for Black) where a holder of the side that has just played,
    /// other than a goal piece, may not end the turn: the ball goes to the enemy goal piece.
    pub offside: SquareSet,
}

choice! {
    /// `ball.steal`: how a carried ball is taken from an enemy holder (rule:
    /// `docs/rules.md#a-carried-ball`).
    pub enum Steal {
        /// By capturing the holder, or in place (neither piece moves); the mover chooses.
        default Both = "both",
        /// By capturing the holder.
        Capture = "capture",
        /// In place: neither piece moves, the ball changes hands.
        InPlace = "in-place",
        /// An enemy holder cannot be robbed.
        None = "none",
        /// By a tackle: the robber moves onto the holder's square, taking the ball, and the holder is pushed one square on, away from it, onto an empty square.
        Tackle = "tackle",
    }
}

choice! {
    /// `ball.tackle_push`: where a holder robbed by a tackle goes (rule:
    /// `docs/rules.md#shots`).
    pub enum TacklePush {
        /// One square on, away from the tackler (diagonally after a knight's tackle).
        default On = "on",
        /// To the first empty square beside it, tried right, left, up, then down, as White sees the board; the square the tackler left counts as empty.
        Orthogonal = "orthogonal",
    }
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
    /// Whether a repetition ends the game or lets the side to move claim a draw.
    pub repetition_draw: RepetitionDraw,
    /// The number of turns after which the game ends (drawn, or won on goals in a match); 0 is
    /// no limit (rule: `docs/rules.md#the-turn-limit`).
    pub max_turns: u32,
    /// The goals (points) that win the game.
    pub goals: u32,
    /// What follows a point that does not win the game.
    pub after_goal: AfterGoal,
    /// Who moves after a point.
    pub next: NextAfterGoal,
    /// What happens to a side with no legal turn.
    pub no_moves: NoMoves,
    /// After a point that resets the board, the piece of the side to move that holds the ball
    /// (its White letter).
    pub serve: Option<char>,
}

choice! {
    /// `end.repetition_draw`: what a repetition does (rule: `docs/rules.md#repetition`).
    pub enum RepetitionDraw {
        /// The game is drawn at once.
        default Automatic = "automatic",
        /// The side to move may claim the draw, or play on.
        Claim = "claim",
    }
}

choice! {
    /// `end.after_goal`: what follows a point (rule: `docs/rules.md#matches`).
    pub enum AfterGoal {
        /// The game ends with the first point.
        default End = "end",
        /// Every piece and the ball return to the start position; the score stays.
        Reset = "reset",
        /// Only the ball returns to its start square (everything does, if a piece stands there).
        BallToSpot = "ball-to-spot",
    }
}

choice! {
    /// `end.next`: who moves after a point (rule: `docs/rules.md#matches`).
    pub enum NextAfterGoal {
        /// The other side, as after any turn.
        default Other = "other",
        /// The side that conceded the point.
        Conceding = "conceding",
    }
}

choice! {
    /// `end.no_moves`: what happens to a side with no legal turn (rule:
    /// `docs/rules.md#the-forced-pass`).
    pub enum NoMoves {
        /// The side passes (its only turn is the null turn).
        default Pass = "pass",
        /// The game is drawn.
        Draw = "draw",
    }
}

impl EndRules {
    /// Whether the game is a match of points with a score (and not over at the first goal).
    #[must_use]
    pub fn keeps_score(&self) -> bool {
        self.after_goal != AfterGoal::End
    }

    /// Whether a side with no legal turn draws the game (rather than passing).
    #[must_use]
    pub fn no_moves_draws(&self) -> bool {
        self.no_moves == NoMoves::Draw
    }

    /// Whether a repetition is drawn only when the side to move claims it (rather than at once).
    #[must_use]
    pub fn repetition_claimed(&self) -> bool {
        self.repetition_draw == RepetitionDraw::Claim
    }
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

/// The arrangement stage before play (`[arrangement]`; rule:
/// `docs/rules.md#the-arrangement-stage`): each side moves each of its pieces once, in turns,
/// to an empty square of `squares`, without captures and without touching the ball.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// Where a piece may end its arrangement move, in White's frame (Black's mirrored).
    pub squares: SquareSet,
}

/// The placement stage before play (`[placement]`; rule: `docs/rules.md#the-placement-stage`):
/// each side places pieces from its hand, one a turn, on empty squares of `squares`. A draft
/// where `count` is less than the hand: the pieces not placed stay out of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementStage {
    /// The hand each side places from (White's letters; Black's the same pieces), in the
    /// order written.
    pub pieces: Vec<PieceKind>,
    /// How many of them each side places.
    pub count: usize,
    /// Where a piece may be placed, in White's frame (Black's mirrored).
    pub squares: SquareSet,
}

/// A side's hand in a position is kept as bits of [`PlacementStage::pieces`] (bit `i`: the
/// `i`-th piece written is still in hand), 0 once the side has placed all it places. A kind's
/// copies in hand are its first ones as written, so that one hand has one value.
impl PlacementStage {
    /// The bits of the whole hand, before anything is placed.
    #[must_use]
    pub fn whole_hand(&self) -> u32 {
        u32::try_from((1u64 << self.pieces.len()) - 1).unwrap_or(u32::MAX)
    }

    /// The pieces still in the hand `bits`, with their places in the hand, in its order.
    pub fn held(
        &self,
        bits: u32,
    ) -> impl DoubleEndedIterator<Item = (usize, PieceKind)> + Clone + '_ {
        self.pieces.iter().copied().enumerate().filter(move |&(i, _)| bits >> i & 1 == 1)
    }

    /// How many pieces a side whose hand is `bits` has still to place.
    #[must_use]
    pub fn left_to_place(&self, bits: u32) -> usize {
        if bits == 0 {
            return 0;
        }
        let placed = self.pieces.len() - bits.count_ones() as usize;
        self.count.saturating_sub(placed)
    }

    /// The hand `bits` after placing a piece of `kind` (its last copy in hand leaves it), and
    /// empty once the side has placed all it places; none if the hand holds no `kind`.
    #[must_use]
    pub fn after_placing(&self, bits: u32, kind: PieceKind) -> Option<u32> {
        let (i, _) = self.held(bits).rev().find(|&(_, k)| k == kind)?;
        let left = bits & !(1 << i);
        Some(if self.left_to_place(left) == 0 { 0 } else { left })
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
    /// The squares the ball may start on, one per setup (in board order); empty: where
    /// `setup.fen` puts it.
    pub balls: Vec<Square>,
}

impl RandomSetup {
    /// Whether Black's arrangement is drawn separately from White's (rather than mirrored).
    #[must_use]
    pub fn black_independent(&self) -> bool {
        self.black == BlackSetup::Independent
    }
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
    pub(crate) ball: BallRules,
    pub(crate) capture: Captures,
    pub(crate) setup_fen: String,
    /// The start position (`setup.fen`), checked once.
    pub(crate) start: Placement,
    pub(crate) random: Option<RandomSetup>,
    pub(crate) arrangement: Option<Arrangement>,
    pub(crate) placing: Option<PlacementStage>,
    pub(crate) kick: KickRules,
    pub(crate) turn: TurnRules,
    pub(crate) end: EndRules,
    /// Lookup tables for turn generation, derived from the fields above.
    pub(crate) tables: Arc<Tables>,
}

impl Rules {
    /// Makes the texts of the definition that commands print (the variant's name, credits and
    /// description, the pieces' names) printable ([`crate::text::printable`]): done once when a
    /// command loads a definition, so that every printer of them (explain, play, show, match, the
    /// messages about positions) is safe.
    pub fn make_printable(&mut self) {
        use std::borrow::Cow;
        let printable = crate::text::printable;
        let info = &mut self.info;
        for text in [&mut info.name].into_iter().chain(
            [&mut info.author, &mut info.description, &mut info.source].into_iter().flatten(),
        ) {
            if let Cow::Owned(safe) = printable(text) {
                *text = safe;
            }
        }
        for piece in &mut self.pieces {
            if let Cow::Owned(safe) = printable(&piece.name) {
                piece.name = safe;
            }
        }
    }

    /// The variant's name and credits.
    #[must_use]
    pub fn info(&self) -> &VariantInfo {
        &self.info
    }

    /// About how many bytes the rules take in memory: their lookup tables, which grow with
    /// the board, the kinds of pieces and the reach of their moves and kicks (a few kilobytes
    /// for Boyer's game, tens of megabytes for a 16x24 board of riders).
    #[must_use]
    pub fn memory(&self) -> usize {
        let pieces: usize = self
            .pieces
            .iter()
            .map(|p| {
                p.name.len()
                    + p.moves_betza.len()
                    + p.kick_betza.len()
                    + (p.moves.len() + p.kicks.len()) * std::mem::size_of::<Leg>()
            })
            .sum();
        self.tables.bytes() + pieces + self.setup_fen.len() + std::mem::size_of::<Rules>()
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

    /// Whether the board has goal squares (without them, pieces are the goals: `target`).
    #[must_use]
    pub fn has_goal_squares(&self) -> bool {
        Side::ALL.into_iter().any(|s| !self.goals[s].is_empty())
    }

    /// Which side scores when the ball stops on `square`, if it is a goal square.
    #[must_use]
    pub fn scorer(&self, square: Square) -> Option<Side> {
        Side::ALL.into_iter().find(|&s| self.goals[s].contains(&square))
    }

    /// Whether a `side` piece of type `kind` may stand on `square` at all: the square is on the
    /// board, and the piece's goal access and zone allow it (a piece that enters goals only by
    /// capturing may stand on one, having captured there).
    #[must_use]
    pub fn may_stand(&self, side: Side, kind: PieceKind, square: Square) -> bool {
        let piece = self.piece(kind);
        if !self.board().contains(square) {
            return false;
        }
        if self.barred_from_goal(side, piece, square) {
            return false;
        }
        let own = if side == Side::White { square } else { self.board().mirror(square) };
        piece.zone.is_none_or(|zone| zone.contains(own))
    }

    /// Whether `square` is a goal square a `side` piece like `piece` never stands on: any goal
    /// for `goals = "never"`, any but its side's scoring goal for `goals = "holder"` (which it
    /// enters only carrying the ball).
    #[must_use]
    pub fn barred_from_goal(&self, side: Side, piece: &PieceType, square: Square) -> bool {
        self.scorer(square).is_some()
            && match piece.goals {
                GoalAccess::Never => true,
                GoalAccess::Holder => !self.goals(side).contains(&square),
                GoalAccess::Capture | GoalAccess::Always => false,
            }
    }

    /// Every piece type; [`PieceKind`] indexes it.
    #[must_use]
    pub fn pieces(&self) -> &[PieceType] {
        &self.pieces
    }

    /// Every piece kind, in the order of [`Rules::pieces`].
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + use<> {
        (0..self.pieces.len()).map(|i| PieceKind(i as u8))
    }

    /// One piece type (`kind` must be one of these rules' [`Rules::kinds`]).
    #[must_use]
    pub fn piece(&self, kind: PieceKind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    /// Whether a piece is a keeper (`hold = "one-turn"` or `backpass = false`): positions then
    /// keep the keepers' state (rule: `docs/rules.md#the-keeper`).
    #[must_use]
    pub fn has_keepers(&self) -> bool {
        self.pieces.iter().any(|p| p.hold != Hold::Any || !p.backpass)
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

    /// How pieces capture, if they do.
    #[must_use]
    pub fn captures(&self) -> Captures {
        self.capture
    }

    /// Whether any piece may capture.
    #[must_use]
    pub fn has_captures(&self) -> bool {
        self.capture != Captures::None
    }

    /// Whether the ball is held and carried by a piece (`ball.mode = "carried"`)
    /// rather than free and kicked.
    #[must_use]
    pub fn carried_ball(&self) -> bool {
        self.ball.mode == BallMode::Carried
    }

    /// Whether some piece tackles (`tackle = true`): positions then keep the last turn's tackle.
    #[must_use]
    pub fn has_tacklers(&self) -> bool {
        self.pieces.iter().any(|p| p.tackle)
    }

    /// Whether the game has a ball at all (`ball.mode` is not `"none"`); without one, a piece
    /// that reaches one of its side's goal squares scores (rule: `docs/rules.md#a-game-without-a-ball`).
    #[must_use]
    pub fn has_ball(&self) -> bool {
        self.ball.mode != BallMode::None
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

    /// Whether the rules read the same in a mirror held along the files ([`Board::reflect`]):
    /// the board, the goals, the ball's forbidden squares, and every piece's moves, kicks,
    /// zone and promotion squares are their own mirror images. Then a position and its
    /// mirror image have the same turns, mirrored, and the same forced goals. (Nothing else
    /// in the rules has a left or a right; the colours of squares only guide random setups.)
    #[must_use]
    pub fn reflects(&self) -> bool {
        let board = self.board;
        let same = |set: SquareSet| board.reflect_set(set) == set;
        let legs_same = |legs: &[Leg]| {
            legs.iter().all(|leg| {
                let image = Leg { step: (-leg.step.0, leg.step.1), ..*leg };
                legs.contains(&image)
            })
        };
        same(board.holes)
            && Side::ALL.iter().all(|&side| same(self.goals[side].iter().copied().collect()))
            && same(self.ball.forbidden)
            && self.pieces.iter().all(|piece| {
                legs_same(&piece.moves)
                    && legs_same(&piece.kicks)
                    && piece.zone.is_none_or(same)
                    && piece.promotion.as_ref().is_none_or(|p| same(p.squares))
            })
    }

    /// The random setup, if the variant has one.
    #[must_use]
    pub fn random_setup(&self) -> Option<&RandomSetup> {
        self.random.as_ref()
    }

    /// The arrangement stage before play, if the variant has one.
    #[must_use]
    pub fn arrangement(&self) -> Option<&Arrangement> {
        self.arrangement.as_ref()
    }

    /// The placement stage before play, if the variant has one.
    #[must_use]
    pub fn placement_stage(&self) -> Option<&PlacementStage> {
        self.placing.as_ref()
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

    /// For measurement and tests only (`benches/walkers.rs`, `movegen::agree`): the same rules,
    /// their turns walked action by action (`movegen::general`) even within Boyer's family,
    /// where the walk of whole kick chains (`movegen::chains`) would be used. The evaluation is
    /// left as it is.
    #[doc(hidden)]
    #[must_use]
    pub fn with_general_walker(&self) -> Rules {
        Rules { tables: Arc::new(self.tables.without_chains()), ..self.clone() }
    }
}
