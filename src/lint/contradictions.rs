//! Keys that contradict each other: each works alone, but together one of them can never take
//! effect, or does the opposite of what its name says. Each warning points at the key that is
//! most likely wrong.

use crate::definition::Code;
use crate::definition::{Definition, Diagnostic};
use crate::rules::Choice;
use crate::rules::Steal;
use crate::rules::leg::{Leg, Reach};
use crate::side::Side;

/// Every contradiction of `def`.
pub(super) fn contradictions(def: &Definition, out: &mut Vec<Diagnostic>) {
    steal_without_captures(def, out);
    ball_forbidden_at_start(def, out);
    goals_swapped(def, out);
    claim_without_repetition(def, out);
    promotion_at_home(def, out);
    en_passant_without_double_step(def, out);
    random_squares_across(def, out);
}

/// A carried ball stolen by capture in a game where nothing is captured.
fn steal_without_captures(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    let ball = rules.ball();
    let by_capture = matches!(ball.carried.steal, Steal::Capture | Steal::Both);
    if !rules.carried_ball() || !by_capture || rules.has_captures() {
        return;
    }
    let Some(at) = def.location(&["ball", "steal"]) else { return };
    let message = format!(
        "`ball.steal = \"{}\"` steals the ball by capturing its holder, but `capture.mode` is \
         \"none\": nothing is ever captured",
        ball.carried.steal.name()
    );
    out.push(Diagnostic::new(Code::StealWithoutCaptures, message, at).with_help(
        "write `steal = \"in-place\"`, or let pieces capture: `[capture] mode = \"replace\"`",
    ));
}

/// The ball forbidden on the square where it starts.
fn ball_forbidden_at_start(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Some(start) = def.rules.start().ball else { return };
    if !def.rules.ball().forbidden.contains(start) {
        return;
    }
    let Some(at) = def.location(&["ball", "forbidden"]) else { return };
    out.push(
        Diagnostic::new(
            Code::BallForbiddenAtStart,
            format!("the ball may never stop on {start}, but it starts there"),
            at,
        )
        .with_help(format!("take {start} out of `ball.forbidden`, or start the ball elsewhere")),
    );
}

/// A side whose goal lies wholly in its own half: it would score by bringing the ball home.
fn goals_swapped(def: &Definition, out: &mut Vec<Diagnostic>) {
    let ranks = def.rules.board().ranks;
    for side in Side::ALL {
        let goals = def.rules.goals(side);
        // The rank counted from the side's own back rank.
        let own = |rank: u8| if side == Side::White { rank } else { ranks - 1 - rank };
        let at_home = goals.iter().all(|s| u16::from(own(s.rank())) * 2 + 1 < u16::from(ranks));
        let key = side.key();
        let Some(at) = def.location(&["goals", key]) else { continue };
        if at_home && !goals.is_empty() {
            out.push(
                Diagnostic::new(
                    Code::GoalsSwapped,
                    format!(
                        "`goals.{key}` are the squares where {} scores, but they lie in its own \
                         half",
                        side.name()
                    ),
                    at,
                )
                .with_help("`goals.white` is the goal White attacks: swap `white` and `black`?"),
            );
        }
    }
}

/// A draw by repetition to claim, with repetition draws turned off.
fn claim_without_repetition(def: &Definition, out: &mut Vec<Diagnostic>) {
    let end = def.rules.end();
    if end.repetition != 0 || !end.repetition_claimed() {
        return;
    }
    let Some(at) = def.location(&["end", "repetition_draw"]) else { return };
    out.push(
        Diagnostic::new(
            Code::ClaimWithoutRepetition,
            "`end.repetition_draw = \"claim\"`, but `end.repetition = 0` turns repetition draws \
             off: there is never a draw to claim",
            at,
        )
        .with_help("set `end.repetition` (3 in chess), or leave out `repetition_draw`"),
    );
}

/// Promotion squares where the piece already stands at the start, or on its own first rank.
fn promotion_at_home(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    for (index, piece) in rules.pieces().iter().enumerate() {
        let Some(promotion) = &piece.promotion else { continue };
        let starts = rules.start().pieces.iter().filter(|&&(_, _, kind)| kind.index() == index);
        let own = |&(square, side, _): &(_, Side, _)| {
            if side == Side::White { square } else { rules.board().mirror(square) }
        };
        let home = promotion.squares.iter().find(|s| s.rank() == 0);
        let home = home.or_else(|| starts.map(own).find(|&s| promotion.squares.contains(s)));
        let letter = piece.letter.to_string();
        let Some(at) = def.location(&["pieces", &letter, "promotion"]) else { continue };
        if let Some(square) = home {
            out.push(
                Diagnostic::new(
                    Code::PromotionAtHome,
                    format!(
                        "the {} promotes on {square}, on its own side of the board: promotion \
                         squares are written for White, the far rank for a chess pawn",
                        piece.name
                    ),
                    at,
                )
                .with_help("write the ranks the piece reaches by crossing the board"),
            );
        }
    }
}

/// Whether `leg` is an initial move that passes over a square (`ifmnD`, `ifmW2`): the move that
/// an en passant capture answers.
fn passes_a_square(leg: &Leg) -> bool {
    let (df, dr) = (leg.step.0.unsigned_abs(), leg.step.1.unsigned_abs());
    let straight = df == 0 || dr == 0 || df == dr;
    let long_leap = straight && df.max(dr) >= 2;
    let long_slide = leg.reach != Reach::Steps(1) && straight;
    leg.initial && leg.moves() && (long_leap || long_slide)
}

/// An en passant capture (`e`) where no piece has an initial move over a square: there is
/// never a piece to take in passing.
fn en_passant_without_double_step(def: &Definition, out: &mut Vec<Diagnostic>) {
    let pieces = def.rules.pieces();
    if pieces.iter().any(|p| p.moves.iter().any(passes_a_square)) {
        return;
    }
    for piece in pieces.iter().filter(|p| p.moves.iter().any(|leg| leg.en_passant)) {
        let letter = piece.letter.to_string();
        let Some(at) = def.location(&["pieces", &letter, "moves"]) else { continue };
        out.push(
            Diagnostic::new(
                Code::EnPassantWithoutDoubleStep,
                format!(
                    "the {} captures en passant (`e`), but no piece has an initial double step \
                     (like `ifmnD`) to take in passing",
                    piece.name
                ),
                at,
            )
            .with_help("drop the `e`, or give a piece a double step from its start: `ifmnD`"),
        );
    }
}

/// Random squares for White in Black's half of the board: `setup.random.squares` are White's
/// squares, and Black's pieces go to their mirror, in White's half.
fn random_squares_across(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Some(random) = def.rules.random_setup() else { return };
    let ranks = u16::from(def.rules.board().ranks);
    let across: Vec<String> = random
        .squares
        .iter()
        .filter(|s| u16::from(s.rank()) * 2 + 1 > ranks)
        .map(ToString::to_string)
        .collect();
    let Some(at) = def.location(&["setup", "random", "squares"]) else { return };
    if !across.is_empty() {
        out.push(
            Diagnostic::new(
                Code::RandomSquaresAcross,
                format!(
                    "White's random squares {} lie in Black's half of the board",
                    across.join(" ")
                ),
                at,
            )
            .with_help(
                "`setup.random.squares` are White's squares (Black's are mirrored): write \
                 squares of White's own side, such as its back rank 1",
            ),
        );
    }
}
