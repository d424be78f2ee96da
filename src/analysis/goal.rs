//! What the forced-goal question counts as a goal: a point of the attacker (the side that seeks
//! it), however it comes (a goal, an own goal of the other side, a royal piece captured, the
//! point that wins a match). The game ending any other way (a goal or a point against the
//! attacker, the turn limit whoever leads, a repetition) is no goal: the defender has held out.
//!
//! The solver and the proof checker both ask [`judge`]; the proof's text names each leaf with
//! [`point`].

use std::fmt;

use crate::movegen::{Mid, Turn};
use crate::position::{Outcome, Position};
use crate::side::Side;

/// Whether the game is over for `attacker` in `after`, a position reached from one where
/// `attacker` had `start_score` points: `Some(true)` when it has scored a point since (its
/// score rose, or the game ended with its goal, an own goal of the other side or its capture
/// of the last royal piece), `Some(false)` when the game ended otherwise (a point against it,
/// the turn limit, even with `attacker` ahead), `None` when the game goes on.
#[must_use]
pub fn judge(after: &Position<'_>, attacker: Side, start_score: u16) -> Option<bool> {
    if after.score()[attacker.index()] > start_score {
        return Some(true);
    }
    after.outcome().map(|outcome| match outcome {
        Outcome::Goal { winner, .. }
        | Outcome::RoyalCaptured { winner }
        | Outcome::Match { winner } => winner == attacker,
        // Won on goals at the limit: no goal was scored by this turn.
        Outcome::MostGoals { .. } | Outcome::TurnLimit | Outcome::Repetition => false,
    })
}

/// How a point was scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// The scorer brought the ball to a goal it attacks.
    Goal,
    /// The other side kicked the ball into its own goal.
    OwnGoal,
    /// The scorer captured a royal piece.
    RoyalCapture,
}

/// The attacker's point a turn scored, as a proof's leaf names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// How it was scored.
    pub kind: PointKind,
    /// In a game that keeps a score (a match), the score after it, White's first.
    pub score: Option<[u16; 2]>,
    /// How the game ended with it, if it did (where the first goal ends the game, always).
    pub outcome: Option<Outcome>,
}

/// The point of `attacker` that `turn`, played in `before`, scores, if it scores one
/// ([`judge`] from `before`'s score); `None` for a turn after which the game goes on or ends
/// otherwise.
#[must_use]
pub fn point(before: &Position<'_>, turn: &Turn, attacker: Side) -> Option<Point> {
    let after = crate::movegen::play_unchecked(before, turn);
    if judge(&after, attacker, before.score()[attacker.index()]) != Some(true) {
        return None;
    }
    let mut mid = Mid::start(before);
    for &action in &turn.actions {
        mid = mid.apply(action);
    }
    // The board before a match's reset shows how the point came.
    let board = mid.position();
    let scorer = match board.ball() {
        Some(ball) => board.rules().scorer(ball),
        // Without a ball, the mover scored if one of its pieces stands where it scores.
        None => board.piece_on_goal(before.side()).map(|_| before.side()),
    };
    let kind = match scorer {
        Some(side) if side == before.side() => PointKind::Goal,
        Some(_) => PointKind::OwnGoal,
        None => PointKind::RoyalCapture,
    };
    let keeps_score = before.rules().end().keeps_score();
    Some(Point { kind, score: keeps_score.then(|| after.score()), outcome: after.outcome() })
}

/// "goal", "own goal", "royal piece captured"; in a match with the score after the point and
/// how the match ended with it, if it did: "goal, 2-1", "goal, 3-1: match won", "goal, 2-2: the
/// turn limit draws the match".
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            PointKind::Goal => "goal",
            PointKind::OwnGoal => "own goal",
            PointKind::RoyalCapture => "royal piece captured",
        })?;
        let Some([w, b]) = self.score else { return Ok(()) };
        write!(f, ", {w}-{b}")?;
        match self.outcome {
            Some(Outcome::Match { winner }) => write!(f, ": {} wins the match", winner.name()),
            Some(Outcome::MostGoals { winner }) => {
                write!(f, ": the turn limit ends the match, {} ahead", winner.name())
            }
            Some(Outcome::TurnLimit) => f.write_str(": the turn limit draws the match"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PointKind, judge, point};
    use crate::definition::load;
    use crate::movegen::{legal_turns, play_unchecked};
    use crate::position::{Outcome, Position};
    use crate::side::Side::{Black, White};

    const SOCCER: &str = "****3****/11/5g5/11/1d2d1d2d1/11/1r1b3b1r1/11/3s3s3/5o5/3S3S3/11/1R1B3B1R1/11/1D2D1D2D1/11/5G5/11/****3****";
    const APO: &str =
        "***1k1***/2r3b2/9/4p4/3n1n3/9/4b1p2/1R7/2PQ1aP2/9/5N1NB/4P4/9/q1B3R2/***1K1***";

    #[test]
    fn a_goal_own_goal_or_royal_capture_is_the_scorers_goal_only() {
        let boyer = load("boyer-1951").unwrap();
        let goal = Position::from_fen(&boyer.rules, "4a4/9/9/9/9/9/9/9/K8 b 3").unwrap();
        assert_eq!(judge(&goal, White, 0), Some(true));
        assert_eq!(judge(&goal, Black, 0), Some(false));
        // Black, who has just moved, put the ball into its own goal.
        let own = Position::from_fen(&boyer.rules, "4a4/9/9/9/9/9/9/9/K8 w 3").unwrap();
        assert_eq!(own.outcome(), Some(Outcome::Goal { winner: White, own_goal: true }));
        assert_eq!(judge(&own, White, 0), Some(true));
        assert_eq!(judge(&own, Black, 0), Some(false));
        let going = Position::start(&boyer.rules);
        assert_eq!(judge(&going, White, 0), None);
        let captures = load("tests/data/rules/captures.toml").unwrap();
        let kings = Position::from_fen(&captures.rules, "5/1K3/1k1a1/5/5 b 0 -").unwrap();
        let taken = legal_turns(&kings)
            .unwrap()
            .into_iter()
            .map(|t| play_unchecked(&kings, &t))
            .find(|p| p.outcome().is_some())
            .expect("Black's king takes White's");
        assert_eq!(taken.outcome(), Some(Outcome::RoyalCaptured { winner: Black }));
        assert_eq!(judge(&taken, Black, 0), Some(true));
        assert_eq!(judge(&taken, White, 0), Some(false));
    }

    #[test]
    fn the_turn_limit_is_no_goal_whoever_leads() {
        let soccer = load("soccer-chess-1998").unwrap();
        let ahead = Position::from_fen(&soccer.rules, &format!("{SOCCER} w 60 1-0")).unwrap();
        assert_eq!(ahead.outcome(), Some(Outcome::MostGoals { winner: White }));
        assert_eq!(judge(&ahead, White, 1), Some(false), "won on goals, not by a goal");
        assert_eq!(judge(&ahead, Black, 0), Some(false));
        // A point scored on the last turn is a goal, whatever the limit then decides.
        assert_eq!(judge(&ahead, White, 0), Some(true));
        let level = Position::from_fen(&soccer.rules, &format!("{SOCCER} w 60 1-1")).unwrap();
        assert_eq!(level.outcome(), Some(Outcome::TurnLimit));
        assert_eq!(judge(&level, White, 1), Some(false));
        let before = Position::from_fen(&soccer.rules, &format!("{SOCCER} w 59 1-0")).unwrap();
        assert_eq!(judge(&before, White, 1), None);
    }

    #[test]
    fn a_points_leaf_names_how_it_came_and_the_score() {
        let apo = load("apo-chessball").unwrap();
        let name = |pos: &Position<'_>, text: &str| {
            let turn = crate::turn_text::names::resolve(pos, text).unwrap();
            point(pos, &turn, pos.side())
        };
        let first = Position::from_fen(&apo.rules, &format!("{APO} b 0 0-0")).unwrap();
        let scored = name(&first, "Qe6>e7>d6>d1").unwrap();
        assert_eq!(scored.kind, PointKind::Goal);
        assert_eq!(scored.to_string(), "goal, 0-1");
        let last = Position::from_fen(&apo.rules, &format!("{APO} b 0 0-2")).unwrap();
        assert_eq!(
            name(&last, "Qe6>e7>d6>d1").unwrap().to_string(),
            "goal, 0-3: Black wins the match"
        );
        assert_eq!(name(&first, "Qe6"), None, "no point");
        let boyer = load("boyer-1951").unwrap();
        let near = Position::from_fen(&boyer.rules, "k8/9/4a4/4R4/9/9/9/9/K8 w 9").unwrap();
        assert_eq!(name(&near, ">e9").unwrap().to_string(), "goal");
    }
}
