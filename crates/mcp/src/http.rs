//! Streamable HTTP at `/mcp`: rmcp's Streamable HTTP server as a router the host mounts into
//! the local API, *under the API's gate* (loopback only, bearer token, Host check, Origin
//! refused, body limit, timeouts), so MCP over HTTP is exactly as reachable as the rest of the
//! API and no more. Sessions begun with `initialize` live in memory; 2026-07-28 requests carry
//! everything themselves and are served without one.
//!
//! Before rmcp sees a request, [`admit`] holds it to the server's [`McpLimits`]:
//!
//! - a body that is not JSON, or not a JSON-RPC message, is `400` with the JSON-RPC error
//!   (`-32700` parse error, `-32600` invalid request), `data.code` `bad_request`;
//! - an `initialize` asking for a protocol version this server does not know (a newer one) is
//!   answered as the MCP specification says, with the latest version this server supports that
//!   has `initialize` — and so with a session — instead of none;
//! - an `initialize` that would begin a session past [`McpLimits::max_sessions`] is
//!   `503 mcp_too_many_sessions`; sessions unused for [`McpLimits::session_idle`] are closed;
//! - a request that opens a notification stream (`GET /mcp`, `subscriptions/listen`) past
//!   [`McpLimits::max_streams`] is `503 mcp_too_many_streams`; a stream's place is given back
//!   when it closes.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use http_body_util::BodyExt;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcError, ProtocolVersion};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use skillcase_application::mcp_clients::McpTransport;
use skillcase_application::App;
use skillcase_common::error::Coded;
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::catalog::Catalog;
use crate::error::LimitError;
use crate::limits::McpLimits;
use crate::server::SkillcaseMcp;

/// Where the MCP endpoint is mounted on the local API.
pub const PATH: &str = "/mcp";
/// The largest request body, the API's own limit (SPEC B4).
const BODY_LIMIT: usize = 256 * 1024;
/// The header naming an HTTP session.
const SESSION_HEADER: &str = "mcp-session-id";
/// The header naming the protocol version of a request.
const VERSION_HEADER: &str = "mcp-protocol-version";
/// Seconds a client refused for capacity is asked to wait.
const RETRY_AFTER_SECS: &str = "1";

/// The MCP endpoint of one API server.
#[derive(Debug)]
pub struct McpHttp {
    router: Router,
    streams: CancellationToken,
}

/// What [`admit`] needs: the caps, the sessions to count, and the places of open streams.
struct Admission {
    limits: McpLimits,
    sessions: Arc<LocalSessionManager>,
    /// Held while an `initialize` that begins a session is counted and served, so two at once
    /// cannot both take the last place.
    starting: Mutex<()>,
    streams: Arc<Semaphore>,
}

impl McpHttp {
    /// The endpoint over `app` with `limits`; the skills' entries start building at once.
    pub fn new(app: App, limits: McpLimits) -> McpHttp {
        let catalog = Catalog::new(app.clone());
        catalog.warm();
        let streams = CancellationToken::new();
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(streams.child_token())
            .with_max_request_body_bytes(BODY_LIMIT)
            .with_sse_keep_alive(Some(Duration::from_secs(15)));
        let mut sessions = LocalSessionManager::default();
        sessions.session_config = session_config(&limits);
        let sessions = Arc::new(sessions);
        let service = StreamableHttpService::new(
            move || {
                Ok(SkillcaseMcp::new(app.clone(), Arc::clone(&catalog), McpTransport::StreamableHttp, limits))
            },
            Arc::clone(&sessions),
            config,
        );
        let admission = Arc::new(Admission {
            limits,
            sessions,
            starting: Mutex::new(()),
            streams: Arc::new(Semaphore::new(limits.max_streams)),
        });
        let router = Router::new().route_service(PATH, service).layer(from_fn_with_state(admission, admit));
        McpHttp { router, streams }
    }

    /// The routes to mount (`POST`, `GET` and `DELETE /mcp`).
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// Ends every open stream and session, so a server shutting down is not held open by a
    /// client's notification stream.
    pub fn close(&self) {
        self.streams.cancel();
    }
}

fn session_config(limits: &McpLimits) -> SessionConfig {
    let mut config = SessionConfig::default();
    config.keep_alive = Some(limits.session_idle);
    config
}

/// Middleware: holds each request to the limits of the module description, then passes it on.
async fn admit(State(admission): State<Arc<Admission>>, request: Request, next: Next) -> Response {
    match *request.method() {
        Method::GET => match admission.stream_place() {
            Ok(place) => holding(next.run(request).await, place),
            Err(refused) => unavailable(&refused),
        },
        Method::POST => admit_post(&admission, request, next).await,
        _ => next.run(request).await,
    }
}

async fn admit_post(admission: &Admission, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return not_json_rpc(LimitError::NotJson("the body could not be read".into()));
    };
    let mut message = match parse(&bytes) {
        Ok(message) => message,
        Err(refused) => return not_json_rpc(refused),
    };
    let negotiated = negotiate_down(&mut message);
    let bytes = match negotiated {
        Some(version) => {
            if parts.headers.contains_key(VERSION_HEADER) {
                parts.headers.insert(VERSION_HEADER, HeaderValue::from_static(version));
            }
            match serde_json::to_vec(&message) {
                Ok(rewritten) => Bytes::from(rewritten),
                Err(_) => bytes,
            }
        }
        None => bytes,
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    if opens_stream(&message) {
        return match admission.stream_place() {
            Ok(place) => holding(next.run(request).await, place),
            Err(refused) => unavailable(&refused),
        };
    }
    if begins_session(&message, &request) {
        let _one_at_a_time = admission.starting.lock().await;
        if admission.sessions.sessions.read().await.len() >= admission.limits.max_sessions {
            return unavailable(&LimitError::TooManySessions { max: admission.limits.max_sessions });
        }
        return next.run(request).await;
    }
    next.run(request).await
}

impl Admission {
    fn stream_place(&self) -> Result<OwnedSemaphorePermit, LimitError> {
        Arc::clone(&self.streams)
            .try_acquire_owned()
            .map_err(|_| LimitError::TooManyStreams { max: self.limits.max_streams })
    }
}

/// The body as a JSON-RPC message, or why it is not one.
fn parse(bytes: &[u8]) -> Result<ClientJsonRpcMessage, LimitError> {
    serde_json::from_slice(bytes).map_err(|e| match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            LimitError::NotJson(e.to_string())
        }
        _ => LimitError::NotJsonRpc(e.to_string()),
    })
}

/// An `initialize` asking for a version this server does not know is given the latest one it
/// supports with `initialize` (the MCP specification: the server answers with a version it
/// supports, the latest); returns that version when the request was changed.
fn negotiate_down(message: &mut ClientJsonRpcMessage) -> Option<&'static str> {
    let ClientJsonRpcMessage::Request(request) = message else { return None };
    let ClientRequest::InitializeRequest(initialize) = &mut request.request else { return None };
    if ProtocolVersion::KNOWN_VERSIONS.contains(&initialize.params.protocol_version) {
        return None;
    }
    initialize.params.protocol_version = ProtocolVersion::LATEST;
    Some(LATEST_WITH_INITIALIZE)
}

/// [`ProtocolVersion::LATEST`] as a header value.
const LATEST_WITH_INITIALIZE: &str = "2025-11-25";

/// True for a request whose answer is a notification stream held open.
fn opens_stream(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(request)
        if matches!(request.request, ClientRequest::SubscriptionsListenRequest(_)))
}

/// True for an `initialize` that begins a session: one of a version before 2026-07-28 (which
/// has no sessions), sent without a session.
fn begins_session(message: &ClientJsonRpcMessage, request: &Request) -> bool {
    let ClientJsonRpcMessage::Request(rpc) = message else { return false };
    let ClientRequest::InitializeRequest(initialize) = &rpc.request else { return false };
    initialize.params.protocol_version < ProtocolVersion::V_2026_07_28
        && !request.headers().contains_key(SESSION_HEADER)
}

/// `response` with `place` kept until its body is done (the stream closed).
fn holding(response: Response, place: OwnedSemaphorePermit) -> Response {
    response.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _kept = &place;
            frame
        }))
    })
}

/// `503` with `Retry-After`, in the API's error shape.
fn unavailable(refused: &LimitError) -> Response {
    let body = json!({ "error": { "code": refused.code(), "message": refused.to_string(), "details": refused.details() } });
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response();
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECS));
    response
}

/// `400` with the JSON-RPC error of a body that is not a JSON-RPC message.
fn not_json_rpc(refused: LimitError) -> Response {
    let error = JsonRpcError::new(None, refused.into());
    (StatusCode::BAD_REQUEST, axum::Json(error)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_version_with_initialize_is_rmcp_s_latest() {
        assert_eq!(ProtocolVersion::LATEST.as_str(), LATEST_WITH_INITIALIZE);
        assert!(ProtocolVersion::LATEST < ProtocolVersion::V_2026_07_28);
    }

    #[test]
    fn an_initialize_of_an_unknown_version_is_given_the_latest_with_initialize() {
        let mut message: ClientJsonRpcMessage = serde_json::from_value(json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": { "protocolVersion": "2099-01-01", "capabilities": {}, "clientInfo": { "name": "future", "version": "1" } }
        }))
        .unwrap();
        assert_eq!(negotiate_down(&mut message), Some("2025-11-25"));
        let rewritten = serde_json::to_value(&message).unwrap();
        assert_eq!(rewritten["params"]["protocolVersion"], "2025-11-25");
        assert_eq!(negotiate_down(&mut message), None, "a known version is left as it is");
    }
}
