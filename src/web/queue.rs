//! The work queue: every CPU-heavy request (a search, a simulation, a record opened, a
//! definition read or checked) waits here for one of a few worker threads.
//!
//! Clients are served by their share of the workers' time: each has its own line, and a worker
//! takes the first job of the client that has used the least time since it began waiting (a
//! client arriving starts level with the one served last). A client with many jobs waiting
//! delays another by about one job each, and a client whose jobs are long gets fewer turns. A request is refused (503) when the queue is full, or (429) when its
//! client already has its share waiting or running; a job that waited longer than the queue's
//! wait is refused when its turn comes. The engine's turns are never refused: there is one at a
//! time per game, and games are bounded. Workers run at a lower priority than the threads that
//! answer light requests, so that a busy queue does not slow the turns of a game.

use std::collections::{HashMap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::web::ApiError;
use crate::web::clients::Client;
use crate::web::limits::ServerLimits;
use crate::web::session::lock;

/// What a job is, for the queue's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A request a client waits for: refused when the queue or its client's share is full.
    Request,
    /// The engine's turn in a game: never refused.
    Engine,
}

/// The queue and its workers.
pub struct Queue {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    queued: usize,
    per_client: usize,
    wait: Duration,
}

#[derive(Default)]
struct State {
    /// Each client's line.
    lines: HashMap<Client, VecDeque<Job>>,
    /// Numbers the jobs in the order they came, to serve equal shares first come first.
    next: u64,
    /// The time used by the client served last: where a client arriving starts.
    floor: Duration,
    /// Jobs waiting.
    waiting: usize,
    /// Requests waiting (not the engine's turns, which are bounded by the games).
    requests: usize,
    /// The clients with jobs waiting or running: how many, and the time they have used.
    held: HashMap<Client, Share>,
    /// Jobs running.
    running: usize,
    /// The most jobs that ever ran at once.
    most_running: usize,
    /// The server is going away: workers stop.
    closed: bool,
}

/// A client's jobs waiting or running, and the workers' time it has used.
#[derive(Clone, Copy, Debug, Default)]
struct Share {
    jobs: usize,
    used: Duration,
}

/// What a job is charged when it starts, so that clients of equal shares take turns; the rest
/// of its time is charged when it ends.
const NOMINAL: Duration = Duration::from_millis(1);

struct Job {
    kind: Kind,
    since: Instant,
    /// Its number in the order jobs came.
    seq: u64,
    /// Runs the job, or refuses it when it came too late (`true`).
    run: Box<dyn FnOnce(bool) + Send>,
}

impl State {
    fn push(&mut self, client: Client, mut job: Job) {
        job.seq = self.next;
        self.next += 1;
        self.requests += usize::from(job.kind == Kind::Request);
        self.lines.entry(client).or_default().push_back(job);
        self.waiting += 1;
        let floor = self.floor;
        self.held.entry(client).or_insert(Share { jobs: 0, used: floor }).jobs += 1;
    }

    /// The next job: the first of the line of the client that has used the least time (of
    /// equal ones, the job that came first).
    fn pop(&mut self) -> Option<(Client, Job)> {
        let held = &self.held;
        let (&client, _) = self.lines.iter().min_by_key(|(client, line)| {
            (held.get(client).map_or(Duration::ZERO, |s| s.used), line.front().map(|j| j.seq))
        })?;
        let line = self.lines.get_mut(&client)?;
        let job = line.pop_front()?;
        if line.is_empty() {
            self.lines.remove(&client);
        }
        if let Some(share) = self.held.get_mut(&client) {
            self.floor = share.used;
            share.used += NOMINAL;
        }
        self.waiting -= 1;
        self.requests -= usize::from(job.kind == Kind::Request);
        Some((client, job))
    }

    /// A job of `client` ended after `took`.
    fn done(&mut self, client: Client, took: Duration) {
        self.running -= 1;
        if let Some(share) = self.held.get_mut(&client) {
            share.jobs -= 1;
            share.used += took.saturating_sub(NOMINAL);
            if share.jobs == 0 {
                self.held.remove(&client);
            }
        }
    }
}

impl Queue {
    /// A queue with the workers, length and wait of `limits`.
    #[must_use]
    pub fn new(limits: &ServerLimits) -> Queue {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            queued: limits.queued,
            per_client: limits.queued_per_client.max(1),
            wait: limits.queue_wait,
        });
        for n in 0..limits.workers.max(1) {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("kickoff-worker-{n}"))
                .spawn(move || work(&shared));
            // Without a worker the queue refuses its jobs when they wait too long; the server
            // itself goes on.
            drop(spawned);
        }
        Queue { shared }
    }

    /// Runs `job` on a worker when `client`'s turn comes.
    ///
    /// # Errors
    /// The queue or the client's share is full, the job waited too long, or the job's own
    /// error.
    pub async fn run<T: Send + 'static>(
        &self,
        client: Client,
        kind: Kind,
        job: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (answer, answered) = oneshot::channel();
        {
            let mut state = lock(&self.shared.state);
            if kind == Kind::Request {
                if state.requests >= self.shared.queued {
                    return Err(ApiError::Busy(
                        "the server is busy: try again in a moment".to_owned(),
                    ));
                }
                if state.held.get(&client).map_or(0, |s| s.jobs) >= self.shared.per_client {
                    return Err(ApiError::TooMany(format!(
                        "{} requests of yours are waiting or running: wait for their answers",
                        self.shared.per_client
                    )));
                }
            }
            let run = Box::new(move |late: bool| {
                if answer.is_closed() {
                    return; // nobody waits for it any more
                }
                let out = if late {
                    Err(ApiError::Busy("the server is busy: try again in a moment".to_owned()))
                } else {
                    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|_| {
                        Err(ApiError::Internal("the request failed inside the server".to_owned()))
                    })
                };
                let _ = answer.send(out);
            });
            state.push(client, Job { kind, since: Instant::now(), seq: 0, run });
        }
        self.shared.wake.notify_one();
        answered.await.unwrap_or_else(|_| Err(ApiError::Busy("the server is stopping".to_owned())))
    }

    /// The most jobs that ever ran at once.
    #[must_use]
    pub fn most_running(&self) -> usize {
        lock(&self.shared.state).most_running
    }

    /// Jobs waiting now.
    #[must_use]
    pub fn waiting(&self) -> usize {
        lock(&self.shared.state).waiting
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        lock(&self.shared.state).closed = true;
        self.shared.wake.notify_all();
    }
}

/// A worker: takes jobs in turn until the queue closes.
fn work(shared: &Shared) {
    lower_priority();
    loop {
        let (client, job) = {
            let mut state = lock(&shared.state);
            loop {
                if state.closed {
                    return;
                }
                if let Some(next) = state.pop() {
                    break next;
                }
                state = shared.wake.wait(state).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        {
            let mut state = lock(&shared.state);
            state.running += 1;
            state.most_running = state.most_running.max(state.running);
        }
        let late = job.kind == Kind::Request && job.since.elapsed() > shared.wait;
        let started = Instant::now();
        (job.run)(late);
        let took = started.elapsed();
        lock(&shared.state).done(client, took);
        if took > TRIM_AFTER {
            give_back_memory();
        }
    }
}

/// A job that ran this long may have left much memory free: it is given back to the system.
const TRIM_AFTER: Duration = Duration::from_millis(100);

/// Gives the memory the allocator holds free back to the system (a heavy job, a definition of a
/// hundred thousand tables read, leaves tens of megabytes free in its thread's arena).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Lowers the calling thread's priority (Linux gives each thread its own nice value), so that
/// the threads answering light requests come first.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority only read their arguments; a failure leaves the priority.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid);
        if let Ok(thread) = libc::id_t::try_from(thread) {
            libc::setpriority(libc::PRIO_PROCESS, thread, 10);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn client(last: u8) -> Client {
        Client::of(std::net::IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, last)))
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    #[test]
    fn clients_are_served_in_turn() {
        let mut state = State::default();
        let job =
            || Job { kind: Kind::Request, since: Instant::now(), seq: 0, run: Box::new(|_| {}) };
        for _ in 0..3 {
            state.push(client(1), job());
        }
        state.push(client(2), job());
        let order: Vec<Client> = std::iter::from_fn(|| state.pop().map(|(c, _)| c)).collect();
        assert_eq!(order, [client(1), client(2), client(1), client(1)]);
        assert_eq!(state.waiting, 0);
    }

    #[test]
    fn a_client_whose_jobs_are_long_gets_fewer_turns() {
        let mut state = State::default();
        let job =
            || Job { kind: Kind::Engine, since: Instant::now(), seq: 0, run: Box::new(|_| {}) };
        for _ in 0..10 {
            state.push(client(1), job());
            state.push(client(2), job());
        }
        // Each job of client 1 takes 40 ms, each of client 2 10 ms.
        let mut served = Vec::new();
        for _ in 0..10 {
            let (c, _) = state.pop().unwrap();
            state.running += 1;
            served.push(c);
            let took = if c == client(1) { 40 } else { 10 };
            state.done(c, Duration::from_millis(took));
        }
        let long = served.iter().filter(|&&c| c == client(1)).count();
        assert_eq!(long, 2, "client 1 used 80 ms, client 2 80 ms: {served:?}");
        // A client arriving now starts level with the client served last, not at zero.
        state.push(client(3), job());
        assert_eq!(state.held[&client(3)].used, state.floor);
    }

    #[test]
    fn a_clients_share_and_the_queue_are_bounded() {
        let limits =
            ServerLimits { workers: 1, queued: 3, queued_per_client: 2, ..ServerLimits::default() };
        let queue = Arc::new(Queue::new(&limits));
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        runtime().block_on(async {
            let blocked = {
                let queue = queue.clone();
                let gate = gate.clone();
                tokio::spawn(async move {
                    queue
                        .run(client(1), Kind::Request, move || {
                            lock(&gate).recv().ok();
                            Ok(1)
                        })
                        .await
                })
            };
            while queue.waiting() > 0 || queue.most_running() == 0 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let second = {
                let queue = queue.clone();
                tokio::spawn(async move { queue.run(client(1), Kind::Request, || Ok(2)).await })
            };
            while queue.waiting() < 1 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let refused = queue.run(client(1), Kind::Request, || Ok(3)).await;
            assert!(matches!(refused, Err(ApiError::TooMany(_))), "{refused:?}");
            let others: Vec<_> = (2..4)
                .map(|n| {
                    let queue = queue.clone();
                    tokio::spawn(
                        async move { queue.run(client(n), Kind::Request, move || Ok(n)).await },
                    )
                })
                .collect();
            while queue.waiting() < 3 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            let full = queue.run(client(9), Kind::Request, || Ok(9)).await;
            assert!(matches!(full, Err(ApiError::Busy(_))), "{full:?}");
            let engine = {
                let queue = queue.clone();
                tokio::spawn(async move { queue.run(client(9), Kind::Engine, || Ok(10)).await })
            };
            release.send(()).unwrap();
            assert_eq!(blocked.await.unwrap().unwrap(), 1);
            assert_eq!(second.await.unwrap().unwrap(), 2);
            for other in others {
                assert!(other.await.unwrap().is_ok());
            }
            assert_eq!(engine.await.unwrap().unwrap(), 10, "the engine's turn is never refused");
        });
        assert_eq!(queue.most_running(), 1);
    }

    #[test]
    fn no_more_than_the_workers_run_at_once() {
        let limits = ServerLimits { workers: 2, ..ServerLimits::default() };
        let queue = Arc::new(Queue::new(&limits));
        let now = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        runtime().block_on(async {
            let jobs: Vec<_> = (0..12)
                .map(|n| {
                    let (queue, now, most) = (queue.clone(), now.clone(), most.clone());
                    tokio::spawn(async move {
                        queue
                            .run(client(n), Kind::Engine, move || {
                                let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                                most.fetch_max(running, Ordering::SeqCst);
                                std::thread::sleep(Duration::from_millis(10));
                                now.fetch_sub(1, Ordering::SeqCst);
                                Ok(())
                            })
                            .await
                    })
                })
                .collect();
            for job in jobs {
                job.await.unwrap().unwrap();
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(queue.most_running(), 2);
    }

    #[test]
    fn a_job_that_waited_too_long_is_refused() {
        let limits =
            ServerLimits { workers: 1, queue_wait: Duration::ZERO, ..ServerLimits::default() };
        let queue = Queue::new(&limits);
        let late = runtime().block_on(async {
            std::thread::sleep(Duration::from_millis(5));
            queue.run(client(1), Kind::Request, || Ok(())).await
        });
        // A wait of zero: every request job is late by the time a worker takes it.
        assert!(matches!(late, Err(ApiError::Busy(_))), "{late:?}");
        let engine = runtime().block_on(queue.run(client(1), Kind::Engine, || Ok(())));
        assert!(engine.is_ok());
    }
}
