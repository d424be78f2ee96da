//! What every request passes before its handler: the host name it names, whether another site
//! sent it, its client's request rate, and its body, read within its time and held against the
//! memory budget; after the handler, a large answer is held against the same budget until it
//! is sent. Also the small pool that runs the light requests of games.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::Body as _;
use tokio::sync::Semaphore;

use crate::web::clients::{Client, Peer, Rate};
use crate::web::conn::Held;
use crate::web::limits::ServerLimits;
use crate::web::session::lock;
use crate::web::{ApiError, App};

/// The host names a request may name: addresses, `localhost`, and the names the server was
/// told. A web page cannot reach the server by rebinding its own name to the server's address:
/// its requests name its own host, which is none of these.
pub struct HostCheck {
    names: Vec<String>,
}

impl HostCheck {
    /// Allows `names` (without ports) besides addresses and `localhost`.
    #[must_use]
    pub fn new(names: &[String]) -> HostCheck {
        HostCheck { names: names.iter().map(|n| n.to_ascii_lowercase()).collect() }
    }

    /// Whether `host` (a `Host` header: a name or an address, with a port or none) is served.
    #[must_use]
    pub fn allows(&self, host: &str) -> bool {
        let name = host_name(host);
        if name.is_empty() {
            return false;
        }
        let bracketed = name.strip_prefix('[').and_then(|n| n.strip_suffix(']'));
        if let Some(v6) = bracketed {
            return v6.parse::<Ipv6Addr>().is_ok();
        }
        name.parse::<IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The name of a `Host` header, its port left out.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rsplit_once(':').map_or(host, |(name, port)| {
        if port.bytes().all(|b| b.is_ascii_digit()) { name } else { host }
    })
}

/// Whether a request that may change something was sent by a page of another site: its
/// `Origin` is not the host it is sent to, or the browser says it is cross-site.
fn from_another_site(headers: &HeaderMap) -> bool {
    // A browser sends one Origin: a request of several is no page's.
    if headers.get_all(header::ORIGIN).iter().nth(1).is_some() {
        return true;
    }
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if text("sec-fetch-site").is_some_and(|site| site.eq_ignore_ascii_case("cross-site")) {
        return true;
    }
    match text(header::ORIGIN.as_str()) {
        None => false,
        Some(origin) => {
            let host = text(header::HOST.as_str()).unwrap_or("");
            let authority = origin.split_once("://").map_or("", |(_, rest)| rest);
            !authority.eq_ignore_ascii_case(host)
        }
    }
}

/// Bytes held in memory for requests and answers, in all and per client.
pub struct Budget {
    total: usize,
    per_client: usize,
    used: Mutex<(usize, HashMap<Client, usize>)>,
}

/// Bytes of the budget held until dropped.
pub struct Reservation {
    budget: Arc<Budget>,
    client: Client,
    bytes: usize,
}

impl Budget {
    /// A budget of `total` bytes, `per_client` of them for one client.
    #[must_use]
    pub fn new(total: usize, per_client: usize) -> Budget {
        Budget { total, per_client, used: Mutex::new((0, HashMap::new())) }
    }

    /// Holds `bytes` for `client`, if both budgets have them.
    pub fn reserve(self: &Arc<Self>, client: Client, bytes: usize) -> Option<Reservation> {
        let mut used = lock(&self.used);
        let mine = used.1.get(&client).copied().unwrap_or(0);
        if used.0 + bytes > self.total || mine + bytes > self.per_client {
            return None;
        }
        used.0 += bytes;
        *used.1.entry(client).or_default() += bytes;
        Some(Reservation { budget: self.clone(), client, bytes })
    }

    /// Bytes held now.
    #[must_use]
    pub fn used(&self) -> usize {
        lock(&self.used).0
    }
}

impl Reservation {
    /// Holds `more` bytes besides, if both budgets have them.
    pub fn grow(&mut self, more: usize) -> bool {
        let mut used = lock(&self.budget.used);
        let mine = used.1.get(&self.client).copied().unwrap_or(0);
        if used.0 + more > self.budget.total || mine + more > self.budget.per_client {
            return false;
        }
        used.0 += more;
        *used.1.entry(self.client).or_default() += more;
        self.bytes += more;
        true
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut used = lock(&self.budget.used);
        used.0 -= self.bytes;
        if let Some(mine) = used.1.get_mut(&self.client) {
            *mine -= self.bytes;
            if *mine == 0 {
                used.1.remove(&self.client);
            }
        }
    }
}

/// Every request: checked, its body read and held against the budget, then its answer held
/// too when it is large. `max` is the largest body its routes take.
pub async fn admit(
    State((app, max)): State<(Arc<App>, usize)>,
    peer: Peer,
    request: Request,
    next: Next,
) -> Response {
    let with_body = !request.body().is_end_stream();
    match admitted(&app, max, peer.client, request, next).await {
        Ok(response) => response,
        Err(refused) => {
            let mut response = refused.into_response();
            if with_body {
                // Refused before its body was read: the connection goes with the body.
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        }
    }
}

async fn admitted(
    app: &Arc<App>,
    max: usize,
    client: Client,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let headers = request.headers();
    if headers.get_all(header::HOST).iter().nth(1).is_some() {
        return Err(ApiError::BadRequest("a request names one host".to_owned()));
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !app.hosts.allows(host) {
        return Err(ApiError::UnknownHost(format!(
            "this server is not served by the name `{}`: start it with --allow-host NAME to \
             serve a name",
            crate::text::excerpt(host_name(host))
        )));
    }
    let changes = !matches!(*request.method(), Method::GET | Method::HEAD);
    if changes && from_another_site(headers) {
        return Err(ApiError::Forbidden("requests from other sites are refused".to_owned()));
    }
    // The page's own files come from memory and are asked for a dozen at a time: each costs a
    // tenth of a request, so that opening a few pages never leaves one blank.
    let cost = if request.uri().path().starts_with("/static/") { 0.1 } else { 1.0 };
    app.rates.spend_many(client, Rate::Request, cost).map_err(|retry| ApiError::RateLimited {
        message: "too many requests: slow down".to_owned(),
        retry,
    })?;
    let (request, held) = read_body(app, max, client, request).await?;
    let response = next.run(request).await;
    drop(held);
    hold_answer(app, client, response)
}

/// Reads the body of `request` whole, within the body time, holding its bytes against the
/// budget (as many as its length says, or the most it may send when it does not say).
async fn read_body(
    app: &Arc<App>,
    max: usize,
    client: Client,
    request: Request,
) -> Result<(Request, Option<Reservation>), ApiError> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let expected = match declared {
        Some(0) => return Ok((request, None)),
        Some(n) => n,
        None if request.body().is_end_stream() => return Ok((request, None)),
        None => max as u64,
    };
    if expected > max as u64 {
        return Err(ApiError::TooLarge(format!("a request of this kind is at most {max} bytes")));
    }
    let bytes = usize::try_from(expected).unwrap_or(max);
    let held = app.memory.reserve(client, bytes).ok_or_else(|| {
        ApiError::Busy("the server holds as many requests as it can: try again in a moment".into())
    })?;
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(app.limits.body_time, axum::body::to_bytes(body, max)).await;
    let bytes = match read {
        Err(_) => {
            return Err(ApiError::TimedOut(format!(
                "the request's body did not arrive within {} s",
                app.limits.body_time.as_secs()
            )));
        }
        Ok(Err(_)) => {
            return Err(ApiError::TooLarge(format!(
                "a request of this kind is at most {max} bytes, or its body was cut"
            )));
        }
        Ok(Ok(bytes)) => bytes,
    };
    Ok((Request::from_parts(parts, Body::from(bytes)), Some(held)))
}

/// An answer built in memory against the budget: each step of its growth is held for its
/// client before it is written, up to a cap, so that an answer too large for the budget is
/// refused as it grows rather than once it is built. Written through [`std::io::Write`]; a
/// write refused leaves the answer as it was, and [`Growing::full`] says why.
pub struct Growing {
    bytes: Vec<u8>,
    held: Reservation,
    cap: usize,
    full: Option<Full>,
}

/// Why an answer could not grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// It reached its cap.
    Cap,
    /// The memory budget, its client's or the server's, is spent.
    Budget,
}

/// The bytes an answer is held by at a time as it grows.
const GROWTH: usize = 1 << 20;

/// Marks an answer whose bytes are held against the budget already ([`Growing`]).
#[derive(Clone, Copy, Debug)]
pub struct HeldAlready;

impl Growing {
    /// An empty answer for `client`, of `cap` bytes at most.
    #[must_use]
    pub(crate) fn new(budget: &Arc<Budget>, client: Client, cap: usize) -> Growing {
        let held = Reservation { budget: budget.clone(), client, bytes: 0 };
        Growing { bytes: Vec::new(), held, cap, full: None }
    }

    /// Its bytes so far.
    #[must_use]
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Cuts it back to `len` bytes (the bytes stay held).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
    }

    /// Sets its cap (the budget still bounds it).
    pub(crate) fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// Why the last write was refused, if one was.
    #[must_use]
    pub(crate) fn full(&self) -> Option<Full> {
        self.full
    }

    /// The answer, of type `content_type`, its bytes held against the budget until sent.
    #[must_use]
    pub(crate) fn into_response(self, content_type: &'static str) -> Response {
        let body = Body::new(Held::new(Body::from(self.bytes), self.held));
        let mut response = ([(header::CONTENT_TYPE, content_type)], body).into_response();
        response.extensions_mut().insert(HeldAlready);
        response
    }
}

impl std::io::Write for Growing {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let need = self.bytes.len() + data.len();
        let refused = |full| std::io::Error::other(format!("the answer is full: {full:?}"));
        if need > self.cap {
            self.full = Some(Full::Cap);
            return Err(refused(Full::Cap));
        }
        if need > self.held.bytes {
            let more = (need - self.held.bytes).max(GROWTH).min(self.cap - self.held.bytes);
            if !self.held.grow(more) {
                self.full = Some(Full::Budget);
                return Err(refused(Full::Budget));
            }
            // What the vector holds follows what is held for it.
            self.bytes.reserve_exact(self.held.bytes - self.bytes.len());
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Holds a large answer's bytes against the budget until it is sent; refuses it when the
/// budget is spent.
fn hold_answer(app: &Arc<App>, client: Client, response: Response) -> Result<Response, ApiError> {
    if response.extensions().get::<HeldAlready>().is_some() {
        return Ok(response);
    }
    let size = response.body().size_hint().exact().unwrap_or(0);
    let Ok(size) = usize::try_from(size) else {
        return Err(ApiError::Busy("the answer is too large to send".to_owned()));
    };
    if size < app.limits.large_answer {
        return Ok(response);
    }
    let held = app.memory.reserve(client, size).ok_or_else(|| {
        ApiError::Busy("the server is sending as much as it can: try again in a moment".into())
    })?;
    Ok(response.map(|body| Body::new(Held::new(body, held))))
}

/// The pool of light work: a few jobs at once, a few per client.
pub struct Quick {
    all: Arc<Semaphore>,
    per_client: usize,
    running: Arc<Mutex<HashMap<Client, usize>>>,
}

/// A client's place among the light jobs running.
struct Running {
    running: Arc<Mutex<HashMap<Client, usize>>>,
    client: Client,
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = lock(&self.running);
        if let Some(n) = running.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                running.remove(&self.client);
            }
        }
    }
}

/// The longest a light request waits for its turn.
const QUICK_WAIT: Duration = Duration::from_secs(10);

impl Quick {
    /// The pool `limits` allow.
    #[must_use]
    pub fn new(limits: &ServerLimits) -> Quick {
        Quick {
            all: Arc::new(Semaphore::new(limits.quick.max(1))),
            per_client: limits.quick_per_client.max(1),
            running: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Runs `work` on a blocking thread when there is room.
    ///
    /// # Errors
    /// The client has its share running, no room came within the wait, or the work's error.
    pub async fn run<T: Send + 'static>(
        &self,
        client: Client,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let mine = {
            let mut running = lock(&self.running);
            let n = running.entry(client).or_default();
            if *n >= self.per_client {
                return Err(ApiError::TooMany(
                    "too many of your requests are running at once".to_owned(),
                ));
            }
            *n += 1;
            Running { running: self.running.clone(), client }
        };
        let permit = tokio::time::timeout(QUICK_WAIT, self.all.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| ApiError::Busy("the server is busy: try again".to_owned()))?;
        tokio::task::spawn_blocking(move || {
            let _held = (permit, mine);
            work()
        })
        .await
        .unwrap_or_else(|_| Err(ApiError::Internal("the request failed inside the server".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_are_addresses_localhost_or_named() {
        let check = HostCheck::new(&["Kickoff.Example".to_owned()]);
        for host in [
            "127.0.0.1:7157",
            "127.0.0.1",
            "localhost:80",
            "LOCALHOST",
            "[::1]:7157",
            "[::1]",
            "192.168.1.20:7157",
            "kickoff.example",
            "kickoff.example:443",
        ] {
            assert!(check.allows(host), "{host}");
        }
        for host in [
            "",
            "rebound.example",
            "rebound.example:7157",
            "127.0.0.1.nip.io",
            "localhost.rebound.example",
            "[::1",
            "[not-an-address]:80",
            "kickoff.example.rebound.example",
        ] {
            assert!(!check.allows(host), "{host}");
        }
    }

    #[test]
    fn other_sites_are_told_apart() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(*name, value.parse().unwrap());
            }
            map
        };
        assert!(!from_another_site(&headers(&[("host", "127.0.0.1:7157")])));
        assert!(!from_another_site(&headers(&[
            ("host", "127.0.0.1:7157"),
            ("origin", "http://127.0.0.1:7157")
        ])));
        assert!(from_another_site(&headers(&[
            ("host", "127.0.0.1:7157"),
            ("origin", "http://evil.example")
        ])));
        assert!(from_another_site(&headers(&[("host", "127.0.0.1:7157"), ("origin", "null")])));
        assert!(from_another_site(&headers(&[
            ("host", "127.0.0.1:7157"),
            ("sec-fetch-site", "cross-site")
        ])));
        let mut two = headers(&[("host", "127.0.0.1:7157"), ("origin", "http://127.0.0.1:7157")]);
        two.append("origin", "http://evil.example".parse().unwrap());
        assert!(from_another_site(&two), "two origins: whichever is read first");
    }

    #[test]
    fn the_budget_holds_in_all_and_per_client() {
        let budget = Arc::new(Budget::new(100, 60));
        let a = Client::of("192.0.2.1".parse().unwrap());
        let b = Client::of("192.0.2.2".parse().unwrap());
        let first = budget.reserve(a, 50).unwrap();
        assert!(budget.reserve(a, 20).is_none(), "a's share is 60");
        let second = budget.reserve(b, 50).unwrap();
        assert!(budget.reserve(b, 1).is_none(), "the whole budget is spent");
        drop(first);
        assert_eq!(budget.used(), 50);
        assert!(budget.reserve(a, 60).is_none() && budget.reserve(a, 50).is_some());
        drop(second);
    }

    #[test]
    fn an_answer_grows_within_its_cap_and_the_budget() {
        use std::io::Write;
        let budget = Arc::new(Budget::new(8 << 20, 3 << 20));
        let a = Client::of("192.0.2.1".parse().unwrap());
        let mut answer = Growing::new(&budget, a, 2 << 20);
        answer.write_all(&[b'x'; 1000]).unwrap();
        assert_eq!(budget.used(), 1 << 20, "held a step at a time");
        assert!(answer.write_all(&vec![b'x'; 2 << 20]).is_err());
        assert_eq!((answer.full(), answer.len()), (Some(Full::Cap), 1000));
        answer.set_cap(usize::MAX);
        answer.write_all(&vec![b'x'; (2 << 20) - 1000]).unwrap();
        assert!(budget.used() <= 3 << 20, "{}", budget.used());
        // Beyond the client's share of the budget.
        assert!(answer.write_all(&vec![b'x'; 2 << 20]).is_err());
        assert_eq!(answer.full(), Some(Full::Budget));
        let response = answer.into_response("application/json");
        assert!(response.extensions().get::<HeldAlready>().is_some());
        assert!(budget.used() >= 2 << 20);
        drop(response);
        assert_eq!(budget.used(), 0, "let go with the answer");
    }
}
