//! The deadlines of lobby games' clocks: when a side to move runs out of time, the server ends
//! its game at once (a page or a bot need not be there to claim it). Each game is watched at its
//! latest deadline; a game whose turn was played meanwhile has a later one, and is left going.

use std::collections::{BTreeSet, HashMap};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use crate::web::clients::Client;
use crate::web::db::now_ms;
use crate::web::queue::Kind;
use crate::web::session::{Shared, lock};
use crate::web::{ApiError, App};

/// The deadlines watched, earliest first.
#[derive(Default)]
pub struct Flags {
    due: Mutex<Due>,
    wake: Notify,
}

#[derive(Default)]
struct Due {
    by_time: BTreeSet<(i64, String)>,
    by_game: HashMap<String, i64>,
}

impl Flags {
    /// Watches game `id`, whose side to move runs out of time at `deadline` (instead of any
    /// deadline it had).
    pub fn watch(&self, deadline: i64, id: &str) {
        let mut due = lock(&self.due);
        if let Some(old) = due.by_game.insert(id.to_owned(), deadline) {
            due.by_time.remove(&(old, id.to_owned()));
        }
        due.by_time.insert((deadline, id.to_owned()));
        let first = due.by_time.first().is_some_and(|(t, g)| *t == deadline && g == id);
        drop(due);
        if first {
            self.wake.notify_one();
        }
    }

    /// The games whose deadline is past at `now`, no longer watched.
    fn take_due(&self, now: i64) -> Vec<String> {
        let mut due = lock(&self.due);
        let mut out = Vec::new();
        while let Some((t, id)) = due.by_time.first().cloned() {
            if t > now {
                break;
            }
            due.by_time.remove(&(t, id.clone()));
            due.by_game.remove(&id);
            out.push(id);
        }
        out
    }

    fn next(&self) -> Option<i64> {
        lock(&self.due).by_time.first().map(|(t, _)| *t)
    }

    /// Ends the games of `app` whose side to move runs out of time, as their deadlines come,
    /// for ever: first those the database has going, then those watched as turns are played.
    pub async fn run(self: Arc<Self>, app: Arc<App>) {
        let db = app.store.db().clone();
        if let Ok(Ok(going)) = tokio::task::spawn_blocking(move || db.deadlines()).await {
            for (id, deadline) in going {
                self.watch(deadline, &id);
            }
        }
        loop {
            let wait = self.next().map(|t| t - now_ms());
            match wait {
                None => self.wake.notified().await,
                Some(ms) if ms > 0 => {
                    let ms = u64::try_from(ms).unwrap_or(u64::MAX).min(3_600_000);
                    let _ =
                        tokio::time::timeout(Duration::from_millis(ms), self.wake.notified()).await;
                }
                Some(_) => {}
            }
            for id in self.take_due(now_ms()) {
                let flagged = match read(&app, id).await {
                    Ok(session) => {
                        tokio::task::spawn_blocking(move || lock(&session).flag(now_ms()))
                            .await
                            .unwrap_or_else(|_| {
                                Err(ApiError::Internal("the clock's task failed".into()))
                            })
                    }
                    Err(e) => Err(e),
                };
                if let Err(e) = flagged {
                    (app.warn)(&format!("a clock could not be stopped: {e}"));
                }
            }
        }
    }
}

/// Game `id`: from memory, or read back on the work queue as the engine's turns are (never
/// refused), in a line of the server's own.
async fn read(app: &Arc<App>, id: String) -> Result<Shared, ApiError> {
    if let Some(session) = app.store.held_by_id(&id)? {
        return Ok(session);
    }
    let shared = app.clone();
    let server = Client::of(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    app.queue.run(server, Kind::Engine, move || shared.store.by_id(&id)).await
}
