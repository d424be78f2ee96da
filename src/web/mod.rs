//! `kickoff serve`: a web board served by kickoff itself. The page (`page/`, plain JavaScript
//! and CSS embedded in the binary) plays games against the engine, at a hot seat or between two
//! browsers, opens records and edits definitions; this module answers its requests.
//!
//! Every request is untrusted: bodies are bounded, definitions and records are read with the
//! same limits as files, a definition given as text may extend shipped variants only, and no
//! path from a request reaches the file system: games are named by ids the server draws, and
//! a game answers only to the keys of its links.

mod api;
mod assets;
mod author;
pub mod session;
mod views;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::Semaphore;

use crate::definition::{Definition, load_shipped, shipped};
use session::Store;

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
    /// Where games are saved.
    pub games: PathBuf,
    /// Told of a problem no request is waiting for (the engine's turn could not be saved).
    pub warn: fn(&str),
}

/// What every request handler shares.
pub struct App {
    /// The games.
    pub store: Store,
    /// The shipped definitions, compiled once.
    pub shipped: Vec<(&'static str, Arc<Definition>)>,
    /// Searches and simulations, which keep a core busy, run a few at a time.
    pub heavy: Arc<Semaphore>,
    /// The host names the page may be reached by (a loopback server refuses others, so that a
    /// web site cannot reach it by rebinding its own name to 127.0.0.1).
    pub hosts: Option<Vec<String>>,
    /// Told of a problem no request is waiting for (see [`Config::warn`]).
    pub warn: fn(&str),
}

impl App {
    /// An app saving games in `games`, reached at `address`, telling `warn` of problems no
    /// request is waiting for.
    ///
    /// # Errors
    /// A shipped definition does not compile (a bug).
    pub fn new(games: PathBuf, address: SocketAddr, warn: fn(&str)) -> Result<App, String> {
        let mut compiled = Vec::new();
        for name in shipped::names() {
            let def = load_shipped(name).map_err(|e| format!("{name}: {e}"))?;
            compiled.push((name, Arc::new(def)));
        }
        let hosts = address.ip().is_loopback().then(|| {
            let port = address.port();
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .flat_map(|h| [h.to_string(), format!("{h}:{port}")])
                .collect()
        });
        Ok(App {
            store: Store::new(games),
            shipped: compiled,
            heavy: Arc::new(Semaphore::new(2)),
            hosts,
            warn,
        })
    }

    /// A shipped definition by name.
    #[must_use]
    pub fn shipped(&self, name: &str) -> Option<&Arc<Definition>> {
        self.shipped.iter().find(|(n, _)| *n == name).map(|(_, d)| d)
    }
}

/// Why a request failed, as the page is told.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// No such game, or not the key of one of its links.
    #[error("no such game")]
    NotFound,
    /// The request is malformed or asks for something the rules do not allow.
    #[error("{0}")]
    BadRequest(String),
    /// A definition with errors, with its diagnostics.
    #[error("the definition has errors")]
    Invalid(serde_json::Value),
    /// Not now (the engine is thinking, the game is over ...).
    #[error("{0}")]
    Conflict(String),
    /// The server failed (a full disk ...).
    #[error("{0}")]
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::NotFound => (
                StatusCode::NOT_FOUND,
                serde_json::json!({ "error": "no such game: check the link" }),
            ),
            ApiError::BadRequest(e) => (StatusCode::BAD_REQUEST, serde_json::json!({ "error": e })),
            ApiError::Invalid(v) => (StatusCode::UNPROCESSABLE_ENTITY, v),
            ApiError::Conflict(e) => (StatusCode::CONFLICT, serde_json::json!({ "error": e })),
            ApiError::Internal(e) => {
                (StatusCode::INTERNAL_SERVER_ERROR, serde_json::json!({ "error": e }))
            }
        };
        (status, axum::Json(body)).into_response()
    }
}

/// Runs blocking work (turn generation, files) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(ApiError::Internal(format!("the request failed: {e}"))))
}

/// Every route of the server.
pub fn router(app: Arc<App>) -> Router {
    let records = Router::new()
        .route("/api/records/open", post(author::open_record))
        .layer(DefaultBodyLimit::max(MAX_RECORD_BODY));
    Router::new()
        .route("/", get(assets::index))
        .route("/play/{id}/{key}", get(assets::index))
        .route("/author", get(assets::index))
        .route("/records", get(assets::index))
        .route("/static/{file}", get(assets::file))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/variants", get(author::variants))
        .route("/api/definitions/check", post(author::check))
        .route("/api/definitions/simulate", post(author::simulate))
        .route("/api/render", post(author::render))
        .route("/api/games", post(api::create))
        .route("/api/games/{id}/{key}", get(api::state))
        .route("/api/games/{id}/{key}/events", get(api::events))
        .route("/api/games/{id}/{key}/step", post(api::step))
        .route("/api/games/{id}/{key}/play", post(api::play))
        .route("/api/games/{id}/{key}/undo", post(api::undo))
        .route("/api/games/{id}/{key}/resign", post(api::resign))
        .route("/api/games/{id}/{key}/draw", post(api::draw))
        .route("/api/games/{id}/{key}/record", get(api::record))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .merge(records)
        .layer(middleware::from_fn_with_state(app.clone(), known_host))
        .with_state(app)
}

/// Refuses a request to a loopback server that names another host.
async fn known_host(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if let Some(hosts) = &app.hosts {
        let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok());
        if !host.is_some_and(|h| hosts.iter().any(|k| k.eq_ignore_ascii_case(h))) {
            return (StatusCode::MISDIRECTED_REQUEST, "unknown host name").into_response();
        }
    }
    next.run(request).await
}

/// Serves the page until the process is stopped. Once it listens, `ready` is given the page's
/// address (`http://127.0.0.1:PORT/` for any address): the caller announces it, or opens it.
///
/// # Errors
/// The address cannot be bound, or the games folder cannot be made.
pub async fn serve(config: Config, ready: impl FnOnce(&str)) -> Result<(), String> {
    std::fs::create_dir_all(&config.games)
        .map_err(|e| format!("cannot make the games folder {}: {e}", config.games.display()))?;
    let listener = tokio::net::TcpListener::bind(config.address)
        .await
        .map_err(|e| {
            format!(
                "cannot listen on {}: {e} (choose another port with --port, or --port 0 for any free one)",
                config.address
            )
        })?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let app = Arc::new(App::new(config.games.clone(), address, config.warn)?);
    let shown = if address.ip().is_unspecified() {
        SocketAddr::from(([127, 0, 0, 1], address.port()))
    } else {
        address
    };
    let url = format!("http://{shown}/");
    ready(&url);
    // Stopped by a signal, whatever it is doing: every record is saved whole after every change,
    // and waiting for the pages' event streams to close would wait for ever.
    axum::serve(listener, router(app)).await.map_err(|e| e.to_string())
}

/// The default games folder: `kickoff/games` in the user's data folder.
#[must_use]
pub fn default_games_folder() -> PathBuf {
    dirs::data_dir().unwrap_or_else(std::env::temp_dir).join("kickoff").join("games")
}
