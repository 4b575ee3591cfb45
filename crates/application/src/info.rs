//! What the app tells people about itself: version and where its state lives.

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
        }
    }

    /// Adds the state of the local agent API.
    pub fn with_api(mut self, api: ApiStatus) -> Self {
        self.api = Some(api);
        self
    }
}
