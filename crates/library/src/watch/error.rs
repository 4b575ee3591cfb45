//! Why the skills directory could not be watched.

use std::path::PathBuf;

use skillcase_common::error::Coded;

/// A watcher that could not start. Once started, trouble is reported as a
/// [`WatchEvent`](super::WatchEvent) instead, because the watcher keeps going.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The OS file-notification service refused to start, or the watcher thread could not be made.
    #[error("could not start watching {path}: {message}")]
    StartFailed { path: PathBuf, message: String },
    /// The skills directory path names a file, not a folder.
    #[error("the skills directory {path} is not a folder")]
    NotADirectory { path: PathBuf },
    /// The OS ran out of watches (on Linux, `fs.inotify.max_user_watches`).
    #[error(
        "the system allows no more file watches{}; raise fs.inotify.max_user_watches or pick a smaller skills directory than {path}",
        limit.map(|l| format!(" (limit {l})")).unwrap_or_default()
    )]
    WatchLimitReached { path: PathBuf, limit: Option<u64> },
    /// The skills directory holds more folders than the watcher is allowed to watch.
    #[error("{path} holds more than {max} folders; the watcher stops there")]
    TooManyFolders { path: PathBuf, max: usize },
}

impl Coded for WatchError {
    fn code(&self) -> &'static str {
        match self {
            WatchError::StartFailed { .. } => "watch_start_failed",
            WatchError::NotADirectory { .. } => "skills_dir_not_a_directory",
            WatchError::WatchLimitReached { .. } => "watch_limit_reached",
            WatchError::TooManyFolders { .. } => "skills_dir_too_large",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        let path = |p: &PathBuf| serde_json::Value::from(p.display().to_string());
        Some(match self {
            WatchError::StartFailed { path: p, .. } | WatchError::NotADirectory { path: p } => {
                serde_json::json!({ "path": path(p) })
            }
            WatchError::WatchLimitReached { path: p, limit } => {
                serde_json::json!({ "path": path(p), "limit": limit })
            }
            WatchError::TooManyFolders { path: p, max } => serde_json::json!({ "path": path(p), "max": max }),
        })
    }
}
