//! The stable codes of diagnostics: one per kind of mistake, shown in text (`error[E0201]`) and
//! JSON (`"code": "E0201"`), each explained with an example and its fix in
//! `docs/diagnostics.md`.
//!
//! A code never changes meaning once published: a new kind of mistake gets a new code. `E01xx`
//! are TOML syntax, `E02xx` the format's keys, `E03xx` values the rules refuse, `E04xx`
//! `extends`, `E05xx` positions and records given on the command line, `E09xx` kickoff's own
//! bugs; `W01xx` are warnings found while reading, `W02xx` the lint's, `W03xx` those of
//! `validate --simulate`.

use std::fmt;

use serde::Serialize;

use crate::definition::diagnostic::Severity;
use crate::notation::betza::ProblemKind;

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $name:ident = $text:literal,)*) => {
        /// The stable code of a kind of diagnostic.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[doc = $doc])* $name,)*
        }

        impl Code {
            /// Every code, in the order of `docs/diagnostics.md`.
            pub const ALL: &[Code] = &[$(Code::$name,)*];

            /// The code as written: `E0201`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    /// TOML syntax.
    Syntax = "E0101",
    /// Text where a value belongs, without quotes.
    Unquoted = "E0102",
    /// A key or a table written twice.
    Duplicate = "E0103",
    /// A key the format does not have.
    UnknownKey = "E0201",
    /// A required key is missing.
    MissingKey = "E0202",
    /// A required table is missing.
    MissingTable = "E0203",
    /// A value of the wrong type.
    WrongType = "E0204",
    /// A number out of its range.
    OutOfRange = "E0205",
    /// A word that is none of a key's values.
    NotAChoice = "E0206",
    /// A piece table not named by one uppercase letter.
    BadPieceLetter = "E0207",
    /// A `[pieces]` table with no piece.
    NoPieces = "E0208",
    /// A Betza pattern (`moves`, `kick`) its grammar refuses.
    BadBetza = "E0301",
    /// A square list (goals, zones, promotion squares) its grammar or the board refuses.
    BadSquares = "E0302",
    /// A start position (`setup.fen`) its grammar or the rules refuse.
    BadStartPosition = "E0303",
    /// More piece types than kickoff handles.
    TooManyPieces = "E0304",
    /// A holder letter that is not one uppercase letter.
    BadHolder = "E0305",
    /// Promotion squares without `promote_to`.
    NoPromotion = "E0306",
    /// A letter that names no piece of the variant.
    UnknownPiece = "E0307",
    /// A ball symbol that is not one ASCII letter.
    BadBallSymbol = "E0308",
    /// A ball symbol that is also a piece letter.
    BallSymbolClash = "E0309",
    /// A square that is a goal of both sides.
    SharedGoal = "E0310",
    /// `end.repetition = 1`.
    InstantRepetition = "E0311",
    /// `end` settings under which a match cannot be won or never ends.
    BadMatchEnd = "E0312",
    /// A carried ball, but no piece of a side may stand on its goal.
    NoHolderOnGoal = "E0313",
    /// The start position has the ball on a goal.
    StartOnGoal = "E0314",
    /// The ball starts on a square of the random setup.
    BallOnRandomSquare = "E0315",
    /// Random setup squares that break the mirror rule.
    BadRandomSetup = "E0316",
    /// A random setup with as many pieces as squares missing.
    RandomCount = "E0317",
    /// A random setup with too many squares.
    RandomTooLarge = "E0318",
    /// A random setup whose colour constraints cannot be met.
    RandomColours = "E0319",
    /// A piece that kicks by entering the ball's square with an empty kick pattern.
    EnterWithoutKick = "E0320",
    /// A royal piece where nothing is captured.
    RoyalWithoutCaptures = "E0321",
    /// Promotion squares the piece may never stand on.
    PromotionOutOfReach = "E0322",
    /// A carried ball's key on a kicked ball.
    CarriedKeyOnKickedBall = "E0323",
    /// Relays (`kick.relay`) with a carried ball.
    RelayWithCarriedBall = "E0324",
    /// A rule of the ball in a game without a ball (`ball.mode = "none"`).
    BallRuleWithoutBall = "E0325",
    /// A placement stage that cannot be played as written.
    BadPlacementStage = "E0326",
    /// A turn budget that contradicts itself (a piece's moves above the turn's).
    BadTurnBudget = "E0327",
    /// Interception (`ball.intercept`) without shots to intercept.
    InterceptWithoutShots = "E0328",
    /// A goal piece (`target`) that no shot can score on.
    TargetCannotScore = "E0329",
    /// A hopper (`p`, `g`) in a Betza pattern.
    BetzaHopper = "E0330",
    /// `n` (lame) on a leap with no straight line of squares to block.
    BetzaLame = "E0331",
    /// A move of several legs (`a`, `t`) in a Betza pattern.
    BetzaMultiLeg = "E0332",
    /// XBetza's jumping modifier `j`.
    BetzaJump = "E0333",
    /// A cylinder move (`o`).
    BetzaCylinder = "E0334",
    /// A crooked (`z`) or circular (`q`) slide.
    BetzaCrooked = "E0335",
    /// A letter or a character that is no part of kickoff's Betza.
    BetzaUnknown = "E0336",
    /// Modifiers written after their atom (`Nf`).
    BetzaModifierAfterAtom = "E0337",
    /// A bracket or an operator of extended Betza.
    BetzaBracket = "E0338",
    /// A space inside a Betza pattern.
    BetzaSpace = "E0339",
    /// `ball.tackle_push` where no holder is robbed by a tackle.
    TacklePushWithoutTackle = "E0340",
    /// `ball.offside` where no piece is a goal to take the ball.
    OffsideWithoutTarget = "E0341",
    /// `end.serve` where no goal resets the board of a carried-ball game.
    ServeWithoutReset = "E0342",
    /// A keeper's rule (`hold`, `backpass`) where no ball is carried.
    KeeperWithoutCarriedBall = "E0343",
    /// A sprint or a dribble (an action that is not a move) where no action points count them.
    SpecialWithoutActionPoints = "E0344",
    /// An `extends` that names nothing kickoff can read.
    BadParent = "E0401",
    /// `extends` forms a cycle.
    ExtendsCycle = "E0402",
    /// An `extends` chain too long.
    ExtendsTooDeep = "E0403",
    /// A parent file that cannot be read.
    UnreadableParent = "E0404",
    /// Inherited squares that do not fit the board a nearer file resized.
    InheritedSquares = "E0405",
    /// An inherited start position that does not fit the board a nearer file resized.
    InheritedPosition = "E0406",
    /// Two pieces with the same holder letter.
    SharedHolder = "E0407",
    /// A holder letter that is also a piece's letter.
    HolderIsPiece = "E0408",
    /// A holder letter that is also the ball's symbol.
    HolderIsBall = "E0409",
    /// A position text (`--fen`) the rules refuse.
    BadPosition = "E0501",
    /// A game record that breaks.
    BadRecord = "E0502",
    /// A key the checks passed but kickoff cannot read: a bug of kickoff.
    Internal = "E0901",
    /// A piece that has no move at all on its board.
    NoMoves = "W0101",
    /// A piece removed that no parent definition has.
    NothingToRemove = "W0102",
    /// A Betza group whose moves the other groups already give.
    BetzaRepeatedGroup = "W0103",
    /// A Betza direction whose moves the group's earlier directions already give.
    BetzaRepeatedDirection = "W0104",
    /// Betza directions that a shorter spelling says.
    BetzaLongDirections = "W0105",
    /// Capturing Betza moves (`c`, `e`) where nothing is ever captured.
    BetzaNeverCaptures = "W0106",
    /// `m` where every move already goes to an empty square.
    BetzaIdleMoveOnly = "W0107",
    /// A modality (`m c i n e`) in a kick pattern, where it does nothing.
    BetzaKickModality = "W0108",
    /// `end.repetition_draw = "claim"` with repetition draws off.
    ClaimWithoutRepetition = "W0110",
    /// Promotion squares on a piece's own side.
    PromotionAtHome = "W0111",
    /// En passant where no piece has a double step.
    EnPassantWithoutDoubleStep = "W0112",
    /// White's random squares in Black's half.
    RandomSquaresAcross = "W0113",
    /// A goal no kick can ever reach.
    UnreachableGoal = "W0201",
    /// A side that can only pass at the start.
    ForcedPassAtStart = "W0202",
    /// A position with more turns than kickoff lists.
    TooManyTurns = "W0203",
    /// A goal square inside the board, not on its edge.
    InnerGoal = "W0204",
    /// A piece type that no position of the variant ever holds.
    UnplacedPiece = "W0205",
    /// Random setup pieces other than those the start position has on their squares.
    RandomMaterial = "W0206",
    /// A carried ball stolen by capture where nothing is captured.
    StealWithoutCaptures = "W0207",
    /// The ball forbidden on its own start square.
    BallForbiddenAtStart = "W0208",
    /// A side's goal in its own half.
    GoalsSwapped = "W0209",
    /// Random games reached positions with too many turns.
    SimulationExploded = "W0301",
    /// Random games that did not end.
    SimulationEndless = "W0302",
    /// A side had to pass in a random game.
    SimulationStuck = "W0303",
    /// A goal never scored in random games.
    SimulationNoGoal = "W0304",
    /// A side never kicked in random games.
    SimulationNoKick = "W0305",
    /// Random games stopped by kickoff's bounds before their end.
    SimulationStopped = "W0306",
}

impl Code {
    /// Whether diagnostics of this code are errors (`E`) or warnings (`W`).
    #[must_use]
    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('W') { Severity::Warning } else { Severity::Error }
    }
}

impl From<ProblemKind> for Code {
    fn from(kind: ProblemKind) -> Code {
        match kind {
            ProblemKind::Malformed => Code::BadBetza,
            ProblemKind::Hopper => Code::BetzaHopper,
            ProblemKind::Lame => Code::BetzaLame,
            ProblemKind::MultiLeg => Code::BetzaMultiLeg,
            ProblemKind::Jump => Code::BetzaJump,
            ProblemKind::Cylinder => Code::BetzaCylinder,
            ProblemKind::Crooked => Code::BetzaCrooked,
            ProblemKind::Unknown => Code::BetzaUnknown,
            ProblemKind::ModifierAfterAtom => Code::BetzaModifierAfterAtom,
            ProblemKind::Bracket => Code::BetzaBracket,
            ProblemKind::Space => Code::BetzaSpace,
            ProblemKind::RepeatedGroup => Code::BetzaRepeatedGroup,
            ProblemKind::RepeatedDirection => Code::BetzaRepeatedDirection,
            ProblemKind::LongDirections => Code::BetzaLongDirections,
            ProblemKind::NeverCaptures => Code::BetzaNeverCaptures,
            ProblemKind::IdleMoveOnly => Code::BetzaIdleMoveOnly,
            ProblemKind::KickModality => Code::BetzaKickModality,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "{text} twice");
            assert_eq!(text.len(), 5, "{text}");
            assert!(text.starts_with('E') || text.starts_with('W'), "{text}");
            assert!(text[1..].bytes().all(|b| b.is_ascii_digit()), "{text}");
        }
    }
}
