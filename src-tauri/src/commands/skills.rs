//! The Skills screen: the library list, one skill's detail, the three disclosure levels, import,
//! export, the security scan and try a message (versions and edits are in `editing`). Each
//! command is one call into the application.

use std::path::PathBuf;

use crate::ipc::ipc;
use skillcase_application::domain::common::ErrorBody;
use skillcase_application::domain::library::activations::MatchOutcome;
use skillcase_application::domain::library::clients::ClientPreview;
use skillcase_application::domain::library::{ImportReport, SkillDetail, SkillPage, SkillQuery};
use skillcase_application::domain::skill::clients::AgentClient;
use skillcase_application::domain::skill::disclosure::{Activation, Index, IndexFormat};
use skillcase_application::domain::skill::scan::ScanFinding;
use skillcase_application::export::ExportReport;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::{error::IpcError, state::AppState};

ipc! {
    /// One page of the library list.
    fn skills_list(state: State<'_, AppState>, query: SkillQuery) -> SkillPage {
        Ok(state.app().list_skills(query).await?)
    }

    /// One skill's detail.
    fn skill_detail(state: State<'_, AppState>, name: String) -> SkillDetail {
        Ok(state.app().skill_detail(name).await?)
    }

    /// Level 1, the index, in `format`.
    fn skill_index(state: State<'_, AppState>, format: IndexFormat) -> Index {
        Ok(state.app().skills_index(format).await?)
    }

    /// How `client` (Claude Code, Codex) would list the library and judge the skill, with what
    /// each level costs in tokens.
    fn skill_client_preview(
        state: State<'_, AppState>,
        client: AgentClient,
        name: String,
        budget_chars: Option<u32>,
    ) -> ClientPreview {
        Ok(state.app().client_preview(client, name, budget_chars).await?)
    }

    /// Level 2 of a skill for the reviewer (nothing recorded).
    fn skill_activation(state: State<'_, AppState>, name: String, task: Option<String>) -> Activation {
        Ok(state.app().preview_activation(name, task).await?)
    }

    /// Level 3 of one file for the reviewer.
    fn skill_file_text(state: State<'_, AppState>, name: String, path: String) -> String {
        Ok(state.app().preview_file(name, path).await?)
    }

    /// A file of the live version as text, for the editor.
    fn skill_source(state: State<'_, AppState>, name: String, path: String) -> String {
        Ok(state.app().skill_source(name, path).await?)
    }

    /// An image of the live version as a `data:` URL.
    fn skill_file_data_url(state: State<'_, AppState>, name: String, path: String) -> String {
        Ok(state.app().skill_file_data_url(name, path).await?)
    }

    /// Imports a dropped or picked package (`.zip`/`.skill`) or skill folder.
    fn skills_import(state: State<'_, AppState>, path: PathBuf) -> ImportReport {
        Ok(state.app().import_skill(path, false).await?)
    }

    /// Every check of an import, writing nothing: what it would report, trigger cases included.
    fn skills_import_check(state: State<'_, AppState>, path: PathBuf) -> ImportReport {
        Ok(state.app().import_skill(path, true).await?)
    }

    /// The native file picker for packages (some Linux file managers' drops are unreliable).
    fn skills_pick_packages(app: AppHandle, title: String, filter_name: String) -> Vec<PathBuf> {
        let chosen = tauri::async_runtime::spawn_blocking(move || {
            app.dialog().file().set_title(title).add_filter(filter_name, &["zip", "skill"]).blocking_pick_files()
        })
        .await
        .map_err(|err| IpcError::from(ErrorBody::new("task_failed", err.to_string())))?;
        Ok(chosen.unwrap_or_default().into_iter().filter_map(|p| p.into_path().ok()).collect())
    }

    /// Packs the skill into the `.skill` zip at `path` (chosen in the save dialog).
    fn skill_export(state: State<'_, AppState>, name: String, path: PathBuf) -> ExportReport {
        Ok(state.app().export_skill(name, path).await?)
    }

    /// The security scan of the skill's live folder (the Validation tab's *Security* section).
    fn skill_security_scan(state: State<'_, AppState>, name: String) -> Vec<ScanFinding> {
        Ok(state.app().scan_skill(name).await?)
    }

    /// What a message would fire (nothing recorded).
    fn skills_try_message(state: State<'_, AppState>, message: String) -> MatchOutcome {
        Ok(state.app().try_message(message).await?)
    }
}
