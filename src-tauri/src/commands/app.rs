//! App-wide facts for the shell (status line).

use skillcase_application::info::AppInfo;
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Version, skills directory, data directory, database path and API status, for the status line.
#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> Result<AppInfo, IpcError> {
    Ok(state.info().await)
}
