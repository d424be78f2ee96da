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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::side::{BySide, Side};
use crate::web::session::{Beacon, lock};

/// What the lobby holds in memory: its change counter, who follows each game, and a mark of
/// each game's chat that changes with every message written or deleted.
pub struct Hall {
    changes: watch::Sender<u64>,
    watchers: Mutex<HashMap<String, Arc<Watchers>>>,
    chats: Mutex<HashMap<String, u64>>,
    /// The last chat mark given, first the time the server started: a mark is never given
    /// twice, across restarts too, so that a page never takes a new chat for one it has read.
    serial: AtomicU64,
}

impl Default for Hall {
    fn default() -> Hall {
        Hall {
            changes: watch::channel(0).0,
            watchers: Mutex::new(HashMap::new()),
            chats: Mutex::new(HashMap::new()),
            serial: AtomicU64::new(u64::try_from(crate::web::db::now_ms()).unwrap_or(0)),
        }
    }
}

/// Who follows a game's events now: its players (presence) and spectators.
#[derive(Default)]
pub struct Watchers {
    counts: Mutex<(BySide<usize>, usize)>,
}

/// A follower of a game, counted while it is held; the game's pages are told when it comes
/// and when it goes.
pub struct Following {
    watchers: Arc<Watchers>,
    side: Option<Side>,
    beacon: Arc<Beacon>,
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut counts = lock(&self.watchers.counts);
        match self.side {
            Some(side) => counts.0[side] = counts.0[side].saturating_sub(1),
            None => counts.1 = counts.1.saturating_sub(1),
        }
        drop(counts);
        self.beacon.announce();
    }
}

impl Hall {
    /// Tells the lobby's pages that seeks or games changed.
    pub fn announce(&self) {
        self.changes.send_modify(|v| *v += 1);
    }

    /// Notes that game `id`'s chat changed (a message written or deleted).
    pub fn chat_changed(&self, id: &str) {
        let mark = self.serial.fetch_add(1, Ordering::Relaxed) + 1;
        let mut chats = lock(&self.chats);
        if chats.len() >= 100_000 {
            // Forgotten marks read as 0, which no page has read since the marks were given.
            chats.clear();
        }
        chats.insert(id.to_owned(), mark);
    }

    /// The mark of game `id`'s chat: it changes with every message written or deleted.
    #[must_use]
    pub fn chat_mark(&self, id: &str) -> u64 {
        lock(&self.chats).get(id).copied().unwrap_or(0)
    }

    /// Waits for the lobby's changes.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Counts a follower of game `id`: the player of `side`, or a spectator; the game's pages
    /// are told through its `beacon`, now and when the follower goes.
    #[must_use]
    pub fn follow(&self, id: &str, side: Option<Side>, beacon: Arc<Beacon>) -> Following {
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
        beacon.announce();
        Following { watchers, side, beacon }
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
