//! The players kickoff knows: a person, random, greedy, and the engine at a level.

use std::fmt;
use std::str::FromStr;

use rand::RngExt;

use super::{DEFAULT_LEVEL, MAX_LEVEL};
use crate::eval::Eval;
use crate::movegen::{Mid, Turn, count_turns, first_scoring_turn, nth_turn};
use crate::position::Position;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// Any legal turn, uniformly at random.
    Random,
    /// A goal if it has one, otherwise a random turn.
    Greedy,
    /// The search at a level, 1 ..= [`MAX_LEVEL`].
    Engine(u8),
}

/// A player description that names no player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown player `{0}`: the players are human, random, greedy, engine and engine:LEVEL \
     (LEVEL 1 to {MAX_LEVEL}; engine alone is level {DEFAULT_LEVEL})"
)]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "human" => Ok(Player::Human),
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            "engine" => Ok(Player::Engine(DEFAULT_LEVEL)),
            other => other
                .strip_prefix("engine:")
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=MAX_LEVEL).contains(n))
                .map(Player::Engine)
                .ok_or_else(|| ParsePlayerError(text.to_owned())),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::Engine(level) => write!(f, "engine:{level}"),
        }
    }
}

impl Player {
    /// Whether this player claims a draw by repetition it may claim in `pos`: the engine does
    /// when its evaluation of the position is below even; the random and greedy players play on.
    #[must_use]
    pub fn claims_draw(self, pos: &Position<'_>) -> bool {
        matches!(self, Player::Engine(_)) && Eval::new(pos.rules()).static_value(pos) < 0
    }
}

/// A legal turn of `pos` drawn uniformly; none when the game is over. A position with too many
/// turns to count, or of action points that make counting costly ([`random_by_actions`]), gets
/// a turn built by random actions instead (each next action, or the end of the turn where it
/// may end, equally likely).
pub fn random_turn(pos: &Position<'_>, rng: &mut impl rand::Rng) -> Option<Turn> {
    if random_by_actions(pos) {
        return random_walk(pos, rng, false);
    }
    let Ok(count) = count_turns(pos) else {
        return random_walk(pos, rng, false);
    };
    if count == 0 {
        return None;
    }
    // The turn a full list would hold at that index, found without listing them all.
    let i = rng.random_range(0..count as usize);
    nth_turn(pos, i as u64)
}

/// A turn that scores if `pos` has one, otherwise a random turn. In a position with too many
/// turns to count, a turn built by random actions that takes any action that scores.
pub fn greedy_turn(pos: &Position<'_>, rng: &mut impl rand::Rng) -> Option<Turn> {
    if random_by_actions(pos) || count_turns(pos).is_err() {
        return random_walk(pos, rng, true);
    }
    first_scoring_turn(pos, pos.side()).or_else(|| random_turn(pos, rng))
}

/// Whether the rules give turns of so many piece moves that counting a position's turns is
/// hopeless (they run to millions), so turns are built action by action without trying.
#[must_use]
pub fn beyond_counting(pos: &Position<'_>) -> bool {
    pos.rules().turn().moves > 2
}

/// Whether a random turn is built one random action at a time rather than drawn from the
/// counted turns: where counting is hopeless, and where it costs too much for every turn of
/// many games (action points with two moves or more: tens of thousands of turns of any two
/// actions, counted in milliseconds, where random games play tens of thousands of turns).
#[must_use]
pub fn random_by_actions(pos: &Position<'_>) -> bool {
    let turn = pos.rules().turn();
    beyond_counting(pos) || (turn.actions >= 2 && turn.moves >= 2)
}

/// A turn built one random action at a time; `greedy` takes an action that scores for the
/// mover when there is one.
fn random_walk(pos: &Position<'_>, rng: &mut impl rand::Rng, greedy: bool) -> Option<Turn> {
    if pos.is_goal() {
        return None;
    }
    let mut mid = Mid::start(pos);
    let mut turn = Turn::null();
    let mut actions = Vec::new();
    loop {
        actions.clear();
        mid.actions(&mut actions);
        let scoring = greedy
            .then(|| actions.iter().find(|&&a| mid.apply(a).scored() == Some(pos.side())))
            .flatten();
        let stop = !turn.is_null() && mid.may_stop(!actions.is_empty());
        let choices = actions.len() + usize::from(stop);
        if choices == 0 {
            break;
        }
        let pick = match scoring {
            Some(&a) => Some(a),
            None => actions.get(rng.random_range(0..choices)).copied(),
        };
        let Some(action) = pick else { break };
        turn.actions.push(action);
        mid = mid.apply(action);
    }
    if turn.is_null() && !crate::movegen::is_legal(pos, &turn) {
        return None;
    }
    Some(turn)
}

#[cfg(test)]
mod tests {
    use super::Player;
    use crate::search::{DEFAULT_LEVEL, MAX_LEVEL};

    #[test]
    fn players_read_and_print_alike() {
        for text in ["human", "random", "greedy", "engine:1", "engine:4"] {
            assert_eq!(text.parse::<Player>().unwrap().to_string(), text);
        }
        assert_eq!("engine".parse::<Player>(), Ok(Player::Engine(DEFAULT_LEVEL)));
        assert_eq!(" Engine:2 ".parse::<Player>(), Ok(Player::Engine(2)));
        for bad in ["engine:0", &format!("engine:{}", MAX_LEVEL + 1), "engine:", "stockfish", ""] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
    }
}
