//! "How the ball flies" (a kicked ball: rules `docs/rules.md#how-the-ball-moves`,
//! `docs/rules.md#kick-modes`) and "The ball" (a carried ball: `docs/rules.md#a-carried-ball`).

use crate::render::explain::{ball_less, carried, para, section, which_pieces};
use crate::render::places::squares_words;
use crate::rules::{
    CarriedRules, EnterBy, GoalRank, Hold, KickDirection, KickMode, PieceType, Rules, Steal,
    TacklePush,
};

pub(super) fn ball(out: &mut String, rules: &Rules) {
    // Without a ball there is nothing to say: the board's section says so.
    if carried(rules) {
        carried_ball(out, rules);
    } else if !ball_less(rules) {
        flies(out, rules);
    }
}

fn flies(out: &mut String, rules: &Rules) {
    section(out, "How the ball flies");
    let kick = rules.kick();
    let beside = |p: &&PieceType| p.kick_mode == KickMode::Beside;
    let kicks = || rules.pieces().iter().filter(beside).flat_map(|p| p.kicks.iter());
    let mixed =
        rules.pieces().iter().any(|p| p.kick_mode != KickMode::Beside && !p.kicks.is_empty());
    if kicks().next().is_some() && mixed {
        let who = which_pieces(rules, |p| p.kick_mode == KickMode::Beside && !p.kicks.is_empty());
        para(out, "- ", &format!("Kicks from beside the ball, by {who}:"));
    }
    if kicks().any(|leg| leg.is_unit()) {
        line_kicks(out, kick.direction);
    }
    if kicks().any(|leg| !leg.is_unit()) {
        leap_kicks(out, kick.leap_adjacent, kick.corner_exception);
    }
    from_ball(out, rules);
    entering(out, rules);
    para(
        out,
        "- ",
        match kick.goal_rank {
            GoalRank::NoSlide => {
                "From a goal's rank, no kick along that rank may put the ball on the goal or \
                 carry it across: a slide along the rank stops before the goal."
            }
            // Boyer's game forbids it: a reader would assume the same here.
            GoalRank::Allowed => {
                "Unlike in Boyer's game, a kick along a goal's rank may put the ball on the goal \
                 or carry it across."
            }
        },
    );
    let forbidden = rules.ball().forbidden;
    if !forbidden.is_empty() {
        let text = format!(
            "The ball may not stop on {} (it may fly over them).",
            squares_words(forbidden, rules.board())
        );
        para(out, "- ", &text);
    }
    relays(out, rules);
    if rules.board().holes.is_empty() {
        para(out, "- ", "The ball never stops on an occupied square.");
    } else {
        para(out, "- ", "The ball never stops on an occupied square or a hole.");
    }
}

/// A kick that ends on a teammate, who kicks on (`kick.relay`).
fn relays(out: &mut String, rules: &Rules) {
    if !rules.kick().relay {
        return;
    }
    para(
        out,
        "- ",
        "Relays: a kick may also end on a teammate, the first piece a line kick meets or the \
         square a leap lands on. The teammate receives the ball and must kick it on in the same \
         turn, without moving, by its whole kick pattern from its own square; it may pass to \
         another teammate in turn. A piece that has kicked its share this turn cannot receive, \
         and a kick ends on a teammate only where that teammate can kick on. Receiving on a goal \
         square scores nothing.",
    );
}

/// Kicks by the kicker's whole pattern from the ball's square (`from-ball`).
fn from_ball(out: &mut String, rules: &Rules) {
    let pick = |p: &PieceType| p.kick_mode == KickMode::FromBall && !p.kicks.is_empty();
    if !rules.pieces().iter().any(pick) {
        return;
    }
    let leaps =
        rules.pieces().iter().filter(|p| pick(p)).any(|p| p.kicks.iter().any(|l| !l.is_unit()));
    let mut text = format!(
        "Kicks from the ball, by {}: a piece standing next to the ball (a king's step away) \
         sends it by its own kick pattern counted from the ball's square, as if it stood there, \
         whichever side of the ball it stands on. Along a line the ball stops on any empty \
         square it reaches, before the first occupied square or the edge; the kicker itself \
         blocks the line towards it.",
        which_pieces(rules, pick)
    );
    if leaps {
        text.push_str(" A leap jumps over anything in between, and may land next to the kicker.");
    }
    para(out, "- ", &text);
}

/// Kicks by a kicker that steps onto the ball (`enter`).
fn entering(out: &mut String, rules: &Rules) {
    let pick = |p: &PieceType| p.kick_mode == KickMode::Enter && !p.kicks.is_empty();
    if !rules.pieces().iter().any(pick) {
        return;
    }
    let adjacent = "from a square next to it (a king's step)";
    let kicks = "kicks the ball from there by its kick pattern: along a line to any empty square \
                 before the first occupied square or the edge, or by a leap. The square it left \
                 counts as empty, so the ball may fly over it or stop on it.";
    let (kind, how, then) = match rules.kick().enter {
        EnterBy::Adjacent => ("Entering kicks", adjacent, kicks),
        EnterBy::Move => (
            "Entering kicks",
            "by one of its own moves (a leaper jumps, a slider needs a free path)",
            kicks,
        ),
        EnterBy::Push => (
            "Pushes",
            adjacent,
            "the ball goes on the same way, along the line from the kicker through the ball, as \
             far as the kicker's kick pattern reaches along it (a king's pattern: one square), to \
             an empty square before the first occupied square or the edge.",
        ),
    };
    let text = format!(
        "{kind}, by {}: the kicker steps onto the ball's square {how}, which it may do only \
         where it may stand, and {then}",
        which_pieces(rules, pick)
    );
    para(out, "- ", &text);
}

fn line_kicks(out: &mut String, direction: KickDirection) {
    para(
        out,
        "- ",
        "Line kicks: when the kicker moves along the line from itself to the ball (a rook along \
         ranks and files, a bishop along diagonals), the ball flies on along that line, directly \
         away from the kicker, as far as the kicker could move (a king kicks it one square). It \
         may stop on any empty square it reaches and stops before the first occupied square or \
         the edge.",
    );
    if direction == KickDirection::Line {
        para(
            out,
            "- ",
            "Backward kicks: the ball may also fly the other way along that line, jumping over \
             the kicker and going on from the square behind it, with the same range and blocking.",
        );
    }
}

fn leap_kicks(out: &mut String, adjacent_allowed: bool, corner_exception: bool) {
    let mut leap = "Leap kicks: a kicker with leaps (a knight) sends the ball by one of its \
                    leaps, counted from the ball's square in any direction the leap allows, to an \
                    empty square, over anything in between."
        .to_owned();
    if !adjacent_allowed {
        leap.push_str(" It may not land next to the kicker");
        leap.push_str(if corner_exception {
            ", except when the ball stands in a corner of the board."
        } else {
            "."
        });
    }
    para(out, "- ", &leap);
}

/// The rules of a carried ball, each as the definition sets it.
fn carried_ball(out: &mut String, rules: &Rules) {
    section(out, "The ball");
    let c = rules.ball().carried;
    para(
        out,
        "- ",
        "The ball is carried, never kicked: it lies free on a square until a piece takes it, and \
         then that piece, its holder, carries it wherever it moves. What a piece may do with the \
         ball goes by its moves that may capture (within their range, blocked as usual).",
    );
    para(
        out,
        "- ",
        "Take: a piece that could capture on the free ball's square moves onto it and holds the ball.",
    );
    if c.sweep {
        para(
            out,
            "- ",
            "Sweep: the free ball blocks no ride. A piece whose ride passes over it picks it up \
             and holds it where the ride ends, even over a square where it may not stop (a leap \
             takes it only by landing on it).",
        );
    }
    para(
        out,
        "- ",
        match (c.pass, c.shoot) {
            (true, false) => {
                "Pass: a holder gives the ball to a friend it could capture; neither piece moves."
            }
            (true, true) if c.intercept && c.over_friends => {
                "Pass: a holder kicks the ball to a friend by its kick pattern (a slide flies over \
                 friends, and reaches any of them up to the first enemy); neither piece moves."
            }
            (true, true) => {
                "Pass: a holder kicks the ball to a friend by its kick pattern (a slide reaches \
                 the first piece on its line); neither piece moves."
            }
            (false, _) => "A holder never passes the ball to a friend.",
        },
    );
    if c.shoot {
        para(
            out,
            "- ",
            if c.intercept {
                "Shot: a holder kicks the ball by its kick pattern from its own square, to an \
                 empty square, where the ball lies free, or into a goal, which scores. A shot \
                 counts as a kick."
            } else {
                "Shot: a holder kicks the ball by its kick pattern from its own square, to an \
                 empty square, where the ball lies free, or into a goal, which scores. A slide \
                 stops before the first piece on its line; a hopper's kick (`p`) flies over the \
                 first piece and lands beyond it. A shot counts as a kick."
            },
        );
    }
    if c.shoot && c.intercept && c.over_friends {
        para(
            out,
            "- ",
            "Interception: a shot or pass flies over friends (a friend it ends on holds the \
             ball), and the first enemy in its way takes the ball: the turn is over. A leap's \
             ball flies over everything, and is taken only by an enemy on its landing square.",
        );
    } else if c.shoot && c.intercept {
        para(
            out,
            "- ",
            "Interception: a shot or pass ends on the first piece in its way: a friend there \
             holds the ball (a pass), an enemy takes it (an interception), and the turn is over. \
             A leap's ball flies over everything, and is taken only by a piece on its landing \
             square.",
        );
    }
    if rules.pieces().iter().any(|p| p.hold == Hold::OneTurn) {
        let text = format!(
            "Keepers: {} may end one of their side's turns holding the ball, not two in a row: \
             at the end of the second the ball is released beside the keeper (tried up, down, \
             right, left, then the diagonals, as White sees the board).{}",
            which_pieces(rules, |p| p.hold == Hold::OneTurn),
            if rules.turn().actions > 0 {
                " In that second turn its last action point is the release: a move that leaves \
                 only that point, the keeper still holding the ball, ends the turn."
            } else {
                ""
            }
        );
        para(out, "- ", &text);
    }
    if rules.pieces().iter().any(|p| !p.backpass) {
        let text = format!(
            "No backpass: once one of {} has given the ball up, its teammates may not pass it \
             back to them until an enemy has held the ball.",
            which_pieces(rules, |p| !p.backpass)
        );
        para(out, "- ", &text);
    }
    if !c.offside.is_empty() {
        let text = format!(
            "Offside: a side whose turn ends with the ball held by one of its pieces other than \
             a goal on {} (as White sees them; mirrored for Black) loses it to the enemy goal, \
             which holds it as the other side's turn begins.",
            squares_words(c.offside, rules.board())
        );
        para(out, "- ", &text);
    }
    para(
        out,
        "- ",
        if c.take_from_friend {
            "Take from a friend: a piece takes the ball from a friend it could capture; neither \
             piece moves."
        } else {
            "A piece never takes the ball from a friend."
        },
    );
    para(out, "- ", steal_words(&c));
    if matches!(c.steal, Steal::InPlace | Steal::Both) && !c.steal_back {
        para(
            out,
            "- ",
            "An in-place steal may not be answered at once by the reverse steal between the same \
             two squares.",
        );
    }
    para(
        out,
        "- ",
        if c.holder_captures { "A holder may capture." } else { "A holder never captures." },
    );
    holder_extras(out, rules);
}

fn steal_words(c: &CarriedRules) -> &'static str {
    match c.steal {
        Steal::Both => {
            "Steal: a piece that could capture an enemy holder takes the ball from it, either by \
             capturing it (moving onto its square) or in place (neither piece moves), as its \
             player chooses."
        }
        Steal::Capture => {
            "Steal: a piece that could capture an enemy holder takes the ball by capturing it \
             (moving onto its square)."
        }
        Steal::InPlace => {
            "Steal: a piece that could capture an enemy holder takes the ball from it in place; \
             neither piece moves."
        }
        Steal::None => "An enemy holder can never be robbed of the ball.",
        Steal::Tackle if c.tackle_push == TacklePush::Orthogonal => {
            "Steal: a piece that could capture an enemy holder tackles it: it moves onto the \
             holder's square and takes the ball, and the holder goes to the first empty square \
             beside it where it may stand, tried right, left, up, then down, as White sees the \
             board (the square the tackler left counts as empty); where there is none, there is \
             no tackle. Nothing is captured."
        }
        Steal::Tackle => {
            "Steal: a piece that could capture an enemy holder tackles it: it moves onto the \
             holder's square and takes the ball, and the holder is pushed one square on, away \
             from it (diagonally after a knight's tackle), onto an empty square where it may \
             stand; where there is none, there is no tackle. Nothing is captured."
        }
    }
}

/// What promotion and en passant do to a holder, where the variant has them.
fn holder_extras(out: &mut String, rules: &Rules) {
    if rules.pieces().iter().any(|p| p.promotion.is_some()) {
        para(out, "- ", "A holder that promotes keeps the ball.");
    }
    if rules.pieces().iter().any(|p| p.moves.iter().any(|l| l.en_passant)) {
        para(
            out,
            "- ",
            "A holder's double step leaves no square to be captured en passant, and a holder \
             never captures en passant.",
        );
    }
}
