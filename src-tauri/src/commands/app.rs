//! App-wide facts for the shell (status line).

use crate::ipc::ipc;
use skillcase_application::info::AppInfo;
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Where data and skills live, and whether the local API listens.
    fn app_info(state: State<'_, AppState>) -> AppInfo {
        Ok(state.host().info().await)
    }
}
