//! Football-specific warnings about a definition that compiles: things the rules allow but an
//! author probably did not mean. They need the engine, so they run after compilation.

use crate::definition::{Definition, Diagnostic};
use crate::movegen::{kick_destinations, legal_turns, null_allowed};
use crate::position::{Placement, Position};
use crate::rules::{OwnGoal, PieceKind, Rules};
use crate::side::Side;
use crate::square::Square;

/// Every warning about `def`.
#[must_use]
pub fn lint(def: &Definition) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    unreachable_goals(def, &mut out);
    forced_pass_at_start(def, &mut out);
    out
}

/// Goals that no kick of any piece can ever put the ball on, even on an empty board.
fn unreachable_goals(def: &Definition, out: &mut Vec<Diagnostic>) {
    let rules = &def.rules;
    for side in Side::ALL {
        let key = if side == Side::White { "white" } else { "black" };
        let Some(at) = def.location(&["goals", key]) else { continue };
        for &goal in rules.goals(side) {
            if !reachable(rules, side, goal) {
                out.push(
                    Diagnostic::warning(
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
                    let placement = Placement {
                        pieces: vec![(kicker, side, PieceKind(kind as u8))],
                        ball,
                        side,
                        turns: rules.turn().no_goal_before,
                    };
                    let pos = Position::from_placement(rules, &placement);
                    kick_destinations(&pos, kicker).contains(&goal)
                })
            })
        })
    })
}

/// A start position in which the side to move can do nothing but pass.
fn forced_pass_at_start(def: &Definition, out: &mut Vec<Diagnostic>) {
    let Ok(pos) = Position::from_fen(&def.rules, def.rules.setup_fen()) else { return };
    let turns = legal_turns(&pos);
    if turns.len() == 1 && turns[0].is_null() && !null_allowed(&pos) {
        let Some(at) = def.location(&["setup", "fen"]) else { return };
        out.push(
            Diagnostic::warning(
                format!("at the start, {} has no legal turn and can only pass", pos.side().name()),
                at,
            )
            .with_help("give its pieces room to move, or put one of them next to the ball"),
        );
    }
}
