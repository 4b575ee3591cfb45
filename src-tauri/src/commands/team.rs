//! Settings → Team inbox: where the cases live, Test a team database, save it for the next start
//! (or go back to the embedded one), copy this desktop's inbox into a new one, and restart into it.

use crate::ipc::ipc;
use skillcase_application::team::{CopyReport, TeamCheck, TeamInbox};
use tauri::{AppHandle, State};

use crate::state::AppState;

ipc! {
    /// Where this desktop's cases live now, and the team database saved for the next start.
    fn team_inbox(state: State<'_, AppState>) -> TeamInbox {
        Ok(state.app().team_inbox()?)
    }

    /// Reaches the team database at `url` and says what is there, changing nothing.
    fn team_database_test(state: State<'_, AppState>, url: String) -> TeamCheck {
        Ok(state.app().test_team_database(url).await?)
    }

    /// Saves the team database for the next start once it answers (`None`: the embedded database).
    fn team_database_save(state: State<'_, AppState>, url: Option<String>) -> TeamInbox {
        Ok(state.app().save_team_database(url).await?)
    }

    /// Copies this desktop's inbox into the empty team database at `url`, verified table by table.
    fn team_copy_inbox(state: State<'_, AppState>, url: String) -> CopyReport {
        Ok(state.app().copy_inbox_to_team(url).await?)
    }

    /// Restarts Skillcase, so a newly saved team database is used.
    fn app_restart(app: AppHandle) -> () {
        app.restart()
    }
}
