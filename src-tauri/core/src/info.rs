//! What the app tells people about itself: version and where its state lives.

use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
}

impl AppInfo {
    /// Describes a running Skillcase with the given directories.
    pub fn new(skills_dir: &Path, data_dir: &Path, database_path: &Path) -> Self {
        Self {
            version: env!("CARGO_PKG_VERSION").to_string(),
            skills_dir: skills_dir.display().to_string(),
            data_dir: data_dir.display().to_string(),
            database_path: database_path.display().to_string(),
        }
    }
}
