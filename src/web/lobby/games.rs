//! The games of the lobby as anyone sees them (a public page that follows each one live, with
//! its spectators counted and its players' presence), as their players play them (turns,
//! resignation, through the API or the page's own requests with the key each player is given),
//! their chat, and the lists: games to watch, and an account's own.

use std::convert::Infallible;
use std::sync::{Arc, MutexGuard};

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::{Deserialize, Serialize};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::WatchStream;

use super::accounts::{Account, MaybeAccount};
use crate::game::Ending;
use crate::side::{BySide, Side};
use crate::turn_text::names::notation_error;
use crate::turn_text::names::resolve;
use crate::web::clients::{Client, Peer, Rate, Spender};
use crate::web::db::{Chat, ClockSpec, GameFilter, GameRow, User, now_ms};
use crate::web::session::{ID_LEN, Session, Shared, lock, well_formed};
use crate::web::views::{MoveView, game_board, move_list};
use crate::web::{ApiError, App};

/// What a game of the lobby shows beside its board, to anyone: its players, their clocks, who
/// follows it, its chat's mark and its public page. A player's own view of the game (by the
/// key of their link) carries it too.
#[derive(Clone, Debug, Serialize)]
pub struct LobbyInfo {
    white: String,
    black: String,
    /// The milliseconds each side has left.
    clock: Option<BySide<i64>>,
    /// The time control.
    time_control: Option<ClockSpec>,
    /// Whether each player follows the game now.
    present: BySide<bool>,
    spectators: usize,
    /// Changes with every message written in the game's chat, or deleted.
    chat: u64,
    /// The game's public page.
    watch: String,
    rematch_of: Option<String>,
}

/// What a game of the lobby shows beside its board, none for a game by link.
#[must_use]
pub fn lobby_info(app: &App, session: &Session) -> Option<LobbyInfo> {
    let lobby = session.lobby.as_ref()?;
    let (present, spectators) = app.hall.followers(&session.id);
    Some(LobbyInfo {
        white: lobby.players.white.1.clone(),
        black: lobby.players.black.1.clone(),
        clock: session.time_left(now_ms()),
        time_control: lobby.clock,
        present,
        spectators,
        chat: app.hall.chat_mark(&session.id),
        watch: format!("/watch/{}", session.id),
        rematch_of: lobby.rematch_of.clone(),
    })
}

/// A game of the lobby as anyone sees it, and as its players see it (`your_side`, `key`).
#[derive(Debug, Serialize)]
pub struct LobbyView {
    id: String,
    variant: String,
    /// The variant's own name.
    title: String,
    /// The number of its random setup, if any.
    setup: Option<String>,
    /// The position the game started from.
    start: String,
    fen: String,
    turns: Vec<String>,
    /// The turns as a move list shows them (`12.`, `12...`).
    moves: Vec<MoveView>,
    /// Goals so far, White's first, in a game of several goals.
    score: Option<[u16; 2]>,
    result: Option<String>,
    termination: Option<String>,
    /// The ending in words.
    ending: Option<String>,
    to_move: &'static str,
    /// The side the account asking plays.
    your_side: Option<&'static str>,
    /// The key of that side's link (`/play/ID/KEY`), for the page's own requests.
    key: Option<String>,
    /// Counts the game's changes.
    version: u64,
    #[serde(flatten)]
    info: LobbyInfo,
    /// The board, its last turn drawn.
    svg: String,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The side `user` plays in `session`.
fn side_of(session: &Session, user: Option<&User>) -> Option<Side> {
    let lobby = session.lobby.as_ref()?;
    let user = user?;
    Side::ALL.into_iter().find(|&side| lobby.players[side].0 == user.id)
}

/// The view of a lobby game (`session`, which [`lobby_game`] found) for `user`, its board
/// turned for Black when `flipped`.
fn view(app: &App, session: &Session, user: Option<&User>, flipped: bool) -> Option<LobbyView> {
    let info = lobby_info(app, session)?;
    let game = session.game();
    let ending = game.ending();
    let mine = side_of(session, user);
    Some(LobbyView {
        id: session.id.clone(),
        variant: session.variant().to_owned(),
        title: game.rules().info().name.clone(),
        setup: game.setup_number().map(|n| n.to_string()),
        start: game.start().fen(),
        fen: game.position().fen(),
        turns: game.plies().iter().map(|p| p.name.clone()).collect(),
        moves: move_list(game),
        score: game.rules().end().keeps_score().then(|| game.position().score()),
        result: ending.map(|e| e.result().to_string()),
        termination: ending.map(|e| e.tag().to_owned()).filter(|t| !t.is_empty()),
        ending: ending.map(|e| e.to_string()),
        to_move: side_name(game.position().side()),
        your_side: mine.map(side_name),
        key: mine.and_then(|side| session.key(side)).map(str::to_owned),
        version: session.version(),
        info,
        svg: game_board(game, flipped),
    })
}

/// The view of a lobby game, as a result.
fn lobby_view(
    app: &App,
    session: &Session,
    user: Option<&User>,
    flipped: bool,
) -> Result<Json<LobbyView>, ApiError> {
    view(app, session, user, flipped).map(Json).ok_or(ApiError::NotFound)
}

/// Options of the view of a lobby game.
#[derive(Debug, Deserialize)]
pub struct ViewQuery {
    /// The board as Black sees it.
    #[serde(default)]
    flip: bool,
}

/// Game `id`: from memory, or read back on the work queue in `client`'s line; then
/// [`of_lobby`] tells whether it is a game of the lobby.
pub(super) async fn lobby_game(
    app: &Arc<App>,
    client: Client,
    id: &str,
) -> Result<Shared, ApiError> {
    if !well_formed(id, ID_LEN) {
        return Err(ApiError::NotFound);
    }
    app.game_by_id(client, id).await
}

/// The game, if it is a game of the lobby (a game by link is private to its links).
pub(super) fn of_lobby(session: &Shared) -> Result<MutexGuard<'_, Session>, ApiError> {
    let s = lock(session);
    if s.lobby.is_none() {
        return Err(ApiError::NotFound);
    }
    Ok(s)
}

/// Runs `work` on lobby game `id` off the async threads, under the game's lock, once a clock
/// that ran out has ended it (whoever looks first notices).
async fn with_game<T: Send + 'static>(
    app: &Arc<App>,
    client: Client,
    id: String,
    work: impl FnOnce(&Arc<App>, &mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let session = lobby_game(app, client, &id).await?;
    let shared = app.clone();
    app.quick(client, move || {
        let mut s = of_lobby(&session)?;
        s.flag(now_ms())?;
        work(&shared, &mut s)
    })
    .await
}

/// `GET /api/games/{id}`: a game of the lobby, for anyone (`?flip=true`: its board as Black
/// sees it).
pub async fn state(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(user): MaybeAccount,
    Path(id): Path<String>,
    Query(query): Query<ViewQuery>,
) -> Result<Json<LobbyView>, ApiError> {
    with_game(&app, peer.client, id, move |app, s| lobby_view(app, s, user.as_ref(), query.flip))
        .await
}

/// A turn sent by a player.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRequest {
    /// The turn in kickoff's notation (`Nc3>e6`, `--` for none).
    turn: String,
}

/// The player of the side to move, or why `user` is not.
fn mover(session: &Session, user: &User) -> Result<Side, ApiError> {
    let game = session.game();
    if let Some(ending) = game.ending() {
        return Err(ApiError::Conflict(format!("the game is over: {ending}")));
    }
    let to_move = game.position().side();
    match side_of(session, Some(user)) {
        Some(side) if side == to_move => Ok(side),
        Some(_) => Err(ApiError::Forbidden(format!(
            "it is {}'s turn, and you play {}",
            to_move.name(),
            (!to_move).name()
        ))),
        None => Err(ApiError::Forbidden("you do not play this game".to_owned())),
    }
}

/// `POST /api/games/{id}/turn`: the side to move's player plays a turn.
pub async fn turn(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
    Json(request): Json<TurnRequest>,
) -> Result<Json<LobbyView>, ApiError> {
    if request.turn.len() > 500 {
        return Err(ApiError::BadRequest("a turn is at most 500 bytes".to_owned()));
    }
    with_game(&app, peer.client, id, move |app, s| {
        mover(s, &user)?;
        let pos = *s.game().position();
        let turn = resolve(&pos, &request.turn)
            .map_err(|e| ApiError::BadRequest(notation_error(&e).to_string()))?;
        s.change(|game| game.play(turn))?.map_err(|e| ApiError::BadRequest(e.to_string()))?;
        notify_turn(app, s);
        lobby_view(app, s, Some(&user), false)
    })
    .await
}

/// After a turn of a correspondence game: the player now to move is told by e-mail, when the
/// server sends mail, the player gave an address, and is not following the game now.
pub fn notify_turn(app: &Arc<App>, session: &Session) {
    let (Some(mailer), Some(lobby)) = (&app.mailer, &session.lobby) else { return };
    let game = session.game();
    if !matches!(lobby.clock, Some(ClockSpec::Correspondence { .. })) || game.ending().is_some() {
        return;
    }
    let to_move = game.position().side();
    if app.hall.followers(&session.id).0[to_move] {
        return;
    }
    let (user, name) = lobby.players[to_move].clone();
    let opponent = lobby.players[!to_move].1.clone();
    let turn = game.plies().last().map(|p| p.name.clone()).unwrap_or_default();
    let id = session.id.clone();
    let (mailer, app) = (mailer.clone(), app.clone());
    tokio::task::spawn_blocking(move || {
        let Ok(Some((player, _))) = app.store.db().user_by_name(&name) else { return };
        let Some(to) = player.email else { return };
        let notice = super::mail::Notice { user, to, game: id, opponent, turn };
        if let Err(e) = mailer.send(&notice) {
            (app.warn)(&format!("a notice could not be sent: {e}"));
        }
    });
}

/// `POST /api/games/{id}/resign`: a player resigns.
pub async fn resign(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
) -> Result<Json<LobbyView>, ApiError> {
    with_game(&app, peer.client, id, move |app, s| {
        let side = side_of(s, Some(&user))
            .ok_or_else(|| ApiError::Forbidden("you do not play this game".to_owned()))?;
        if let Some(ending) = s.game().ending() {
            return Err(ApiError::Conflict(format!("the game is over: {ending}")));
        }
        s.change(|game| game.declare(Ending::Resignation { loser: side }))?;
        lobby_view(app, s, Some(&user), false)
    })
    .await
}

/// `GET /api/games/{id}/events`: an event at every change of a lobby game (its turns, its
/// chat, who follows it), for anyone; each stream counts as its player's presence or as a
/// spectator while it is open.
pub async fn events(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(user): MaybeAccount,
    Path(id): Path<String>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let session = lobby_game(&app, peer.client, &id).await?;
    let (changes, side, beacon) = app
        .quick(peer.client, move || {
            let s = of_lobby(&session)?;
            Ok((s.subscribe(), side_of(&s, user.as_ref()), s.beacon()))
        })
        .await?;
    let following = app.hall.follow(&id, side, beacon);
    let stream = WatchStream::new(changes).map(move |version| {
        let _held = &following;
        Ok(Event::default().event("update").data(version.to_string()))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A chat message sent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    text: String,
}

/// `GET /api/games/{id}/chat`: the game's last messages (without those of players the reader
/// muted).
pub async fn chat(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(user): MaybeAccount,
    Path(id): Path<String>,
) -> Result<Json<Vec<Chat>>, ApiError> {
    let session = lobby_game(&app, peer.client, &id).await?;
    let shared = app.clone();
    app.quick(peer.client, move || {
        drop(of_lobby(&session)?);
        let shown = shared.limits.chat_shown;
        let chat = shared.store.db().chat(&id, user.map(|u| u.id), shown)?;
        Ok(Json(chat))
    })
    .await
}

/// `POST /api/games/{id}/chat`: a signed-in account writes in a game's chat.
pub async fn say(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
    Json(request): Json<ChatRequest>,
) -> Result<StatusCode, ApiError> {
    if user.muted {
        return Err(ApiError::Forbidden("this account may not chat".to_owned()));
    }
    let text = request.text.trim().to_owned();
    let most = app.limits.chat_length;
    if text.is_empty() || text.chars().count() > most {
        return Err(ApiError::BadRequest(format!("a message has 1 to {most} characters")));
    }
    if text.chars().any(|c| c.is_control()) {
        return Err(ApiError::BadRequest("a message is one line of text".to_owned()));
    }
    app.rates.spend_as(Spender::Account(user.id), Rate::Chat, 1.0).map_err(|retry| {
        ApiError::RateLimited { message: "you are writing too fast".to_owned(), retry }
    })?;
    let session = lobby_game(&app, peer.client, &id).await?;
    let shared = app.clone();
    app.quick(peer.client, move || {
        drop(of_lobby(&session)?);
        shared.store.db().add_chat(&id, user.id, &text, now_ms())?;
        shared.hall.chat_changed(&id);
        lock(&session).announce();
        Ok(StatusCode::CREATED)
    })
    .await
}

/// `DELETE /api/games/{id}/chat/{message}`: an administrator deletes a message.
pub async fn unsay(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path((id, message)): Path<(String, i64)>,
) -> Result<StatusCode, ApiError> {
    if !user.admin {
        return Err(ApiError::Forbidden("only an administrator deletes messages".to_owned()));
    }
    let session = lobby_game(&app, peer.client, &id).await?;
    let shared = app.clone();
    app.quick(peer.client, move || {
        drop(of_lobby(&session)?);
        if !shared.store.db().delete_chat(&id, message)? {
            return Err(ApiError::NotFound);
        }
        shared.hall.chat_changed(&id);
        lock(&session).announce();
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

/// Whether to mute a player.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    /// True to mute, false to hear again.
    mute: bool,
}

/// `POST /api/users/{name}/mute`: the account asking no longer reads that player's messages
/// (or reads them again).
pub async fn mute(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(name): Path<String>,
    Json(request): Json<MuteRequest>,
) -> Result<StatusCode, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || {
        let db = shared.store.db();
        let (other, _) = db.user_by_name(&name)?.ok_or(ApiError::NotFound)?;
        db.mute(user.id, other.id, request.mute)?;
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

/// A game in a list.
#[derive(Debug, Serialize)]
pub struct Summary {
    id: String,
    variant: String,
    white: Option<String>,
    black: Option<String>,
    turns: usize,
    to_move: &'static str,
    result: Option<String>,
    termination: Option<String>,
    time_control: Option<ClockSpec>,
    /// When the side to move runs out of time.
    deadline: Option<i64>,
    updated: i64,
    /// Whether the account asking is to move (in its own list).
    #[serde(skip_serializing_if = "Option::is_none")]
    your_turn: Option<bool>,
    /// The game it is a rematch of.
    rematch_of: Option<String>,
}

fn summary(row: GameRow, user: Option<i64>) -> Summary {
    let plays = |side: &Option<(i64, String)>| side.as_ref().map(|s| s.0) == user;
    let to_move_is_me = match row.to_move {
        Side::White => plays(&row.white),
        Side::Black => plays(&row.black),
    };
    Summary {
        your_turn: user.map(|_| row.result.is_none() && to_move_is_me),
        id: row.id,
        variant: row.variant,
        white: row.white.map(|w| w.1),
        black: row.black.map(|b| b.1),
        turns: row.plies,
        to_move: side_name(row.to_move),
        result: row.result,
        termination: row.termination,
        time_control: row.clock,
        deadline: row.deadline,
        updated: row.updated,
        rematch_of: row.rematch_of,
    }
}

/// `GET /api/games`: the lobby games in progress, to watch, the most recently played first.
pub async fn list(State(app): State<Arc<App>>, peer: Peer) -> Result<Json<Vec<Summary>>, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || {
        let rows = shared.store.db().games(GameFilter::InProgress, 100)?;
        Ok(Json(rows.into_iter().map(|r| summary(r, None)).collect()))
    })
    .await
}

/// `GET /api/my/games`: the account's games, those where it is to move first, then the others
/// in progress, then the finished ones, most recent first.
pub async fn mine(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
) -> Result<Json<Vec<Summary>>, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || {
        let rows = shared.store.db().games(GameFilter::Of(user.id), 200)?;
        let mut games: Vec<Summary> = rows.into_iter().map(|r| summary(r, Some(user.id))).collect();
        games.sort_by_key(|g| (g.your_turn != Some(true), g.result.is_some()));
        Ok(Json(games))
    })
    .await
}
