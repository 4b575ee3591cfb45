//! Runs a library call off the main thread: every skills and catalog command goes through
//! [`on_library`], so SQLite, zip reading and hashing never block the window.

use std::sync::Arc;

use skillcase_common::ErrorBody;
use skillcase_library::Library;

use crate::{error::IpcError, state::AppState};

/// Calls `work` with the running library on the blocking thread pool.
pub async fn on_library<T, F>(state: &AppState, work: F) -> Result<T, IpcError>
where
    T: Send + 'static,
    F: FnOnce(&Library) -> Result<T, IpcError> + Send + 'static,
{
    let library: Arc<Library> = state.library().await?;
    tauri::async_runtime::spawn_blocking(move || work(&library))
        .await
        .map_err(|err| IpcError::from(ErrorBody::new("task_failed", err.to_string())))?
}
