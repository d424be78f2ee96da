//! `kickoff serve`: a web board served by kickoff itself. The page (`page/`, plain JavaScript
//! and CSS embedded in the binary) plays games against the engine, at a hot seat or between two
//! browsers, opens records, edits definitions and publishes them (`published`: the gallery);
//! this module answers its requests.
//!
//! Every request is untrusted: bodies are bounded, definitions and records are read with the
//! same limits as files, a definition given as text may extend shipped variants only, and no
//! path from a request reaches the file system: games are named by ids the server draws, and
//! a game answers only to the keys of its links.

mod api;
mod assets;
mod author;
pub mod clients;
pub mod conn;
pub mod db;
mod guard;
pub mod limits;
pub mod lobby;
mod published;
mod puzzles;
pub mod queue;
pub mod session;
pub mod variants;
mod views;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};

use crate::definition::{load_shipped, shipped};
use crate::rules::Rules;
use clients::{Client, Rates};
use conn::Connections;
use db::{Sqlite, Storage};
use guard::{Budget, HostCheck, Quick};
use limits::ServerLimits;
use lobby::{Hall, accounts, games, seeks};
use queue::Queue;
use session::{Shared, Store};

/// The largest request body, but for records: a definition (1 MiB) with room for JSON escapes.
pub const MAX_BODY: usize = 3 << 20;
/// The largest body of a request that carries a record (8 MiB) and its definition.
pub const MAX_RECORD_BODY: usize = 20 << 20;
/// The most random games one simulation plays.
pub const MAX_SIMULATED_GAMES: usize = 200;

/// How the server was asked to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on.
    pub address: SocketAddr,
    /// Where games by link are saved.
    pub games: PathBuf,
    /// Where the database is kept (`kickoff.db`).
    pub data: PathBuf,
    /// Whether session cookies are sent only over HTTPS (behind a proxy that speaks it).
    pub secure_cookies: bool,
    /// The SMTP server notices of correspondence games are sent through, and their sender.
    pub smtp: Option<(String, String)>,
    /// Where the server's pages are reached from outside, for links in notices (default: the
    /// address it serves on).
    pub public_url: Option<String>,
    /// Told of a problem no request is waiting for (the engine's turn could not be saved).
    pub warn: fn(&str),
    /// Host names, besides `localhost` and addresses, that the page may be reached by.
    pub hosts: Vec<String>,
    /// Reverse proxies in front of the server: a request one forwards comes from the client
    /// its `X-Forwarded-For` names.
    pub proxies: Vec<std::net::IpAddr>,
    /// The bounds on what clients may hold and ask for.
    pub limits: ServerLimits,
}

impl Config {
    /// Serving `games` on `address` with the default limits, its database in the same folder,
    /// problems told to `warn`.
    #[must_use]
    pub fn new(address: SocketAddr, games: PathBuf, warn: fn(&str)) -> Config {
        Config {
            address,
            data: games.clone(),
            games,
            secure_cookies: false,
            smtp: None,
            public_url: None,
            warn,
            hosts: Vec::new(),
            proxies: Vec::new(),
            limits: ServerLimits::for_this_process(),
        }
    }
}

/// What every request handler shares.
pub struct App {
    /// The games.
    pub store: Store,
    /// The shipped definitions' rules, compiled once.
    pub shipped: Vec<(&'static str, Arc<Rules>)>,
    /// The bounds on what clients may hold and ask for.
    pub limits: Arc<ServerLimits>,
    /// The open connections.
    pub connections: Arc<Connections>,
    /// CPU-heavy work: searches, simulations, records opened, definitions read.
    pub queue: Queue,
    /// Light work: the requests of a game.
    quick: Quick,
    /// Request bodies and large answers held in memory.
    memory: Arc<Budget>,
    /// How often each client may ask for what.
    pub rates: Rates,
    /// The host names the page may be reached by.
    hosts: HostCheck,
    /// Reverse proxies whose `X-Forwarded-For` is believed.
    pub proxies: Arc<[std::net::IpAddr]>,
    /// Told of a problem no request is waiting for (see [`Config::warn`]).
    pub warn: fn(&str),
    /// The lobby's change counter and the games' followers.
    pub hall: Arc<Hall>,
    /// Whether session cookies are marked `Secure`.
    pub secure_cookies: bool,
    /// Sends notices of correspondence games, when an SMTP server is configured.
    pub mailer: Option<Arc<lobby::mail::Mailer>>,
    /// Passwords hashed at once (see [`ServerLimits::hashing`]).
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// The variants' pages drawn, and what the solver said of their starts.
    pub facts: variants::Facts,
}

impl App {
    /// An app serving as `config` says.
    ///
    /// # Errors
    /// A shipped definition does not compile (a bug), or the database cannot be opened.
    pub fn new(config: &Config) -> Result<App, String> {
        std::fs::create_dir_all(&config.data)
            .map_err(|e| format!("cannot make the data folder {}: {e}", config.data.display()))?;
        let path = config.data.join("kickoff.db");
        let db: Arc<dyn Storage> = Arc::new(
            Sqlite::open(&path)
                .map_err(|e| format!("{}: {e}", crate::text::printable_path(&path)))?,
        );
        let compiled = compile_shipped()?;
        let limits = &config.limits;
        let base =
            config.public_url.clone().unwrap_or_else(|| format!("http://{}", config.address));
        let mailer = match &config.smtp {
            Some((url, from)) => Some(Arc::new(lobby::mail::Mailer::new(url, from, &base)?)),
            None => None,
        };
        let store = Store::new(config.games.clone(), db, compiled.clone(), limits, config.warn);
        Ok(App {
            hall: store.hall().clone(),
            store,
            shipped: compiled,
            limits: Arc::new(limits.clone()),
            connections: Arc::new(Connections::new(limits)),
            queue: Queue::new(limits),
            quick: Quick::new(limits),
            memory: Arc::new(Budget::new(limits.memory, limits.memory_per_client)),
            rates: Rates::new(limits),
            hosts: HostCheck::new(&config.hosts),
            proxies: config.proxies.clone().into(),
            warn: config.warn,
            secure_cookies: config.secure_cookies,
            mailer,
            hashing: Arc::new(tokio::sync::Semaphore::new(limits.hashing.max(1))),
            facts: variants::Facts::default(),
        })
    }

    /// A shipped definition's rules by name.
    #[must_use]
    pub fn shipped(&self, name: &str) -> Option<&Arc<Rules>> {
        self.shipped.iter().find(|(n, _)| *n == name).map(|(_, d)| d)
    }

    /// Bytes of request bodies and large answers held in memory now.
    #[must_use]
    pub fn memory_held(&self) -> usize {
        self.memory.used()
    }

    /// Game `id`: from memory, or read back from its record among the light requests when that
    /// is light work ([`Store::get_light`]), else on the work queue in `client`'s line (its turns
    /// replayed, its definition compiled, within the read-back time).
    ///
    /// # Errors
    /// No such game, the light pool or the queue refused the work, or the game took too long
    /// to read back.
    pub async fn game_by_id(
        self: &Arc<Self>,
        client: Client,
        id: &str,
    ) -> Result<Shared, ApiError> {
        if let Some(session) = self.store.held_by_id(id)? {
            return Ok(session);
        }
        let (shared, id) = (self.clone(), id.to_owned());
        let light = {
            let (shared, id) = (shared.clone(), id.clone());
            self.quick(client, move || shared.store.by_id_light(&id)).await?
        };
        if let Some(session) = light {
            return Ok(session);
        }
        self.queue.run(client, queue::Kind::Request, move || shared.store.by_id(&id)).await
    }

    /// Runs light blocking work (a game's state, a step, a turn) off the async threads, a few
    /// at a time.
    ///
    /// # Errors
    /// The client has its share running, the server is busy, or the work's own error.
    pub async fn quick<T: Send + 'static>(
        &self,
        client: Client,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        self.quick.run(client, work).await
    }
}

/// The rules of every shipped variant, compiled once for the games that share them.
///
/// # Errors
/// A shipped definition does not compile (a bug).
pub fn compile_shipped() -> Result<Vec<(&'static str, Arc<Rules>)>, String> {
    shipped::names()
        .map(|name| {
            let def = load_shipped(name).map_err(|e| format!("{name}: {e}"))?;
            Ok((name, Arc::new(def.rules)))
        })
        .collect()
}

/// Why a request failed, as the page is told.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No such game, or not the key of one of its links.
    #[error("no such game")]
    NotFound,
    /// No such thing (but a game), as far as the one asking may know.
    #[error("{0}")]
    NoSuch(String),
    /// The request is malformed or asks for something the rules do not allow.
    #[error("{0}")]
    BadRequest(String),
    /// A definition with errors, with its diagnostics.
    #[error("the definition has errors")]
    Invalid(serde_json::Value),
    /// Not now (the engine is thinking, the game is over ...).
    #[error("{0}")]
    Conflict(String),
    /// Refused: a request from another site.
    #[error("{0}")]
    Forbidden(String),
    /// Not signed in.
    #[error("{0}")]
    Unauthorized(String),
    /// A request naming a host the server does not serve.
    #[error("{0}")]
    UnknownHost(String),
    /// The body did not arrive in time.
    #[error("{0}")]
    TimedOut(String),
    /// The body is larger than the request may send.
    #[error("{0}")]
    TooLarge(String),
    /// The client asks too often: try again after the time given.
    #[error("{message}")]
    RateLimited {
        /// What was refused.
        message: String,
        /// When a request will be taken again.
        retry: Duration,
    },
    /// The client has its share of the server's work waiting or running.
    #[error("{0}")]
    TooMany(String),
    /// The server has no room for the request now: try again in a moment.
    #[error("{0}")]
    Busy(String),
    /// The server failed (a full disk ...).
    #[error("{0}")]
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = |e: String| serde_json::json!({ "error": e });
        let (status, body, retry) = match self {
            ApiError::NotFound => {
                (StatusCode::NOT_FOUND, message("no such game: check the link".to_owned()), None)
            }
            ApiError::NoSuch(e) => (StatusCode::NOT_FOUND, message(e), None),
            ApiError::BadRequest(e) => (StatusCode::BAD_REQUEST, message(e), None),
            ApiError::Invalid(v) => (StatusCode::UNPROCESSABLE_ENTITY, v, None),
            ApiError::Conflict(e) => (StatusCode::CONFLICT, message(e), None),
            ApiError::Forbidden(e) => (StatusCode::FORBIDDEN, message(e), None),
            ApiError::Unauthorized(e) => (StatusCode::UNAUTHORIZED, message(e), None),
            ApiError::UnknownHost(e) => (StatusCode::MISDIRECTED_REQUEST, message(e), None),
            ApiError::TimedOut(e) => (StatusCode::REQUEST_TIMEOUT, message(e), None),
            ApiError::TooLarge(e) => (StatusCode::PAYLOAD_TOO_LARGE, message(e), None),
            ApiError::RateLimited { message: e, retry } => {
                let seconds = retry.as_secs() + u64::from(retry.subsec_nanos() > 0);
                (StatusCode::TOO_MANY_REQUESTS, message(e), Some(seconds.max(1)))
            }
            ApiError::TooMany(e) => (StatusCode::TOO_MANY_REQUESTS, message(e), Some(2)),
            ApiError::Busy(e) => (StatusCode::SERVICE_UNAVAILABLE, message(e), Some(5)),
            ApiError::Internal(e) => (StatusCode::INTERNAL_SERVER_ERROR, message(e), None),
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(seconds) = retry {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// Every route of the server, each request first through the guard (`guard::admit`: host
/// names, other sites, rates, bodies and large answers against the memory budget).
pub fn router(app: Arc<App>) -> Router {
    let records = Router::new()
        .route("/api/records/open", post(author::open_record))
        .layer(DefaultBodyLimit::max(MAX_RECORD_BODY))
        .layer(middleware::from_fn_with_state((app.clone(), MAX_RECORD_BODY), guard::admit));
    Router::new()
        .route("/", get(assets::index))
        .route("/play/{id}/{key}", get(assets::index))
        .route("/author", get(assets::index))
        .route("/records", get(assets::index))
        .route("/static/{file}", get(assets::file))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/variants", get(author::variants))
        .route("/variants/{key}", get(assets::index))
        .route("/api/variants/{key}/page", get(variants::page))
        .route("/api/definitions/check", post(author::check))
        .route("/api/definitions/simulate", post(author::simulate))
        .route("/api/render", post(author::render))
        .route("/watch/{id}", get(assets::index))
        .route("/lobby", get(assets::index))
        .route("/gallery", get(assets::index))
        .route("/puzzles", get(assets::index))
        .route("/puzzles/{variant}", get(assets::index))
        .route("/api/puzzles", get(puzzles::sets))
        .route("/api/puzzles/{variant}/{number}", get(puzzles::one))
        .route("/api/puzzles/{variant}/{number}/try", post(puzzles::try_line))
        .route("/gallery/{owner}/{name}", get(assets::index))
        .route("/api/gallery", get(published::gallery))
        .route("/api/published", post(published::publish))
        .route(
            "/api/published/{owner}/{name}",
            get(published::variant).patch(published::set_visibility),
        )
        .route("/api/published/{owner}/{name}/visibility", post(published::set_visibility))
        .route("/api/published/{owner}/{name}/hide", post(published::hide))
        .route("/api/published/{owner}/{name}/unhide", post(published::unhide))
        .route("/api/my/variants", get(published::mine))
        .route("/api/diagrams/{version}", get(published::diagram))
        .route("/api/account", post(accounts::create))
        .route("/api/login", post(accounts::login))
        .route("/api/logout", post(accounts::logout))
        .route("/api/me", get(accounts::me))
        .route("/api/me/email", post(accounts::set_email))
        .route("/api/me/password", post(accounts::set_password))
        .route("/api/tokens", post(accounts::create_token).get(accounts::tokens))
        .route("/api/tokens/{id}", delete(accounts::revoke_token))
        .route("/api/seeks", post(seeks::create).get(seeks::list))
        .route("/api/seeks/{id}", delete(seeks::cancel))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route("/api/lobby/events", get(seeks::events))
        .route("/api/my/games", get(games::mine))
        .route("/api/users/{name}/mute", post(games::mute))
        .route("/api/games", post(api::create).get(games::list))
        .route("/api/games/{id}", get(games::state))
        .route("/api/games/{id}/turn", post(games::turn))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/rematch", post(seeks::rematch))
        .route("/api/games/{id}/events", get(games::events))
        .route("/api/games/{id}/chat", get(games::chat).post(games::say))
        .route("/api/games/{id}/chat/{message}", delete(games::unsay))
        .route("/api/games/{id}/{key}", get(api::state))
        .route("/api/games/{id}/{key}/events", get(api::events))
        .route("/api/games/{id}/{key}/step", post(api::step))
        .route("/api/games/{id}/{key}/play", post(api::play))
        .route("/api/games/{id}/{key}/undo", post(api::undo))
        .route("/api/games/{id}/{key}/resign", post(api::resign))
        .route("/api/games/{id}/{key}/draw", post(api::draw))
        .route("/api/games/{id}/{key}/record", get(api::record))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state((app.clone(), MAX_BODY), guard::admit))
        .merge(records)
        .with_state(app)
}

/// Serves the page until the process is stopped. Once it listens, `ready` is given the page's
/// address (`http://127.0.0.1:PORT/` for any address): the caller announces it, or opens it.
///
/// # Errors
/// The address cannot be bound, or the games folder cannot be made.
pub async fn serve(config: Config, ready: impl FnOnce(&str)) -> Result<(), String> {
    large_blocks_go_back();
    std::fs::create_dir_all(&config.games)
        .map_err(|e| format!("cannot make the games folder {}: {e}", config.games.display()))?;
    let listener = tokio::net::TcpListener::bind(config.address).await.map_err(|e| {
        format!(
            "cannot listen on {}: {e} (choose another port with --port, or --port 0 for any free one)",
            config.address
        )
    })?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let shown = if address.ip().is_unspecified() {
        SocketAddr::from(([127, 0, 0, 1], address.port()))
    } else {
        address
    };
    let url = format!("http://{shown}/");
    let mut config = config;
    config.public_url.get_or_insert_with(|| url.clone());
    let app = Arc::new(App::new(&config)?);
    ready(&url);
    // Stopped by a signal, whatever it is doing: every record is saved whole after every change,
    // and waiting for the pages' event streams to close would wait for ever.
    serve_on(listener, app, std::future::pending()).await;
    Ok(())
}

/// Serves `app` on `listener` until `shutdown` completes: every connection within the limits
/// of [`conn`], every request through [`router`].
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()>,
) {
    let flags = tokio::spawn(app.store.flags().clone().run(app.clone()));
    conn::accept(listener, app, shutdown).await;
    flags.abort();
}

/// The default data folder: `kickoff` in the user's data folder (its database `kickoff.db`,
/// and games by link in `games`).
#[must_use]
pub fn default_data_folder() -> PathBuf {
    dirs::data_dir().unwrap_or_else(std::env::temp_dir).join("kickoff")
}

/// Makes every allocation of a megabyte or more a mapping of its own, given back to the system
/// when freed. By default the C allocator raises that threshold to the largest block freed so
/// far, up to 32 MiB, and then keeps such blocks in the arena of the thread that freed them: a
/// password's hashing (19 MiB) on each of the many threads that run blocking work left that
/// much in each thread's arena, a server of a few hundred games holding 300 MiB it no longer
/// used.
fn large_blocks_go_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator, before the blocks it governs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
