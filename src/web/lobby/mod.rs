//! The lobby: accounts ([`accounts`]), seeks and challenges ([`seeks`]), the games they make
//! between accounts, with clocks ([`clock`], [`flags`]), public pages, spectators, presence and
//! chat ([`games`]). Everything is kept in the database ([`crate::web::db`]); the games
//! themselves are held and played as every game of the server is ([`crate::web::session`]).

pub mod accounts;
pub mod clock;
pub mod flags;
pub mod games;
pub mod mail;
pub mod seeks;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::side::{BySide, Side};
use crate::web::session::lock;

/// What the lobby holds in memory: its change counter, and who follows each game.
pub struct Hall {
    changes: watch::Sender<u64>,
    watchers: Mutex<HashMap<String, Arc<Watchers>>>,
}

impl Default for Hall {
    fn default() -> Hall {
        Hall { changes: watch::channel(0).0, watchers: Mutex::new(HashMap::new()) }
    }
}

/// Who follows a game's events now: its players (presence) and spectators.
#[derive(Default)]
pub struct Watchers {
    counts: Mutex<(BySide<usize>, usize)>,
}

/// A follower of a game, counted while it is held.
pub struct Following {
    watchers: Arc<Watchers>,
    side: Option<Side>,
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut counts = lock(&self.watchers.counts);
        match self.side {
            Some(side) => counts.0[side] = counts.0[side].saturating_sub(1),
            None => counts.1 = counts.1.saturating_sub(1),
        }
    }
}

impl Hall {
    /// Tells the lobby's pages that seeks or games changed.
    pub fn announce(&self) {
        self.changes.send_modify(|v| *v += 1);
    }

    /// Waits for the lobby's changes.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Counts a follower of game `id`: the player of `side`, or a spectator.
    #[must_use]
    pub fn follow(&self, id: &str, side: Option<Side>) -> Following {
        let mut all = lock(&self.watchers);
        if all.len() > 10_000 {
            all.retain(|_, w| Arc::strong_count(w) > 1);
        }
        let watchers = all.entry(id.to_owned()).or_default().clone();
        drop(all);
        let mut counts = lock(&watchers.counts);
        match side {
            Some(side) => counts.0[side] += 1,
            None => counts.1 += 1,
        }
        drop(counts);
        Following { watchers, side }
    }

    /// Whether each side's player follows game `id`, and how many spectators do.
    #[must_use]
    pub fn followers(&self, id: &str) -> (BySide<bool>, usize) {
        let all = lock(&self.watchers);
        let Some(watchers) = all.get(id) else {
            return (BySide { white: false, black: false }, 0);
        };
        let counts = lock(&watchers.counts);
        (BySide { white: counts.0.white > 0, black: counts.0.black > 0 }, counts.1)
    }
}
