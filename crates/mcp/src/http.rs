//! Streamable HTTP at `/mcp`: rmcp's Streamable HTTP server as a router the host mounts into
//! the local API, *under the API's gate* (loopback only, bearer token, Host check, Origin
//! refused, body limit, timeouts), so MCP over HTTP is exactly as reachable as the rest of the
//! API and no more. Sessions begun with `initialize` live in memory; 2026-07-28 requests carry
//! everything themselves and are served without one.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use skillcase_application::mcp_clients::McpTransport;
use skillcase_application::App;
use tokio_util::sync::CancellationToken;

use crate::catalog::Catalog;
use crate::server::SkillcaseMcp;

/// Where the MCP endpoint is mounted on the local API.
pub const PATH: &str = "/mcp";
/// The largest request body, the API's own limit (SPEC B4).
const BODY_LIMIT: usize = 256 * 1024;

/// The MCP endpoint of one API server.
#[derive(Debug)]
pub struct McpHttp {
    router: Router,
    streams: CancellationToken,
}

impl McpHttp {
    /// The endpoint over `app`; the skills' entries start building at once.
    pub fn new(app: App) -> McpHttp {
        let catalog = Catalog::new(app.clone());
        catalog.warm();
        let streams = CancellationToken::new();
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(streams.child_token())
            .with_max_request_body_bytes(BODY_LIMIT)
            .with_sse_keep_alive(Some(Duration::from_secs(15)));
        let service = StreamableHttpService::new(
            move || Ok(SkillcaseMcp::new(app.clone(), Arc::clone(&catalog), McpTransport::StreamableHttp)),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        McpHttp { router: Router::new().route_service(PATH, service), streams }
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
