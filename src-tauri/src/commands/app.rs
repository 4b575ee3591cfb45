//! App-wide facts for the shell (status line).

use skillcase_application::info::AppInfo;
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Where data and skills live, and whether the local API listens.
#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> Result<AppInfo, IpcError> {
    Ok(state.host().info().await)
}
