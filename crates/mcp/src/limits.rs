//! How much one MCP server takes on, whatever its clients send: every cap here bounds memory,
//! time or connections that a client with the token (or, over stdio, the process that started
//! Skillcase) could otherwise take without end. The values are in docs/mcp.md.

use std::time::Duration;

/// The largest message over stdio, one line of JSON: the local API's body limit, so a message
/// too large for HTTP is too large here too. A longer line is answered with a JSON-RPC error
/// (`mcp_line_too_long`) and skipped without being kept.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// The longest URI `resources/subscribe` or a `subscriptions/listen` filter may name.
pub const MAX_URI_CHARS: usize = 1024;

/// The caps of one MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McpLimits {
    /// HTTP sessions begun with `initialize` kept at once; one more `initialize` is answered
    /// `503 mcp_too_many_sessions` until one ends.
    pub max_sessions: usize,
    /// An HTTP session that has not been used for this long is closed (its client must
    /// `initialize` again).
    pub session_idle: Duration,
    /// Notification streams held open at once over HTTP (`GET /mcp` and
    /// `subscriptions/listen`); one more is answered `503 mcp_too_many_streams`. Below the API's
    /// connection cap, so streams never take the connections every other request needs.
    pub max_streams: usize,
    /// URIs one connection may subscribe to (`resources/subscribe`), and the most a
    /// `subscriptions/listen` filter is accepted with.
    pub max_subscriptions: usize,
    /// The longest a tool call may run before it is answered `request_timeout`: the API's
    /// request timeout.
    pub call_timeout: Duration,
}

impl Default for McpLimits {
    fn default() -> Self {
        McpLimits {
            max_sessions: 64,
            session_idle: Duration::from_secs(300),
            max_streams: 64,
            max_subscriptions: 256,
            call_timeout: Duration::from_secs(10),
        }
    }
}
