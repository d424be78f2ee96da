//! "A turn": what a side may do, in which order and how much (rules:
//! `docs/rules.md#a-turn`, `docs/rules.md#turn-budgets`).

use crate::render::explain::{ball_less, carried, para, section, times, which_pieces};
use crate::rules::{
    Captures, EnterBy, GoalAccess, KickMode, NoMoves, NullTurn, Order, PieceType, Rules,
};

pub(super) fn turn(out: &mut String, rules: &Rules) {
    section(out, "A turn");
    para(out, "1. ", &moves(rules));
    let mut item = 2;
    if carried(rules) {
        para(out, "2. ", &ball_actions(rules));
        item = 3;
    } else if kicks_exist(rules) && !ball_less(rules) {
        para(out, "2. ", &kicks(rules));
        item = 3;
    }
    para(out, &format!("{item}. "), &stopping(rules));
}

/// Whether some piece can kick at all.
fn kicks_exist(rules: &Rules) -> bool {
    rules.pieces().iter().any(|p| !p.kicks.is_empty())
}

/// Whether some piece kicks from next to the ball, without stepping onto it.
fn kicks_beside(rules: &Rules) -> bool {
    rules.pieces().iter().any(|p| p.kick_mode != KickMode::Enter && !p.kicks.is_empty())
}

/// Whether the turn is Boyer's: one optional piece move, then kicks from beside the ball.
fn boyers_turn(rules: &Rules) -> bool {
    let t = rules.turn();
    !carried(rules)
        && t.moves == 1
        && t.kicks == 0
        && t.order == Order::MoveFirst
        && rules.pieces().iter().all(|p| p.kick_mode == KickMode::Beside || p.kicks.is_empty())
}

/// Item 1: the piece moves.
fn moves(rules: &Rules) -> String {
    let t = rules.turn();
    let first = if !carried(rules)
        && !ball_less(rules)
        && t.order == Order::MoveFirst
        && kicks_beside(rules)
    {
        "first "
    } else {
        ""
    };
    let who = match (t.moves, t.moves_per_piece) {
        (0, _) => return "No piece ever moves: a turn is made of kicks.".to_owned(),
        (1, _) => format!("The side to move may {first}move one of its pieces"),
        (n, 1) => {
            format!("The side to move may {first}move up to {n} of its pieces, each at most once")
        }
        (n, k) => format!(
            "The side to move may {first}make up to {n} piece moves, each piece at most {}",
            times(k)
        ),
    };
    let tackles = carried(rules) && rules.ball().carried.steal == crate::rules::Steal::Tackle;
    let target = match rules.captures() {
        Captures::None if tackles => {
            "to an empty square, or onto the enemy piece that holds the ball, which it tackles \
             (see The ball below). There are no captures and no check."
        }
        Captures::None => "to an empty square. There are no captures and no check.",
        Captures::Replace => {
            "to an empty square or onto an enemy piece, which it captures (removes from the \
             board). There is no check."
        }
        Captures::Holder => {
            "to an empty square, or onto the enemy piece that holds the ball, which it captures \
             (removes from the board), taking the ball. No other piece is ever captured, and \
             there is no check."
        }
    };
    let slides = if ball_less(rules) && rules.board().holes.is_empty() {
        "Sliding pieces are stopped by pieces; leaping pieces jump."
    } else if ball_less(rules) {
        "Sliding pieces are stopped by pieces and by holes; leaping pieces jump, but never onto \
         a hole."
    } else if rules.carried_ball() && rules.ball().carried.sweep {
        if rules.board().holes.is_empty() {
            "Sliding pieces are stopped by pieces, not by the free ball, which they sweep up; \
             leaping pieces jump."
        } else {
            "Sliding pieces are stopped by pieces and by holes, not by the free ball, which they \
             sweep up; leaping pieces jump, but never onto a hole."
        }
    } else if rules.board().holes.is_empty() {
        "Sliding pieces are stopped by pieces and by the ball; leaping pieces jump."
    } else {
        "Sliding pieces are stopped by pieces, by the ball and by holes; leaping pieces jump, \
         but never onto a hole."
    };
    let mut text = format!("{who}, as shown above, {target} {slides}");
    if t.actions > 0 {
        text.push_str(&format!(
            " The turn has {} action points: each action (a move, a kick, a shot, a pass, a take) \
             costs one, so a turn is at most {} actions, whatever else it allows.",
            t.actions, t.actions
        ));
    }
    if !rules.has_goal_squares() {
        // No goal squares: pieces are the goals (`target`).
    } else if rules.pieces().iter().all(|p| p.goals == GoalAccess::Never) {
        text.push_str(" A piece may cross a goal square but may not stop on one.");
    } else {
        text.push_str(
            " A piece may cross a goal square; it stops on one only as the board's rules above \
             allow.",
        );
    }
    if rules.pieces().iter().any(|p| p.zone.is_some()) {
        text.push_str(" A piece never ends a move where it may not stand (see the pieces).");
    }
    text
}

/// Item 2 of a kicked ball: who kicks, how often, in which order.
fn kicks(rules: &Rules) -> String {
    if boyers_turn(rules) {
        let per = times(rules.kick().per_piece);
        return format!(
            "Then it may kick the ball: a piece of its own standing next to the ball (a king's \
             step away), the piece that just moved included, kicks it. While the ball stops next \
             to a piece of the same side that may still kick, that piece may kick it on (a pass), \
             and so on. Each piece kicks at most {per} per turn. Kicks move only the ball."
        );
    }
    let enter = |p: &PieceType| p.kick_mode == KickMode::Enter && !p.kicks.is_empty();
    let mut text = kickers_beside(rules);
    if rules.pieces().iter().any(enter) {
        text.push_str(&entering_words(rules, enter));
    }
    text.push_str(&kick_counts(rules));
    text + &kick_tail(rules, enter)
}

/// The start of item 2: when the side may kick, and which pieces kick from beside the ball.
fn kickers_beside(rules: &Rules) -> String {
    let t = rules.turn();
    let beside = |p: &PieceType| p.kick_mode != KickMode::Enter && !p.kicks.is_empty();
    let mut text = match (t.order, kicks_beside(rules)) {
        (Order::MoveFirst, true) => "Then it may kick the ball:".to_owned(),
        (Order::MoveFirst, false) => "It may also kick the ball.".to_owned(),
        (Order::Any, _) if t.moves == 1 => {
            "It may also kick the ball, before or after its piece move, in any order.".to_owned()
        }
        (Order::Any, _) => {
            "It may also kick the ball, before, between or after its moves, in any order."
                .to_owned()
        }
    };
    if kicks_beside(rules) {
        let who = which_pieces(rules, |p| beside(p) || p.kicks.is_empty());
        let who = if who == "every piece" { "a piece".to_owned() } else { format!("one of {who}") };
        let moved =
            if t.order == Order::MoveFirst { ", the piece that just moved included," } else { "" };
        if t.order == Order::Any {
            text.pop();
            text.push(':');
        }
        text.push_str(&format!(
            " {who} of its own standing next to the ball (a king's step away){moved} kicks it."
        ));
    }
    text
}

/// The middle of item 2: passes, and how many kicks a piece and the side may make.
fn kick_counts(rules: &Rules) -> String {
    let t = rules.turn();
    if t.kicks == 1 {
        // A reader of Boyer's game expects passes: say there are none.
        return " The side kicks at most once a turn: there are no passes.".to_owned();
    }
    let mut text = String::new();
    if kicks_beside(rules) {
        text.push_str(
            " While the ball stops where a piece of the same side may still kick it, that piece \
             may kick it on (a pass), and so on.",
        );
    } else if t.moves > 1 {
        text.push_str(
            " Where the ball stops, another piece of the same side that has not moved yet may \
             step onto it and kick it on (a pass), and so on.",
        );
    }
    text.push_str(&format!(" Each piece kicks at most {} per turn", times(rules.kick().per_piece)));
    if t.kicks > 0 {
        text.push_str(&format!(", and the side at most {} in all", times(t.kicks)));
    }
    text.push('.');
    text
}

/// The end of item 2: kicking again after others, and what kicks move.
fn kick_tail(rules: &Rules, enter: impl Fn(&PieceType) -> bool) -> String {
    let t = rules.turn();
    let mut text = String::new();
    if t.order == Order::Any && rules.kick().per_piece > 1 {
        text.push_str(" A piece may kick again after other pieces have moved or kicked.");
    }
    if !rules.pieces().iter().any(enter) {
        text.push_str(" Kicks move only the ball.");
    }
    text
}

/// How entering kickers kick, and what that costs the turn.
fn entering_words(rules: &Rules, enter: impl Fn(&PieceType) -> bool) -> String {
    let who = which_pieces(rules, enter);
    let every = who == "every piece";
    let (who, kick, own) = if every {
        ("Every piece".to_owned(), "kicks", "its")
    } else {
        (super::capitalised(&who), "kick", "their")
    };
    let how = match rules.kick().enter {
        EnterBy::Adjacent => "from a square next to it (a king's step)".to_owned(),
        EnterBy::Move => format!("by one of {own} own moves"),
        EnterBy::Push => {
            "from a square next to it (a king's step), pushing it on the same way".to_owned()
        }
    };
    let cost = if rules.turn().moves == 1 {
        "that step is the turn's piece move (so a turn moves a piece or kicks, not both)"
    } else {
        "that step is one of the turn's piece moves"
    };
    format!(
        " {who} {kick} by stepping onto the ball's square {how}: {cost}, and the kick must follow at once."
    )
}

/// Item 2 of a carried ball: actions in place.
fn ball_actions(rules: &Rules) -> String {
    let c = rules.ball().carried;
    let in_place = (c.pass && !c.shoot)
        || c.take_from_friend
        || matches!(c.steal, crate::rules::Steal::InPlace | crate::rules::Steal::Both);
    let mut text = if in_place {
        "Instead of moving, a piece may hand the ball over in place, neither piece moving \
         (see The ball below): that counts as its move."
            .to_owned()
    } else {
        "The ball changes hands only as a piece moves (see The ball below).".to_owned()
    };
    if c.shoot {
        let order = if rules.turn().order == Order::Any {
            "before, between or after the moves, in any order"
        } else {
            "after the moves"
        };
        text.push_str(&format!(
            " The holder may also shoot the ball, {order}: a shot is a kick, and each piece \
             shoots at most {} per turn.",
            times(rules.kick().per_piece)
        ));
    }
    text
}

/// The last item: when the turn ends, the null turn, a side without a turn.
fn stopping(rules: &Rules) -> String {
    let t = rules.turn();
    let several = !(carried(rules) || ball_less(rules))
        || t.moves > 1
        || rules.ball().carried.shoot && carried(rules);
    let mut text = String::new();
    if several {
        if t.min_moves > 0 {
            let moves = match t.min_moves {
                1 => "a piece move".to_owned(),
                n => format!("{n} piece moves"),
            };
            text.push_str(&format!(
                "A turn must make {moves}, as far as it can (sprints, dribbles, kicks, passes \
                 and takes are not moves): while it owes one as many actions as it has left, \
                 its next action must be a move. "
            ));
        }
        text.push_str(if t.end_early {
            "The side may stop after any of these actions. "
        } else {
            "The side must go on while it can: its turn ends only when it can neither move nor \
             kick any more. "
        });
    }
    text.push_str(match (t.null, carried(rules) || ball_less(rules)) {
        (NullTurn::Never, false) => "A turn must move a piece or kick the ball.",
        (NullTurn::Never, true) if rules.ball().carried.shoot => {
            "A turn must move a piece or shoot."
        }
        (NullTurn::Never, true) => "A turn must move a piece.",
        (NullTurn::WhenAdjacent, _) => {
            "A side may also do nothing at all, but only when one of its pieces stands next to \
             the ball at the start of its turn."
        }
        (NullTurn::Always, _) => "A side may also do nothing at all.",
    });
    text.push_str(match rules.end().no_moves {
        NoMoves::Pass => " A side that has no legal turn passes.",
        NoMoves::Draw => " When the side to move has no legal turn, the game is drawn.",
    });
    if !boyers_turn(rules) && !carried(rules) {
        let royal = rules.pieces().iter().any(|p| p.royal);
        text.push_str(if royal {
            " A point (a goal, or a royal piece captured) ends the turn at once."
        } else {
            " A goal ends the turn at once."
        });
    }
    text
}
