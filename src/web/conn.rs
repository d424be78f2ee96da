//! The server's connections: admitted within the limits of [`ServerLimits`], closed when they
//! send no request in time or take nothing of an answer, and each request tagged with its
//! client ([`Peer`]).
//!
//! When the connections of a client, or of all clients, reach their bound, a new connection
//! takes the place of one that is waiting for a request: the one that has waited longest, event
//! streams last. A connection that is serving a request is never closed for another. So a
//! thousand idle sockets cost their owner a thousand sockets and the server nothing: each new
//! connection pushes one of them out.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, header};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Sleep;
use tower::ServiceExt;

use crate::web::App;
use crate::web::clients::{Client, Peer, Rate, forwarded};
use crate::web::limits::ServerLimits;
use crate::web::session::lock;

/// The connections open now.
pub struct Connections {
    table: Mutex<Table>,
    total: usize,
    per_client: usize,
    epoch: Instant,
}

struct Table {
    next: u64,
    open: HashMap<u64, Arc<Conn>>,
    per_client: HashMap<Client, usize>,
}

/// One connection, as the table sees it.
struct Conn {
    id: u64,
    client: Client,
    /// Requests being served, their answers included.
    busy: AtomicUsize,
    /// Whether it carries an event stream.
    streaming: AtomicBool,
    /// When it last began a request (or was opened), in milliseconds since the table's epoch.
    since: AtomicU64,
    /// Told to close, to make room for another.
    evicted: Notify,
}

/// A connection's place in the table, given back when dropped.
pub struct Ticket {
    connections: Arc<Connections>,
    conn: Arc<Conn>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut table = lock(&self.connections.table);
        if table.open.remove(&self.conn.id).is_some() {
            table.forget(self.conn.client);
        }
    }
}

impl Connections {
    /// A table for the connections `limits` allow.
    #[must_use]
    pub fn new(limits: &ServerLimits) -> Connections {
        Connections {
            table: Mutex::new(Table { next: 0, open: HashMap::new(), per_client: HashMap::new() }),
            total: limits.connections.max(1),
            per_client: limits.connections_per_client.max(1),
            epoch: Instant::now(),
        }
    }

    /// The connections open.
    #[must_use]
    pub fn open(&self) -> usize {
        lock(&self.table).open.len()
    }

    /// A place for a new connection of `client`, made by closing a waiting one if the table is
    /// full; none when every connection in the way is serving a request. A trusted proxy's
    /// connections (`proxy`) carry many clients' requests: only the table's total bounds them.
    fn admit(self: &Arc<Self>, client: Client, proxy: bool) -> Option<Ticket> {
        let now = self.now();
        let mut table = lock(&self.table);
        let own = table.per_client.get(&client).copied().unwrap_or(0);
        if !proxy && own >= self.per_client && !table.evict(|c| c.client == client) {
            return None;
        }
        if table.open.len() >= self.total && !table.evict(|_| true) {
            return None;
        }
        let id = table.next;
        table.next += 1;
        let conn = Arc::new(Conn {
            id,
            client,
            busy: AtomicUsize::new(0),
            streaming: AtomicBool::new(false),
            since: AtomicU64::new(now),
            evicted: Notify::new(),
        });
        table.open.insert(id, conn.clone());
        *table.per_client.entry(client).or_default() += 1;
        Some(Ticket { connections: self.clone(), conn })
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

impl Table {
    /// Closes the connection among those `eligible` that has waited longest for a request,
    /// event streams last; false when all of them are serving one.
    fn evict(&mut self, eligible: impl Fn(&Conn) -> bool) -> bool {
        let victim = self
            .open
            .values()
            .filter(|c| eligible(c) && c.busy.load(Ordering::Acquire) == 0)
            .min_by_key(|c| (c.streaming.load(Ordering::Acquire), c.since.load(Ordering::Acquire)))
            .map(|c| c.id);
        let Some(conn) = victim.and_then(|id| self.open.remove(&id)) else {
            return false;
        };
        self.forget(conn.client);
        conn.evicted.notify_one();
        true
    }

    fn forget(&mut self, client: Client) {
        if let Some(count) = self.per_client.get_mut(&client) {
            *count -= 1;
            if *count == 0 {
                self.per_client.remove(&client);
            }
        }
    }
}

/// What a connection refused for want of room is told before it is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
connection: close\r\nretry-after: 5\r\ncontent-length: 57\r\n\r\n\
{\"error\":\"the server has no room for another connection\"}";

/// Accepts connections on `listener` and serves `app`'s routes on each until `shutdown`
/// completes. A client opening connections faster than its rate has the new ones closed at
/// once, before they can push others out.
pub async fn accept(listener: TcpListener, app: Arc<App>, shutdown: impl Future<Output = ()>) {
    let router = crate::web::router(app.clone());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => return,
        };
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors or memory: wait for connections to close rather than spin.
                if !matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionAborted
                        | io::ErrorKind::ConnectionReset
                        | io::ErrorKind::Interrupted
                ) {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let client = Client::of(address.ip());
        let proxy = app.proxies.contains(&address.ip());
        if !proxy && app.rates.spend(client, Rate::Connection).is_err() {
            continue;
        }
        let Some(ticket) = app.connections.admit(client, proxy) else {
            let _ = stream.try_write(REFUSED);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let peer = Peer { client, address };
        let proxies = proxy.then(|| app.proxies.clone());
        tokio::spawn(serve(stream, peer, proxies, ticket, router.clone(), app.limits.clone()));
    }
}

/// Serves one connection until it closes, times out or is evicted; `proxies` when it comes
/// from a trusted proxy, whose requests are each their forwarded client's.
async fn serve(
    stream: TcpStream,
    peer: Peer,
    proxies: Option<Arc<[IpAddr]>>,
    ticket: Ticket,
    router: Router,
    limits: Arc<ServerLimits>,
) {
    let conn = ticket.conn.clone();
    let connections = ticket.connections.clone();
    let service = hyper::service::service_fn(move |request| {
        let busy = Busy::new(conn.clone(), connections.now());
        let mut peer = peer;
        if let Some(proxies) = &proxies {
            peer.client = forwarded(request.headers(), proxies).unwrap_or(peer.client);
        }
        answer(request, peer, busy, router.clone())
    });
    let io = TokioIo::new(Stalling::new(stream, limits.write_stall));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_time)
        .max_buf_size(limits.head_size.max(8192));
    let connection = builder.serve_connection(io, service);
    tokio::select! {
        _ = connection => {}
        () = ticket.conn.evicted.notified() => {}
    }
}

/// Serves one request: tagged with its client, the connection counted busy until its answer
/// is sent (an event stream marks the connection instead).
async fn answer(
    mut request: Request<Incoming>,
    peer: Peer,
    busy: Busy,
    router: Router,
) -> Result<Response<Body>, Infallible> {
    request.extensions_mut().insert(peer);
    let response = match router.oneshot(request.map(Body::new)).await {
        Ok(response) => response,
        Err(never) => match never {},
    };
    let stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if stream {
        busy.conn.streaming.store(true, Ordering::Release);
        return Ok(response);
    }
    Ok(response.map(|body| Body::new(Held::new(body, busy))))
}

/// Counts a request on its connection while alive.
struct Busy {
    conn: Arc<Conn>,
}

impl Busy {
    fn new(conn: Arc<Conn>, now: u64) -> Busy {
        conn.busy.fetch_add(1, Ordering::AcqRel);
        conn.since.store(now, Ordering::Release);
        Busy { conn }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.conn.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A body that holds something (a count, a reservation of memory) until it is sent or dropped.
/// Its data is handed on in slices of `SLICE` bytes, so that the connection takes the next
/// only once it has written the last: the body, and what it holds, lasts until the answer has
/// left (a body handed on whole would be dropped as soon as it was queued).
pub struct Held<T> {
    body: Body,
    rest: axum::body::Bytes,
    _held: T,
}

/// The bytes a connection is handed at a time.
const SLICE: usize = 16 << 10;

impl<T> Held<T> {
    /// `body`, holding `held`.
    pub fn new(body: Body, held: T) -> Held<T> {
        Held { body, rest: axum::body::Bytes::new(), _held: held }
    }
}

impl<T: Unpin> http_body::Body for Held<T> {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if self.rest.is_empty() {
            match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => self.rest = data,
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                other => return other,
            }
        }
        let take = self.rest.len().min(SLICE);
        let slice = self.rest.split_to(take);
        Poll::Ready(Some(Ok(Frame::data(slice))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty() && self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let inner = self.body.size_hint();
        let rest = self.rest.len() as u64;
        let mut hint = SizeHint::new();
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + rest);
        }
        hint.set_lower(inner.lower() + rest);
        hint
    }
}

/// A socket whose writes fail once they have been blocked for `stall`: a client that reads
/// nothing of its answer is let go.
struct Stalling {
    inner: TcpStream,
    stall: Duration,
    blocked: Option<Pin<Box<Sleep>>>,
}

impl Stalling {
    fn new(inner: TcpStream, stall: Duration) -> Stalling {
        Stalling { inner, stall, blocked: None }
    }

    /// After a write returned `Pending`: still pending, or an error once the stall is over.
    fn wait<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let stall = self.stall;
        let timer = self.blocked.get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of the answer",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progress<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Pending => self.wait(cx),
            ready => {
                self.blocked = None;
                ready
            }
        }
    }
}

impl AsyncRead for Stalling {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalling {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.progress(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.progress(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.progress(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.progress(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> Client {
        Client::of(std::net::IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, last)))
    }

    fn table(total: usize, per_client: usize) -> Arc<Connections> {
        let limits = ServerLimits {
            connections: total,
            connections_per_client: per_client,
            ..ServerLimits::default()
        };
        Arc::new(Connections::new(&limits))
    }

    #[test]
    fn a_full_client_makes_room_by_closing_its_longest_waiting_connection() {
        let connections = table(100, 2);
        let first = connections.admit(client(1), false).unwrap();
        let second = connections.admit(client(1), false).unwrap();
        second.conn.since.store(0, Ordering::Release);
        first.conn.since.store(5, Ordering::Release);
        let third = connections.admit(client(1), false).unwrap();
        assert_eq!(connections.open(), 2);
        let table = lock(&connections.table);
        assert!(!table.open.contains_key(&second.conn.id), "the longest waiting one went");
        assert!(table.open.contains_key(&first.conn.id) && table.open.contains_key(&third.conn.id));
        assert_eq!(table.per_client[&client(1)], 2);
        drop(table);
        // A trusted proxy's connections are bounded by the total only.
        let proxied: Vec<Ticket> =
            (0..5).map(|_| connections.admit(client(9), true).unwrap()).collect();
        assert_eq!(connections.open(), 7);
        assert_eq!(lock(&connections.table).per_client[&client(9)], 5);
        drop(proxied);
        assert_eq!(connections.open(), 2);
    }

    #[test]
    fn a_busy_connection_is_never_closed_for_another() {
        let connections = table(2, 2);
        let a = connections.admit(client(1), false).unwrap();
        let b = connections.admit(client(2), false).unwrap();
        let _busy_a = Busy::new(a.conn.clone(), 1);
        let _busy_b = Busy::new(b.conn.clone(), 1);
        assert!(
            connections.admit(client(3), false).is_none(),
            "no room: both are serving requests"
        );
        drop(_busy_b);
        let c = connections.admit(client(3), false);
        assert!(c.is_some());
        assert!(!lock(&connections.table).open.contains_key(&b.conn.id));
    }

    #[test]
    fn event_streams_go_last() {
        let connections = table(2, 10);
        let stream = connections.admit(client(1), false).unwrap();
        let idle = connections.admit(client(2), false).unwrap();
        stream.conn.streaming.store(true, Ordering::Release);
        stream.conn.since.store(0, Ordering::Release);
        idle.conn.since.store(10, Ordering::Release);
        let _new = connections.admit(client(3), false).unwrap();
        let table = lock(&connections.table);
        assert!(table.open.contains_key(&stream.conn.id));
        assert!(!table.open.contains_key(&idle.conn.id));
    }

    #[test]
    fn a_dropped_ticket_frees_its_place() {
        let connections = table(1, 1);
        let a = connections.admit(client(1), false).unwrap();
        drop(a);
        assert_eq!(connections.open(), 0);
        assert!(lock(&connections.table).per_client.is_empty());
    }
}
