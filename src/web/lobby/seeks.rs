//! Seeks and challenges: an account offers a game (a shipped variant or a published version, a
//! setup, a colour, a time control) to anyone, or to one player by name; accepting it makes the
//! game. A rematch is a challenge to the other player of a finished game, colours swapped; two
//! rematch offers of the same game make it at once.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::{Deserialize, Serialize};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::WatchStream;

use super::accounts::{Account, MaybeAccount};
use super::clock;
use super::games::{lobby_game, of_lobby};
use crate::definition::{self, load_shipped};
use crate::rules::Rules;
use crate::search::Player;
use crate::setup::SetupNumber;
use crate::side::{BySide, Side};
use crate::web::api::setup_number;
use crate::web::clients::{Peer, Rate, Spender};
use crate::web::db::{ClockSpec, Color, Seek, User, now_ms};
use crate::web::published::{visible_to_all, visible_version};
use crate::web::queue::Kind;
use crate::web::session::{LobbyGame, Mode, NewGame, is_definition_name, lock, random_hex};
use crate::web::{ApiError, App};

/// The most seconds a live game gives each side, and adds after a turn.
pub const MOST_INITIAL: u32 = 3 * 3600;
/// See [`MOST_INITIAL`].
pub const MOST_INCREMENT: u32 = 180;
/// The most days a correspondence turn may take.
pub const MOST_DAYS: u32 = 14;

/// A seek or challenge asked for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// A shipped variant's name, or a published version (`HASH.toml`) the seeker may see.
    variant: String,
    /// The time control.
    clock: ClockSpec,
    /// The seeker's colour (random by default).
    color: Option<Color>,
    /// `random`, `fair` or a setup number, where the variant has random setups.
    setup: Option<String>,
    /// The one player who may accept it: a challenge.
    to: Option<String>,
}

/// A seek as the lobby shows it.
#[derive(Debug, Serialize)]
pub struct SeekView {
    id: String,
    user: String,
    to: Option<String>,
    variant: String,
    setup: Option<String>,
    color: Color,
    clock: ClockSpec,
    created: i64,
    rematch_of: Option<String>,
    /// The published version's title, for a seek of one.
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
}

impl From<Seek> for SeekView {
    fn from(seek: Seek) -> SeekView {
        SeekView {
            id: seek.id,
            user: seek.user_name,
            to: seek.target.map(|t| t.1),
            variant: seek.variant,
            setup: seek.setup,
            color: seek.color,
            clock: seek.clock,
            created: seek.created,
            rematch_of: seek.rematch_of,
            title: seek.title,
        }
    }
}

/// A new seek's id.
#[derive(Debug, Serialize)]
pub struct Created {
    id: String,
}

/// A game made.
#[derive(Debug, Serialize)]
pub struct Made {
    game: String,
}

/// Whether a time control is within the server's bounds.
///
/// # Errors
/// Why it is not.
pub fn check_clock(clock: ClockSpec) -> Result<(), ApiError> {
    match clock {
        ClockSpec::Live { initial, increment } => {
            if initial > MOST_INITIAL || increment > MOST_INCREMENT {
                return Err(ApiError::BadRequest(format!(
                    "a live game gives at most {MOST_INITIAL} seconds and adds at most \
                     {MOST_INCREMENT}"
                )));
            }
            if initial == 0 && increment == 0 {
                return Err(ApiError::BadRequest("a live game gives some time".to_owned()));
            }
        }
        ClockSpec::Correspondence { days } => {
            if !(1..=MOST_DAYS).contains(&days) {
                return Err(ApiError::BadRequest(format!(
                    "a correspondence turn takes 1 to {MOST_DAYS} days"
                )));
            }
        }
    }
    Ok(())
}

fn refuse_banned(user: &User) -> Result<(), ApiError> {
    if user.banned {
        return Err(ApiError::Forbidden("this account is banned".to_owned()));
    }
    Ok(())
}

fn spend_seek(app: &App, user: &User) -> Result<(), ApiError> {
    app.rates.spend_as(Spender::Account(user.id), Rate::Seek, 1.0).map_err(|retry| {
        ApiError::RateLimited {
            message: "you have made as many seeks as a minute allows".to_owned(),
            retry,
        }
    })
}

/// `POST /api/seeks`: an open seek, or a challenge to the player named `to`.
pub async fn create(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Json(request): Json<SeekRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    refuse_banned(&user)?;
    check_clock(request.clock)?;
    if is_definition_name(&request.variant) {
        let (shared, version, me) = (app.clone(), request.variant.clone(), user.clone());
        let open = request.to.as_deref().is_none_or(|to| to.trim().is_empty());
        app.quick(peer.client, move || {
            visible_version(&shared, &version, Some(&me))?;
            // A version only its owner may see is offered to a named player, never to the lobby.
            if open && !visible_to_all(&shared, &version)? {
                return Err(ApiError::BadRequest(
                    "this variant is private: challenge a player by name, or make it unlisted \
                     or public to seek a game of it in the lobby"
                        .to_owned(),
                ));
            }
            Ok(())
        })
        .await?;
    }
    let (rules, _) = variant_rules(&app, peer, &request.variant).await?;
    let rules = &rules;
    let setup = request.setup.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let setup = match setup {
        None => None,
        Some("fair") if rules.random_setup().is_some() => Some("fair".to_owned()),
        Some(text) => {
            // A number or `random`, checked now so that accepting cannot fail on it.
            setup_number(rules, Some(text))?;
            Some(text.to_owned())
        }
    };
    spend_seek(&app, &user)?;
    let shared = app.clone();
    let id = app
        .quick(peer.client, move || {
            let db = shared.store.db();
            if db.seek_count(user.id)? >= shared.limits.seeks_per_account {
                return Err(ApiError::Conflict(format!(
                    "an account has at most {} seeks open: cancel one first",
                    shared.limits.seeks_per_account
                )));
            }
            let target = match &request.to {
                None => None,
                Some(name) => {
                    let (target, _) =
                        db.user_by_name(name)?.filter(|(t, _)| !t.banned).ok_or_else(|| {
                            ApiError::BadRequest(format!("no player is named `{name}`"))
                        })?;
                    if target.id == user.id {
                        return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
                    }
                    Some((target.id, target.name))
                }
            };
            let now = now_ms();
            let lasts = match request.clock {
                ClockSpec::Live { .. } => shared.limits.live_seek_time.as_millis(),
                ClockSpec::Correspondence { .. } => 14 * 86_400_000,
            };
            let seek = Seek {
                id: random_hex(12)?,
                user: user.id,
                user_name: user.name.clone(),
                target,
                variant: request.variant,
                setup,
                color: request.color.unwrap_or(Color::Random),
                clock: request.clock,
                created: now,
                expires: Some(now + i64::try_from(lasts).unwrap_or(i64::MAX / 2)),
                rematch_of: None,
                title: None,
            };
            db.create_seek(&seek)?;
            Ok(seek.id)
        })
        .await?;
    app.hall.announce();
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// `GET /api/seeks`: the open seeks, and the challenges from or to the account asking.
pub async fn list(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(user): MaybeAccount,
) -> Result<Json<Vec<SeekView>>, ApiError> {
    let shared = app.clone();
    let seeks = app
        .quick(peer.client, move || {
            shared.store.db().seeks(user.map(|u| u.id), now_ms()).map_err(ApiError::from)
        })
        .await?;
    Ok(Json(seeks.into_iter().map(SeekView::from).collect()))
}

/// `DELETE /api/seeks/{id}`: its maker cancels it, or the challenged player declines it.
pub async fn cancel(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || {
        let db = shared.store.db();
        let seek = db.seek(&id)?.ok_or(ApiError::NotFound)?;
        if seek.user != user.id && seek.target.as_ref().is_none_or(|t| t.0 != user.id) {
            return Err(ApiError::Forbidden("this seek is not yours".to_owned()));
        }
        db.delete_seek(&id)?;
        Ok(())
    })
    .await?;
    app.hall.announce();
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`: makes the game.
pub async fn accept(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Made>), ApiError> {
    refuse_banned(&user)?;
    let shared = app.clone();
    let me = user.clone();
    let seek = app
        .quick(peer.client, move || {
            let db = shared.store.db();
            let seek = db
                .seek(&id)?
                .filter(|s| s.expires.is_none_or(|t| t >= now_ms()))
                .ok_or(ApiError::NotFound)?;
            if seek.user == me.id {
                return Err(ApiError::Conflict("this is your own seek".to_owned()));
            }
            if seek.target.as_ref().is_some_and(|t| t.0 != me.id) {
                return Err(ApiError::Forbidden("this challenge is for another player".to_owned()));
            }
            check_games(&shared, me.id)?;
            Ok(seek)
        })
        .await?;
    let game = make_game(&app, peer, seek, &user).await?;
    Ok((StatusCode::CREATED, Json(Made { game })))
}

fn check_games(app: &App, user: i64) -> Result<(), ApiError> {
    let going = app.store.db().games_going(user)?;
    if going >= app.limits.games_per_account {
        return Err(ApiError::Conflict(format!(
            "an account plays at most {} games at once: finish some first",
            app.limits.games_per_account
        )));
    }
    Ok(())
}

/// The rules of a seek's variant: a shipped one's, or a published version's (`HASH.toml`, its
/// definition compiled on the work queue) with its text.
///
/// # Errors
/// No such variant (400), or the version's definition cannot be read.
async fn variant_rules(
    app: &Arc<App>,
    peer: Peer,
    variant: &str,
) -> Result<(Arc<Rules>, Option<String>), ApiError> {
    if let Some(rules) = app.shipped(variant) {
        return Ok((rules.clone(), None));
    }
    if !is_definition_name(variant) {
        return Err(ApiError::BadRequest(format!("no shipped variant is named `{variant}`")));
    }
    let (shared, variant) = (app.clone(), variant.to_owned());
    app.queue
        .run(peer.client, Kind::Request, move || {
            let text = shared
                .store
                .db()
                .definition(&variant)?
                .ok_or_else(|| ApiError::NoSuch("no such published variant".to_owned()))?;
            let rules = shared.store.rules_of(&variant).map_err(ApiError::Internal)?;
            Ok((rules, Some(text)))
        })
        .await
}

/// Makes the game of `seek` accepted by `acceptor`, the seek taken first (one acceptor wins).
async fn make_game(
    app: &Arc<App>,
    peer: Peer,
    seek: Seek,
    acceptor: &User,
) -> Result<String, ApiError> {
    let (rules, text) = variant_rules(app, peer, &seek.variant).await.map_err(|e| match e {
        ApiError::BadRequest(_) | ApiError::NoSuch(_) => {
            ApiError::Conflict(format!("`{}` is no longer served", seek.variant))
        }
        other => other,
    })?;
    let setup: Option<SetupNumber> = match seek.setup.as_deref() {
        Some("fair") => {
            let (variant, text) = (seek.variant.clone(), text.clone());
            let drawn = app
                .queue
                .run(peer.client, Kind::Request, move || {
                    let def = match &text {
                        Some(text) => definition::load_text(&variant, text),
                        None => load_shipped(&variant),
                    }
                    .map_err(|e| ApiError::Internal(e.to_string()))?;
                    let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0);
                    let mut rng =
                        <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
                    crate::analysis::fair::draw_fair(&def, 2, &mut rng)
                        .map_err(|e| ApiError::Conflict(e.to_string()))
                })
                .await?;
            Some(drawn)
        }
        other => setup_number(&rules, other)?,
    };
    let shared = app.clone();
    let acceptor = acceptor.clone();
    let id = app
        .quick(peer.client, move || {
            let db = shared.store.db();
            if !db.delete_seek(&seek.id)? {
                return Err(ApiError::Conflict("someone else took this seek".to_owned()));
            }
            let seeker_side = match seek.color {
                Color::White => Side::White,
                Color::Black => Side::Black,
                Color::Random => {
                    if random_hex(1)?.as_bytes()[1] % 2 == 0 {
                        Side::White
                    } else {
                        Side::Black
                    }
                }
            };
            let mut players = BySide {
                white: (acceptor.id, acceptor.name.clone()),
                black: (acceptor.id, acceptor.name.clone()),
            };
            players[seeker_side] = (seek.user, seek.user_name.clone());
            let new = NewGame {
                definition: rules,
                shipped: text.is_none().then(|| seek.variant.clone()),
                text,
                setup,
                mode: Mode::Remote,
                players: BySide { white: Player::Human, black: Player::Human },
                maker: seeker_side,
            };
            let lobby = LobbyGame {
                players,
                clock: Some(seek.clock),
                clocks: Some(clock::start(seek.clock, now_ms())),
                rematch_of: seek.rematch_of.clone(),
            };
            let (session, _) = shared.store.create_lobby(new, lobby)?;
            let id = lock(&session).id.clone();
            Ok(id)
        })
        .await?;
    app.hall.announce();
    Ok(id)
}

/// `POST /api/games/{id}/rematch`: offers the other player of a finished game another, colours
/// swapped and, in a variant of random setups, the same setup; accepts their offer when they
/// made one.
pub async fn rematch(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    refuse_banned(&user)?;
    spend_seek(&app, &user)?;
    let session = lobby_game(&app, peer.client, &id).await?;
    let shared = app.clone();
    let me = user.clone();
    let step = app
        .quick(peer.client, move || {
            // The game's players, time control and variant, and the setup played, so that each
            // player has had each side of it.
            let (players, over, clock, variant, setup) = {
                let mut s = of_lobby(&session)?;
                // A clock that ran out ends the game here too.
                s.flag(now_ms())?;
                let lobby = s.lobby.as_ref().ok_or(ApiError::NotFound)?;
                let setup = s.game().setup_number().map(|n| n.to_string());
                let over = s.game().ending().is_some();
                (lobby.players.clone(), over, lobby.clock, s.variant().to_owned(), setup)
            };
            let my_side = Side::ALL
                .into_iter()
                .find(|&side| players[side].0 == me.id)
                .ok_or_else(|| ApiError::Forbidden("you did not play this game".to_owned()))?;
            if !over {
                return Err(ApiError::Conflict("the game is still going".to_owned()));
            }
            let other = players[!my_side].clone();
            let db = shared.store.db();
            let rematches: Vec<Seek> = db
                .seeks(Some(me.id), now_ms())?
                .into_iter()
                .filter(|s| s.rematch_of.as_deref() == Some(&id))
                .collect();
            if let Some(seek) = rematches.iter().find(|s| s.user == other.0) {
                check_games(&shared, me.id)?;
                return Ok(Err(seek.clone()));
            }
            if rematches.iter().any(|s| s.user == me.id) {
                return Err(ApiError::Conflict("you have offered a rematch already".to_owned()));
            }
            let now = now_ms();
            let clock = clock.unwrap_or(ClockSpec::Correspondence { days: 3 });
            let seek = Seek {
                id: random_hex(12)?,
                user: me.id,
                user_name: me.name.clone(),
                target: Some(other),
                variant,
                setup,
                color: if my_side == Side::White { Color::Black } else { Color::White },
                clock,
                created: now,
                expires: Some(now + 3_600_000),
                rematch_of: Some(id.clone()),
                title: None,
            };
            db.create_seek(&seek)?;
            Ok(Ok(seek.id))
        })
        .await?;
    match step {
        Ok(seek) => {
            app.hall.announce();
            Ok((StatusCode::CREATED, Json(serde_json::json!({ "seek": seek }))))
        }
        Err(theirs) => {
            let game = make_game(&app, peer, theirs, &user).await?;
            Ok((StatusCode::CREATED, Json(serde_json::json!({ "game": game }))))
        }
    }
}

/// `GET /api/lobby/events`: an event at every change of the seeks or of the games made.
pub async fn events(
    State(app): State<Arc<App>>,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    let stream = WatchStream::new(app.hall.subscribe())
        .map(|version| Ok(Event::default().event("lobby").data(version.to_string())));
    Sse::new(stream).keep_alive(KeepAlive::default())
}
