//! "Goals and the end": goals, points and matches, draws (rules:
//! `docs/rules.md#the-end-of-the-game`, `docs/rules.md#matches`).

use crate::render::explain::{ball_less, carried, ordinal, para, section, which_pieces};
use crate::rules::{AfterGoal, NextAfterGoal, OwnGoal, RepetitionDraw, Rules};

pub(super) fn end(out: &mut String, rules: &Rules) {
    section(out, "Goals and the end");
    let e = rules.end();
    if e.keeps_score() {
        match_rules(out, rules);
    } else {
        para(out, "- ", &goal_words(rules));
        if rules.pieces().iter().any(|p| p.royal) {
            let royals = which_pieces(rules, |p| p.royal);
            let text = format!(
                "A side that captures the last of the other side's royal pieces ({royals}) \
                 wins."
            );
            para(out, "- ", &text);
        }
    }
    match rules.turn().no_goal_before {
        0 => {}
        1 => para(out, "- ", "No goal may be scored on White's first turn."),
        2 => para(out, "- ", "No goal may be scored on either side's first turn."),
        n => para(
            out,
            "- ",
            &format!("No goal may be scored until {n} turns (of both sides) have been completed."),
        ),
    }
    if e.repetition > 0 {
        let text = match e.repetition_draw {
            RepetitionDraw::Automatic => format!(
                "The game is drawn when the same position (same board, same side to move) occurs \
                 for the {} time.",
                ordinal(e.repetition)
            ),
            RepetitionDraw::Claim => format!(
                "When the same position (same board, same side to move) occurs for the {} time, \
                 the side to move may claim a draw (`claim` in play) or play on.",
                ordinal(e.repetition)
            ),
        };
        para(out, "- ", &text);
    }
    if e.max_turns > 0 && e.keeps_score() {
        let each = if e.max_turns.is_multiple_of(2) {
            format!(" ({} for each side)", e.max_turns / 2)
        } else {
            String::new()
        };
        let text = format!(
            "After {} turns{each} the side with more points wins; equal scores draw.",
            e.max_turns
        );
        para(out, "- ", &text);
    } else if e.max_turns > 0 {
        para(out, "- ", &format!("The game is drawn after {} turns.", e.max_turns));
    }
}

/// How the game ends at the first goal.
fn goal_words(rules: &Rules) -> String {
    if ball_less(rules) {
        return "A side whose piece ends its move on one of that side's goal squares wins at \
                once."
            .to_owned();
    }
    if carried(rules) && rules.ball().carried.shoot {
        return format!(
            "A side whose piece holds the ball on one of that side's goal squares after its \
             move, or shoots it onto one, wins at once. {}",
            shot_own_goal(rules)
        );
    }
    if carried(rules) {
        return "A side whose piece holds the ball on one of that side's goal squares after its \
                move wins at once. There are no own goals: a holder on its own side's goal \
                squares scores nothing."
            .to_owned();
    }
    let own = match rules.end().own_goal {
        OwnGoal::Counts => "wins, also when it is the kicker's own goal (an own goal)",
        OwnGoal::Forbidden => "wins; kicking the ball into one's own goal is not allowed",
    };
    format!(
        "A kick that puts the ball on a goal square ends the turn and the game: the side that \
         attacks that goal {own}."
    )
}

/// What a shot onto one's own goal does (a carried ball that holders shoot).
fn shot_own_goal(rules: &Rules) -> &'static str {
    match rules.end().own_goal {
        OwnGoal::Counts => {
            "A shot onto one's own goal scores for the other side (an own goal); a holder on its \
             own goal scores nothing."
        }
        OwnGoal::Forbidden => {
            "A shot onto one's own goal is not allowed, and a holder on its own goal scores \
             nothing."
        }
    }
}

/// Points, the match's length, what follows a point and who moves next.
fn match_rules(out: &mut String, rules: &Rules) {
    let e = rules.end();
    let targets = || which_pieces(rules, |p| p.target);
    let scoring = if !rules.has_goal_squares() {
        format!(
            "A side scores a point when its shot or pass reaches an enemy goal ({}).",
            targets()
        )
    } else if ball_less(rules) {
        "A side scores a point when one of its pieces ends its move on one of its goal squares."
            .to_owned()
    } else if carried(rules) && rules.ball().carried.shoot {
        format!(
            "A side scores a point when one of its pieces holds the ball on one of its goal \
             squares after its move, or shoots it onto one. {}",
            shot_own_goal(rules)
        )
    } else if carried(rules) {
        "A side scores a point when one of its pieces holds the ball on one of its goal squares \
         after its move."
            .to_owned()
    } else {
        let own = match e.own_goal {
            OwnGoal::Counts => "also when it is the kicker's own goal (an own goal)",
            OwnGoal::Forbidden => "kicking the ball into one's own goal is not allowed",
        };
        format!(
            "A kick that puts the ball on a goal square ends the turn and scores a point for the \
             side that attacks that goal; {own}."
        )
    };
    let mut text = scoring;
    if rules.has_goal_squares() && rules.tables().has_targets {
        text.push_str(&format!(
            " An enemy shot or pass that reaches one of {} (a goal) scores a point too.",
            targets()
        ));
    }
    if rules.tables().has_targets {
        text.push_str(
            " A goal is untouchable: no piece moves onto it, even when it holds the ball.",
        );
    }
    if rules.pieces().iter().any(|p| p.royal) {
        let royals = which_pieces(rules, |p| p.royal);
        text.push_str(&format!(" Capturing one of {royals} (royal) scores a point too."));
    }
    para(out, "- ", &text);
    // goals = 0 is a match that only the clock ends (`end.max_turns`).
    if e.goals > 0 {
        let points =
            if e.goals == 1 { "1 point".to_owned() } else { format!("{} points", e.goals) };
        para(out, "- ", &format!("The first side to {points} wins the game."));
    }
    let after = match e.after_goal {
        AfterGoal::Reset if ball_less(rules) => {
            "After a point every piece returns to the start position; the score stays.".to_owned()
        }
        AfterGoal::Reset => {
            "After a point every piece and the ball return to the start position; the score \
             stays."
                .to_owned()
        }
        AfterGoal::BallToSpot => match rules.start().ball {
            Some(spot) => format!(
                "After a point only the ball returns to its start square, {spot}; if a piece \
                 stands there, every piece returns to the start position too. The score stays."
            ),
            None => "After a point every piece returns to the start position (there is no \
                     ball to return alone); the score stays."
                .to_owned(),
        },
        AfterGoal::End => String::new(),
    };
    let next = match e.next {
        NextAfterGoal::Other => " Then the other side moves, as after any turn.",
        NextAfterGoal::Conceding => " Then the side that conceded the point moves.",
    };
    let serve = match e.serve.and_then(|letter| rules.kind_of(letter)) {
        Some(kind) if e.after_goal == AfterGoal::Reset => {
            format!(" That side serves: its {} holds the ball.", rules.piece(kind).name)
        }
        _ => String::new(),
    };
    if e.goals != 1 {
        para(out, "- ", &format!("{after}{next}{serve}"));
    }
}
