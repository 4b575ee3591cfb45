//! The Skills screen's history and editor: versions with diff and restore, the activity chart,
//! and edits validated before they are written. Each command is one call into the application.

use crate::ipc::ipc;
use skillcase_application::domain::library::repository::LoggedActivation;
use skillcase_application::domain::library::trigger_tests::CaseChange;
use skillcase_application::domain::library::{DayCount, FileDiff, SkillDetail, VersionInfo};
use skillcase_application::domain::skill::finding::Finding;
use skillcase_application::domain::skill::triggers::{TriggerCase, TriggerReport};
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

    /// The skill's latest activations with their messages.
    fn skill_activation_log(state: State<'_, AppState>, name: String) -> Vec<LoggedActivation> {
        Ok(state.app().activation_log(name).await?)
    }

    /// Every served skill's trigger cases, run against the whole library.
    fn skill_trigger_tests(state: State<'_, AppState>) -> TriggerReport {
        Ok(state.app().trigger_tests().await?)
    }

    /// Adds a trigger case to a skill and returns the fresh report.
    fn skill_add_trigger_case(state: State<'_, AppState>, name: String, case: TriggerCase) -> TriggerReport {
        Ok(state.app().add_trigger_case(name, case).await?)
    }

    /// Removes a skill's trigger case by its message and returns the fresh report.
    fn skill_remove_trigger_case(state: State<'_, AppState>, name: String, query: String) -> TriggerReport {
        Ok(state.app().remove_trigger_case(name, query).await?)
    }

    /// The trigger cases whose verdict saving `text` would change, writing nothing.
    fn skill_preview_trigger_changes(
        state: State<'_, AppState>,
        name: String,
        path: String,
        text: String,
    ) -> Vec<CaseChange> {
        Ok(state.app().preview_trigger_changes(name, path, text).await?)
    }
}
