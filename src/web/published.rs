//! Variants that accounts publish from the editor: each a name under its owner's, a visibility
//! (private, unlisted, public) and a list of versions, newest first. A version is a definition
//! kept by the name of its text's hash (`HASH.toml`, as games by link keep theirs), so a game
//! keeps the version it started with whatever is published later. The gallery lists public
//! variants, each with its start position drawn once, when it is published.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::definition::{self, LoadError};
use crate::lint::load_text_checked;
use crate::position::Position;
use crate::web::author::invalid;
use crate::web::clients::{Client, Peer, Rate};
use crate::web::db::{
    GalleryQuery, NewVersion, Published, User, VariantRow, VersionFacts, VersionRow, Visibility,
    now_ms,
};
use crate::web::lobby::accounts::{Account, MaybeAccount};
use crate::web::queue::Kind;
use crate::web::session::{definition_name, is_definition_name};
use crate::web::views::board;
use crate::web::{ApiError, App};

/// The most variants an account has.
pub const MOST_VARIANTS: usize = 50;
/// The most versions (of all its variants) an account publishes in a day.
pub const MOST_VERSIONS_A_DAY: usize = 20;
/// The variants of a page of the gallery.
pub const PAGE: usize = 20;
/// The longest name of a variant.
pub const MOST_NAME: usize = 40;
const DAY_MS: i64 = 86_400_000;

/// Whether `name` may be a published variant's name: 2 to [`MOST_NAME`] letters, digits, `_`
/// or `-`, starting with a letter or a digit (it is a part of the variant's address).
///
/// # Errors
/// Why it may not.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let fine = (2..=MOST_NAME).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric());
    if fine {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "a variant's name is 2 to {MOST_NAME} letters, digits, `_` or `-`, starting with a \
             letter or a digit"
        )))
    }
}

/// Whether `viewer` may see variant `v`: its owner and administrators always; anyone else when
/// it is unlisted or public and not hidden.
#[must_use]
pub fn may_see(v: &VariantRow, viewer: Option<&User>) -> bool {
    viewer.is_some_and(|u| u.id == v.owner || u.admin)
        || (v.visibility != Visibility::Private && !v.hidden)
}

/// The text of published version `version` (`HASH.toml`) when `viewer` may see a variant that
/// holds it; the same answer as for no such version when not.
///
/// # Errors
/// No such version for this viewer, or the database failed.
pub fn visible_version(
    app: &App,
    version: &str,
    viewer: Option<&User>,
) -> Result<String, ApiError> {
    let missing = || ApiError::NoSuch("no such published variant".to_owned());
    if !is_definition_name(version) {
        return Err(missing());
    }
    let db = app.store.db();
    if !db.holders(version)?.iter().any(|v| may_see(v, viewer)) {
        return Err(missing());
    }
    db.definition(version)?.ok_or_else(missing)
}

/// Whether anyone may see published version `version` (`HASH.toml`): some variant that holds
/// it is unlisted or public, and not hidden.
///
/// # Errors
/// The database failed.
pub fn visible_to_all(app: &App, version: &str) -> Result<bool, ApiError> {
    Ok(app.store.db().holders(version)?.iter().any(|v| may_see(v, None)))
}

/// A variant as the gallery and its page show it.
#[derive(Debug, Serialize)]
pub struct VariantView {
    owner: String,
    name: String,
    visibility: Visibility,
    hidden: bool,
    created: i64,
    updated: i64,
    /// The newest version, its title, board and ball.
    #[serde(flatten)]
    latest: VersionFacts,
    /// Where its newest version's page is.
    page: String,
    /// Its newest version's start position (SVG).
    diagram: String,
    /// Its metadata in the API.
    api: String,
}

impl From<VariantRow> for VariantView {
    fn from(v: VariantRow) -> VariantView {
        VariantView {
            api: format!("/api/published/{}/{}", v.owner_name, v.name),
            page: version_page(&v.latest.version),
            diagram: format!("/api/diagrams/{}", v.latest.version),
            owner: v.owner_name,
            name: v.name,
            visibility: v.visibility,
            hidden: v.hidden,
            created: v.created,
            updated: v.updated,
            latest: v.latest,
        }
    }
}

/// The page of a version: `/variants/HASH.toml`, by the name records give its games' variant.
fn version_page(version: &str) -> String {
    format!("/variants/{version}")
}

/// A version as a variant's page lists it.
#[derive(Debug, Serialize)]
pub struct VersionView {
    #[serde(flatten)]
    row: VersionRow,
    page: String,
}

/// A variant with its versions, newest first, and the newest one's text.
#[derive(Debug, Serialize)]
pub struct VariantDetail {
    #[serde(flatten)]
    variant: VariantView,
    versions: Vec<VersionView>,
    text: String,
}

fn detail(app: &App, v: VariantRow) -> Result<VariantDetail, ApiError> {
    let db = app.store.db();
    let versions = db
        .versions(v.id)?
        .into_iter()
        .map(|row| VersionView { page: version_page(&row.facts.version), row })
        .collect();
    let text = db.definition(&v.latest.version)?.unwrap_or_default();
    Ok(VariantDetail { variant: VariantView::from(v), versions, text })
}

/// What `POST /api/published` asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishRequest {
    name: String,
    visibility: Visibility,
    text: String,
}

/// A definition checked as the editor checks it, with its facts and its start position drawn.
struct Checked {
    facts: VersionFacts,
    svg: String,
}

fn check_definition(text: &str, most: usize) -> Result<Checked, ApiError> {
    let def = load_text_checked("definition.toml", text).map_err(|e| match e {
        LoadError::Invalid { sources, diagnostics } => invalid(&sources, &diagnostics),
        other => ApiError::BadRequest(other.to_string()),
    })?;
    let rules = &def.rules;
    let bytes = rules.memory();
    if bytes > most {
        return Err(ApiError::BadRequest(format!(
            "the board plays definitions whose rules take at most {} MiB in memory; this one \
             takes {} MiB",
            most >> 20,
            bytes.div_ceil(1 << 20)
        )));
    }
    let board_size = rules.board();
    let facts = VersionFacts {
        version: definition_name(text),
        title: rules.info().name.clone(),
        files: board_size.files,
        ranks: board_size.ranks,
        ball: crate::rules::Choice::name(rules.ball().mode).to_owned(),
    };
    let svg = board(&Position::start(rules), false, &[], &[]);
    Ok(Checked { facts, svg })
}

/// `POST /api/published`: publishes a definition as a version of the account's variant of
/// that name (made when it has none).
pub async fn publish(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Json(request): Json<PublishRequest>,
) -> Result<(StatusCode, Json<VariantDetail>), ApiError> {
    check_name(&request.name)?;
    let size = request.text.len();
    if u64::try_from(size).unwrap_or(u64::MAX) > definition::MAX_FILE_SIZE {
        return Err(ApiError::BadRequest(format!(
            "the definition is {size} bytes; definitions are at most {} bytes",
            definition::MAX_FILE_SIZE
        )));
    }
    #[allow(clippy::cast_precision_loss)] // a body's length is far below 2^52
    app.rates.spend_many(peer.client, Rate::DefinitionBytes, size as f64).map_err(|retry| {
        ApiError::RateLimited {
            message: "you have sent as many definitions as a minute allows: wait a little"
                .to_owned(),
            retry,
        }
    })?;
    let text = request.text.clone();
    let most = app.limits.definition_memory;
    let checked =
        app.queue.run(peer.client, Kind::Request, move || check_definition(&text, most)).await?;
    let shared = app.clone();
    let (status, detail) = app
        .quick(peer.client, move || {
            let now = now_ms();
            let new = NewVersion {
                owner: user.id,
                name: &request.name,
                visibility: request.visibility,
                text: &request.text,
                facts: checked.facts,
                svg: &checked.svg,
                now,
                most_variants: MOST_VARIANTS,
                most_versions: MOST_VERSIONS_A_DAY,
                since: now - DAY_MS,
            };
            match shared.store.db().publish(&new)? {
                Published::Done(v) => {
                    let status =
                        if v.created == now { StatusCode::CREATED } else { StatusCode::OK };
                    Ok((status, detail(&shared, v)?))
                }
                Published::TooManyVariants => Err(ApiError::BadRequest(format!(
                    "an account has at most {MOST_VARIANTS} variants: publish a new version of \
                     one of yours instead"
                ))),
                Published::TooManyVersions(first) => Err(ApiError::RateLimited {
                    message: format!(
                        "an account publishes at most {MOST_VERSIONS_A_DAY} versions a day: \
                         try again later"
                    ),
                    retry: std::time::Duration::from_millis(
                        u64::try_from(first + DAY_MS - now).unwrap_or(0).max(1000),
                    ),
                }),
            }
        })
        .await?;
    Ok((status, Json(detail)))
}

/// The gallery's query, as the address gives it.
#[derive(Debug, Deserialize)]
pub struct GalleryParams {
    q: Option<String>,
    author: Option<String>,
    files: Option<String>,
    ranks: Option<String>,
    ball: Option<String>,
    page: Option<String>,
}

/// A page of the gallery.
#[derive(Debug, Serialize)]
pub struct GalleryPage {
    variants: Vec<VariantView>,
    total: usize,
    page: usize,
    pages: usize,
}

fn given(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

fn number<T: std::str::FromStr>(what: &str, text: Option<String>) -> Result<Option<T>, ApiError> {
    given(text)
        .map(|t| t.parse().map_err(|_| ApiError::BadRequest(format!("`{what}` is a whole number"))))
        .transpose()
}

/// `GET /api/gallery`: public variants, searched by name or title (`q`), author, board size
/// and ball, [`PAGE`] a page.
pub async fn gallery(
    State(app): State<Arc<App>>,
    peer: Peer,
    Query(params): Query<GalleryParams>,
) -> Result<Json<GalleryPage>, ApiError> {
    let ball = given(params.ball);
    if ball.as_deref().is_some_and(|b| !["kicked", "carried", "none"].contains(&b)) {
        return Err(ApiError::BadRequest("`ball` is `kicked`, `carried` or `none`".to_owned()));
    }
    let (text, author) = (given(params.q), given(params.author));
    if text.iter().chain(&author).any(|t| t.len() > 100) {
        return Err(ApiError::BadRequest("a search is at most 100 characters".to_owned()));
    }
    let query = GalleryQuery {
        text,
        author,
        files: number("files", params.files)?,
        ranks: number("ranks", params.ranks)?,
        ball,
    };
    let page: usize = number("page", params.page)?.unwrap_or(1).clamp(1, 100_000);
    let shared = app.clone();
    let (rows, total) = app
        .quick(peer.client, move || {
            Ok(shared.store.db().gallery(&query, (page - 1) * PAGE, PAGE)?)
        })
        .await?;
    Ok(Json(GalleryPage {
        variants: rows.into_iter().map(VariantView::from).collect(),
        total,
        page,
        pages: total.div_ceil(PAGE),
    }))
}

/// A variant `viewer` may see, by its owner's name and its name.
fn seen(app: &App, owner: &str, name: &str, viewer: Option<&User>) -> Result<VariantRow, ApiError> {
    app.store
        .db()
        .variant(owner, name)?
        .filter(|v| may_see(v, viewer))
        .ok_or_else(|| ApiError::NoSuch("no such published variant".to_owned()))
}

async fn seen_by(
    app: &Arc<App>,
    client: Client,
    owner: String,
    name: String,
    viewer: Option<User>,
) -> Result<VariantRow, ApiError> {
    let shared = app.clone();
    app.quick(client, move || seen(&shared, &owner, &name, viewer.as_ref())).await
}

/// `GET /api/published/{owner}/{name}`: a variant with its versions, newest first; a private
/// one (or one hidden) to its owner only, and to others the answer of none.
pub async fn variant(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(viewer): MaybeAccount,
    Path((owner, name)): Path<(String, String)>,
) -> Result<Json<VariantDetail>, ApiError> {
    let shared = app.clone();
    let answer = app
        .quick(peer.client, move || {
            let v = seen(&shared, &owner, &name, viewer.as_ref())?;
            detail(&shared, v)
        })
        .await?;
    Ok(Json(answer))
}

/// A new visibility.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisibilityRequest {
    visibility: Visibility,
}

/// `PATCH /api/published/{owner}/{name}` (or `POST .../visibility`): its owner changes who
/// may see it.
pub async fn set_visibility(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path((owner, name)): Path<(String, String)>,
    Json(request): Json<VisibilityRequest>,
) -> Result<Json<VariantDetail>, ApiError> {
    let v = seen_by(&app, peer.client, owner, name, Some(user.clone())).await?;
    if v.owner != user.id {
        return Err(ApiError::Forbidden("only its owner changes who sees a variant".to_owned()));
    }
    let shared = app.clone();
    let answer = app
        .quick(peer.client, move || {
            let db = shared.store.db();
            db.set_visibility(v.id, request.visibility, now_ms())?;
            let v = db
                .variant(&v.owner_name, &v.name)?
                .ok_or_else(|| ApiError::NoSuch("no such published variant".to_owned()))?;
            detail(&shared, v)
        })
        .await?;
    Ok(Json(answer))
}

async fn hide_as(
    app: Arc<App>,
    peer: Peer,
    user: User,
    owner: String,
    name: String,
    hidden: bool,
) -> Result<StatusCode, ApiError> {
    if !user.admin {
        return Err(ApiError::Forbidden("only an administrator hides variants".to_owned()));
    }
    let v = seen_by(&app, peer.client, owner, name, Some(user)).await?;
    let shared = app.clone();
    app.quick(peer.client, move || Ok(shared.store.db().set_hidden(v.id, hidden)?)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/published/{owner}/{name}/hide`: an administrator hides a variant from everyone
/// but its owner and administrators.
pub async fn hide(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path((owner, name)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    hide_as(app, peer, user, owner, name, true).await
}

/// `POST /api/published/{owner}/{name}/unhide`: an administrator shows it again.
pub async fn unhide(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path((owner, name)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    hide_as(app, peer, user, owner, name, false).await
}

/// `GET /api/my/variants`: the account's variants, the most recently changed first.
pub async fn mine(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
) -> Result<Json<Vec<VariantView>>, ApiError> {
    let shared = app.clone();
    let rows = app.quick(peer.client, move || Ok(shared.store.db().variants_of(user.id)?)).await?;
    Ok(Json(rows.into_iter().map(VariantView::from).collect()))
}

/// `GET /api/diagrams/{version}`: the start position of a published version, as drawn when it
/// was published, to those who may see it.
pub async fn diagram(
    State(app): State<Arc<App>>,
    peer: Peer,
    MaybeAccount(viewer): MaybeAccount,
    Path(version): Path<String>,
) -> Result<Response, ApiError> {
    let shared = app.clone();
    let svg = app
        .quick(peer.client, move || {
            visible_version(&shared, &version, viewer.as_ref())?;
            shared
                .store
                .db()
                .diagram(&version)?
                .ok_or_else(|| ApiError::NoSuch("no such published variant".to_owned()))
        })
        .await?;
    let mut response = svg.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=3600"));
    Ok(response)
}
