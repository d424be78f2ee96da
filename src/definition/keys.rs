//! Every key of the definition format, written once: its type, whether it is required, its
//! default, one sentence for authors and the section of `docs/rules.md` that states its rule.
//!
//! This table drives the checks of every file ([`crate::definition::schema`]), the defaults the
//! compiler reads, the JSON Schema that `kickoff schema` prints, the key tables of README.md
//! and `docs/rules.md` (`tests/docs.rs` compares them with [`markdown_table`]), and which walk
//! generates a definition's turns ([`Family`], [`in_boyers_family`]). To add a key, add one
//! line here, with the values of it that keep a definition within Boyer's family, read it in
//! `compile/` (in the file of its part), follow it in the turn generator (`movegen::step`, and
//! `movegen::chains` too for values within the family) and state its rule in `docs/rules.md`;
//! to add a value to an enum-valued key, add it to its enum in `src/rules/` (declared with
//! `choice!`).

use crate::definition::tree::{Table, Value};
use crate::rules::{
    AfterGoal, BallMode, BlackSetup, Captures, Choice, EnterBy, GoalAccess, GoalRank, Hold,
    KickDirection, KickMode, NextAfterGoal, NoMoves, NullTurn, Order, OwnGoal, RepetitionDraw,
    SquareColour, Steal, TacklePush,
};

/// One key of a table.
#[derive(Debug)]
pub(crate) struct Key {
    /// The key as written.
    pub name: &'static str,
    /// What its value must be.
    pub ty: Ty,
    /// Whether it must be given, and what stands for it when it is not.
    pub given: Given,
    /// One sentence for authors.
    pub doc: &'static str,
    /// The heading of `docs/rules.md` that states its rule, as an anchor (`backward-kicks`).
    pub rule: &'static str,
    /// Which of its values keep a definition within Boyer's family (a table's keys say it
    /// for the table).
    pub family: Family,
}

/// Which values of a key keep a definition within Boyer's family: the rules whose turns the
/// walk of whole kick chains (`movegen::chains`) generates, five to nine times faster than the
/// walk action by action (`movegen::general`) that every definition can take. Only
/// [`in_boyers_family`] reads these declarations, and nothing else decides which walk a
/// definition gets; the tests of `movegen::agree` give every key each of its values (samples
/// of strings and ranges) and check that the definition either leaves the family or has the
/// same turns under both walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// Every value: both walks follow the key's rule, or the key does not change what a turn
    /// may be.
    Any,
    /// Its default alone: for a key whose default is another key's value (a piece's
    /// `kick_mode`), the default of its choices; for a key without a default, leaving it out.
    /// Any other value is followed by the walk action by action alone.
    Default,
    /// Betza whose groups have none of the modalities `m c i n e`.
    PlainBetza,
}

impl Key {
    /// The one value of a key of [`Family::Default`] that keeps a definition within Boyer's
    /// family: its default; for a choice that defaults to another key's value, the default of
    /// its choices; none for a key without a default (leaving it out is what keeps it there).
    pub(crate) fn family_default(&self) -> Option<Literal<'static>> {
        match (&self.given, &self.ty) {
            (Given::Default(literal), _) => Some(*literal),
            (_, Ty::Choice(choices)) => choices.names.first().map(|&n| Literal::Str(n)),
            _ => None,
        }
    }
}

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Ty {
    /// A string; the text says which language it is in (for the schema's descriptions).
    Str(&'static str),
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A boolean.
    Bool,
    /// One of the names of a [`Choice`] enum.
    Choice(Choices),
    /// A table with these keys.
    Table(&'static [Key]),
    /// Tables named by one uppercase letter, each with these keys.
    Pieces(&'static [Key]),
}

/// The values of an enum-valued key, read from its [`Choice`] enum.
#[derive(Debug)]
pub(crate) struct Choices {
    /// The names, the default first.
    pub names: &'static [&'static str],
    /// What each means, as its doc comment says it (with the comment's leading space).
    pub meanings: &'static [&'static str],
}

/// Whether a key must be given, and what stands for it when it is not.
#[derive(Debug)]
pub(crate) enum Given {
    /// A complete definition (after `extends`) must give it.
    Required,
    /// Required unless a piece is its side's goal (`target`): the goal squares.
    UnlessTarget,
    /// It may be left out, and then there is none.
    Optional,
    /// It may be left out, and then it has this value.
    Default(Literal<'static>),
    /// It may be left out, and then it is another value of the definition, said in words.
    Like(&'static str),
}

/// A scalar value: a default of the table, or a value of a definition after the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Literal<'a> {
    /// An integer.
    Int(i128),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(&'a str),
}

impl<'a> Literal<'a> {
    /// The scalar a definition's value holds, if it is one.
    pub fn of(value: &'a Value) -> Option<Literal<'a>> {
        match value {
            Value::Integer(n) => Some(Literal::Int(*n)),
            Value::Boolean(b) => Some(Literal::Bool(*b)),
            Value::String(s) => Some(Literal::Str(s)),
            _ => None,
        }
    }
}

/// A type that the compiler reads a key's checked value into.
pub(crate) trait FromKey: Sized {
    /// The value, or none if the literal is not one (a bug: the checks refuse such values).
    fn from_literal(literal: Literal<'_>) -> Option<Self>;
}

impl FromKey for bool {
    fn from_literal(literal: Literal<'_>) -> Option<Self> {
        match literal {
            Literal::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// Integers: the checks have kept the value within the key's range.
macro_rules! from_key_int {
    ($($t:ty),*) => {$(
        impl FromKey for $t {
            fn from_literal(literal: Literal<'_>) -> Option<Self> {
                match literal {
                    Literal::Int(n) => <$t>::try_from(n).ok(),
                    _ => None,
                }
            }
        }
    )*};
}

from_key_int!(u8, u32, i64);

impl<C: Choice> FromKey for C {
    fn from_literal(literal: Literal<'_>) -> Option<Self> {
        match literal {
            Literal::Str(name) => C::from_name(name),
            _ => None,
        }
    }
}

const fn required(
    name: &'static str,
    ty: Ty,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    Key { name, ty, given: Given::Required, doc, rule, family }
}

const fn optional(
    name: &'static str,
    ty: Ty,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    Key { name, ty, given: Given::Optional, doc, rule, family }
}

const fn int(
    name: &'static str,
    (min, max): (i64, i64),
    default: i64,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    let given = Given::Default(Literal::Int(default as i128));
    Key { name, ty: Ty::Int { min, max }, given, doc, rule, family }
}

const fn flag(
    name: &'static str,
    default: bool,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    Key { name, ty: Ty::Bool, given: Given::Default(Literal::Bool(default)), doc, rule, family }
}

const fn text(
    name: &'static str,
    language: &'static str,
    default: &'static str,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    let given = Given::Default(Literal::Str(default));
    Key { name, ty: Ty::Str(language), given, doc, rule, family }
}

/// A key whose values are those of the [`Choice`] enum `C`, with its default.
const fn choice<C: Choice>(
    name: &'static str,
    doc: &'static str,
    rule: &'static str,
    family: Family,
) -> Key {
    Key {
        name,
        ty: Ty::Choice(Choices { names: C::NAMES, meanings: C::MEANINGS }),
        given: Given::Default(Literal::Str(C::DEFAULT_NAME)),
        doc,
        rule,
        family,
    }
}

/// The keys of `[variant]` that credit one file: a file that extends another does not inherit
/// them from it (rule: `docs/rules.md#extends`).
pub(crate) const CREDITS: &[&str] = &["author", "year", "description", "source"];

const VARIANT: &[Key] = &[
    required("name", Ty::Str("text"), "The variant's name.", "definition-files", Family::Any),
    optional(
        "author",
        Ty::Str("text"),
        "Its inventor or author; not inherited.",
        "definition-files",
        Family::Any,
    ),
    optional(
        "year",
        Ty::Int { min: -9999, max: 9999 },
        "The year it was published; not inherited.",
        "definition-files",
        Family::Any,
    ),
    optional(
        "description",
        Ty::Str("text"),
        "A short description; not inherited.",
        "definition-files",
        Family::Any,
    ),
    optional(
        "source",
        Ty::Str("URL"),
        "Where its rules come from; not inherited.",
        "definition-files",
        Family::Any,
    ),
];

const BOARD: &[Key] = &[
    required(
        "files",
        Ty::Int { min: 2, max: 16 },
        "Number of files (columns).",
        "the-board-and-the-goals",
        Family::Any,
    ),
    required(
        "ranks",
        Ty::Int { min: 2, max: 24 },
        "Number of ranks (rows).",
        "the-board-and-the-goals",
        Family::Any,
    ),
    choice::<SquareColour>("a1", "The colour of a1.", "the-board-and-the-goals", Family::Any),
    optional(
        "holes",
        Ty::Str("squares"),
        "Squares of the rectangle that do not exist, e.g. \"a1-c1 g1-i1\".",
        "holes",
        Family::Default,
    ),
];

const GOALS: &[Key] = &[
    Key {
        name: "white",
        ty: Ty::Str("squares"),
        given: Given::UnlessTarget,
        doc: "The squares White must bring the ball to, e.g. \"e9\" or \"d9-f9\".",
        rule: "the-board-and-the-goals",
        family: Family::Any,
    },
    Key {
        name: "black",
        ty: Ty::Str("squares"),
        given: Given::UnlessTarget,
        doc: "The squares Black must bring the ball to.",
        rule: "the-board-and-the-goals",
        family: Family::Any,
    },
    flag(
        "inner",
        false,
        "Whether goal squares inside the board, off its edge, are meant (no warning then).",
        "the-board-and-the-goals",
        Family::Any,
    ),
];

const PIECE: &[Key] = &[
    required(
        "name",
        Ty::Str("text"),
        "The piece's name, e.g. \"knight\".",
        "definition-files",
        Family::Any,
    ),
    required(
        "moves",
        Ty::Str("Betza"),
        "How it moves, in Betza notation, e.g. \"N\" or \"fsW\".",
        "piece-moves",
        Family::PlainBetza,
    ),
    Key {
        name: "kick",
        ty: Ty::Str("Betza"),
        given: Given::Like("its `moves`"),
        doc: "How it kicks the ball, in Betza notation; default: the same as its moves.",
        rule: "what-a-kicker-may-do",
        family: Family::PlainBetza,
    },
    flag(
        "corner_jump",
        false,
        "Whether, stuck in a corner with no move, it may jump over its neighbour along a slide.",
        "corner-jumps",
        Family::Any,
    ),
    flag(
        "jump",
        false,
        "Whether it may also jump over a piece or the ball next to it to the empty square beyond.",
        "jumps",
        Family::Default,
    ),
    flag(
        "tackle",
        false,
        "Whether its step onto an enemy next to it is a tackle that pushes the enemy one square on.",
        "tackles",
        Family::Default,
    ),
    flag(
        "removed",
        false,
        "In a file that extends another: drop this inherited piece.",
        "extends",
        Family::Any,
    ),
    Key {
        name: "kick_mode",
        ty: Ty::Choice(Choices { names: KickMode::NAMES, meanings: KickMode::MEANINGS }),
        given: Given::Like("`kick.mode`"),
        doc: "How this piece kicks the ball.",
        rule: "kick-modes",
        family: Family::Default,
    },
    optional(
        "zone",
        Ty::Str("squares"),
        "The squares it may stand on, in White's frame (Black's mirrored); default: all.",
        "zones",
        Family::Default,
    ),
    optional(
        "place",
        Ty::Str("squares"),
        "Where a placement stage may place it, in White's frame (Black's mirrored), within `placement.squares`, e.g. a king kept to its box; default: any of them.",
        "the-placement-stage",
        Family::Default,
    ),
    choice::<GoalAccess>("goals", "Which goal squares it may stand on.", "zones", Family::Default),
    flag(
        "royal",
        false,
        "Whether capturing it scores a point for the capturer.",
        "captures",
        Family::Default,
    ),
    flag(
        "target",
        false,
        "Whether it is its side's goal, wherever it stands: an enemy shot that reaches it scores (with `ball.shoot` and `ball.intercept`).",
        "interception",
        Family::Default,
    ),
    choice::<Hold>(
        "hold",
        "Carried ball: how long it may keep the ball.",
        "the-keeper",
        Family::Default,
    ),
    flag(
        "backpass",
        true,
        "Carried ball: whether its teammates may pass it the ball back after it gave it up (false: not until an enemy has held the ball).",
        "the-keeper",
        Family::Default,
    ),
    optional(
        "promotion",
        Ty::Str("squares"),
        "The squares where it promotes, in White's frame (Black's mirrored).",
        "promotion",
        Family::Default,
    ),
    optional(
        "promote_to",
        Ty::Str("letters"),
        "What it may become on its promotion squares, e.g. \"Q\" or \"QRBN\".",
        "promotion",
        Family::Any,
    ),
    optional(
        "goal_promotion",
        Ty::Str("letter"),
        "What it becomes when it scores, e.g. \"S\"; a reset after the goal keeps it so.",
        "promotion-on-scoring",
        Family::Default,
    ),
    optional(
        "holder",
        Ty::Str("letter"),
        "Its letter in positions while it holds a carried ball, e.g. \"S\".",
        "a-carried-ball",
        Family::Default,
    ),
    optional(
        "sprint",
        Ty::Str("Betza"),
        "Its sprints, in Betza notation, e.g. \"fW4\": moves to squares its moves do not reach, each an action but not a move; needs `turn.actions`.",
        "sprints-and-dribbles",
        Family::Default,
    ),
    flag(
        "dribble",
        false,
        "Carried ball: whether, holding it, it may jump over an enemy next to it onto the empty square just beyond, an action but not a move; needs `turn.actions`.",
        "sprints-and-dribbles",
        Family::Default,
    ),
    flag(
        "lob",
        false,
        "Carried ball with shots: whether its shots fly over every piece, none taking or stopping them.",
        "interception",
        Family::Default,
    ),
];

const BALL: &[Key] = &[
    text("symbol", "letter", "a", "The ball's letter in positions.", "positions", Family::Any),
    choice::<BallMode>(
        "mode",
        "Whether the ball is kicked or carried, or there is none.",
        "a-carried-ball",
        Family::Default,
    ),
    optional(
        "forbidden",
        Ty::Str("squares"),
        "Squares the ball may not stop on.",
        "zones",
        Family::Default,
    ),
    flag(
        "pass",
        true,
        "Carried ball: a holder may give it to a friend it could capture.",
        "a-carried-ball",
        Family::Default,
    ),
    flag(
        "take_from_friend",
        true,
        "Carried ball: a piece may take it from a friend it could capture.",
        "a-carried-ball",
        Family::Default,
    ),
    choice::<Steal>(
        "steal",
        "Carried ball: how it is taken from an enemy holder.",
        "a-carried-ball",
        Family::Default,
    ),
    choice::<TacklePush>(
        "tackle_push",
        "Carried ball, stolen by a tackle (`steal = \"tackle\"`): where the robbed holder goes.",
        "shots",
        Family::Default,
    ),
    flag(
        "holder_captures",
        false,
        "Carried ball: whether its holder may capture.",
        "a-carried-ball",
        Family::Default,
    ),
    flag(
        "steal_back",
        false,
        "Carried ball: whether an in-place steal may be reversed at once.",
        "a-carried-ball",
        Family::Default,
    ),
    flag(
        "shoot",
        false,
        "Carried ball: whether a holder may kick it by its kick pattern, to an empty square, a goal or (with `pass`) a friend.",
        "shots",
        Family::Default,
    ),
    flag(
        "intercept",
        false,
        "Carried ball with shots: whether a shot flies over friends, and the first enemy on its way takes the ball, ending the turn.",
        "interception",
        Family::Default,
    ),
    flag(
        "over_friends",
        true,
        "Carried ball with `intercept`: whether a shot flies over friends (false: the first piece on its way takes it, a friend by a pass, an enemy by an interception).",
        "interception",
        Family::Default,
    ),
    flag(
        "sweep",
        false,
        "Carried ball: whether the free ball blocks no ride, a piece whose ride passes over it picking it up and holding it where the ride ends.",
        "sweeping-the-ball-up",
        Family::Default,
    ),
    optional(
        "offside",
        Ty::Str("squares"),
        "Carried ball with goal pieces: squares (White's, mirrored for Black) where a holder other than a goal piece may not end its side's turn; the ball then goes to the enemy goal piece.",
        "offside",
        Family::Default,
    ),
];

const CAPTURE: &[Key] =
    &[choice::<Captures>("mode", "Whether pieces capture.", "captures", Family::Default)];

const RANDOM: &[Key] = &[
    optional(
        "squares",
        Ty::Str("squares"),
        "White's squares refilled at random, e.g. \"a1-d1 f1-i1\"; with `pieces`.",
        "random-setups",
        Family::Any,
    ),
    optional(
        "pieces",
        Ty::Str("letters"),
        "White's pieces placed on them, e.g. \"KQRRBBNN\".",
        "random-setups",
        Family::Any,
    ),
    optional(
        "ball",
        Ty::Str("squares"),
        "The squares the ball may start on, one per setup, e.g. \"d4 e4 d5 e5\".",
        "random-setups",
        Family::Any,
    ),
    text(
        "opposite_colors",
        "letters",
        "",
        "Letters whose two copies stand on squares of different colours, e.g. \"B\".",
        "random-setups",
        Family::Any,
    ),
    choice::<BlackSetup>(
        "black",
        "Whether Black mirrors White or is drawn independently.",
        "random-setups",
        Family::Any,
    ),
];

const ARRANGEMENT: &[Key] = &[required(
    "squares",
    Ty::Str("squares"),
    "Where a piece may end its arrangement move, in White's frame (Black's mirrored), e.g. \"a1:h4 d5 e5\".",
    "the-arrangement-stage",
    // The walk of whole kick chains knows no arrangement stage.
    Family::Default,
)];

const PLACEMENT: &[Key] = &[
    required(
        "pieces",
        Ty::Str("letters"),
        "The hand each side places from, in White's letters (Black's the same), e.g. \"QRRBBNNPPPPPP\".",
        "the-placement-stage",
        Family::Default,
    ),
    optional(
        "count",
        Ty::Int { min: 1, max: 32 },
        "How many pieces of the hand each side places (a draft when fewer than the hand); all of them when left out.",
        "the-placement-stage",
        Family::Default,
    ),
    required(
        "squares",
        Ty::Str("squares"),
        "Where a piece may be placed, in White's frame (Black's mirrored), e.g. \"a1:h2\".",
        "the-placement-stage",
        Family::Default,
    ),
];

const SETUP: &[Key] = &[
    required(
        "fen",
        Ty::Str("position"),
        "The start position, e.g. \"rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 0\".",
        "positions",
        Family::Any,
    ),
    optional(
        "random",
        Ty::Table(RANDOM),
        "960-style random back ranks.",
        "random-setups",
        Family::Any,
    ),
];

const KICK: &[Key] = &[
    choice::<KickMode>(
        "mode",
        "How pieces kick the ball (each may say otherwise).",
        "kick-modes",
        Family::Default,
    ),
    choice::<EnterBy>(
        "enter",
        "How a kicker of mode `enter` reaches the ball.",
        "kick-modes",
        Family::Any,
    ),
    choice::<KickDirection>(
        "direction",
        "Where a line kick may send the ball.",
        "backward-kicks",
        Family::Any,
    ),
    int(
        "per_piece",
        (1, 8),
        1,
        "How many times each piece may kick in one turn.",
        "kicks-and-passes",
        Family::Any,
    ),
    flag(
        "leap_adjacent",
        false,
        "Whether a leap kick may land next to its kicker.",
        "leap-kicks",
        Family::Any,
    ),
    flag(
        "corner_exception",
        false,
        "Whether a leap kick may land next to its kicker when the ball stands in a corner.",
        "the-corner-exception",
        Family::Any,
    ),
    choice::<GoalRank>(
        "goal_rank",
        "Whether a kick along a goal's rank may reach or cross the goal.",
        "no-kick-along-the-goal-rank",
        Family::Any,
    ),
    flag(
        "relay",
        false,
        "Whether a kick may end on a teammate, who then kicks the ball on, in the same turn, by its own kick pattern from its square.",
        "relays",
        Family::Default,
    ),
];

const TURN: &[Key] = &[
    choice::<NullTurn>(
        "null",
        "When a side may neither move nor kick.",
        "the-null-turn",
        Family::Any,
    ),
    int(
        "no_goal_before",
        (0, 1000),
        0,
        "No goal may be scored while fewer turns than this have been completed.",
        "no-goal-on-the-first-turns",
        Family::Any,
    ),
    int("moves", (0, 16), 1, "The most piece moves in one turn.", "turn-budgets", Family::Default),
    int(
        "moves_per_piece",
        (1, 4),
        1,
        "The most moves of one piece in one turn.",
        "turn-budgets",
        Family::Default,
    ),
    int(
        "actions",
        (0, 64),
        0,
        "Action points: the most actions (moves, kicks, shots, passes, takes) in one turn; 0: no such limit.",
        "turn-budgets",
        Family::Default,
    ),
    int(
        "kicks",
        (0, 64),
        0,
        "The most kicks in one turn; 0: as many as `kick.per_piece` allows.",
        "turn-budgets",
        Family::Default,
    ),
    choice::<Order>(
        "order",
        "Whether moves and kicks may come in any order.",
        "turn-budgets",
        Family::Default,
    ),
    flag(
        "end_early",
        true,
        "Whether a turn may end before its moves and kicks are used up.",
        "turn-budgets",
        Family::Default,
    ),
    int(
        "min_moves",
        (0, 16),
        0,
        "The fewest piece moves a turn must make, as far as it can (sprints, dribbles, kicks and takes are not moves).",
        "turn-budgets",
        Family::Default,
    ),
];

const END: &[Key] = &[
    choice::<OwnGoal>(
        "own_goal",
        "Whether a kick into one's own goal scores for the opponent or is not legal.",
        "goals-and-own-goals",
        Family::Any,
    ),
    int(
        "repetition",
        (0, 100),
        3,
        "The game is drawn when a position occurs this many times; 0: never.",
        "repetition",
        Family::Any,
    ),
    choice::<RepetitionDraw>(
        "repetition_draw",
        "Whether a repetition draws at once or lets the side to move claim the draw.",
        "repetition",
        Family::Any,
    ),
    int(
        "max_turns",
        (0, 1_000_000),
        0,
        "The game is drawn after this many turns (in a match, won on goals); 0: no limit.",
        "the-turn-limit",
        Family::Any,
    ),
    int(
        "goals",
        (0, 100),
        1,
        "The goals (points) that win the game; 0: none, the game lasts `end.max_turns` turns.",
        "matches",
        Family::Default,
    ),
    choice::<AfterGoal>("after_goal", "What follows a goal.", "matches", Family::Default),
    choice::<NextAfterGoal>("next", "Who moves after a goal.", "matches", Family::Any),
    optional(
        "serve",
        Ty::Str("letter"),
        "Carried ball: after a goal that resets the board, the piece (its letter) of the side to move that holds the ball.",
        "the-serve",
        Family::Default,
    ),
    choice::<NoMoves>(
        "no_moves",
        "What happens to a side with no legal turn.",
        "the-forced-pass",
        Family::Default,
    ),
];

/// The top level of a definition file.
pub(crate) static ROOT: &[Key] = &[
    int("format", (1, 1), 1, "The version of this format.", "definition-files", Family::Any),
    optional(
        "extends",
        Ty::Str("variant"),
        "A shipped variant's name, or a path relative to this file, whose keys this file overrides.",
        "extends",
        Family::Any,
    ),
    required(
        "variant",
        Ty::Table(VARIANT),
        "The variant's name and credits.",
        "definition-files",
        Family::Any,
    ),
    required(
        "board",
        Ty::Table(BOARD),
        "The board's size.",
        "the-board-and-the-goals",
        Family::Any,
    ),
    Key {
        name: "goals",
        ty: Ty::Table(GOALS),
        given: Given::UnlessTarget,
        doc: "The goal squares.",
        rule: "the-board-and-the-goals",
        family: Family::Any,
    },
    required(
        "pieces",
        Ty::Pieces(PIECE),
        "The piece types, one table per uppercase letter.",
        "piece-moves",
        Family::Any,
    ),
    optional("ball", Ty::Table(BALL), "The ball.", "positions", Family::Any),
    optional("capture", Ty::Table(CAPTURE), "Captures.", "captures", Family::Any),
    required("setup", Ty::Table(SETUP), "The start position.", "positions", Family::Any),
    optional(
        "arrangement",
        Ty::Table(ARRANGEMENT),
        "A stage before play: each side moves each of its pieces once, in turns, without captures.",
        "the-arrangement-stage",
        Family::Any,
    ),
    optional(
        "placement",
        Ty::Table(PLACEMENT),
        "A stage before play: each side places pieces from its hand, one a turn, on empty squares.",
        "the-placement-stage",
        Family::Any,
    ),
    optional("kick", Ty::Table(KICK), "How the ball is kicked.", "how-the-ball-moves", Family::Any),
    optional("turn", Ty::Table(TURN), "What a turn may be.", "a-turn", Family::Any),
    optional("end", Ty::Table(END), "How the game ends.", "the-end-of-the-game", Family::Any),
];

/// Whether a merged definition tree is a game of Boyer's family: every key it writes has a
/// value that its [`Family`] keeps there. This is the one place that decides which walk
/// generates a definition's turns (`rules::tables::Tables::walks_chains`).
pub(crate) fn in_boyers_family(root: &Table) -> bool {
    within(ROOT, root)
}

/// Whether every key of `values`, a table of `keys`, keeps the definition in Boyer's family.
fn within(keys: &[Key], values: &Table) -> bool {
    values.iter().all(|(name, node)| {
        // A key the format does not have has been reported: no rules are built.
        keys.iter().find(|k| k.name == *name).is_none_or(|key| keeps(key, &node.value))
    })
}

/// Whether `value`, written for `key`, keeps the definition in Boyer's family.
fn keeps(key: &Key, value: &Value) -> bool {
    match (&key.ty, value) {
        (Ty::Table(inner), Value::Table(table)) => within(inner, table),
        (Ty::Pieces(inner), Value::Table(pieces)) => pieces
            .values()
            .all(|piece| matches!(&piece.value, Value::Table(keys) if within(inner, keys))),
        _ => match key.family {
            Family::Any => true,
            Family::Default => key.family_default().is_some_and(|d| Literal::of(value) == Some(d)),
            Family::PlainBetza => match value {
                Value::String(text) => crate::notation::betza::parse(text).is_ok_and(|b| {
                    b.groups
                        .iter()
                        .all(|g| g.modalities == crate::notation::betza::Modalities::default())
                }),
                _ => false,
            },
        },
    }
}

/// The key at `path` (`["kick", "direction"]`, `["pieces", "N", "moves"]`), if the format has it.
pub(crate) fn find(path: &[&str]) -> Option<&'static Key> {
    let (mut keys, mut rest) = (ROOT, path);
    loop {
        let (name, after) = rest.split_first()?;
        let key = keys.iter().find(|k| k.name == *name)?;
        match (&key.ty, after) {
            (_, []) => return Some(key),
            (Ty::Table(inner), _) => (keys, rest) = (inner, after),
            // The piece's letter names the table; its keys follow.
            (Ty::Pieces(inner), [_letter, keys_path @ ..]) => (keys, rest) = (inner, keys_path),
            _ => return None,
        }
    }
}

/// The default of the key at `path`, if it has one.
pub(crate) fn default_of(path: &[&str]) -> Option<Literal<'static>> {
    match find(path)?.given {
        Given::Default(literal) => Some(literal),
        _ => None,
    }
}

/// What a key is, in words: its sentence, then the meaning of each of its values if it takes
/// names. `quote` writes a value's name (`"away"` in JSON, `` `"away"` `` in Markdown).
pub(crate) fn description(key: &Key, quote: fn(&str) -> String) -> String {
    let mut out = key.doc.to_owned();
    if let Ty::Choice(choices) = &key.ty {
        for (name, meaning) in choices.names.iter().zip(choices.meanings) {
            out.push_str(&format!(" {}: {}", quote(name), meaning.trim()));
        }
    }
    out
}

/// The table of every key of the format in Markdown, as README.md and `docs/rules.md` show it:
/// each key links to the section of `docs/rules.md` that states its rule. `rules` is the path of
/// `docs/rules.md` from the document that shows the table (`"docs/rules.md"`, or `""` in
/// `docs/rules.md` itself).
#[must_use]
pub fn markdown_table(rules: &str) -> String {
    let mut out = String::from("| key | default | meaning |\n| --- | --- | --- |\n");
    rows(ROOT, "", false, rules, &mut out);
    out
}

/// Appends the rows of the keys of one table. `table` is its header (`[kick]`), empty at the top
/// level; `optional_table` says whether the table itself may be left out.
fn rows(keys: &[Key], table: &str, optional_table: bool, rules: &str, out: &mut String) {
    for key in keys {
        let optional = matches!(key.given, Given::Optional);
        match &key.ty {
            Ty::Table(inner) => {
                let header = if table.is_empty() {
                    format!("[{}]", key.name)
                } else {
                    format!("{}.{}]", table.trim_end_matches(']'), key.name)
                };
                rows(inner, &header, optional, rules, out);
            }
            Ty::Pieces(inner) => {
                row(&format!("`[{}.X]`", key.name), "*required*, at least one", key, rules, out);
                rows(inner, &format!("[{}.X]", key.name), false, rules, out);
            }
            _ => {
                let name = if table.is_empty() {
                    format!("`{}`", key.name)
                } else {
                    format!("`{table}` `{}`", key.name)
                };
                row(&name, &default_words(&key.given, optional_table), key, rules, out);
            }
        }
    }
}

fn row(name: &str, default: &str, key: &Key, rules: &str, out: &mut String) {
    let mut meaning = description(key, |name| format!("`\"{name}\"`"));
    if let Ty::Int { min, max } = key.ty {
        let range =
            if min == max { format!(" Must be {min}.") } else { format!(" From {min} to {max}.") };
        meaning.push_str(&range);
    }
    out.push_str(&format!("| [{name}]({rules}#{}) | {default} | {meaning} |\n", key.rule));
}

/// The default column: what stands for the key when a definition leaves it out.
fn default_words(given: &Given, optional_table: bool) -> String {
    match given {
        Given::Required if optional_table => "*required* in the table".to_owned(),
        Given::Required => "*required*".to_owned(),
        Given::UnlessTarget => "*required*, unless a piece is a `target`".to_owned(),
        Given::Optional => "none".to_owned(),
        Given::Default(Literal::Int(n)) => format!("`{n}`"),
        Given::Default(Literal::Bool(b)) => format!("`{b}`"),
        Given::Default(Literal::Str(s)) => format!("`\"{s}\"`"),
        Given::Like(words) => (*words).to_owned(),
    }
}

/// Every key with its path, in table order; a piece's keys under the letter `X`.
pub(crate) fn leaves() -> Vec<(Vec<&'static str>, &'static Key)> {
    fn walk(
        keys: &'static [Key],
        prefix: &[&'static str],
        out: &mut Vec<(Vec<&'static str>, &'static Key)>,
    ) {
        for key in keys {
            let path = [prefix, &[key.name]].concat();
            out.push((path.clone(), key));
            match &key.ty {
                Ty::Table(inner) => walk(inner, &path, out),
                Ty::Pieces(inner) => walk(inner, &[path, vec!["X"]].concat(), out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(ROOT, &[], &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_key() -> Vec<(String, &'static Key)> {
        leaves().into_iter().map(|(path, key)| (path.join("."), key)).collect()
    }

    #[test]
    fn every_key_is_found_by_its_path() {
        for (path, key) in every_key() {
            let parts: Vec<&str> = path.split('.').collect();
            assert!(std::ptr::eq(find(&parts).unwrap(), key), "{path}");
        }
        assert!(find(&["kick", "directions"]).is_none());
        assert!(find(&["kick", "direction", "x"]).is_none());
        assert!(find(&["pieces", "N"]).is_none());
        assert!(find(&[]).is_none());
    }

    #[test]
    fn defaults_are_values_the_checks_accept() {
        for (path, key) in every_key() {
            let Given::Default(literal) = key.given else { continue };
            let ok = match (&key.ty, literal) {
                (Ty::Int { min, max }, Literal::Int(n)) => {
                    (*min as i128..=*max as i128).contains(&n)
                }
                (Ty::Bool, Literal::Bool(_)) | (Ty::Str(_), Literal::Str(_)) => true,
                (Ty::Choice(c), Literal::Str(s)) => c.names.contains(&s),
                _ => false,
            };
            assert!(ok, "the default of `{path}` is not one of its values: {literal:?}");
        }
    }

    #[test]
    fn enum_keys_read_their_enum() {
        assert_eq!(default_of(&["kick", "direction"]), Some(Literal::Str("away")));
        assert_eq!(KickDirection::from_literal(Literal::Str("line")), Some(KickDirection::Line));
        assert_eq!(NullTurn::from_literal(Literal::Str("sometimes")), None);
        assert_eq!(u8::from_literal(Literal::Int(300)), None);
        assert_eq!(bool::from_literal(Literal::Int(1)), None);
        assert_eq!(NullTurn::WhenAdjacent.name(), "when-adjacent");
    }
}
