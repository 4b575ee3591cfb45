//! What the app tells people about itself: version and where its state lives.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use skillcase_common::ErrorBody;

/// Whether the local agent API is up in this process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "state", rename_all = "snake_case")]
#[ts(export)]
pub enum ApiStatus {
    /// Listening on `url` (always 127.0.0.1).
    Listening { url: String },
    /// Could not start (for example the port is in use); the window still works.
    Failed { error: ErrorBody },
}

/// Shown in the status line of the window, read from Rust so it is never a stale constant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AppInfo {
    /// The Skillcase version (from Cargo).
    pub version: String,
    /// The watched skills directory.
    pub skills_dir: String,
    /// The data directory (database, blobs, API token).
    pub data_dir: String,
    /// The SQLite database file.
    pub database_path: String,
    /// The local agent API, when this process runs it (the desktop app does; the CLI's `info` does not).
    pub api: Option<ApiStatus>,
    /// The watcher's words while some folders of the skills directory cannot be watched and are
    /// rescanned instead (unreadable, or past a watch limit); `None` while everything is watched.
    pub skills_watch: Option<String>,
}

impl AppInfo {
    /// Describes a running Skillcase with the given directories.
    pub fn new(skills_dir: &Path, data_dir: &Path, database_path: &Path) -> Self {
        Self {
            version: env!("CARGO_PKG_VERSION").to_string(),
            skills_dir: skills_dir.display().to_string(),
            data_dir: data_dir.display().to_string(),
            database_path: database_path.display().to_string(),
            api: None,
            skills_watch: None,
        }
    }

    /// Adds what the watcher says it cannot watch.
    pub fn with_skills_watch(mut self, note: Option<String>) -> Self {
        self.skills_watch = note;
        self
    }

    /// Adds the state of the local agent API.
    pub fn with_api(mut self, api: ApiStatus) -> Self {
        self.api = Some(api);
        self
    }
}

/// How an agent's host reaches Skillcase over MCP, for Settings → Agents (MCP): the command a
/// host starts for stdio, and the Streamable HTTP URL of this process's local API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct McpSetup {
    /// The executable (`skillcase`, by its full path when it sits beside this program).
    pub command: String,
    /// Its arguments (`mcp`).
    pub args: Vec<String>,
    /// Environment the command needs: `SKILLCASE_DATA_DIR` when this data directory is not the
    /// default one, so the agent and the window share one library and one inbox.
    pub env: BTreeMap<String, String>,
    /// `http://127.0.0.1:<port>/mcp` while the local API listens; send the API token as
    /// `Authorization: Bearer <token>`.
    pub http_url: Option<String>,
}
