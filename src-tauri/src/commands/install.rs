//! The skill view's *Install to…* dialog and its drift badge: where a skill is installed among
//! the agents' skills folders Skillcase knows, how each copy stands, and the install itself. Each command is one call
//! into the application (the same functions behind `skillcase install`).

use crate::ipc::ipc;
use skillcase_application::install::{AgentHost, InstallPlace, InstallReport, InstallTarget};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Every agent of the table, with those installed on this machine marked: the dialog's list.
    fn install_agents(state: State<'_, AppState>) -> Vec<AgentHost> {
        Ok(state.app().install_agents().await?)
    }

    /// Where the library skill `name` is installed and whether each copy is in sync, drifted
    /// or outdated (the badge).
    fn skill_install_status(state: State<'_, AppState>, name: String) -> Vec<InstallPlace> {
        Ok(state.app().install_status(name).await?)
    }

    /// Copies the library skill `name` into every target; `force` replaces a folder of that
    /// name that Skillcase did not install.
    fn skill_install(state: State<'_, AppState>, name: String, targets: Vec<InstallTarget>, force: bool) -> InstallReport {
        Ok(state.app().install_library_skill(name, targets, force).await?)
    }
}
