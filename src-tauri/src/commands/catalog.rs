//! The Catalog screen: the factory skills, installing one, and removing a local override.

use skillcase_library::{CatalogEntry, SkillDetail};
use tauri::State;

use super::library::on_library;
use crate::{error::IpcError, state::AppState};

/// Every catalog skill and whether it is installed or overridden.
#[tauri::command]
pub async fn catalog_list(state: State<'_, AppState>) -> Result<Vec<CatalogEntry>, IpcError> {
    on_library(&state, |lib| Ok(lib.catalog())).await
}

/// Copies a catalog skill into the skills directory.
#[tauri::command]
pub async fn catalog_install(state: State<'_, AppState>, name: String) -> Result<SkillDetail, IpcError> {
    on_library(&state, move |lib| {
        lib.install(&name)?;
        Ok(lib.detail(&name)?)
    })
    .await
}

/// Deletes the local copy that shadows a catalog skill; the catalog version comes back.
#[tauri::command]
pub async fn catalog_remove_override(state: State<'_, AppState>, name: String) -> Result<(), IpcError> {
    on_library(&state, move |lib| Ok(lib.remove_override(&name)?)).await
}
