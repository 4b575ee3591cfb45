//! The Catalog screen: the factory skills, installing one, and removing a local override.

use skillcase_application::domain::library::{CatalogEntry, SkillDetail};
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Every factory skill with what is installed and overridden.
#[tauri::command]
pub async fn catalog_list(state: State<'_, AppState>) -> Result<Vec<CatalogEntry>, IpcError> {
    Ok(state.app().catalog().await?)
}

/// Installs a factory skill as a local copy.
#[tauri::command]
pub async fn catalog_install(state: State<'_, AppState>, name: String) -> Result<SkillDetail, IpcError> {
    Ok(state.app().install_from_catalog(name).await?)
}

/// Removes a local override, bringing the factory version back.
#[tauri::command]
pub async fn catalog_remove_override(state: State<'_, AppState>, name: String) -> Result<(), IpcError> {
    Ok(state.app().remove_override(name).await?)
}
