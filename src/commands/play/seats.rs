//! Who plays each side: a person at the keyboard or the computer.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::game::Game;
use crate::movegen::{Turn, legal_turns_checked, play};
use crate::side::BySide;

/// The computer's level when `engine` is given without one.
pub const DEFAULT_LEVEL: u8 = 0;

/// One side's player.
pub enum Seat {
    /// A person types the turns.
    Human,
    /// The computer chooses them.
    Computer(Box<Computer>),
}

/// A computer player.
pub struct Computer {
    kind: Kind,
    rng: ChaCha8Rng,
}

enum Kind {
    Random,
    Greedy,
}

impl Computer {
    /// What plays: `random`, `greedy`.
    #[must_use]
    pub fn describe(&self) -> &'static str {
        match self.kind {
            Kind::Random => "random",
            Kind::Greedy => "greedy",
        }
    }

    /// The turn to play in the game's position; none when it has too many turns to list.
    pub fn choose(&mut self, game: &Game<'_>) -> Option<Turn> {
        let pos = game.position();
        let turns = legal_turns_checked(pos).ok()?;
        if let Kind::Greedy = self.kind {
            let me = pos.side();
            if let Some(goal) =
                turns.iter().find(|t| play(pos, t).rules().scorer(play(pos, t).ball()) == Some(me))
            {
                return Some(goal.clone());
            }
        }
        let i = rand::RngExt::random_range(&mut self.rng, 0..turns.len());
        Some(turns[i].clone())
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

/// The two seats from their descriptions.
///
/// # Errors
/// A description that names no player.
pub fn seats(white: &str, black: &str, seed: Option<u64>) -> Result<BySide<Seat>, String> {
    let seat = |text: &str, salt: u64| -> Result<Seat, String> {
        let kind = match text {
            "human" => return Ok(Seat::Human),
            "random" => Kind::Random,
            "greedy" => Kind::Greedy,
            other => {
                return Err(format!(
                    "unknown player `{other}`: the players are human, random, greedy"
                ));
            }
        };
        Ok(Seat::Computer(Box::new(Computer { kind, rng: rng(seed.map(|s| s ^ salt)) })))
    };
    Ok(BySide { white: seat(white, 0)?, black: seat(black, 0x9e37_79b9_7f4a_7c15)? })
}
