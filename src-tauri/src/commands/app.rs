//! App-wide facts for the shell (status line).

use skillcase_core::info::AppInfo;
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Version, skills directory, data directory and database path, for the status line.
#[tauri::command(async)]
pub fn app_info(state: State<'_, AppState>) -> Result<AppInfo, IpcError> {
    Ok(state.info())
}
