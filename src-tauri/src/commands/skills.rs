//! The Skills screen: the library list, one skill's detail, the three disclosure levels, import,
//! try a message, versions, activity and edits. Each command is one call into
//! `skillcase_library::Library` (run off the main thread by [`on_library`]).

use std::path::PathBuf;

use base64::Engine as _;
use skillcase_library::activations::MatchOutcome;
use skillcase_library::{
    DayCount, FileDiff, ImportReport, LibraryError, SkillDetail, SkillPage, SkillQuery, VersionInfo,
};
use skillcase_skill::archive::ArchiveError;
use skillcase_skill::disclosure::{Index, IndexFormat, DEFAULT_BUDGET};
use skillcase_skill::finding::Finding;
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use super::folder_zip::zip_folder;
use super::library::on_library;
use crate::{error::IpcError, state::AppState};

/// The body a skill created in the app starts with: the sections a good skill usually has.
const NEW_SKILL_BODY: &str =
    "\n# When to use\n\nDescribe the customer requests this skill answers.\n\n# Steps\n\n1. \n";

/// One page of the skills list for a search and filters.
#[tauri::command]
pub async fn skills_list(state: State<'_, AppState>, query: SkillQuery) -> Result<SkillPage, IpcError> {
    on_library(&state, move |lib| Ok(lib.list(&query))).await
}

/// Everything the skill screen shows about one skill.
#[tauri::command]
pub async fn skill_detail(state: State<'_, AppState>, name: String) -> Result<SkillDetail, IpcError> {
    on_library(&state, move |lib| Ok(lib.detail(&name)?)).await
}

/// Level 1: the index of every visible skill.
#[tauri::command]
pub async fn skill_index(state: State<'_, AppState>, format: IndexFormat) -> Result<Index, IpcError> {
    on_library(&state, move |lib| Ok(lib.index(format, DEFAULT_BUDGET))).await
}

/// Level 2: what `read_skill(name, task?)` returns.
#[tauri::command]
pub async fn skill_activation(
    state: State<'_, AppState>,
    name: String,
    task: Option<String>,
) -> Result<String, IpcError> {
    on_library(&state, move |lib| Ok(lib.level2(&name, task.as_deref())?)).await
}

/// Level 3: one support file as `read_skill_file` returns it.
#[tauri::command]
pub async fn skill_file_text(
    state: State<'_, AppState>,
    name: String,
    path: String,
) -> Result<String, IpcError> {
    on_library(&state, move |lib| Ok(lib.level3(&name, &path)?)).await
}

/// The text of any text file of the live version (SKILL.md and skill.config.yaml included),
/// for the editor.
#[tauri::command]
pub async fn skill_source(
    state: State<'_, AppState>,
    name: String,
    path: String,
) -> Result<String, IpcError> {
    on_library(&state, move |lib| {
        let bytes = live_file(lib, &name, &path)?;
        String::from_utf8(bytes).map_err(|_| LibraryError::NotText { path }.into())
    })
    .await
}

/// A file of the live version as a `data:` URL, for the image preview of level 3.
#[tauri::command]
pub async fn skill_file_data_url(
    state: State<'_, AppState>,
    name: String,
    path: String,
) -> Result<String, IpcError> {
    on_library(&state, move |lib| {
        let bytes = live_file(lib, &name, &path)?;
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        Ok(format!("data:{};base64,{encoded}", mime_of(&path)))
    })
    .await
}

/// Imports one `.zip`/`.skill` package or skill folder by absolute path; a refusal is a report,
/// not an error. A folder is packed into a zip first, so it meets the same checks.
#[tauri::command]
pub async fn skills_import(state: State<'_, AppState>, path: PathBuf) -> Result<ImportReport, IpcError> {
    on_library(&state, move |lib| {
        if path.is_dir() {
            let bytes = zip_folder(&path, &lib.policy().limits)
                .map_err(|source| LibraryError::Archive(ArchiveError::Read { source }))?;
            return Ok(lib.import_zip(&bytes, false)?);
        }
        Ok(lib.import_zip_file(&path, false)?)
    })
    .await
}

/// The native file dialog for skill packages; the chosen absolute paths (none when cancelled).
#[tauri::command]
pub async fn skills_pick_packages(
    app: AppHandle,
    title: String,
    filter_name: String,
) -> Result<Vec<PathBuf>, IpcError> {
    let chosen = tauri::async_runtime::spawn_blocking(move || {
        app.dialog().file().set_title(title).add_filter(filter_name, &["zip", "skill"]).blocking_pick_files()
    })
    .await
    .map_err(|err| IpcError::from(skillcase_common::ErrorBody::new("task_failed", err.to_string())))?;
    Ok(chosen.unwrap_or_default().into_iter().filter_map(|p| p.into_path().ok()).collect())
}

/// Which skills a customer message fires; nothing is recorded.
#[tauri::command]
pub async fn skills_try_message(
    state: State<'_, AppState>,
    message: String,
) -> Result<MatchOutcome, IpcError> {
    on_library(&state, move |lib| Ok(lib.try_message(&message))).await
}

/// Every recorded version of a skill, newest first.
#[tauri::command]
pub async fn skill_versions(state: State<'_, AppState>, name: String) -> Result<Vec<VersionInfo>, IpcError> {
    on_library(&state, move |lib| Ok(lib.versions(&name)?)).await
}

/// File-by-file differences between two versions.
#[tauri::command]
pub async fn skill_diff(
    state: State<'_, AppState>,
    name: String,
    from: i64,
    to: i64,
) -> Result<Vec<FileDiff>, IpcError> {
    on_library(&state, move |lib| Ok(lib.diff(&name, from, to)?)).await
}

/// Makes a recorded version live again.
#[tauri::command]
pub async fn skill_restore(
    state: State<'_, AppState>,
    name: String,
    version: i64,
) -> Result<VersionInfo, IpcError> {
    on_library(&state, move |lib| Ok(lib.rollback(&name, version)?)).await
}

/// Activations per day over the last `days` days.
#[tauri::command]
pub async fn skill_activity(
    state: State<'_, AppState>,
    name: String,
    days: u32,
) -> Result<Vec<DayCount>, IpcError> {
    on_library(&state, move |lib| Ok(lib.activity(&name, days)?)).await
}

/// Validates a draft of `path` without writing: the editor's live check.
#[tauri::command]
pub async fn skill_preview_edit(
    state: State<'_, AppState>,
    name: String,
    path: String,
    text: String,
) -> Result<Vec<Finding>, IpcError> {
    on_library(&state, move |lib| Ok(lib.preview_edit(&name, &path, &text)?)).await
}

/// Writes the full text of `path` (refused with findings when it would add an error).
#[tauri::command]
pub async fn skill_save_file(
    state: State<'_, AppState>,
    name: String,
    path: String,
    text: String,
) -> Result<SkillDetail, IpcError> {
    on_library(&state, move |lib| {
        lib.edit(&name, &path, &text)?;
        Ok(lib.detail(&name)?)
    })
    .await
}

/// Creates a local skill from the template.
#[tauri::command]
pub async fn skill_create(
    state: State<'_, AppState>,
    name: String,
    description: String,
) -> Result<SkillDetail, IpcError> {
    on_library(&state, move |lib| {
        lib.create(&name, &description, NEW_SKILL_BODY)?;
        Ok(lib.detail(&name)?)
    })
    .await
}

/// Removes a support file.
#[tauri::command]
pub async fn skill_remove_file(
    state: State<'_, AppState>,
    name: String,
    path: String,
) -> Result<SkillDetail, IpcError> {
    on_library(&state, move |lib| {
        lib.remove_file(&name, &path)?;
        Ok(lib.detail(&name)?)
    })
    .await
}

/// Deletes a local skill's folder (its versions stay recorded).
#[tauri::command]
pub async fn skill_delete(state: State<'_, AppState>, name: String) -> Result<(), IpcError> {
    on_library(&state, move |lib| Ok(lib.delete(&name)?)).await
}

/// The bytes of `path` in the live version of `name`, read back from the blob store.
fn live_file(lib: &skillcase_library::Library, name: &str, path: &str) -> Result<Vec<u8>, IpcError> {
    let not_found = || LibraryError::FileNotFound { name: name.to_string(), path: path.to_string() };
    let version = lib.summary(name)?.live_version.ok_or_else(not_found)?;
    let mut package = lib.version_package(name, version)?;
    let at = package.files.iter().position(|f| f.path == path).ok_or_else(not_found)?;
    Ok(package.files.swap_remove(at).bytes)
}

/// The media type of an image preview, from the file's extension.
fn mime_of(path: &str) -> &'static str {
    match path.rsplit('.').next().map(str::to_ascii_lowercase).as_deref() {
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}
