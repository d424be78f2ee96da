//! The server's resource model: every bound on what clients may hold or ask for, in one place.
//!
//! A *client* is an IPv4 address or an IPv6 /64 network ([`crate::web::clients::Client`]).
//! Glossary of the bounds, each enforced where its field is read:
//!
//! - **connections**: open TCP connections in all and per client. A connection over either bound
//!   takes the place of the connection that has waited longest for a request (of that client
//!   first), or, when every connection is busy with a request, is answered 503 and closed.
//! - **header time**: a connection, new or idle between requests, must send a request's line
//!   and headers within this time, or it is closed. Event streams are not idle: their request
//!   was read.
//! - **body time**: a request's body must arrive whole within this time (408).
//! - **write stall**: a client that takes nothing of an answer for this long is dropped.
//! - **head size**: the bytes of a request's line and headers (431 beyond).
//! - **memory budget**: request bodies and large answers are held in memory against one budget,
//!   in all and per client (503 when it is spent: try again).
//! - **work queue**: every CPU-heavy request (a search, a simulation, a record opened, a
//!   definition read or checked) waits its turn for one of a few workers, clients served by
//!   their share of the workers' time; the queue's length is bounded in all and per client,
//!   the wait too, and each job has its own time bound.
//! - **quick work**: the light requests of a game (its state, a step, a turn) and the database's
//!   reads and writes (accounts, seeks, lobby games, chat) run a few at a
//!   time, a few per client.
//! - **rates**: new connections and requests a second, games and bytes of uploaded
//!   definitions a minute, per client; games a minute in all.
//! - **games in memory**: games are let go, least recently used first, past a count and an
//!   estimate of their bytes; they stay on disk and come back when asked for. A definition sent
//!   to start a game may compile to rules of so many bytes.
//! - **facts**: what the solver says of a variant's start, for its page, is computed on the work
//!   queue once per definition, within its own time and count of positions, and kept.
//! - **turns**: a game on the server ends as a draw at its turn cap; the record viewer opens
//!   records of at most so many turns.
//! - **replays**: a record opened is replayed for so long at most, into an answer of so many
//!   bytes at most, built against the memory budget (the turns read by then are shown, and
//!   why the rest are not); a game let go from memory is read back, its key checked first,
//!   among the light requests when that takes little time, else on the work queue within its
//!   own time (refused beyond).
//! - **accounts**: accounts made an hour and sign-in attempts a minute per client, failed
//!   sign-ins an hour per account name; tokens per account; open seeks per account and seeks
//!   a minute; chat messages a minute per account, each of so many characters; a game's chat
//!   shows its last messages; passwords are hashed two at a time.

use std::time::Duration;

/// Every bound of the server (see the module's glossary).
#[derive(Clone, Debug)]
pub struct ServerLimits {
    /// Open connections in all.
    pub connections: usize,
    /// Open connections of one client.
    pub connections_per_client: usize,
    /// A request's line and headers must arrive within this time.
    pub header_time: Duration,
    /// A request's body must arrive within this time.
    pub body_time: Duration,
    /// A client that takes nothing of an answer for this long is dropped.
    pub write_stall: Duration,
    /// The bytes of a request's line and headers.
    pub head_size: usize,
    /// Bytes of request bodies and large answers held at once.
    pub memory: usize,
    /// Bytes of request bodies and large answers held at once for one client.
    pub memory_per_client: usize,
    /// An answer at least this large is held against the memory budget.
    pub large_answer: usize,
    /// Heavy jobs running at once.
    pub workers: usize,
    /// Requests waiting for a worker, in all (the engine's turns, one per game, are not
    /// counted).
    pub queued: usize,
    /// Heavy jobs waiting or running for one client (engine turns are never refused).
    pub queued_per_client: usize,
    /// The longest a job waits for a worker before it is refused.
    pub queue_wait: Duration,
    /// Light requests running at once.
    pub quick: usize,
    /// Light requests running at once for one client.
    pub quick_per_client: usize,
    /// New connections a second of one client, on average (beyond, they are closed at once).
    pub connections_per_second: f64,
    /// New connections one client may open in a burst.
    pub connection_burst: f64,
    /// Requests a second of one client, on average.
    pub requests_per_second: f64,
    /// Requests one client may send in a burst.
    pub request_burst: f64,
    /// Games one client may start a minute.
    pub games_per_minute: f64,
    /// Bytes of definitions one client may upload a minute to start games (a definition sent
    /// again is stored once).
    pub definition_bytes_per_minute: f64,
    /// Games all clients together may start a minute.
    pub all_games_per_minute: f64,
    /// Games held in memory.
    pub games_in_memory: usize,
    /// Bytes of the games held in memory, as estimated (their rules' tables above all).
    pub games_memory: usize,
    /// The most bytes the rules of a definition sent to start a game may take (a board of 16
    /// by 24 with twenty-five kinds of riders takes more than a hundred megabytes).
    pub definition_memory: usize,
    /// Turns a game on the server may last: then it is a draw.
    pub turn_cap: usize,
    /// Turns of a record the record viewer opens.
    pub viewed_turns: usize,
    /// The longest a record opened is replayed: the viewer is shown the turns read by then.
    pub record_time: Duration,
    /// The most bytes of the turns of a record opened, as the viewer is sent them (each with
    /// its position, arrows and comments): the turns beyond are left out. The answer is built
    /// against the memory budget besides, and refused (503) when that is spent.
    pub record_answer: usize,
    /// The longest a game let go from memory takes to be read back from its record (its turns
    /// replayed, its definition compiled): beyond, the request is refused (503) and the game
    /// stays on disk.
    pub read_back_time: Duration,
    /// A game let go from memory is read back among the light requests when its rules need no
    /// compiling and its turns replay within this time; else (and from then on) on the work
    /// queue.
    pub light_read_back: Duration,
    /// The longest an engine's search or a draw offer's search runs.
    pub search_time: Duration,
    /// The longest a simulation of random games runs.
    pub simulation_time: Duration,
    /// The longest the solver looks for forced goals from a variant's start, for its page
    /// (once per definition: its answer is kept).
    pub facts_time: Duration,
    /// The most positions it expands meanwhile (its table grows with them).
    pub facts_nodes: u64,
    /// Accounts one client may make an hour.
    pub accounts_per_hour: f64,
    /// Sign-in attempts one client may make a minute.
    pub logins_per_minute: f64,
    /// Failed sign-ins an account name may take an hour (from all clients).
    pub failed_logins_per_hour: f64,
    /// How long a browser stays signed in.
    pub session_time: Duration,
    /// Bearer tokens an account may hold.
    pub tokens_per_account: usize,
    /// Seeks and challenges an account may have open.
    pub seeks_per_account: usize,
    /// Seeks, challenges and rematch offers an account may make a minute.
    pub seeks_per_minute: f64,
    /// How long a seek of a live game stays open.
    pub live_seek_time: Duration,
    /// Chat messages an account may write a minute (and at once).
    pub chats_per_minute: f64,
    /// The characters of a chat message.
    pub chat_length: usize,
    /// The messages of a game's chat that are shown.
    pub chat_shown: usize,
    /// Lobby games an account may be playing at once.
    pub games_per_account: usize,
    /// Passwords hashed at once (making an account, signing in), on threads of their own; a
    /// request waits at most `queue_wait` for its turn (503).
    pub hashing: usize,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            connections: 2_000,
            connections_per_client: 64,
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(60),
            write_stall: Duration::from_secs(20),
            head_size: 64 << 10,
            memory: 192 << 20,
            memory_per_client: 48 << 20,
            large_answer: 256 << 10,
            workers: 2,
            queued: 64,
            queued_per_client: 3,
            queue_wait: Duration::from_secs(30),
            quick: 8,
            quick_per_client: 4,
            connections_per_second: 10.0,
            connection_burst: 100.0,
            requests_per_second: 20.0,
            request_burst: 200.0,
            games_per_minute: 20.0,
            definition_bytes_per_minute: f64::from(4u32 << 20),
            all_games_per_minute: 600.0,
            games_in_memory: 1024,
            games_memory: 128 << 20,
            definition_memory: 16 << 20,
            turn_cap: 10_000,
            viewed_turns: 100_000,
            record_time: Duration::from_secs(10),
            record_answer: 24 << 20,
            read_back_time: Duration::from_secs(20),
            light_read_back: Duration::from_millis(100),
            search_time: Duration::from_secs(5),
            simulation_time: Duration::from_secs(20),
            facts_time: Duration::from_secs(60),
            facts_nodes: 1_000_000,
            accounts_per_hour: 5.0,
            logins_per_minute: 10.0,
            failed_logins_per_hour: 20.0,
            session_time: Duration::from_secs(30 * 86_400),
            tokens_per_account: 10,
            seeks_per_account: 10,
            seeks_per_minute: 10.0,
            live_seek_time: Duration::from_secs(30 * 60),
            chats_per_minute: 20.0,
            chat_length: 500,
            chat_shown: 200,
            games_per_account: 200,
            hashing: 2,
        }
    }
}

impl ServerLimits {
    /// The default limits, with the connections bounded below the process's descriptors
    /// (raised to the hard limit first) so that files can still be opened when every
    /// connection is taken.
    #[must_use]
    pub fn for_this_process() -> ServerLimits {
        let mut limits = ServerLimits::default();
        if let Some(descriptors) = raise_descriptor_limit() {
            limits.connections = limits.connections.min(descriptors.saturating_sub(64).max(16));
        }
        limits
    }
}

/// Raises the soft limit on open files to the hard one; returns the limit now in force.
#[cfg(unix)]
fn raise_descriptor_limit() -> Option<usize> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write only the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raw const raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
    }
    usize::try_from(limit.rlim_cur).ok()
}

#[cfg(not(unix))]
fn raise_descriptor_limit() -> Option<usize> {
    None
}
