//! The skills half's user actions (SPEC A6–A9): what authors and reviewers do in the Skills and
//! Catalog screens, and what the agent reads level by level. Each method runs the library off
//! the async threads and is the whole action.

use std::path::PathBuf;

use base64::Engine as _;
use skillcase_common::ErrorBody;
use skillcase_library::activations::MatchOutcome;
use skillcase_library::served::{ServedSkill, ServedVersion};
use skillcase_library::{
    CatalogEntry, DayCount, FileDiff, GcReport, ImportReport, Library, LibraryError, ManifestEntry,
    SkillDetail, SkillPage, SkillQuery, VersionInfo,
};
use skillcase_skill::disclosure::{Activation, Index, IndexFormat, DEFAULT_BUDGET};
use skillcase_skill::finding::Finding;

use crate::App;

/// The body a new skill starts with in the editor.
const NEW_SKILL_BODY: &str =
    "\n# When to use\n\nDescribe the customer requests this skill answers.\n\n# Steps\n\n1. \n";

impl App {
    /// Runs `work` on the library in force, off the async threads.
    pub(crate) async fn on_library<T, F>(&self, work: F) -> Result<T, ErrorBody>
    where
        T: Send + 'static,
        F: FnOnce(&Library) -> Result<T, LibraryError> + Send + 'static,
    {
        self.blocking(move |app| Ok(work(app.library.get()?.as_ref())?)).await
    }

    /// The library in force (the MCP server and tests read it directly), started if needed.
    pub fn library(&self) -> Result<std::sync::Arc<Library>, ErrorBody> {
        self.inner().library.get()
    }

    /// One page of the library list.
    pub async fn list_skills(&self, query: SkillQuery) -> Result<SkillPage, ErrorBody> {
        self.on_library(move |lib| Ok(lib.list(&query))).await
    }

    /// One skill's detail: summary, files, findings, config.
    pub async fn skill_detail(&self, name: String) -> Result<SkillDetail, ErrorBody> {
        self.on_library(move |lib| lib.detail(&name)).await
    }

    /// Level 1, the index, as the agent receives it.
    pub async fn skills_index(&self, format: IndexFormat) -> Result<Index, ErrorBody> {
        self.on_library(move |lib| Ok(lib.index(format, DEFAULT_BUDGET))).await
    }

    /// Level 2, what activating the skill returns, with its parts marked, for the reviewer
    /// (nothing recorded).
    pub async fn preview_activation(
        &self,
        name: String,
        task: Option<String>,
    ) -> Result<Activation, ErrorBody> {
        self.on_library(move |lib| lib.level2_parts(&name, task.as_deref())).await
    }

    /// Level 3, one file as the agent would read it, for the reviewer (nothing recorded).
    pub async fn preview_file(&self, name: String, path: String) -> Result<String, ErrorBody> {
        self.on_library(move |lib| lib.level3(&name, &path)).await
    }

    /// The skills the agent is served, each at the stored version it is served at (the MCP
    /// Skills extension's listing). Levels 2 and 3 read the same versions: see
    /// [`skillcase_library::served`].
    pub async fn served_skills(&self) -> Result<Vec<ServedSkill>, ErrorBody> {
        self.on_library(|lib| Ok(lib.served_skills())).await
    }

    /// The served skill `name` and the version it is served at: `skill_not_found`, or
    /// `skill_invalid` while the library holds it invalid.
    pub async fn served_skill(&self, name: String) -> Result<ServedSkill, ErrorBody> {
        self.on_library(move |lib| lib.served_skill(&name)).await
    }

    /// The stored versions of `skills` as a listing shows them (manifest and `SKILL.md`); one
    /// whose content cannot be read (a blob gone missing) is left out rather than failing all.
    pub async fn served_versions(&self, skills: Vec<ServedSkill>) -> Result<Vec<ServedVersion>, ErrorBody> {
        self.on_library(move |lib| Ok(skills.iter().filter_map(|s| lib.served_version(s).ok()).collect()))
            .await
    }

    /// One file of a served skill, byte for byte from the stored version the agent is served
    /// (the MCP `resources/read`), with its manifest entry; level 3 reads the same bytes.
    pub async fn served_file(
        &self,
        name: String,
        path: String,
    ) -> Result<(ManifestEntry, Vec<u8>), ErrorBody> {
        self.on_library(move |lib| lib.served_file(&name, &path)).await
    }

    /// The agent reads a skill (level 2); with a conversation, the skill becomes active in it.
    pub async fn read_skill(
        &self,
        name: String,
        task: Option<String>,
        conversation_id: Option<String>,
    ) -> Result<String, ErrorBody> {
        Ok(self.read_skill_parts(name, task, conversation_id).await?.text)
    }

    /// [`App::read_skill`] with the text's parts marked, for a front end that also returns the
    /// required, optional and route-matched lists as data (MCP's `read_skill` tool). Read from
    /// the stored version the agent is served, like [`App::served_file`].
    pub async fn read_skill_parts(
        &self,
        name: String,
        task: Option<String>,
        conversation_id: Option<String>,
    ) -> Result<Activation, ErrorBody> {
        self.on_library(move |lib| {
            let parts = lib.level2_parts(&name, task.as_deref())?;
            if let Some(conversation_id) = &conversation_id {
                lib.activate(conversation_id, &name)?;
            }
            Ok(parts)
        })
        .await
    }

    /// The agent reads one file of a skill active in its conversation (level 3).
    pub async fn read_skill_file(
        &self,
        name: String,
        path: String,
        conversation_id: String,
    ) -> Result<String, ErrorBody> {
        self.on_library(move |lib| {
            lib.require_active(&conversation_id, &name)?;
            lib.level3(&name, &path)
        })
        .await
    }

    /// The agent matches a customer message: activations are recorded, hard matches become
    /// active in the conversation.
    pub async fn match_skills(
        &self,
        conversation_id: String,
        message: String,
    ) -> Result<MatchOutcome, ErrorBody> {
        self.on_library(move |lib| lib.match_message(&conversation_id, &message)).await
    }

    /// *Try a message*: what would fire, recording nothing.
    pub async fn try_message(&self, message: String) -> Result<MatchOutcome, ErrorBody> {
        self.on_library(move |lib| Ok(lib.try_message(&message))).await
    }

    /// A file of the live version as text (the editor's source).
    pub async fn skill_source(&self, name: String, path: String) -> Result<String, ErrorBody> {
        self.on_library(move |lib| {
            let bytes = live_file(lib, &name, &path)?;
            String::from_utf8(bytes).map_err(|_| LibraryError::NotText { path })
        })
        .await
    }

    /// An image of the live version as a `data:` URL (the level-3 preview).
    pub async fn skill_file_data_url(&self, name: String, path: String) -> Result<String, ErrorBody> {
        self.on_library(move |lib| {
            let bytes = live_file(lib, &name, &path)?;
            let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
            Ok(format!("data:{};base64,{encoded}", mime_of(&path)))
        })
        .await
    }

    /// Imports a `.zip`/`.skill` package or a skill folder (the one import pipeline).
    pub async fn import_skill(&self, path: PathBuf, dry_run: bool) -> Result<ImportReport, ErrorBody> {
        self.on_library(move |lib| lib.import_path(&path, dry_run)).await
    }

    /// Every version of a skill, newest first.
    pub async fn skill_versions(&self, name: String) -> Result<Vec<VersionInfo>, ErrorBody> {
        self.on_library(move |lib| lib.versions(&name)).await
    }

    /// The per-file diff between two versions.
    pub async fn skill_diff(&self, name: String, from: i64, to: i64) -> Result<Vec<FileDiff>, ErrorBody> {
        self.on_library(move |lib| lib.diff(&name, from, to)).await
    }

    /// Makes an older version live again (rewriting the folder).
    pub async fn restore_skill_version(&self, name: String, version: i64) -> Result<VersionInfo, ErrorBody> {
        self.on_library(move |lib| lib.rollback(&name, version)).await
    }

    /// Activations per day over the last `days` days.
    pub async fn skill_activity(&self, name: String, days: u32) -> Result<Vec<DayCount>, ErrorBody> {
        self.on_library(move |lib| lib.activity(&name, days)).await
    }

    /// What saving `text` as `path` would report, writing nothing.
    pub async fn preview_skill_edit(
        &self,
        name: String,
        path: String,
        text: String,
    ) -> Result<Vec<Finding>, ErrorBody> {
        self.on_library(move |lib| lib.preview_edit(&name, &path, &text)).await
    }

    /// Saves one text file of a skill (refused, writing nothing, when it would have errors) and
    /// returns the skill as it now stands.
    pub async fn save_skill_file(
        &self,
        name: String,
        path: String,
        text: String,
    ) -> Result<SkillDetail, ErrorBody> {
        self.on_library(move |lib| {
            lib.edit(&name, &path, &text)?;
            lib.detail(&name)
        })
        .await
    }

    /// Saves one text file of a skill and returns the version it made.
    pub async fn edit_skill_file(
        &self,
        name: String,
        path: String,
        text: String,
    ) -> Result<VersionInfo, ErrorBody> {
        self.on_library(move |lib| lib.edit(&name, &path, &text)).await
    }

    /// Replaces one unique substring of a skill's file (zero or several matches is an error).
    pub async fn patch_skill_file(
        &self,
        name: String,
        path: String,
        find: String,
        replace: String,
    ) -> Result<VersionInfo, ErrorBody> {
        self.on_library(move |lib| lib.patch(&name, &path, &find, &replace)).await
    }

    /// Creates a new skill with a starter body.
    pub async fn create_skill(&self, name: String, description: String) -> Result<SkillDetail, ErrorBody> {
        self.on_library(move |lib| {
            lib.create(&name, &description, NEW_SKILL_BODY)?;
            lib.detail(&name)
        })
        .await
    }

    /// Removes one support file of a skill.
    pub async fn remove_skill_file(&self, name: String, path: String) -> Result<SkillDetail, ErrorBody> {
        self.on_library(move |lib| {
            lib.remove_file(&name, &path)?;
            lib.detail(&name)
        })
        .await
    }

    /// Deletes a skill's folder (its versions stay).
    pub async fn delete_skill(&self, name: String) -> Result<(), ErrorBody> {
        self.on_library(move |lib| lib.delete(&name)).await
    }

    /// The factory catalog with what is installed and overridden.
    pub async fn catalog(&self) -> Result<Vec<CatalogEntry>, ErrorBody> {
        self.on_library(|lib| Ok(lib.catalog())).await
    }

    /// Installs a catalog skill as a local copy.
    pub async fn install_from_catalog(&self, name: String) -> Result<SkillDetail, ErrorBody> {
        self.on_library(move |lib| {
            lib.install(&name)?;
            lib.detail(&name)
        })
        .await
    }

    /// Removes a local override, bringing the catalog's version back.
    pub async fn remove_override(&self, name: String) -> Result<(), ErrorBody> {
        self.on_library(move |lib| lib.remove_override(&name)).await
    }

    /// Removes the stored blobs no version names.
    pub async fn collect_blobs(&self) -> Result<GcReport, ErrorBody> {
        self.on_library(|lib| lib.gc_blobs()).await
    }
}

/// The bytes of `path` in the live version of `name`.
fn live_file(lib: &Library, name: &str, path: &str) -> Result<Vec<u8>, LibraryError> {
    let not_found = || LibraryError::FileNotFound { name: name.to_string(), path: path.to_string() };
    let version = lib.summary(name)?.live_version.ok_or_else(not_found)?;
    let mut package = lib.version_package(name, version)?;
    let at = package.files.iter().position(|f| f.path == path).ok_or_else(not_found)?;
    Ok(package.files.swap_remove(at).bytes)
}

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
