//! A finished position in words: why the game is over, for the messages that refuse to play on.

use std::fmt;

use crate::position::{Outcome, Position};
use crate::side::Side;
use crate::square::Square;

/// How a finished position ended, with what its words need ([`Position::finished`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// How the game ended.
    pub outcome: Outcome,
    /// The ball's square, or in a game without a ball the goal square a scorer stands on
    /// (`None` when no piece stands on one).
    pub ball: Option<Square>,
    /// The score, White's first, where the game keeps one (a match).
    pub score: Option<[u16; 2]>,
    /// Whether the game has no ball (a piece on a goal square scores).
    pub ball_less: bool,
    /// The points that win a match (`end.goals`; 0 for none).
    pub goals: u32,
    /// The turn limit (`end.max_turns`).
    pub max_turns: u32,
}

impl Position<'_> {
    /// How the game has ended in this position, if it has ([`Position::outcome`]), with what a
    /// message about it says.
    #[must_use]
    pub fn finished(&self) -> Option<Finished> {
        let end = self.rules.end();
        self.outcome().map(|outcome| Finished {
            outcome,
            ball: self.ball.or_else(|| Side::ALL.into_iter().find_map(|s| self.piece_on_goal(s))),
            score: end.keeps_score().then_some(self.score),
            ball_less: !self.rules.has_ball(),
            goals: end.goals,
            max_turns: end.max_turns,
        })
    }
}

/// "White has scored, the ball on the goal square e9", "White has won the match 3-0, first to
/// 3", "the turn limit of 60 turns is reached with White ahead 2-1: White wins the match".
impl fmt::Display for Finished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = self.max_turns;
        match (self.outcome, self.score) {
            (Outcome::Goal { winner, own_goal: false }, _) => match (self.ball, self.ball_less) {
                (Some(at), false) => {
                    write!(f, "{} has scored, the ball on the goal square {at}", winner.name())
                }
                (Some(at), true) => {
                    write!(f, "{} has scored, a piece on the goal square {at}", winner.name())
                }
                (None, _) => write!(f, "{} has scored", winner.name()),
            },
            (Outcome::Goal { winner, own_goal: true }, _) => {
                write!(f, "{} has scored by an own goal of {}", winner.name(), (!winner).name())?;
                match self.ball {
                    Some(at) => write!(f, ", the ball on {at}"),
                    None => Ok(()),
                }
            }
            (Outcome::RoyalCaptured { winner }, _) => write!(
                f,
                "{} has captured the last royal piece of {}",
                winner.name(),
                (!winner).name()
            ),
            (Outcome::Match { winner }, score) => {
                write!(f, "{} has won the match", winner.name())?;
                if let Some([w, b]) = score {
                    write!(f, " {w}-{b}")?;
                }
                write!(f, ", first to {}", self.goals)
            }
            (Outcome::MostGoals { winner }, score) => {
                let [w, b] = score.unwrap_or_default();
                write!(
                    f,
                    "the turn limit of {limit} turns is reached with {} ahead {w}-{b}: {} wins \
                     the match",
                    winner.name(),
                    winner.name()
                )
            }
            (Outcome::TurnLimit, Some([w, b])) => {
                write!(f, "the turn limit of {limit} turns is reached at {w}-{b}: a draw")
            }
            (Outcome::TurnLimit, None) => {
                write!(f, "the turn limit of {limit} turns is reached: a draw")
            }
            (Outcome::Repetition, _) => f.write_str("a position has come back the times that draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::definition::load;
    use crate::position::Position;

    /// The words for the position `fen` of `variant`.
    fn words(variant: &str, fen: &str) -> Option<String> {
        let def = load(variant).unwrap();
        Position::from_fen(&def.rules, fen).unwrap().finished().map(|f| f.to_string())
    }

    #[test]
    fn every_ending_is_named() {
        assert_eq!(words("boyer-1951", "rnbq1kbnr/9/9/9/4a4/9/9/9/RNBQ1KBNR w 9"), None);
        assert_eq!(
            words("boyer-1951", "4a4/9/9/9/9/9/9/9/K8 b 3").as_deref(),
            Some("White has scored, the ball on the goal square e9")
        );
        assert_eq!(
            words("boyer-1951", "4a4/9/9/9/9/9/9/9/K8 w 3").as_deref(),
            Some("White has scored by an own goal of Black, the ball on e9")
        );
        let soccer = "****3****/11/5g5/11/1d2d1d2d1/11/1r1b3b1r1/11/3s3s3/5o5/3S3S3/11/1R1B3B1R1/11/1D2D1D2D1/11/5G5/11/****3****";
        assert_eq!(
            words("soccer-chess-1998", &format!("{soccer} w 60 2-1")).as_deref(),
            Some(
                "the turn limit of 60 turns is reached with White ahead 2-1: White wins the match"
            )
        );
        assert_eq!(
            words("soccer-chess-1998", &format!("{soccer} w 60 1-1")).as_deref(),
            Some("the turn limit of 60 turns is reached at 1-1: a draw")
        );
        assert_eq!(
            words("mini", "rnb1knr/7/7/3a3/7/7/RNB1KNR w 120").as_deref(),
            Some("the turn limit of 120 turns is reached: a draw")
        );
        let apo = "***1k1***/2r3b2/9/1b2p2r1/3n1n3/4q4/2p3p2/4a4/2P3P2/4Q4/3N1N3/1R2P2B1/9/2B3R2/***1K1***";
        assert_eq!(
            words("apo-chessball", &format!("{apo} w 9 1-3")).as_deref(),
            Some("Black has won the match 1-3, first to 3")
        );
        assert_eq!(
            words("tests/data/rules/captures.toml", "5/5/2a2/1k3/5 w 4 -").as_deref(),
            Some("Black has captured the last royal piece of White")
        );
    }
}
