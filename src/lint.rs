//! Football-specific warnings about a definition that compiles: things the rules allow but an
//! author probably did not mean. They need the engine, so they run after compilation, when
//! asked: [`lint`] for a definition loaded ([`crate::definition::load`]), or [`load_checked`]
//! to load a definition with them, as `kickoff validate` shows them.

mod contradictions;
mod simulation;

pub use simulation::{
    SIMULATION_CAP, SIMULATION_WORK, Simulated, Simulation, simulate, simulate_with,
};

use crate::definition::{
    Code, Definition, Diagnostic, LoadError, LoadOptions, Loc, load_linted, load_text_linted,
};
use crate::movegen::{MAX_TURNS, count_turns, kick_destinations, nth_turn, null_allowed};
use crate::position::{Placement, Position};
use crate::rules::{OwnGoal, PieceKind, Rules};
use crate::side::Side;
use crate::square::Square;

/// Loads a variant given as a shipped name or a path to a `.toml` file, as
/// [`crate::definition::load_with`] does, and lints it: the definition's warnings are then
/// every warning, those found while reading it and the lint's, in file order, each where
/// `kickoff validate` shows it (a parent file counts as clean alone only if its lint is too).
///
/// # Errors
/// An unreadable file, an unknown name, or a definition with errors.
pub fn load_checked(arg: &str, options: LoadOptions) -> Result<Definition, LoadError> {
    load_linted(arg, options, Some(lint))
}

/// [`load_checked`] for a definition given as text ([`crate::definition::load_text`]).
///
/// # Errors
/// A definition with errors.
pub fn load_text_checked(name: &str, text: &str) -> Result<Definition, LoadError> {
    load_text_linted(name, text, Some(lint))
}

/// Every warning of the lint about `def`, in the order found, each moved as loading moves the
/// definition's own (a value inherited from a file that is clean alone is reported at this
/// file's `extends`).
#[must_use]
pub fn lint(def: &Definition) -> Vec<Diagnostic> {
    let mut out = found(def);
    def.relocate(&mut out);
    out
}

/// The lint's warnings where they were found.
fn found(def: &Definition) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    unreachable_goals(def, &mut out);
    inner_goals(def, &mut out);
    unplaced_pieces(def, &mut out);
    random_material(def, &mut out);
    forced_pass_at_start(def, &mut out);
    contradictions::contradictions(def, &mut out);
    out
}

/// Of two places, the one in the file nearer to the file validated (a lower id: parents come
/// after their children), `a` when they are in the same file. A warning about two values that
/// disagree points at the one written last, which the author most likely meant to change.
fn nearer(a: Option<Loc>, b: Option<Loc>) -> Option<Loc> {
    match (a, b) {
        (Some(a), Some(b)) if b.file < a.file => Some(b),
        (a, b) => a.or(b),
    }
}

/// Goal squares away from the board's edge (each of their four neighbours a square of the
/// board), unless `goals.inner = true` says that they are meant.
fn inner_goals(def: &Definition, out: &mut Vec<Diagnostic>) {
    if def.flag(&["goals", "inner"]) {
        return;
    }
    let board = def.rules.board();
    let on_edge = |s: Square| {
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(df, dr)| board.offset(s, df, dr).is_none())
    };
    for side in Side::ALL {
        let inner: Vec<String> = def
            .rules
            .goals(side)
            .iter()
            .filter(|&&s| !on_edge(s))
            .map(ToString::to_string)
            .collect();
        let Some(at) = def.location(&["goals", side.key()]) else { continue };
        if !inner.is_empty() {
            out.push(
                Diagnostic::new(
                    Code::InnerGoal,
                    format!(
                        "{}'s goal ({}) is inside the {}x{} board, not on its edge",
                        side.name(),
                        inner.join(", "),
                        board.files,
                        board.ranks
                    ),
                    at,
                )
                .with_help(
                    "put the goals on the board's edge; if they are meant to stand inside, \
                     write `inner = true` in [goals]",
                ),
            );
        }
    }
}

/// Piece types that no position ever holds: absent from the start position, from the random
/// setup's pieces, from the placement stage's hand and from every promotion (on squares or
/// on scoring).
fn unplaced_pieces(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    let promotions = rules.pieces().iter().filter_map(|p| p.promotion.as_ref());
    let placed: Vec<PieceKind> = rules
        .start()
        .pieces
        .iter()
        .map(|&(_, _, kind)| kind)
        .chain(rules.random_setup().into_iter().flat_map(|r| r.pieces.iter().copied()))
        .chain(rules.placement_stage().into_iter().flat_map(|p| p.pieces.iter().copied()))
        .chain(promotions.flat_map(|p| p.to.iter().copied()))
        .chain(rules.pieces().iter().filter_map(|p| p.goal_promotion))
        .collect();
    for kind in rules.kinds().filter(|k| !placed.contains(k)) {
        let piece = rules.piece(kind);
        let letter = piece.letter.to_string();
        let table = def.location(&["pieces", &letter]);
        let Some(at) = nearer(table, def.location(&["setup", "fen"])) else { continue };
        out.push(
            Diagnostic::new(
                Code::UnplacedPiece,
                format!(
                    "the {} (`{letter}`) is never on the board: neither `setup.fen`, nor the \
                     random setup's pieces, nor a placement, nor a promotion puts it there",
                    piece.name
                ),
                at,
            )
            .with_help(format!(
                "place it in `setup.fen`, or leave the piece out (`[pieces.{letter}] removed = \
                 true` drops an inherited one)"
            )),
        );
    }
}

/// A random setup whose pieces are not those that `setup.fen` has on its squares: `show` and
/// `explain` would show other material than every game starts with.
fn random_material(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    let Some(random) = rules.random_setup() else { return };
    let letters =
        |kinds: &[PieceKind]| -> String { kinds.iter().map(|&k| rules.piece(k).letter).collect() };
    let mut wanted = random.pieces.clone();
    wanted.sort();
    for side in Side::ALL {
        let squares: Vec<Square> = match side {
            Side::White => random.squares.clone(),
            Side::Black => random.squares.iter().map(|&s| rules.board().mirror(s)).collect(),
        };
        let on_squares: Vec<PieceKind> = rules
            .start()
            .pieces
            .iter()
            .filter(|(s, owner, _)| *owner == side && squares.contains(s))
            .map(|&(_, _, kind)| kind)
            .collect();
        let mut found = on_squares.clone();
        found.sort();
        if found == wanted {
            continue;
        }
        let pieces_at = def.location(&["setup", "random", "pieces"]);
        let Some(at) = nearer(pieces_at, def.location(&["setup", "fen"])) else { return };
        let have = if on_squares.is_empty() {
            "no piece".to_owned()
        } else {
            format!("`{}`", letters(&on_squares))
        };
        out.push(
            Diagnostic::new(
                Code::RandomMaterial,
                format!(
                    "the random setup places `{}`, but `setup.fen` has {have} on {}'s random \
                     squares: `show` and `explain` show other pieces than every game starts with",
                    letters(&random.pieces),
                    side.name()
                ),
                at,
            )
            .with_help(
                "give the random squares of `setup.fen` the pieces of `setup.random.pieces`, \
                 in any order",
            ),
        );
        return;
    }
}

/// Goals that no kick of any piece can ever put the ball on, even on an empty board.
fn unreachable_goals(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    if rules.carried_ball() {
        return; // a carried ball is not kicked: compile checks that holders can reach goals
    }
    for side in Side::ALL {
        let Some(at) = def.location(&["goals", side.key()]) else { continue };
        for &goal in rules.goals(side) {
            if !reachable(rules, side, goal) {
                out.push(
                    Diagnostic::new(
                        Code::UnreachableGoal,
                        format!("no kick can ever send the ball to {goal}, {}'s goal", side.name()),
                        at.clone(),
                    )
                    .with_help(
                        "check the pieces' kicks: with goal_rank = \"no-slide\" a goal must be \
                         reachable from another rank",
                    ),
                );
            }
        }
    }
}

/// Whether some piece of some side can kick the ball onto `goal` (which `attacker` attacks)
/// from some square, the board otherwise empty.
fn reachable(rules: &Rules, attacker: Side, goal: Square) -> bool {
    let kickers: Vec<Side> = match rules.end().own_goal {
        OwnGoal::Counts => Side::ALL.to_vec(),
        OwnGoal::Forbidden => vec![attacker],
    };
    let board = rules.board();
    let open: Vec<Square> = board.squares().filter(|&s| rules.scorer(s).is_none()).collect();
    kickers.into_iter().any(|side| {
        (0..rules.pieces().len()).any(|kind| {
            open.iter().any(|&ball| {
                open.iter().filter(|&&k| k.distance(ball) == 1).any(|&kicker| {
                    let mut placement = Placement::new(
                        vec![(kicker, side, PieceKind(kind as u8))],
                        Some(ball),
                        side,
                    );
                    placement.turns = rules.turn().no_goal_before;
                    let pos = Position::from_checked(rules, &placement);
                    kick_destinations(&pos, kicker).contains(&goal)
                })
            })
        })
    })
}

/// A start position in which the side to move can do nothing but pass, or has more turns than
/// kickoff lists.
fn forced_pass_at_start(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Ok(pos) = Position::from_fen(&def.rules, def.rules.setup_fen()) else { return };
    let Some(at) = def.location(&["setup", "fen"]) else { return };
    if crate::search::beyond_counting(&pos) {
        return;
    }
    let Ok(count) = count_turns(&pos) else {
        // A turn of several piece moves has millions of turns by design (Soccer Chess): the
        // warning is for kick chains that multiply by accident.
        if def.rules.turn().moves == 1 {
            out.push(too_many_turns(&pos, "at the start", at));
        }
        return;
    };
    if count == 1 && nth_turn(&pos, 0).is_some_and(|t| t.is_null()) && !null_allowed(&pos) {
        out.push(
            Diagnostic::new(
                Code::ForcedPassAtStart,
                format!("at the start, {} has no legal turn and can only pass", pos.side().name()),
                at,
            )
            .with_help("give its pieces room to move, or put one of them next to the ball"),
        );
    }
}

/// The warning that `pos`, reached `when`, has more turns than kickoff lists.
fn too_many_turns(pos: &Position<'_>, when: &str, at: crate::definition::Loc) -> Diagnostic {
    Diagnostic::new(
        Code::TooManyTurns,
        format!(
            "{when}, {} has more than {MAX_TURNS} turns (in {}): kickoff does not list or \
             count them, and plays them only action by action",
            pos.side().name(),
            pos.fen()
        ),
        at,
    )
    .with_help(
        "kick chains multiply when many pieces stand near the ball and each may kick several \
         times: lower `kick.per_piece`, or shorten the kicks' range",
    )
}
