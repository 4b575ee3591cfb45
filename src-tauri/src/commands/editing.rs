//! The Skills screen's history and editor: versions with diff and restore, the activity chart,
//! and edits validated before they are written. Each command is one call into the application.

use crate::ipc::ipc;
use skillcase_application::domain::library::{DayCount, FileDiff, SkillDetail, VersionInfo};
use skillcase_application::domain::skill::finding::Finding;
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Every version of a skill, newest first.
    fn skill_versions(state: State<'_, AppState>, name: String) -> Vec<VersionInfo> {
        Ok(state.app().skill_versions(name).await?)
    }

    /// The per-file diff between two versions.
    fn skill_diff(state: State<'_, AppState>, name: String, from: i64, to: i64) -> Vec<FileDiff> {
        Ok(state.app().skill_diff(name, from, to).await?)
    }

    /// Makes an older version live again.
    fn skill_restore(state: State<'_, AppState>, name: String, version: i64) -> VersionInfo {
        Ok(state.app().restore_skill_version(name, version).await?)
    }

    /// Activations per day over the last `days` days.
    fn skill_activity(state: State<'_, AppState>, name: String, days: u32) -> Vec<DayCount> {
        Ok(state.app().skill_activity(name, days).await?)
    }

    /// What saving `text` would report, writing nothing.
    fn skill_preview_edit(state: State<'_, AppState>, name: String, path: String, text: String) -> Vec<Finding> {
        Ok(state.app().preview_skill_edit(name, path, text).await?)
    }

    /// Saves one text file (refused when it would have errors).
    fn skill_save_file(state: State<'_, AppState>, name: String, path: String, text: String) -> SkillDetail {
        Ok(state.app().save_skill_file(name, path, text).await?)
    }

    /// Creates a new skill with a starter body.
    fn skill_create(state: State<'_, AppState>, name: String, description: String) -> SkillDetail {
        Ok(state.app().create_skill(name, description).await?)
    }

    /// Removes one support file.
    fn skill_remove_file(state: State<'_, AppState>, name: String, path: String) -> SkillDetail {
        Ok(state.app().remove_skill_file(name, path).await?)
    }

    /// Deletes a skill's folder (its versions stay).
    fn skill_delete(state: State<'_, AppState>, name: String) -> () {
        Ok(state.app().delete_skill(name).await?)
    }
}
