//! The Skills screen's history and editor: versions with diff and restore, the activity chart,
//! and edits validated before they are written. Each command is one call into the application.

use skillcase_application::domain::library::{DayCount, FileDiff, SkillDetail, VersionInfo};
use skillcase_application::domain::skill::finding::Finding;
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Every version of a skill, newest first.
#[tauri::command]
pub async fn skill_versions(state: State<'_, AppState>, name: String) -> Result<Vec<VersionInfo>, IpcError> {
    Ok(state.app().skill_versions(name).await?)
}

/// The per-file diff between two versions.
#[tauri::command]
pub async fn skill_diff(
    state: State<'_, AppState>,
    name: String,
    from: i64,
    to: i64,
) -> Result<Vec<FileDiff>, IpcError> {
    Ok(state.app().skill_diff(name, from, to).await?)
}

/// Makes an older version live again.
#[tauri::command]
pub async fn skill_restore(
    state: State<'_, AppState>,
    name: String,
    version: i64,
) -> Result<VersionInfo, IpcError> {
    Ok(state.app().restore_skill_version(name, version).await?)
}

/// Activations per day over the last `days` days.
#[tauri::command]
pub async fn skill_activity(
    state: State<'_, AppState>,
    name: String,
    days: u32,
) -> Result<Vec<DayCount>, IpcError> {
    Ok(state.app().skill_activity(name, days).await?)
}

/// What saving `text` would report, writing nothing.
#[tauri::command]
pub async fn skill_preview_edit(
    state: State<'_, AppState>,
    name: String,
    path: String,
    text: String,
) -> Result<Vec<Finding>, IpcError> {
    Ok(state.app().preview_skill_edit(name, path, text).await?)
}

/// Saves one text file (refused when it would have errors).
#[tauri::command]
pub async fn skill_save_file(
    state: State<'_, AppState>,
    name: String,
    path: String,
    text: String,
) -> Result<SkillDetail, IpcError> {
    Ok(state.app().save_skill_file(name, path, text).await?)
}

/// Creates a new skill with a starter body.
#[tauri::command]
pub async fn skill_create(
    state: State<'_, AppState>,
    name: String,
    description: String,
) -> Result<SkillDetail, IpcError> {
    Ok(state.app().create_skill(name, description).await?)
}

/// Removes one support file.
#[tauri::command]
pub async fn skill_remove_file(
    state: State<'_, AppState>,
    name: String,
    path: String,
) -> Result<SkillDetail, IpcError> {
    Ok(state.app().remove_skill_file(name, path).await?)
}

/// Deletes a skill's folder (its versions stay).
#[tauri::command]
pub async fn skill_delete(state: State<'_, AppState>, name: String) -> Result<(), IpcError> {
    Ok(state.app().delete_skill(name).await?)
}
