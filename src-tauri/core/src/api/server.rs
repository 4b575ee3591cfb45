//! The loopback HTTP server (SPEC B4): axum on tokio, bound to 127.0.0.1 only.
//!
//! Layers, outermost first: every error becomes JSON ([`json_errors`]); a panicking handler
//! becomes a 500 instead of a dropped connection; the [`gate`](super::gate) checks `Host`,
//! `Origin`, the token and the content type; a timeout bounds the whole request, including the
//! wait for a free slot; a semaphore bounds how many requests run at once; bodies over 256 KB are
//! refused (by `Content-Length` at once, by counting while streaming otherwise). Nothing here adds
//! a CORS header, on any request.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn, from_fn_with_state, Next};
use axum::response::Response;
use axum::Router;
use tokio::sync::{oneshot, Semaphore};
use tokio::task::JoinHandle;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

use super::error::{json_errors, ApiError};
use super::gate::{self, Gate};
use super::routes;
use super::state::ApiState;
use crate::error::Coded;

/// The largest request body accepted (SPEC B4).
pub const BODY_LIMIT: usize = 256 * 1024;
/// The port the agent expects when none is configured.
pub const DEFAULT_PORT: u16 = 7878;

/// How the server listens and how much it takes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiConfig {
    /// The port on 127.0.0.1; 0 asks the system for a free one (tests).
    pub port: u16,
    /// The longest a request may take, from admission to the last byte of the answer's head.
    pub request_timeout: Duration,
    /// How many requests are served at once; the rest wait (within the timeout).
    pub max_concurrent: usize,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig { port: DEFAULT_PORT, request_timeout: Duration::from_secs(10), max_concurrent: 32 }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "cannot listen on 127.0.0.1:{port}: {source} (is another Skillcase running? choose another port)"
    )]
    Bind { port: u16, source: std::io::Error },
}

impl Coded for ServeError {
    fn code(&self) -> &'static str {
        match self {
            ServeError::Bind { .. } => "api_bind_failed",
        }
    }
}

/// A server that is accepting connections; dropping it leaves the server running until the
/// runtime stops, [`RunningServer::shutdown`] stops it gracefully.
#[derive(Debug)]
pub struct RunningServer {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// The address it is bound to (always 127.0.0.1).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound port (the chosen one when the configuration asked for port 0).
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Stops accepting, lets requests in flight finish, and returns when the server is down.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(());
        self.task.await.unwrap_or_else(|e| Err(std::io::Error::other(e)))
    }
}

/// Binds 127.0.0.1:`config.port` and serves the API in the background of the current tokio
/// runtime.
pub async fn serve(config: ApiConfig, state: ApiState) -> Result<RunningServer, ServeError> {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, config.port))
        .await
        .map_err(|source| ServeError::Bind { port: config.port, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { port: config.port, source })?;
    let app = app(&config, addr.port(), state);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, axum::ServiceExt::<Request>::into_make_service(app))
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(RunningServer { addr, stop, task })
}

/// The whole service: the route table under every layer of the module description.
fn app(
    config: &ApiConfig,
    port: u16,
    state: ApiState,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send + 'static,
> + Clone
       + Send
       + 'static {
    let gate = Arc::new(Gate::new(port, Arc::clone(&state.tokens)));
    let slots = Arc::new(Semaphore::new(config.max_concurrent));
    let routes: Router = routes::router()
        .fallback(|| async { ApiError::new("not_found", "no such endpoint; see GET /v1/openapi.json") })
        .method_not_allowed_fallback(|| async {
            ApiError::new("method_not_allowed", "this endpoint does not accept that method")
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state);
    ServiceBuilder::new()
        .layer(from_fn(json_errors))
        .layer(CatchPanicLayer::new())
        .layer(from_fn_with_state(gate, gate::admit))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout))
        .layer(from_fn_with_state(slots, one_slot))
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .service(routes)
}

/// Middleware: waits for one of the bounded request slots and holds it until the answer is
/// ready. It runs inside the timeout, so a request that waits too long times out.
async fn one_slot(State(slots): State<Arc<Semaphore>>, request: Request, next: Next) -> Response {
    let _slot = slots.acquire().await.expect("the semaphore is never closed");
    next.run(request).await
}
