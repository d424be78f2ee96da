//! Who plays each side: a person at the keyboard or the computer.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::Game;
use crate::movegen::Turn;
use crate::rules::Rules;
use crate::search::{Limits, Player, Searcher, greedy_turn, random_turn};
use crate::side::BySide;

/// One side's player.
pub enum Seat<'r> {
    /// A person types the turns.
    Human,
    /// The computer chooses them.
    Computer(Box<Computer<'r>>),
}

/// A computer player.
pub struct Computer<'r> {
    player: Player,
    rng: ChaCha8Rng,
    searcher: Option<Searcher<'r>>,
}

impl<'r> Computer<'r> {
    /// What plays: `random`, `greedy`, `engine:LEVEL`.
    #[must_use]
    pub fn describe(&self) -> String {
        self.player.to_string()
    }

    /// Whether it claims a draw it may claim in `pos` (see [`Player::claims_draw`]).
    #[must_use]
    pub fn claims_draw(&self, pos: &crate::position::Position<'_>) -> bool {
        self.player.claims_draw(pos)
    }

    /// Whether it takes a while to choose (the engine searches).
    #[must_use]
    pub fn thinks(&self) -> bool {
        matches!(self.player, Player::Engine(_))
    }

    /// The turn to play in the game's position; none when it has too many turns to list.
    pub fn choose(&mut self, game: &Game<'r>) -> Option<Turn> {
        let pos = game.position();
        match (self.player, &mut self.searcher) {
            (Player::Engine(level), Some(searcher)) => {
                let history = game.hashes();
                let past = &history[..history.len().saturating_sub(1)];
                searcher.search(pos, past, Limits::level(level)).ok()?.turn
            }
            (Player::Random, _) => random_turn(pos, &mut self.rng),
            _ => greedy_turn(pos, &mut self.rng),
        }
    }
}

/// A random-number generator from `seed`, or a fresh one.
#[must_use]
pub fn rng(seed: Option<u64>) -> ChaCha8Rng {
    let seed = seed.unwrap_or_else(|| {
        use std::hash::{BuildHasher, Hasher};
        std::hash::RandomState::new().build_hasher().finish()
    });
    ChaCha8Rng::seed_from_u64(seed)
}

/// The two seats from their descriptions (`human`, `random`, `greedy`, `engine[:LEVEL]`).
///
/// # Errors
/// A description that names no player.
pub fn seats<'r>(
    rules: &'r Rules,
    white: &str,
    black: &str,
    seed: Option<u64>,
) -> Result<BySide<Seat<'r>>, String> {
    let seat = |text: &str, salt: u64| -> Result<Seat<'r>, String> {
        let player: Player = text.parse().map_err(|e| format!("{e}"))?;
        let searcher = match player {
            Player::Human => return Ok(Seat::Human),
            Player::Engine(_) => Some(Searcher::new(rules)),
            _ => None,
        };
        let rng = rng(seed.map(|s| s ^ salt));
        Ok(Seat::Computer(Box::new(Computer { player, rng, searcher })))
    };
    Ok(BySide { white: seat(white, 0)?, black: seat(black, 0x9e37_79b9_7f4a_7c15)? })
}
