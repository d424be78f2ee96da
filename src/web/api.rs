//! The requests of a game: start one, follow it, enter and play turns, take back, resign, offer
//! a draw, download its record. The engine plays its turns in the background and every page
//! that follows the game hears of each change through server-sent events.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::WatchStream;

use crate::definition::{self, LoadError};
use crate::game::{Ending, GameError};
use crate::position::Position;
use crate::render::svg::turn_path;
use crate::rules::Rules;
use crate::search::{Limits, MAX_LEVEL, Player, Searcher};
use crate::setup::{self, SetupNumber};
use crate::side::{BySide, Side};
use crate::turn_text::names::notation_error;
use crate::turn_text::names::resolve;
use crate::web::author::invalid;
use crate::web::clients::{Client, Peer, Rate};
use crate::web::db::now_ms;
use crate::web::lobby::accounts::MaybeAccount;
use crate::web::lobby::games::lobby_info;
use crate::web::published::visible_version;
use crate::web::queue::Kind;
use crate::web::session::{Beacon, Mode, NewGame, Session, Shared, lock, random_hex};
use crate::web::views::{
    ActionView, GameView, StepView, ThreatView, board, game_board, game_view, scoring_turn,
    step_view, threat, walk,
};
use crate::web::{ApiError, App};

/// What the page asks for when it starts a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// A shipped variant's name (when no definition is given).
    variant: Option<String>,
    /// A definition's text, uploaded or pasted.
    definition: Option<String>,
    /// A published version (`HASH.toml`) the person starting the game may see.
    published: Option<String>,
    /// `random`, a setup number, or nothing (a random setup where the variant has them).
    setup: Option<String>,
    /// `engine`, `hotseat` or `remote`.
    opponent: String,
    /// The engine's level.
    level: Option<u8>,
    /// The side of the person starting the game: `white`, `black` or `random`.
    side: Option<String>,
}

/// A new game's links.
#[derive(Debug, Serialize)]
pub struct Created {
    /// The game's id.
    id: String,
    /// The key of the link of the person who started it.
    key: String,
    /// That link.
    url: String,
    /// The link for the second browser, in a game between two.
    invite: Option<String>,
}

/// `POST /api/games`: a game of a shipped variant, of a definition sent with the request (read
/// on the work queue), or of a published version the person may see (read as if sent); each
/// client starts so many games a minute, and so many of definitions of its own.
pub async fn create(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(viewer): MaybeAccount,
    Json(mut request): Json<CreateRequest>,
) -> Result<Json<Created>, ApiError> {
    let client = peer.client;
    if let Some(version) = request.published.take() {
        if request.definition.is_some() || request.variant.is_some() {
            return Err(ApiError::BadRequest(
                "a game is of a variant, a definition or a published version: one of them"
                    .to_owned(),
            ));
        }
        let shared = app.clone();
        let text =
            app.quick(client, move || visible_version(&shared, &version, viewer.as_ref())).await?;
        request.definition = Some(text);
    }
    let limited = |what: &str, retry| ApiError::RateLimited {
        message: format!("you have sent as many {what} as a minute allows: wait a little"),
        retry,
    };
    if let Some(text) = &request.definition {
        #[allow(clippy::cast_precision_loss)] // a body's length is far below 2^52
        let bytes = text.len() as f64;
        app.rates
            .spend_many(client, Rate::DefinitionBytes, bytes)
            .map_err(|r| limited("definitions", r))?;
    }
    app.rates.spend(client, Rate::Game).map_err(|r| limited("new games", r))?;
    let chosen = match request.definition.clone() {
        Some(text) => {
            let most = app.limits.definition_memory;
            app.queue.run(client, Kind::Request, move || uploaded_definition(text, most)).await?
        }
        None => shipped_definition(&app, request.variant.as_deref())?,
    };
    let shared = app.clone();
    let (session, created) =
        app.quick(client, move || start_game(&shared, request, chosen)).await?;
    wake_engine(app, session, client);
    Ok(Json(created))
}

fn start_game(
    app: &App,
    request: CreateRequest,
    chosen: Chosen,
) -> Result<(Shared, Created), ApiError> {
    let Chosen { definition, shipped, text } = chosen;
    let mode = match request.opponent.as_str() {
        "engine" => Mode::Engine,
        "hotseat" => Mode::HotSeat,
        "remote" => Mode::Remote,
        other => return Err(ApiError::BadRequest(format!("unknown opponent `{other}`"))),
    };
    let maker = match request.side.as_deref().unwrap_or("white") {
        "white" => Side::White,
        "black" => Side::Black,
        "random" => {
            if random_hex(1)?.as_bytes()[1] % 2 == 0 {
                Side::White
            } else {
                Side::Black
            }
        }
        other => return Err(ApiError::BadRequest(format!("unknown side `{other}`"))),
    };
    let level = request.level.unwrap_or(2);
    if !(1..=MAX_LEVEL).contains(&level) {
        return Err(ApiError::BadRequest(format!("the engine's levels are 1 to {MAX_LEVEL}")));
    }
    let mut players = BySide { white: Player::Human, black: Player::Human };
    if mode == Mode::Engine {
        players[!maker] = Player::Engine(level);
    }
    let setup = setup_number(&definition, request.setup.as_deref())?;
    let new = NewGame { definition, shipped, text, setup, mode, players, maker };
    let (session, keys) = app.store.create(new)?;
    let id = lock(&session).id.clone();
    let key = keys[maker].clone().unwrap_or_default();
    let invite = (mode == Mode::Remote)
        .then(|| keys[!maker].as_ref().map(|k| format!("/play/{id}/{k}")))
        .flatten();
    let url = format!("/play/{id}/{key}");
    Ok((session, Created { id, key, url, invite }))
}

/// The definition of a new game.
struct Chosen {
    definition: Arc<Rules>,
    /// Its shipped name.
    shipped: Option<String>,
    /// Its text, when it was sent.
    text: Option<String>,
}

/// A definition sent as text, read as a file is (work for the queue), whose rules take at most
/// `most` bytes.
fn uploaded_definition(text: String, most: usize) -> Result<Chosen, ApiError> {
    let def = definition::load_text("definition.toml", &text).map_err(|e| match e {
        LoadError::Invalid { sources, diagnostics } => invalid(&sources, &diagnostics),
        other => ApiError::BadRequest(other.to_string()),
    })?;
    let bytes = def.rules.memory();
    if bytes > most {
        return Err(ApiError::BadRequest(format!(
            "the board plays definitions whose rules take at most {} MiB in memory; this one \
             takes {} MiB (its board, its kinds of pieces and the reach of their moves and \
             kicks): `kickoff play` plays it",
            most >> 20,
            bytes.div_ceil(1 << 20)
        )));
    }
    Ok(Chosen { definition: Arc::new(def.rules), shipped: None, text: Some(text) })
}

/// A shipped definition by name (Boyer's by default).
fn shipped_definition(app: &App, name: Option<&str>) -> Result<Chosen, ApiError> {
    let name = name.unwrap_or("boyer-1951");
    let rules = app
        .shipped(name)
        .ok_or_else(|| ApiError::BadRequest(format!("no shipped variant is named `{name}`")))?;
    Ok(Chosen { definition: rules.clone(), shipped: Some(name.to_owned()), text: None })
}

/// The random setup asked for: a number, `random`, or by default a random one where the
/// variant has random setups.
pub(crate) fn setup_number(
    rules: &Rules,
    asked: Option<&str>,
) -> Result<Option<SetupNumber>, ApiError> {
    let asked = asked.map(str::trim).filter(|s| !s.is_empty());
    let Some(random) = rules.random_setup() else {
        return match asked {
            Some(_) => Err(ApiError::BadRequest("this variant has no random setups".to_owned())),
            None => Ok(None),
        };
    };
    let independent = random.black_independent();
    match asked {
        None | Some("random") => {
            let count = setup::count(rules, random);
            let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0);
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            Ok(Some(SetupNumber::draw(count, independent, &mut rng)))
        }
        Some(text) => SetupNumber::parse(text, independent)
            .map(Some)
            .map_err(|e| ApiError::BadRequest(e.to_string())),
    }
}

/// The view of a session for the holder of `key`, with what a game of the lobby shows beside
/// its board.
fn viewed(app: &App, session: &Session, key: &str, flipped: bool) -> GameView {
    let mut view = game_view(session, key, flipped);
    view.lobby = lobby_info(app, session);
    view
}

/// Options of a view of the board.
#[derive(Debug, Deserialize)]
pub struct ViewQuery {
    /// Black's view.
    #[serde(default)]
    flip: bool,
}

/// `GET /api/games/{id}/{key}`: the game as this link sees it.
pub async fn state(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
    Query(query): Query<ViewQuery>,
) -> Result<Json<GameView>, ApiError> {
    let shared = app.clone();
    let (session, view) = on_game(&app, peer.client, id, key, move |session, _, key| {
        let view = {
            let mut s = lock(&session);
            // A lobby game's clock that ran out is noticed by whoever looks first.
            s.flag(now_ms())?;
            viewed(&shared, &s, key, query.flip)
        };
        Ok((session, view))
    })
    .await?;
    // A game saved while the engine was thinking resumes its turn.
    wake_engine(app, session, peer.client);
    Ok(Json(view))
}

/// `GET /api/games/{id}/{key}/events`: an event at every change of the game. The stream holds
/// the game's change counter, not the game: a followed game can be let go from memory.
pub async fn events(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let changes =
        on_game(&app, peer.client, id, key, |session, _, _| Ok(lock(&session).subscribe())).await?;
    let stream = WatchStream::new(changes)
        .map(|version| Ok(Event::default().event("update").data(version.to_string())));
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A turn entered so far.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// The actions so far.
    actions: Vec<ActionView>,
    /// Black's view.
    #[serde(default)]
    flip: bool,
}

/// The board and what may follow, in the middle of a turn.
#[derive(Debug, Serialize)]
pub struct StepAnswer {
    svg: String,
    step: StepView,
    /// Whether the other side could score with its next turn: after the turn entered so far
    /// when it may end there, from the position as it stands before the first action.
    #[serde(skip_serializing_if = "Option::is_none")]
    threat: Option<ThreatView>,
}

/// `POST /api/games/{id}/{key}/step`: the actions possible after the ones entered so far.
pub async fn step(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
    Json(request): Json<StepRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    on_game(&app, peer.client, id, key, move |session, sides, _| {
        let session = lock(&session);
        let game = session.game();
        my_turn(&session, &sides)?;
        let pos = *game.position();
        let (mid, turn) = walk(&pos, &request.actions)?;
        let svg = if turn.is_null() {
            game_board(game, request.flip)
        } else {
            let (arrows, marked) = turn_path(&pos, &turn);
            board(mid.position(), request.flip, &arrows, &marked)
        };
        let step = step_view(&pos, &turn, &mid);
        let threat = if turn.is_null() {
            threat(&pos)
        } else if step.can_stop && mid.scored().is_none() {
            Some(scoring_turn(&mid.finish()))
        } else {
            None
        };
        Ok(Json(StepAnswer { svg, step, threat }))
    })
    .await
}

/// Whether it is the turn of a side this link plays, in a game still going.
fn my_turn(session: &Session, sides: &[Side]) -> Result<(), ApiError> {
    let game = session.game();
    if let Some(ending) = game.ending() {
        return Err(ApiError::Conflict(format!("the game is over: {ending}")));
    }
    if session.thinking() {
        return Err(ApiError::Conflict("the engine is thinking".to_owned()));
    }
    if !sides.contains(&game.position().side()) {
        return Err(ApiError::Conflict("it is not your turn".to_owned()));
    }
    Ok(())
}

/// A whole turn: its actions, or its text in notation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The actions.
    actions: Option<Vec<ActionView>>,
    /// The turn as typed (`Nc3>e6`).
    text: Option<String>,
    /// Black's view.
    #[serde(default)]
    flip: bool,
}

/// `POST /api/games/{id}/{key}/play`: plays a turn.
pub async fn play(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
    Json(request): Json<PlayRequest>,
) -> Result<Json<GameView>, ApiError> {
    let shared = app.clone();
    let (session, view) = on_game(&app, peer.client, id, key, move |session, sides, key| {
        let mut s = lock(&session);
        my_turn(&s, &sides)?;
        let pos = *s.game().position();
        let turn = match (&request.actions, &request.text) {
            (Some(actions), None) => walk(&pos, actions)?.1,
            (None, Some(text)) if text.len() <= 500 => resolve(&pos, text)
                .map_err(|e| ApiError::BadRequest(notation_error(&e).to_string()))?,
            (None, Some(_)) => {
                return Err(ApiError::BadRequest("a turn is at most 500 bytes".to_owned()));
            }
            _ => {
                return Err(ApiError::BadRequest("give the turn's actions or its text".to_owned()));
            }
        };
        s.change(|game| game.play(turn))?.map_err(|e| ApiError::BadRequest(e.to_string()))?;
        crate::web::lobby::games::notify_turn(&shared, &s);
        let view = viewed(&shared, &s, key, request.flip);
        drop(s);
        Ok((session, view))
    })
    .await?;
    wake_engine(app, session, peer.client);
    Ok(Json(view))
}

/// `POST /api/games/{id}/{key}/undo`: takes back the last turn (against the engine, its reply
/// too); not in a game between two browsers.
pub async fn undo(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
    Query(query): Query<ViewQuery>,
) -> Result<Json<GameView>, ApiError> {
    let shared = app.clone();
    let (session, view) = on_game(&app, peer.client, id, key, move |session, sides, key| {
        let mut s = lock(&session);
        if s.thinking() {
            return Err(ApiError::Conflict("the engine is thinking".to_owned()));
        }
        if s.mode == Mode::Remote {
            return Err(ApiError::Conflict(
                "turns are not taken back between two browsers".to_owned(),
            ));
        }
        let engine_side = Side::ALL.into_iter().find(|&side| !sides.contains(&side));
        s.change(|game| {
            let mut any = game.undo();
            while any && engine_side == Some(game.position().side()) && !game.plies().is_empty() {
                any = game.undo();
            }
        })?;
        let view = viewed(&shared, &s, key, query.flip);
        drop(s);
        Ok((session, view))
    })
    .await?;
    wake_engine(app, session, peer.client);
    Ok(Json(view))
}

/// `POST /api/games/{id}/{key}/resign`: this link's side resigns (at a hot seat, the side to
/// move).
pub async fn resign(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
) -> Result<Json<GameView>, ApiError> {
    let shared = app.clone();
    on_game(&app, peer.client, id, key, move |session, sides, key| {
        let mut s = lock(&session);
        if let Some(ending) = s.game().ending() {
            return Err(ApiError::Conflict(format!("the game is over: {ending}")));
        }
        let loser = acting_side(&s, &sides);
        s.change(|game| game.declare(Ending::Resignation { loser }))?;
        Ok(Json(viewed(&shared, &s, key, false)))
    })
    .await
}

/// The side a link acts for: its own, or at a hot seat the side to move.
fn acting_side(session: &Session, sides: &[Side]) -> Side {
    let to_move = session.game().position().side();
    if sides.contains(&to_move) { to_move } else { sides[0] }
}

/// A draw offered, accepted or declined.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// `offer`, `accept` or `decline`.
    action: String,
}

/// What became of a draw offer.
#[derive(Debug, Serialize)]
pub struct DrawAnswer {
    /// `offered`, `accepted` or `declined`.
    status: &'static str,
}

/// What a draw request does, decided under the game's lock.
enum DrawStep {
    /// Answered at once.
    Done(&'static str),
    /// The engine must weigh the offer: a search on the work queue, then the game again.
    AskEngine(Thought),
}

/// `POST /api/games/{id}/{key}/draw`: offers a draw (the engine answers after a short search on
/// the work queue), or accepts or declines the other side's offer.
pub async fn draw(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
    Json(request): Json<DrawRequest>,
) -> Result<Json<DrawAnswer>, ApiError> {
    let step = on_game(&app, peer.client, id, key, move |session, sides, _| {
        draw_step(&mut lock(&session), &sides, &request.action)
    })
    .await?;
    let thought = match step {
        DrawStep::Done(status) => return Ok(Json(DrawAnswer { status })),
        DrawStep::AskEngine(thought) => thought,
    };
    // The engine's answer is applied even if the page leaves meanwhile: the game must not stay
    // "thinking".
    let client = peer.client;
    let answered = tokio::spawn(async move {
        let outcome = thought.think(&app, client, Kind::Request).await;
        let finish = move || {
            thought.finish(outcome, |s, answer| {
                if let Answer::Draw(true) = answer {
                    s.change(|game| game.declare(Ending::Agreement))?;
                    Ok("accepted")
                } else {
                    s.announce();
                    Ok("declined")
                }
            })
        };
        tokio::task::spawn_blocking(finish).await.unwrap_or_else(|_| {
            Err(ApiError::Internal("the request failed inside the server".to_owned()))
        })
    });
    let status = answered.await.unwrap_or_else(|_| {
        Err(ApiError::Internal("the request failed inside the server".to_owned()))
    })?;
    Ok(Json(DrawAnswer { status }))
}

/// The first step of a draw request, under the game's lock.
fn draw_step(s: &mut Session, sides: &[Side], action: &str) -> Result<DrawStep, ApiError> {
    if let Some(ending) = s.game().ending() {
        return Err(ApiError::Conflict(format!("the game is over: {ending}")));
    }
    let me = acting_side(s, sides);
    let status = match action {
        "offer" if s.mode == Mode::Engine => {
            // The engine weighs the offer as it thinks: nothing else happens meanwhile.
            return Thought::start(s, Task::WeighDraw { engine: !me })
                .map(DrawStep::AskEngine)
                .ok_or_else(|| ApiError::Conflict("the engine is thinking".to_owned()));
        }
        "offer" => {
            s.draw_offer = Some(me);
            s.announce();
            "offered"
        }
        "accept" => match s.draw_offer {
            Some(by) if s.mode == Mode::HotSeat || !sides.contains(&by) => {
                s.change(|game| game.declare(Ending::Agreement))?;
                "accepted"
            }
            _ => return Err(ApiError::Conflict("no draw is offered to you".to_owned())),
        },
        "decline" => {
            s.draw_offer = None;
            s.announce();
            "declined"
        }
        other => return Err(ApiError::BadRequest(format!("unknown draw action `{other}`"))),
    };
    Ok(DrawStep::Done(status))
}

/// `GET /api/games/{id}/{key}/record`: the game's record, to download.
pub async fn record(
    State(app): State<Arc<App>>,
    peer: Peer,
    Path((id, key)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    on_game(&app, peer.client, id, key, |session, _, _| {
        let s = lock(&session);
        let disposition = format!("attachment; filename=\"kickoff-{}.txt\"", s.id);
        Ok((
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            s.public_record(),
        )
            .into_response())
    })
    .await
}

/// Runs `work` on game `id` as the link of `key` sees it (its session, the sides the key
/// plays, the key): among the light requests when the game is in memory, or can be read back
/// as light work (a game of compiled rules whose turns replay within the light read-back time).
/// Another game let go from memory is read back on the work queue (its key checked first, its
/// turns replayed within the read-back time, in the client's line), and `work` runs there
/// after it: the light requests never compile a definition nor replay a long game.
async fn on_game<T: Send + 'static>(
    app: &Arc<App>,
    client: Client,
    id: String,
    key: String,
    work: impl FnOnce(Shared, Vec<Side>, &str) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let shared = app.clone();
    let (id2, key2) = (id.clone(), key.clone());
    let held = app
        .quick(client, move || match shared.store.get_light(&id2, &key2)? {
            Some((session, sides)) => work(session, sides, &key2).map(Ok),
            None => Ok(Err(work)),
        })
        .await?;
    let work = match held {
        Ok(done) => return Ok(done),
        Err(work) => work,
    };
    let shared = app.clone();
    app.queue
        .run(client, Kind::Request, move || {
            let (session, sides) = shared.store.get(&id, &key)?;
            work(session, sides, &key)
        })
        .await
}

/// Starts the engine's turn on the work queue, in `client`'s line, when it is the engine's
/// turn.
pub fn wake_engine(app: Arc<App>, session: Shared, client: Client) {
    let thought = {
        let s = lock(&session);
        let Some(level) = s.engine_to_move() else { return };
        let Some(thought) = Thought::start(&s, Task::Choose { level }) else { return };
        thought
    };
    drop(session);
    tokio::spawn(async move {
        let outcome = thought.think(&app, client, Kind::Engine).await;
        let finish = move || {
            let warn = app.warn;
            thought.finish(outcome, |s, answer| {
                match answer {
                    Answer::Turn(Some(turn)) => match s.change(|game| game.play(turn)) {
                        // A game that ended meanwhile (a resignation, an agreed draw) keeps
                        // its end.
                        Ok(Ok(()) | Err(GameError::Over(_))) => {}
                        Ok(Err(e)) => {
                            warn(&format!("game {}: the engine's turn was refused: {e}", s.id))
                        }
                        Err(e) => warn(&format!("game {}: {e}", s.id)),
                    },
                    _ => s.announce(),
                }
                Ok(())
            })
        };
        // Saving the turn writes a file: off the async threads.
        let _ = tokio::task::spawn_blocking(finish).await;
    });
}

/// What the engine is asked.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Its turn, at a level.
    Choose { level: u8 },
    /// Whether it takes a draw, playing `engine`.
    WeighDraw { engine: Side },
}

/// What the engine answered.
enum Answer {
    /// The turn it chose (none if the search found none, or the game moved on).
    Turn(Option<crate::movegen::Turn>),
    /// Whether it takes the draw.
    Draw(bool),
}

/// The engine thinking about a game: the game is marked thinking from [`Thought::start`] to
/// [`Thought::finish`]. While the job waits on the queue it holds only the game's id and beacon,
/// not the game: a game waiting for the engine can be let go from memory, and is read back
/// when the job runs (on the worker, within the read-back time). From then until the answer is
/// applied the game is held, so that it is never read back outside the queue.
struct Thought {
    id: String,
    beacon: Arc<Beacon>,
    /// The turns played when it began: a game changed meanwhile makes the answer stale.
    plies: usize,
    task: Task,
}

impl Thought {
    /// Marks the game thinking; none when the engine is thinking about it already.
    fn start(session: &Session, task: Task) -> Option<Thought> {
        let beacon = session.beacon();
        if !beacon.set_thinking(true) {
            return None;
        }
        beacon.announce();
        Some(Thought { id: session.id.clone(), beacon, plies: session.game().plies().len(), task })
    }

    /// Runs the search on the work queue, the game read when its turn comes; gives the game
    /// with the answer.
    async fn think(
        &self,
        app: &Arc<App>,
        client: Client,
        kind: Kind,
    ) -> Result<(Shared, Answer), ApiError> {
        let shared = app.clone();
        let (id, plies, task) = (self.id.clone(), self.plies, self.task);
        let limit = app.limits.search_time;
        app.queue
            .run(client, kind, move || {
                let session = shared.store.by_id(&id)?;
                let job = {
                    let s = lock(&session);
                    let current = s.game().plies().len() == plies && s.game().ending().is_none();
                    current.then(|| EngineJob::of(&s, task, limit))
                };
                let answer = match (job, task) {
                    (None, _) => Answer::Turn(None),
                    (Some(job), Task::Choose { .. }) => Answer::Turn(job.choose()),
                    (Some(job), Task::WeighDraw { .. }) => Answer::Draw(job.accepts_draw()),
                };
                Ok((session, answer))
            })
            .await
    }

    /// Under the game's lock: marks it no longer thinking, then applies the answer with
    /// `apply` if the game is as it was (else only tells its pages). When the engine could not
    /// think (the queue refused it, the game could not be read back), its pages are told, and
    /// why is returned.
    fn finish<T>(
        &self,
        thought: Result<(Shared, Answer), ApiError>,
        apply: impl FnOnce(&mut Session, Answer) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let (session, answer) = match thought {
            Ok(thought) => thought,
            Err(e) => {
                self.beacon.set_thinking(false);
                self.beacon.announce();
                return Err(e);
            }
        };
        let mut s = lock(&session);
        self.beacon.set_thinking(false);
        let current = s.game().plies().len() == self.plies && s.game().ending().is_none();
        if !current {
            s.announce();
            return Err(ApiError::Conflict("the game changed meanwhile".to_owned()));
        }
        apply(&mut s, answer)
    }
}

/// What the engine needs to search a game away from the game's lock.
struct EngineJob {
    rules: Arc<Rules>,
    fen: String,
    history: Vec<u64>,
    level: u8,
    /// The side the engine plays (weighing a draw).
    side: Side,
    /// The longest its search runs.
    limit: std::time::Duration,
}

impl EngineJob {
    /// The engine's search for `task` in the game as it stands.
    fn of(session: &Session, task: Task, limit: std::time::Duration) -> EngineJob {
        let game = session.game();
        let (level, side) = match task {
            Task::Choose { level } => (level, game.position().side()),
            Task::WeighDraw { engine } => (1, engine),
        };
        EngineJob {
            rules: session.rules().clone(),
            fen: game.position().fen(),
            history: game.hashes().to_vec(),
            level,
            side,
            limit,
        }
    }

    /// The search's report in the position, within the job's time.
    fn search(&self) -> Option<crate::search::Report<'_>> {
        let pos = Position::from_fen(&self.rules, &self.fen).ok()?;
        let past = &self.history[..self.history.len().saturating_sub(1)];
        let mut limits = Limits::level(self.level);
        limits.cap = Some(limits.cap.map_or(self.limit, |cap| cap.min(self.limit)));
        Searcher::new(&self.rules).search(&pos, past, limits).ok()
    }

    fn choose(&self) -> Option<crate::movegen::Turn> {
        self.search()?.turn
    }

    /// Whether the engine takes a draw: when a short search does not find it better placed.
    fn accepts_draw(&self) -> bool {
        let Some(report) = self.search() else { return true };
        let to_move = Position::from_fen(&self.rules, &self.fen).map(|p| p.side());
        let for_engine = if to_move == Ok(self.side) { report.score } else { -report.score };
        for_engine <= 0
    }
}
