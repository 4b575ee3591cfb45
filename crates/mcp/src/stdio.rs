//! `skillcase mcp`: one client over standard input and output, for hosts that start their MCP
//! servers as child processes (Claude Desktop, Claude Code, Codex, Cursor, VS Code). The
//! connection ends when the client closes standard input. Messages are read through the bounded
//! reader of [`crate::lines`].

use rmcp::ServiceExt;
use skillcase_application::mcp_clients::McpTransport;
use skillcase_application::App;
use skillcase_common::error::Coded;

use crate::catalog::Catalog;
use crate::limits::McpLimits;
use crate::lines::Lines;
use crate::server::SkillcaseMcp;

/// Why the stdio server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum StdioError {
    #[error("the MCP client did not start a session: {0}")]
    Start(String),
    #[error("the MCP server stopped: {0}")]
    Stopped(String),
}

impl Coded for StdioError {
    fn code(&self) -> &'static str {
        match self {
            StdioError::Start(_) => "mcp_start_failed",
            StdioError::Stopped(_) => "mcp_stopped",
        }
    }
}

/// Serves the client on stdin/stdout until it disconnects.
pub async fn serve(app: App) -> Result<(), StdioError> {
    let catalog = Catalog::new(app.clone());
    catalog.warm();
    let server = SkillcaseMcp::new(app, catalog, McpTransport::Stdio, McpLimits::default());
    let transport = Lines::new(tokio::io::stdin(), tokio::io::stdout());
    let running = server.serve(transport).await.map_err(|e| StdioError::Start(e.to_string()))?;
    running.waiting().await.map_err(|e| StdioError::Stopped(e.to_string()))?;
    Ok(())
}
