//! Settings → Agents (MCP): how an agent's host connects, and the MCP clients connected right
//! now (the list changes are announced as `mcp-clients-changed`).

use crate::ipc::ipc;
use skillcase_application::info::McpSetup;
use skillcase_application::mcp_clients::McpClient;
use tauri::State;

use crate::state::AppState;

ipc! {
    /// The stdio command an agent's host starts, and the Streamable HTTP URL while the API listens.
    fn mcp_setup(state: State<'_, AppState>) -> McpSetup {
        Ok(state.host().mcp_setup().await)
    }

    /// The MCP clients connected right now, over stdio (any process on this data directory) or HTTP.
    fn mcp_clients(state: State<'_, AppState>) -> Vec<McpClient> {
        Ok(state.app().mcp_clients())
    }
}
