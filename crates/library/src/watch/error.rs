//! Why the skills directory could not be watched.

use std::path::PathBuf;

use skillcase_common::error::Coded;

/// A watcher that could not start. Once started, trouble is reported as a
/// [`WatchEvent`](super::WatchEvent) instead, because the watcher keeps going: a folder that
/// cannot be watched, or a tree past the watch budget, is an `Incomplete` event, not an error.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The OS file-notification service refused to start, or the watcher thread could not be made.
    #[error("could not start watching {path}: {message}")]
    StartFailed { path: PathBuf, message: String },
    /// The skills directory path names a file, not a folder.
    #[error("the skills directory {path} is not a folder")]
    NotADirectory { path: PathBuf },
}

impl Coded for WatchError {
    fn code(&self) -> &'static str {
        match self {
            WatchError::StartFailed { .. } => "watch_start_failed",
            WatchError::NotADirectory { .. } => "skills_dir_not_a_directory",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        let path = |p: &PathBuf| serde_json::Value::from(p.display().to_string());
        Some(match self {
            WatchError::StartFailed { path: p, .. } | WatchError::NotADirectory { path: p } => {
                serde_json::json!({ "path": path(p) })
            }
        })
    }
}
