//! The accept loop: each connection served by hyper's HTTP/1 connection
//! (upgrades to WebSocket allowed) with its header-read timeout, which
//! `axum::serve` cannot set (it gives hyper no timer). Neither hyper nor
//! tower caps open connections (tower's limits count requests, and a
//! WebSocket is one request that lasts), so the cap is a semaphore taken
//! before each accept: past it, clients wait in the kernel's listen queue
//! instead of costing the server a descriptor each. One peer may hold only
//! so many of them ([`crate::Limits::connections_per_peer`]; a trusted
//! proxy, which carries everyone's, is not counted): past that, its new
//! connection is answered 429 and closed at once, so that the places left
//! stay for others whatever one peer holds.

use crate::client::Proxies;
use crate::error::{Refusal, WebError};
use crate::held::{Held, Place};
use crate::protocol::Outgoing;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// How long to wait after the system refused a connection (no descriptor
/// left) before accepting again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Where connections are taken: the listener, the places of all and of
/// each peer, and the proxies whose connections each peer's cap spares.
pub struct Door {
    /// The bound socket.
    pub listener: TcpListener,
    /// One permit per open connection.
    pub slots: Arc<Semaphore>,
    /// Each peer's connections.
    pub peers: Held,
    /// Trusted proxies.
    pub proxies: Proxies,
}

/// Serves `app` at `door` for ever: at most `slots`' permits of
/// connections at once, and each peer's cap, each connection closed when
/// a request's head takes longer than `header_read` (an idle keep-alive
/// connection too). The peer's address goes with each request as
/// [`ConnectInfo`] (the client, unless a trusted proxy says otherwise:
/// [`crate::client`]).
pub async fn serve(door: Door, app: Router, header_read: Duration) {
    let Door {
        listener,
        slots,
        peers,
        proxies,
    } = door;
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let (tcp, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::debug!("accept: {e}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        // No Nagle delay: a view or a names message is a small write that
        // must leave at once, not wait for the previous one's
        // acknowledgement (up to 40 ms of delayed ACK).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY refused: {e}");
        }
        let place = if proxies.trusts(remote.ip()) {
            None
        } else if let Some(place) = peers.take(remote.ip()) {
            Some(place)
        } else {
            turn_away(&tcp, peers.cap());
            tracing::debug!("{remote} holds as many connections as one peer may");
            continue;
        };
        let service = app
            .clone()
            .map_request(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(remote));
                request
            });
        let io = TokioIo::new(Slotted {
            tcp,
            _slot: slot,
            _place: place,
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read)
                .serve_connection(io, TowerToHyperService::new(service))
                .with_upgrades();
            if let Err(e) = connection.await {
                tracing::debug!("connection from {remote}: {e}");
            }
        });
    }
}

/// A connection holding its place under the cap: the place is given back
/// when the stream is dropped, which for a WebSocket is when the socket
/// closes, not when hyper hands the upgraded stream over.
struct Slotted {
    tcp: TcpStream,
    _slot: OwnedSemaphorePermit,
    _place: Option<Place>,
}

/// Tells a peer over its cap why it is refused, in one write that never
/// waits (a peer that does not read is simply closed).
fn turn_away(tcp: &TcpStream, cap: usize) {
    let body = Outgoing::error(&WebError::Forbidden(Refusal::TooManyConnections(cap))).text();
    let response = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.try_write(response.as_bytes());
}

impl AsyncRead for Slotted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Slotted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}
