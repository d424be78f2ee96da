//! The players kickoff knows: a person, random, greedy, and the engine at a level.

use std::fmt;
use std::str::FromStr;

use rand::RngExt;

use super::{DEFAULT_LEVEL, MAX_LEVEL};
use crate::movegen::{Turn, check_turn_count, first_scoring_turn, nth_turn};
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

/// A legal turn of `pos` drawn uniformly; none when the game is over or the position has too
/// many turns to list.
pub fn random_turn(pos: &Position<'_>, rng: &mut impl rand::Rng) -> Option<Turn> {
    let count = check_turn_count(pos).ok()?;
    if count == 0 {
        return None;
    }
    // The turn a full list would hold at that index, found without listing them all.
    let i = rng.random_range(0..count as usize);
    nth_turn(pos, i as u64)
}

/// A turn that scores if `pos` has one, otherwise a random turn.
pub fn greedy_turn(pos: &Position<'_>, rng: &mut impl rand::Rng) -> Option<Turn> {
    check_turn_count(pos).ok()?;
    first_scoring_turn(pos, pos.side()).or_else(|| random_turn(pos, rng))
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
