//! The accept loop: how many connections are kept, how long each may take to say something, and
//! how they are closed when the server stops.
//!
//! `axum::serve` hides hyper's connection settings and keeps every connection for as long as
//! its client likes, so idle or slow sockets pile up until the process runs out of files. Here:
//!
//! - at most `max_connections` are served at once; one more is answered `503` with
//!   `Retry-After` and closed ([`refuse`]), and past a few such answers in progress the excess is
//!   closed unanswered;
//! - each connection has a [`Clock`]: a request head must arrive within the header-read timeout,
//!   a rest between keep-alive requests lasts at most the idle timeout, and a connection past
//!   its deadline is closed;
//! - stopping closes the listener, lets requests in flight finish (idle connections close at
//!   once), and after the grace period closes whatever is left, so a stuck request or client
//!   never keeps the server from stopping.

mod clock;
mod refuse;

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch, Semaphore};
use tokio::task::JoinSet;
use tower::ServiceExt;

use clock::Clock;
pub use clock::PhaseLimits;

/// Refusals (`503`) written at the same time; connections beyond are closed unanswered.
const REFUSING_AT_ONCE: usize = 64;

/// What the accept loop enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_connections: usize,
    pub phases: PhaseLimits,
    /// How long requests in flight may still run once the server is told to stop.
    pub shutdown_grace: Duration,
}

/// Serves `listener` with `service` until `stop` resolves (or its sender is dropped), then shuts
/// down as the module description says.
pub async fn serve<S>(listener: TcpListener, service: S, limits: Limits, stop: oneshot::Receiver<()>)
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let refusing = Arc::new(Semaphore::new(REFUSING_AT_ONCE));
    let (stopping, stop_seen) = watch::channel(false);
    let mut tasks = JoinSet::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            biased;
            _ = &mut stop => break,
            Some(_) = tasks.join_next() => {}
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(err) => {
                        pause_after(&err).await;
                        continue;
                    }
                };
                if let Ok(slot) = Arc::clone(&slots).try_acquire_owned() {
                    let (service, stop_seen) = (service.clone(), stop_seen.clone());
                    tasks.spawn(async move {
                        connection(stream, service, limits.phases, stop_seen).await;
                        drop(slot);
                    });
                } else if let Ok(refusal) = Arc::clone(&refusing).try_acquire_owned() {
                    tasks.spawn(async move {
                        refuse::too_many_connections(stream).await;
                        drop(refusal);
                    });
                }
            }
        }
    }
    drop(listener);
    let _ = stopping.send(true);
    let drained =
        tokio::time::timeout(limits.shutdown_grace, async { while tasks.join_next().await.is_some() {} })
            .await;
    if drained.is_err() {
        eprintln!(
            "skillcase: the local API closed {} connection(s) still busy {} ms after it was told to stop",
            tasks.len(),
            limits.shutdown_grace.as_millis()
        );
        tasks.abort_all();
    }
}

/// After a failed accept: a connection that went away before it was taken is nothing; anything
/// else (out of file descriptors) is reported and waited out briefly instead of spinning.
async fn pause_after(err: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(err.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        eprintln!("skillcase: the local API could not accept a connection: {err}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Serves one connection (HTTP/1.1, keep-alive) until the client leaves, its clock runs out,
/// or the server stops.
async fn connection<S>(
    stream: TcpStream,
    service: S,
    phases: PhaseLimits,
    mut stop_seen: watch::Receiver<bool>,
) where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let _ = stream.set_nodelay(true);
    let clock = Arc::new(Clock::new(phases));
    let io = TokioIo::new(Watched { stream, clock: Arc::clone(&clock) });
    let on_request = Arc::clone(&clock);
    let hyper_service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        on_request.request_started();
        let answered = service.clone().oneshot(request.map(Body::new));
        let clock = Arc::clone(&on_request);
        async move {
            let response = answered.await;
            clock.answer_ready();
            response
        }
    });
    let conn = http1::Builder::new().keep_alive(true).serve_connection(io, hyper_service);
    tokio::pin!(conn);
    let check = tokio::time::sleep_until(clock.next_check());
    tokio::pin!(check);
    let mut stopping = false;
    loop {
        tokio::select! {
            biased;
            _ = conn.as_mut() => return,
            _ = check.as_mut() => {
                if clock.deadline() <= tokio::time::Instant::now() {
                    return;
                }
                check.as_mut().reset(clock.next_check());
            }
            _ = stop_seen.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// The client's socket, telling the connection's clock when bytes arrive.
struct Watched {
    stream: TcpStream,
    clock: Arc<Clock>,
}

impl AsyncRead for Watched {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.clock.bytes_arrived();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
