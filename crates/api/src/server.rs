//! The loopback HTTP server (SPEC B4): hyper on tokio, bound to 127.0.0.1 only.
//!
//! Connections are taken by [`connections`](super::connections): a cap on how many, a
//! header-read and an idle timeout on each, and a bounded graceful stop. Every request then
//! passes these layers, outermost first: every error becomes JSON ([`json_errors`]); a panicking
//! handler becomes a 500 instead of a dropped connection; the [`gate`](super::gate) checks the
//! target, `Host`, `Origin`, the token and the content type; the whole body is read, within the
//! body-read timeout and at most 256 KB, before anything else ([`body`](super::body)); a timeout
//! bounds the rest of the request, including the wait for a free slot; a semaphore bounds how
//! many requests run at once. Nothing here adds a CORS header, on any request.

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
use tower_http::timeout::TimeoutLayer;

use super::body;
use super::connections::{self, Limits, PhaseLimits};
use super::error::{json_errors, ApiError};
use super::gate::{self, Gate};
use super::routes;
use super::state::ApiState;
use skillcase_common::error::Coded;

pub use super::body::BODY_LIMIT;
/// The port the agent expects when none is configured.
pub use skillcase_application::settings::api_port::DEFAULT_PORT;

/// How the server listens and how much it takes on. Tests shorten the timeouts; the defaults
/// suit an agent on the same machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiConfig {
    /// The port on 127.0.0.1; 0 asks the system for a free one (tests).
    pub port: u16,
    /// The longest a request may take once its body is in, from then to the last byte of the
    /// answer's head, the wait for a slot included.
    pub request_timeout: Duration,
    /// How many requests are served at once; the rest wait (within the timeout).
    pub max_concurrent: usize,
    /// How many connections are kept at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// The longest a client may take to send a request's head, from connecting (or from its
    /// first byte after a rest) to the blank line.
    pub header_read_timeout: Duration,
    /// The longest a keep-alive connection may rest between an answer and the next request.
    pub idle_timeout: Duration,
    /// The longest a request's body may take to arrive once its head is in.
    pub body_read_timeout: Duration,
    /// How long requests in flight may still run after the server is told to stop; then their
    /// connections are closed, so nothing stuck keeps the server from stopping.
    pub shutdown_grace: Duration,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            port: DEFAULT_PORT,
            request_timeout: Duration::from_secs(10),
            max_concurrent: 32,
            max_connections: 256,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_read_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(3),
        }
    }
}

impl ApiConfig {
    /// What the accept loop enforces for this configuration. A request's own timeouts always end
    /// it first; the busy backstop only guards against a bug in them.
    fn limits(&self) -> Limits {
        Limits {
            max_connections: self.max_connections,
            phases: PhaseLimits {
                header_read: self.header_read_timeout,
                busy: self.body_read_timeout + self.request_timeout + self.header_read_timeout,
                idle: self.idle_timeout,
            },
            shutdown_grace: self.shutdown_grace,
        }
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

/// A server that is accepting connections. [`RunningServer::shutdown`] stops it and waits;
/// dropping it stops it the same way without waiting.
#[derive(Debug)]
pub struct RunningServer {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
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

    /// Stops accepting, lets requests in flight finish within the shutdown grace, closes what
    /// is left, and returns when the server is down.
    pub async fn shutdown(self) -> std::io::Result<()> {
        let _ = self.stop.send(());
        self.task.await.map_err(std::io::Error::other)
    }
}

/// Binds 127.0.0.1:`config.port` and serves the API in the background of the current tokio
/// runtime. `extra` routes (the host's MCP endpoint) are served beside the API's own, under the
/// same gate, limits and timeouts; pass `Router::new()` for none.
pub async fn serve(config: ApiConfig, state: ApiState, extra: Router) -> Result<RunningServer, ServeError> {
    serve_routes(config, state, routes::router().merge(extra.with_state(()))).await
}

/// [`serve`] with any routes under the same layers (tests use routes that stall or panic).
async fn serve_routes(
    config: ApiConfig,
    state: ApiState,
    routes: Router<ApiState>,
) -> Result<RunningServer, ServeError> {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, config.port))
        .await
        .map_err(|source| ServeError::Bind { port: config.port, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { port: config.port, source })?;
    let app = app(&config, addr.port(), state, routes);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(connections::serve(listener, app, config.limits(), stopped));
    Ok(RunningServer { addr, stop, task })
}

/// The whole service: the route table under every layer of the module description.
fn app(
    config: &ApiConfig,
    port: u16,
    state: ApiState,
    routes: Router<ApiState>,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send + 'static,
> + Clone
       + Send
       + 'static {
    let gate = Arc::new(Gate::new(port, Arc::clone(state.app.tokens())));
    let slots = Arc::new(Semaphore::new(config.max_concurrent));
    let routes: Router = routes
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
        .layer(from_fn_with_state(config.body_read_timeout, body::read_first))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout))
        .layer(from_fn_with_state(slots, one_slot))
        .service(routes)
}

/// Middleware: waits for one of the bounded request slots and holds it until the answer is
/// ready. It runs inside the timeout, so a request that waits too long times out.
async fn one_slot(State(slots): State<Arc<Semaphore>>, request: Request, next: Next) -> Response {
    let _slot = slots.acquire().await.expect("the semaphore is never closed");
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use axum::routing::{get, post};
    use axum::Json;
    use serde::Deserialize;
    use serde_json::Value;

    use super::*;
    use crate::extract::JsonBody;
    use skillcase_application::{App, AppOptions};

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Echo {
        message: String,
    }

    /// Requests inside the slow handler of one server now, and the most seen at once.
    #[derive(Debug, Default)]
    struct Gauge {
        inside: AtomicUsize,
        most: AtomicUsize,
    }

    fn test_routes(gauge: Arc<Gauge>) -> Router<ApiState> {
        Router::new()
            .route("/echo", post(|JsonBody(echo): JsonBody<Echo>| async move { Json(echo.message) }))
            .route(
                "/slow",
                get(move || async move {
                    let now = gauge.inside.fetch_add(1, Ordering::SeqCst) + 1;
                    gauge.most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    gauge.inside.fetch_sub(1, Ordering::SeqCst);
                    "done"
                }),
            )
            .route("/panic", get(|| async { panic!("a handler bug") as &str }))
            .route("/hang", get(std::future::pending::<&str>))
    }

    struct TestServer {
        server: RunningServer,
        server_app: App,
        gauge: Arc<Gauge>,
        token: String,
        _dir: tempfile::TempDir,
    }

    async fn start(config: ApiConfig) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let options = AppOptions {
            skills_dir: Some(dir.path().join("skills")),
            catalog_dir: None,
            background: false,
            ..AppOptions::new(dir.path().to_path_buf())
        };
        let app = App::start(options).await.unwrap();
        let token = app.tokens().current().unwrap().as_str().to_string();
        let gauge = Arc::new(Gauge::default());
        let state = ApiState { app: app.clone() };
        let server = serve_routes(config, state, test_routes(Arc::clone(&gauge))).await.unwrap();
        TestServer { server, server_app: app, gauge, token, _dir: dir }
    }

    /// Sends `head` (request line and headers, without the blank line) and `body` over a fresh
    /// connection, returning the status and the body of the answer.
    async fn exchange(server: &TestServer, head: String, body: Vec<u8>) -> (u16, String) {
        exchange_at(server.server.port(), server.token.clone(), head, body).await
    }

    /// [`exchange`] with the server's port and token.
    async fn exchange_at(port: u16, token: String, head: String, body: Vec<u8>) -> (u16, String) {
        tokio::task::spawn_blocking(move || {
            let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            let head = format!(
                "{head}\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).unwrap();
            let _ = stream.write_all(&body);
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            let status = answer.split(' ').nth(1).unwrap().parse().unwrap();
            let body = answer.split_once("\r\n\r\n").unwrap().1.to_string();
            (status, body)
        })
        .await
        .unwrap()
    }

    fn code(body: &str) -> String {
        let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
        value["error"]["code"].as_str().unwrap().to_string()
    }

    fn post_json(body: &str) -> (String, Vec<u8>) {
        (
            format!(
                "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
                body.len()
            ),
            body.as_bytes().to_vec(),
        )
    }

    #[tokio::test]
    async fn extra_routes_are_served_under_the_same_gate() {
        let mut server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let extra = Router::new().route("/extra", get(|| async { "mounted" }));
        let state = ApiState { app: server.server_app.clone() };
        server.server = serve(ApiConfig { port: 0, ..ApiConfig::default() }, state, extra).await.unwrap();
        assert_eq!(
            exchange(&server, "GET /extra HTTP/1.1".into(), Vec::new()).await,
            (200, "mounted".to_string())
        );
        let with_origin = "GET /extra HTTP/1.1\r\nOrigin: https://evil.example".to_string();
        let (status, answer) = exchange(&server, with_origin, Vec::new()).await;
        assert_eq!((status, code(&answer)), (403, "origin_not_allowed".to_string()));
        server.token = "not-the-token".into();
        let (status, answer) = exchange(&server, "GET /extra HTTP/1.1".into(), Vec::new()).await;
        assert_eq!((status, code(&answer)), (401, "unauthorized".to_string()));
    }

    #[tokio::test]
    async fn a_well_formed_body_reaches_the_handler() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let (head, body) = post_json(r#"{"message":"oi"}"#);
        assert_eq!(exchange(&server, head, body).await, (200, r#""oi""#.to_string()));
    }

    #[tokio::test]
    async fn an_unknown_field_is_400_naming_it() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let (head, body) = post_json(r#"{"message":"oi","mesage":"typo"}"#);
        let (status, answer) = exchange(&server, head, body).await;
        assert_eq!((status, code(&answer)), (400, "bad_request".to_string()));
        assert!(answer.contains("unknown field `mesage`"), "{answer}");
        assert!(answer.contains(r#""details":{"field":"mesage"}"#), "{answer}");
    }

    #[tokio::test]
    async fn broken_json_is_400_saying_where() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let (head, body) = post_json(r#"{"message": oi}"#);
        let (status, answer) = exchange(&server, head, body).await;
        assert_eq!((status, code(&answer)), (400, "bad_request".to_string()));
        assert!(answer.contains("not valid JSON: expected value at line 1 column 13"), "{answer}");
    }

    #[tokio::test]
    async fn a_chunked_body_over_256_kb_is_413_while_streaming() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let payload = format!(r#"{{"message":"{}"}}"#, "x".repeat(BODY_LIMIT));
        let mut chunked = Vec::new();
        for chunk in payload.as_bytes().chunks(8192) {
            chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            chunked.extend_from_slice(chunk);
            chunked.extend_from_slice(b"\r\n");
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        let head =
            "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked".to_string();
        let (status, answer) = exchange(&server, head, chunked).await;
        assert_eq!((status, code(&answer)), (413, "body_too_large".to_string()));
    }

    #[tokio::test]
    async fn a_handler_slower_than_the_timeout_is_408_in_json() {
        let config =
            ApiConfig { port: 0, request_timeout: Duration::from_millis(100), ..ApiConfig::default() };
        let server = start(config).await;
        let (status, answer) = exchange(&server, "GET /slow HTTP/1.1".into(), Vec::new()).await;
        assert_eq!((status, code(&answer)), (408, "request_timeout".to_string()));
    }

    #[tokio::test]
    async fn a_client_that_stalls_mid_body_is_408_after_the_body_read_timeout() {
        let config =
            ApiConfig { port: 0, body_read_timeout: Duration::from_millis(200), ..ApiConfig::default() };
        let server = start(config).await;
        let head = "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100".to_string();
        let (status, answer) = exchange(&server, head, br#"{"message":"#.to_vec()).await;
        assert_eq!((status, code(&answer)), (408, "request_timeout".to_string()));
    }

    #[tokio::test]
    async fn a_panicking_handler_is_500_in_json_and_the_server_keeps_serving() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let (status, answer) = exchange(&server, "GET /panic HTTP/1.1".into(), Vec::new()).await;
        assert_eq!((status, code(&answer)), (500, "internal".to_string()));
        let (head, body) = post_json(r#"{"message":"still here"}"#);
        assert_eq!(exchange(&server, head, body).await.0, 200);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_configured_requests_run_at_once_and_the_rest_wait() {
        let config = ApiConfig { port: 0, max_concurrent: 2, ..ApiConfig::default() };
        let server = Arc::new(start(config).await);
        let started = std::time::Instant::now();
        let requests: Vec<_> = (0..5)
            .map(|_| {
                let server = Arc::clone(&server);
                tokio::spawn(async move { exchange(&server, "GET /slow HTTP/1.1".into(), Vec::new()).await })
            })
            .collect();
        for request in requests {
            assert_eq!(request.await.unwrap(), (200, "done".to_string()));
        }
        assert_eq!(server.gauge.most.load(Ordering::SeqCst), 2);
        assert!(started.elapsed() >= Duration::from_millis(900), "5 requests of 300 ms, 2 at a time");
    }

    #[tokio::test]
    async fn a_request_in_flight_when_the_server_stops_still_gets_its_answer() {
        let server = start(ApiConfig { port: 0, ..ApiConfig::default() }).await;
        let (port, token) = (server.server.port(), server.token.clone());
        let in_flight = tokio::spawn(exchange_at(port, token, "GET /slow HTTP/1.1".into(), Vec::new()));
        tokio::time::sleep(Duration::from_millis(100)).await;
        server.server.shutdown().await.unwrap();
        assert_eq!(in_flight.await.unwrap(), (200, "done".to_string()));
    }

    #[tokio::test]
    async fn stopping_waits_no_longer_than_the_grace_for_a_request_that_never_ends() {
        let grace = Duration::from_millis(300);
        let server = start(ApiConfig { port: 0, shutdown_grace: grace, ..ApiConfig::default() }).await;
        let mut hung = tokio::net::TcpStream::connect(("127.0.0.1", server.server.port())).await.unwrap();
        let head = format!(
            "GET /hang HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\n\r\n",
            server.server.port(),
            server.token
        );
        tokio::io::AsyncWriteExt::write_all(&mut hung, head.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let started = std::time::Instant::now();
        server.server.shutdown().await.unwrap();
        let took = started.elapsed();
        assert!(took >= grace && took < grace * 3, "stopped after {took:?}");
    }
}
