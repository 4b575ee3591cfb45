//! The Catalog screen: the factory skills, installing one, and removing a local override.

use crate::ipc::ipc;
use skillcase_application::domain::library::{CatalogEntry, SkillDetail};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Every factory skill with what is installed and overridden.
    fn catalog_list(state: State<'_, AppState>) -> Vec<CatalogEntry> {
        Ok(state.app().catalog().await?)
    }

    /// Installs a factory skill as a local copy.
    fn catalog_install(state: State<'_, AppState>, name: String) -> SkillDetail {
        Ok(state.app().install_from_catalog(name).await?)
    }

    /// Removes a local override, bringing the factory version back.
    fn catalog_remove_override(state: State<'_, AppState>, name: String) -> () {
        Ok(state.app().remove_override(name).await?)
    }
}
