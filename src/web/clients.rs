//! Who a request comes from, and how often each client may ask for what.
//!
//! A client is an IPv4 address or an IPv6 /64 network (one machine is given a whole /64, so
//! its addresses are one client). Rates are token buckets: a client may spend a burst at once,
//! then refills at a steady rate.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::web::limits::ServerLimits;
use crate::web::session::lock;

/// A client, as limits count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    /// The client at `ip`.
    #[must_use]
    pub fn of(ip: IpAddr) -> Client {
        match ip {
            IpAddr::V4(v4) => Client(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let network = u128::from(v6) & !((1u128 << 64) - 1);
                    Client(IpAddr::V6(network.into()))
                }
            },
        }
    }
}

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(ip) => write!(f, "{ip}"),
            IpAddr::V6(ip) => write!(f, "{ip}/64"),
        }
    }
}

/// Where a request comes from: set on every request by the server's connections.
#[derive(Clone, Copy, Debug)]
pub struct Peer {
    /// The client.
    pub client: Client,
    /// The address it connected from.
    pub address: SocketAddr,
}

/// The client a trusted reverse proxy forwarded a request for: the last address of its
/// `X-Forwarded-For` headers that is not itself one of the `proxies` (each proxy appends the
/// address it was reached from, so what comes before is only what the client claimed); none
/// when the headers name no such address, or cannot be read.
#[must_use]
pub fn forwarded(headers: &axum::http::HeaderMap, proxies: &[IpAddr]) -> Option<Client> {
    let values: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| v.to_str().ok())
        .collect::<Option<_>>()?;
    for entry in values.iter().flat_map(|v| v.split(',')).rev() {
        let entry = entry.trim();
        // An address as proxies write it: bare, or an IPv6 one in brackets with a port.
        let ip = entry
            .parse::<IpAddr>()
            .ok()
            .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))?;
        if !proxies.contains(&ip) {
            return Some(Client::of(ip));
        }
    }
    None
}

impl Default for Peer {
    /// A request handed to the router directly, as in tests of the router alone.
    fn default() -> Peer {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, 0));
        Peer { client: Client::of(address.ip()), address }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Peer, Infallible> {
        Ok(parts.extensions.get::<Peer>().copied().unwrap_or_default())
    }
}

/// What a client spends from a rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rate {
    /// A new connection.
    Connection,
    /// Any request.
    Request,
    /// A game started.
    Game,
    /// The bytes of definitions uploaded to start games.
    DefinitionBytes,
    /// An account made (per client).
    Account,
    /// A sign-in attempt (per client).
    Login,
    /// A failed sign-in (per account name).
    FailedLogin,
    /// A seek, challenge or rematch offer (per account).
    Seek,
    /// A chat message (per account).
    Chat,
}

/// Who spends from a rate: a client, an account, an account's name (whoever signs in as it),
/// or every client together.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Spender {
    /// All clients together.
    All,
    /// One client.
    Client(Client),
    /// One account.
    Account(i64),
    /// One account name, in lower case.
    Name(String),
}

/// A token bucket: `tokens` left at `at`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The token buckets of every client (and one for all clients together).
pub struct Rates {
    buckets: Mutex<HashMap<(Spender, Rate), Bucket>>,
    limits: ServerLimits,
}

/// Buckets kept before full ones (clients that have been quiet) are let go.
const KEPT_BUCKETS: usize = 10_000;

impl Rates {
    /// The rates of `limits`.
    #[must_use]
    pub fn new(limits: &ServerLimits) -> Rates {
        Rates { buckets: Mutex::new(HashMap::new()), limits: limits.clone() }
    }

    /// Spends one token of `rate` for `client` (and, for games, one of all clients' games).
    ///
    /// # Errors
    /// The bucket is empty: how long until a token is back.
    pub fn spend(&self, client: Client, rate: Rate) -> Result<(), Duration> {
        self.spend_many(client, rate, 1.0)
    }

    /// Spends `amount` tokens of `rate` for `client` (and, for games, of all clients' games).
    ///
    /// # Errors
    /// The bucket has fewer: how long until it has them (never, for more than its burst: then
    /// the time it takes to fill).
    pub fn spend_many(&self, client: Client, rate: Rate, amount: f64) -> Result<(), Duration> {
        self.spend_as(Spender::Client(client), rate, amount)
    }

    /// Spends `amount` tokens of `rate` for `spender` (and, for a client's games, one of all
    /// clients' games).
    ///
    /// # Errors
    /// The bucket has fewer: how long until it has them.
    pub fn spend_as(&self, spender: Spender, rate: Rate, amount: f64) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = lock(&self.buckets);
        if buckets.len() > KEPT_BUCKETS {
            // A full bucket is the same as none.
            buckets.retain(|key, bucket| {
                let shape = self.shape(key);
                refilled(*bucket, shape, now) < shape.1
            });
        }
        let mut keys = vec![(spender, rate)];
        if rate == Rate::Game {
            keys.push((Spender::All, Rate::Game));
        }
        // Every bucket must have a token before any is spent.
        let mut wait = Duration::ZERO;
        for key in &keys {
            let (per_second, burst) = self.shape(key);
            let bucket = buckets.get(key).copied().unwrap_or(Bucket { tokens: burst, at: now });
            let tokens = refilled(bucket, (per_second, burst), now);
            if tokens < amount {
                let missing = (amount.min(burst) - tokens).max(0.0);
                let seconds = if missing > 0.0 { missing / per_second } else { burst / per_second };
                wait = wait.max(Duration::from_secs_f64(seconds));
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        for key in keys {
            let shape = self.shape(&key);
            let bucket = buckets.get(&key).copied().unwrap_or(Bucket { tokens: shape.1, at: now });
            let tokens = refilled(bucket, shape, now) - amount;
            buckets.insert(key, Bucket { tokens, at: now });
        }
        Ok(())
    }

    /// Whether `spender` has a token of `rate` left, spending none.
    ///
    /// # Errors
    /// The bucket is empty: how long until a token is back.
    pub fn check(&self, spender: Spender, rate: Rate) -> Result<(), Duration> {
        let key = (spender, rate);
        let (per_second, burst) = self.shape(&key);
        let now = Instant::now();
        let buckets = lock(&self.buckets);
        let bucket = buckets.get(&key).copied().unwrap_or(Bucket { tokens: burst, at: now });
        let tokens = refilled(bucket, (per_second, burst), now);
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - tokens) / per_second))
        }
    }

    /// The refill a second and the burst of a bucket.
    fn shape(&self, (spender, rate): &(Spender, Rate)) -> (f64, f64) {
        match spender {
            Spender::Client(_) | Spender::Account(_) | Spender::Name(_) => {
                rate_of(*rate, &self.limits)
            }
            Spender::All => {
                let per_minute = self.limits.all_games_per_minute;
                (per_minute / 60.0, per_minute)
            }
        }
    }
}

/// The tokens of `bucket` at `now`, refilled at `per_second` up to `burst`.
fn refilled(bucket: Bucket, (per_second, burst): (f64, f64), now: Instant) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * per_second).min(burst)
}

/// The refill a second and the burst of one client's `rate`.
fn rate_of(rate: Rate, limits: &ServerLimits) -> (f64, f64) {
    match rate {
        Rate::Connection => (limits.connections_per_second, limits.connection_burst),
        Rate::Request => (limits.requests_per_second, limits.request_burst),
        Rate::Game => (limits.games_per_minute / 60.0, limits.games_per_minute),
        Rate::DefinitionBytes => {
            (limits.definition_bytes_per_minute / 60.0, limits.definition_bytes_per_minute)
        }
        Rate::Account => (limits.accounts_per_hour / 3600.0, limits.accounts_per_hour),
        Rate::Login => (limits.logins_per_minute / 60.0, limits.logins_per_minute),
        Rate::FailedLogin => {
            (limits.failed_logins_per_hour / 3600.0, limits.failed_logins_per_hour)
        }
        Rate::Seek => (limits.seeks_per_minute / 60.0, limits.seeks_per_minute),
        Rate::Chat => (limits.chats_per_minute / 60.0, (limits.chats_per_minute / 4.0).max(1.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_networks_and_mapped_addresses_are_ipv4() {
        let a = Client::of("2001:db8::1".parse().unwrap());
        let b = Client::of("2001:db8::ffff:1234".parse().unwrap());
        let c = Client::of("2001:db8:0:1::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mapped = Client::of("::ffff:192.0.2.7".parse().unwrap());
        assert_eq!(mapped, Client::of("192.0.2.7".parse().unwrap()));
        assert_eq!(a.to_string(), "2001:db8::/64");
    }

    #[test]
    fn a_forwarded_client_is_the_last_address_no_proxy_of_ours_added() {
        let proxies: Vec<IpAddr> = vec!["127.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap()];
        let headers = |values: &[&str]| {
            let mut map = axum::http::HeaderMap::new();
            for v in values {
                map.append("x-forwarded-for", v.parse().unwrap());
            }
            map
        };
        let client = |ip: &str| Some(Client::of(ip.parse().unwrap()));
        // What the client claimed comes first; the proxy appends the address it saw.
        assert_eq!(
            forwarded(&headers(&["198.51.100.9, 203.0.113.5"]), &proxies),
            client("203.0.113.5")
        );
        // Through two proxies of ours, the address the first one saw.
        assert_eq!(
            forwarded(&headers(&["198.51.100.9", "203.0.113.5, 10.0.0.2"]), &proxies),
            client("203.0.113.5")
        );
        assert_eq!(forwarded(&headers(&["[2001:db8::1]:443"]), &proxies), client("2001:db8::1"));
        // Nothing to believe: the proxy's own address counts.
        assert_eq!(forwarded(&headers(&[]), &proxies), None);
        assert_eq!(forwarded(&headers(&["10.0.0.2"]), &proxies), None);
        assert_eq!(forwarded(&headers(&["203.0.113.5, unknown"]), &proxies), None);
    }

    #[test]
    fn a_burst_then_the_steady_rate() {
        let limits = ServerLimits { games_per_minute: 3.0, ..ServerLimits::default() };
        let rates = Rates::new(&limits);
        let me = Client::of("192.0.2.1".parse().unwrap());
        let other = Client::of("192.0.2.2".parse().unwrap());
        for _ in 0..3 {
            assert!(rates.spend(me, Rate::Game).is_ok());
        }
        let wait = rates.spend(me, Rate::Game).unwrap_err();
        assert!(wait > Duration::from_secs(15) && wait <= Duration::from_secs(20), "{wait:?}");
        assert!(rates.spend(other, Rate::Game).is_ok(), "each client has its own bucket");
    }

    #[test]
    fn all_clients_share_one_bucket_of_games() {
        let limits = ServerLimits { all_games_per_minute: 2.0, ..ServerLimits::default() };
        let rates = Rates::new(&limits);
        for i in 1..=2 {
            let client = Client::of(IpAddr::V4(Ipv4Addr::new(192, 0, 2, i)));
            assert!(rates.spend(client, Rate::Game).is_ok());
        }
        let third = Client::of("192.0.2.3".parse().unwrap());
        assert!(rates.spend(third, Rate::Game).is_err());
        assert!(rates.spend(third, Rate::Request).is_ok(), "other rates are not all clients'");
    }
}
