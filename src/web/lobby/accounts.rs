//! Accounts: a name and a password (hashed with Argon2id), a browser signed in by a session
//! cookie (`HttpOnly`, `SameSite=Strict`), scripts and bots by bearer tokens. Sessions and
//! tokens are random 256-bit secrets of which the database keeps only the SHA-256. Making
//! accounts and signing in are rate-limited per client, failed sign-ins per account name too;
//! requests from other sites are refused before they get here (see `guard`).

use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use axum::Json;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::web::clients::{Peer, Rate, Spender};
use crate::web::db::{DbError, TokenInfo, User, now_ms, token_id};
use crate::web::session::random_hex;
use crate::web::{ApiError, App};

/// The name of the session cookie.
pub const COOKIE: &str = "kickoff_session";

/// Names that records give to computer players, which no account may take.
const RESERVED: &[&str] = &["human", "random", "greedy", "engine", "anonymous", "admin"];

/// A name and a password, to make an account or sign in.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// Who is signed in.
#[derive(Debug, Serialize)]
pub struct Me {
    /// The account's name; none when signed out.
    name: Option<String>,
    /// Whether it is an administrator.
    admin: bool,
    /// Where notices of its correspondence games are sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
}

/// Whether `name` may be an account's name: 2 to 20 letters, digits, `_` or `-`, starting
/// with a letter or digit, none of the names records give computer players.
///
/// # Errors
/// Why it may not.
pub fn check_name(name: &str) -> Result<(), String> {
    let fine = (2..=20).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric());
    if !fine {
        return Err("a name is 2 to 20 letters, digits, `_` or `-`, starting with a letter or a \
                    digit"
            .to_owned());
    }
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        return Err(format!("`{name}` is reserved: choose another name"));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < 8 {
        return Err("a password has at least 8 characters".to_owned());
    }
    if password.len() > 256 {
        return Err("a password has at most 256 bytes".to_owned());
    }
    Ok(())
}

/// The Argon2id hash of `password` (a PHC string, with its own random salt).
///
/// # Errors
/// The hash could not be made (no randomness).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("the password could not be hashed: {e}")))
}

/// Whether `password` is the one `hash` was made of.
#[must_use]
pub fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// The SHA-256 of a secret: what the database keeps of a session or token.
#[must_use]
pub fn secret_hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Runs the hashing of a password (Argon2id: about 19 MiB and tens of milliseconds), a few at a
/// time on threads of their own (so that signing in does not wait behind the engine's
/// searches), at most the queue's wait.
///
/// # Errors
/// Too many are waiting, or the work's own error.
async fn hashing<T: Send + 'static>(
    app: &Arc<App>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let busy = || ApiError::Busy("the server is signing many people in: try again".to_owned());
    let permit = tokio::time::timeout(app.limits.queue_wait, app.hashing.clone().acquire_owned())
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    let done = tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError::Internal("the request failed inside the server".to_owned()))
    });
    drop(permit);
    done
}

/// A new session for `user`: its cookie.
fn new_session(app: &App, user: &User) -> Result<HeaderValue, ApiError> {
    let secret = random_hex(32)?;
    let now = now_ms();
    let lasts = app.limits.session_time;
    let expires = now + i64::try_from(lasts.as_millis()).unwrap_or(i64::MAX / 2);
    app.store.db().create_session(&secret_hash(&secret), user.id, now, expires)?;
    cookie(app, &secret, lasts.as_secs())
}

fn cookie(app: &App, secret: &str, max_age: u64) -> Result<HeaderValue, ApiError> {
    let secure = if app.secure_cookies { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .map_err(|e| ApiError::Internal(e.to_string()))
}

fn signed_in(status: StatusCode, cookie: HeaderValue, user: &User) -> Response {
    let me = Me { name: Some(user.name.clone()), admin: user.admin, email: user.email.clone() };
    let mut response = (status, Json(me)).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

/// `POST /api/account`: makes an account and signs its browser in (201; 409 for a taken name).
pub async fn create(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&request.name).map_err(ApiError::BadRequest)?;
    check_password(&request.password).map_err(ApiError::BadRequest)?;
    app.rates.spend_as(Spender::Client(peer.client), Rate::Account, 1.0).map_err(|retry| {
        ApiError::RateLimited {
            message: "this address has made as many accounts as an hour allows".to_owned(),
            retry,
        }
    })?;
    let (shared, name) = (app.clone(), request.name.clone());
    if app.quick(peer.client, move || Ok(shared.store.db().user_by_name(&name)?)).await?.is_some() {
        return Err(ApiError::Conflict(format!("the name `{}` is taken", request.name)));
    }
    let password = request.password;
    let hash = hashing(&app, move || hash_password(&password)).await?;
    let shared = app.clone();
    app.quick(peer.client, move || {
        let user = match shared.store.db().create_user(&request.name, &hash, now_ms()) {
            Ok(user) => user,
            Err(DbError::Taken) => {
                return Err(ApiError::Conflict(format!("the name `{}` is taken", request.name)));
            }
            Err(e) => return Err(e.into()),
        };
        let cookie = new_session(&shared, &user)?;
        Ok(signed_in(StatusCode::CREATED, cookie, &user))
    })
    .await
}

/// `POST /api/login`: signs a browser in.
pub async fn login(
    State(app): State<Arc<App>>,
    peer: Peer,
    Json(request): Json<Credentials>,
) -> Result<Response, ApiError> {
    let wait = |retry| ApiError::RateLimited {
        message: "too many attempts to sign in: wait a little".to_owned(),
        retry,
    };
    app.rates.spend_as(Spender::Client(peer.client), Rate::Login, 1.0).map_err(wait)?;
    let name = Spender::Name(request.name.to_ascii_lowercase());
    // A name that has failed too often is refused before its password is even tried.
    app.rates.check(name.clone(), Rate::FailedLogin).map_err(wait)?;
    let wrong = || ApiError::Unauthorized("wrong name or password".to_owned());
    if request.name.len() > 64 || request.password.len() > 256 {
        return Err(wrong());
    }
    let (shared, asked) = (app.clone(), request.name.clone());
    let found = app.quick(peer.client, move || Ok(shared.store.db().user_by_name(&asked)?)).await?;
    // An unknown name costs the same time as a wrong password.
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, dummy_hash().to_owned()),
    };
    let password = request.password;
    let matches = hashing(&app, move || Ok(password_matches(&password, &hash))).await?;
    let Some(user) = user.filter(|_| matches) else {
        let _ = app.rates.spend_as(name, Rate::FailedLogin, 1.0);
        return Err(wrong());
    };
    if user.banned {
        return Err(ApiError::Forbidden("this account is banned".to_owned()));
    }
    let shared = app.clone();
    app.quick(peer.client, move || {
        let cookie = new_session(&shared, &user)?;
        Ok(signed_in(StatusCode::OK, cookie, &user))
    })
    .await
}

/// A hash of no account's password, checked for unknown names.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password("no account has this password").unwrap_or_default())
}

/// `POST /api/logout`: ends the browser's session.
pub async fn logout(
    State(app): State<Arc<App>>,
    peer: Peer,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = cookie_secret(&headers) {
        let hash = secret_hash(&secret);
        let shared = app.clone();
        app.quick(peer.client, move || {
            shared.store.db().delete_session(&hash).map_err(ApiError::from)
        })
        .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie(&app, "", 0)?);
    Ok(response)
}

/// `GET /api/me`: who is signed in.
pub async fn me(account: MaybeAccount) -> Json<Me> {
    Json(match account.0 {
        Some(user) => Me { name: Some(user.name), admin: user.admin, email: user.email },
        None => Me { name: None, admin: false, email: None },
    })
}

/// An e-mail address given or taken back.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailRequest {
    email: Option<String>,
}

/// `POST /api/me/email`: where notices of the account's correspondence games are sent (none:
/// no notices).
pub async fn set_email(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Json(request): Json<EmailRequest>,
) -> Result<StatusCode, ApiError> {
    let email = request.email.map(|e| e.trim().to_owned()).filter(|e| !e.is_empty());
    if let Some(address) = &email
        && !super::mail::valid_address(address)
    {
        return Err(ApiError::BadRequest("that is not an e-mail address".to_owned()));
    }
    let shared = app.clone();
    app.quick(peer.client, move || {
        shared.store.db().set_email(user.id, email.as_deref()).map_err(ApiError::from)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A token asked for.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// What it is for (shown to no one but its owner's database).
    label: Option<String>,
}

/// A new bearer token.
#[derive(Debug, Serialize)]
pub struct TokenAnswer {
    token: String,
    /// What names it in the list of tokens (to revoke it).
    id: String,
}

/// `POST /api/tokens`: a bearer token for the signed-in account, for bots and scripts.
pub async fn create_token(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    body: Option<Json<TokenRequest>>,
) -> Result<(StatusCode, Json<TokenAnswer>), ApiError> {
    let label = body.map(|b| b.0).unwrap_or_default().label.unwrap_or_default();
    if label.chars().count() > 100 {
        return Err(ApiError::BadRequest("a token's label has at most 100 characters".into()));
    }
    let shared = app.clone();
    app.quick(peer.client, move || {
        let db = shared.store.db();
        if db.token_count(user.id)? >= shared.limits.tokens_per_account {
            return Err(ApiError::Conflict(format!(
                "an account has at most {} tokens",
                shared.limits.tokens_per_account
            )));
        }
        let token = format!("kt_{}", random_hex(32)?);
        let hash = secret_hash(&token);
        db.create_token(&hash, user.id, &label, now_ms())?;
        Ok((StatusCode::CREATED, Json(TokenAnswer { token, id: token_id(&hash) })))
    })
    .await
}

/// `GET /api/tokens`: the signed-in account's tokens (their ids and labels, never their secrets).
pub async fn tokens(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
) -> Result<Json<Vec<TokenInfo>>, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || Ok(Json(shared.store.db().tokens(user.id)?))).await
}

/// `DELETE /api/tokens/{id}`: revokes one of the account's tokens.
pub async fn revoke_token(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let shared = app.clone();
    app.quick(peer.client, move || match shared.store.db().delete_token(user.id, &id)? {
        true => Ok(StatusCode::NO_CONTENT),
        false => Err(ApiError::NotFound),
    })
    .await
}

/// A password changed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    /// The password now.
    password: String,
    /// The new one.
    new: String,
}

/// `POST /api/me/password`: changes the account's password, given the current one; every
/// other browser signed in to the account is signed out (its tokens stay).
pub async fn set_password(
    State(app): State<Arc<App>>,
    peer: Peer,
    Account(user): Account,
    headers: HeaderMap,
    Json(request): Json<PasswordRequest>,
) -> Result<StatusCode, ApiError> {
    check_password(&request.new).map_err(ApiError::BadRequest)?;
    let wait = |retry| ApiError::RateLimited {
        message: "too many wrong passwords: wait a little".to_owned(),
        retry,
    };
    // Wrong passwords count as failed sign-ins of the account's name.
    let name = Spender::Name(user.name.to_ascii_lowercase());
    app.rates.check(name.clone(), Rate::FailedLogin).map_err(wait)?;
    if request.password.len() > 256 {
        return Err(ApiError::Forbidden("that is not the account's password".to_owned()));
    }
    let (shared, asked) = (app.clone(), user.name.clone());
    let found = app.quick(peer.client, move || Ok(shared.store.db().user_by_name(&asked)?)).await?;
    let Some((_, hash)) = found else { return Err(ApiError::NotFound) };
    let (password, new) = (request.password, request.new);
    let hashed = hashing(&app, move || {
        password_matches(&password, &hash).then(|| hash_password(&new)).transpose()
    })
    .await?;
    let Some(hashed) = hashed else {
        let _ = app.rates.spend_as(name, Rate::FailedLogin, 1.0);
        return Err(ApiError::Forbidden("that is not the account's password".to_owned()));
    };
    let keep = cookie_secret(&headers).map(|secret| secret_hash(&secret));
    let shared = app.clone();
    app.quick(peer.client, move || {
        shared.store.db().set_password(user.id, &hashed, keep.as_deref())?;
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

/// The session cookie's secret in a request.
fn cookie_secret(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// The bearer token in a request.
fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && token.len() <= 128).then(|| token.trim().to_owned())
}

/// The account a request is made as, if any: by its bearer token, else its session cookie.
/// A banned account is no one.
pub struct MaybeAccount(pub Option<User>);

/// The account a request is made as; 401 when none.
pub struct Account(pub User);

impl FromRequestParts<Arc<App>> for MaybeAccount {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let token = bearer(&parts.headers);
        let secret = cookie_secret(&parts.headers);
        if token.is_none() && secret.is_none() {
            return Ok(MaybeAccount(None));
        }
        let client = parts.extensions.get::<Peer>().copied().unwrap_or_default().client;
        let shared = app.clone();
        let user = app
            .quick(client, move || {
                let db = shared.store.db();
                let user = match (token, secret) {
                    (Some(token), _) => db.token_user(&secret_hash(&token)),
                    (None, Some(secret)) => db.session_user(&secret_hash(&secret), now_ms()),
                    (None, None) => Ok(None),
                };
                user.map_err(ApiError::from)
            })
            .await?;
        Ok(MaybeAccount(user.filter(|u| !u.banned)))
    }
}

impl FromRequestParts<Arc<App>> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        match MaybeAccount::from_request_parts(parts, app).await?.0 {
            Some(user) => Ok(Account(user)),
            None => Err(ApiError::Unauthorized(
                "sign in first (a session cookie or an `Authorization: Bearer` token)".to_owned(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_words_and_not_a_computer_player() {
        assert!(check_name("alice_2").is_ok());
        assert!(check_name("a").is_err());
        assert!(check_name("-alice").is_err());
        assert!(check_name("al ice").is_err());
        assert!(check_name("engine:2").is_err());
        assert!(check_name("Engine").is_err());
        assert!(check_name("x".repeat(21).as_str()).is_err());
    }

    #[test]
    fn a_password_hash_is_argon2id_and_checks_only_its_password() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(password_matches("correct horse", &hash));
        assert!(!password_matches("correct horsE", &hash));
        assert!(!password_matches("anything", dummy_hash()));
        assert!(dummy_hash().starts_with("$argon2id$"));
    }

    #[test]
    fn the_cookie_and_the_bearer_token_are_read_from_their_headers() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static("a=1; kickoff_session=abc"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer kt_1"));
        assert_eq!(cookie_secret(&headers).as_deref(), Some("abc"));
        assert_eq!(bearer(&headers).as_deref(), Some("kt_1"));
    }
}
