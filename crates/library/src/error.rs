//! Why a library operation did not happen. Every variant has a stable code (see [`Coded`]); a
//! refusal carries the findings that explain it, so the UI can point at the line to fix.

use serde_json::json;

use skillcase_common::error::Coded;
use skillcase_skill::archive::ArchiveError;
use skillcase_skill::disclosure::DisclosureError;
use skillcase_skill::finding::Finding;
use skillcase_store::db::DbError;

/// A library error.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("no skill named `{name}` in the library")]
    NotFound { name: String },
    #[error(
        "`{name}` is not a valid skill name; use one folder name (lowercase letters, digits and hyphens)"
    )]
    BadName { name: String },
    #[error("a skill named `{name}` already exists")]
    AlreadyExists { name: String },
    #[error("`{path}` is not a file you can write; use SKILL.md, skill.config.yaml, skill.triggers.json or a path under references/, assets/, templates/ or scripts/")]
    BadPath { path: String },
    #[error("skill `{name}` has no file `{path}`")]
    FileNotFound { name: String, path: String },
    #[error("`{path}` is not UTF-8 text and cannot be edited as text")]
    NotText { path: String },
    #[error("the text to replace does not occur in `{path}`")]
    PatchNoMatch { path: String },
    #[error("the text to replace occurs {count} times in `{path}`; include more context so it occurs once")]
    PatchManyMatches { path: String, count: usize },
    #[error("the change was refused, nothing was written: {}", summary(findings))]
    Refused { findings: Vec<Finding> },
    #[error("skill `{name}` has {errors} validation error(s) and is not served until they are fixed")]
    Invalid { name: String, errors: u32 },
    #[error("skill `{name}` already has a trigger case for this message: {query:?}")]
    TriggerCaseExists { name: String, query: String },
    #[error("skill `{name}` has no trigger case for the message {query:?}")]
    TriggerCaseNotFound { name: String, query: String },
    #[error("skill `{name}` is a catalog skill and read-only; install it to get an editable copy")]
    ReadOnly { name: String },
    #[error("skill `{name}` is not in the catalog")]
    NotInCatalog { name: String },
    #[error("skill `{name}` does not override a catalog skill")]
    NotOverridden { name: String },
    #[error("skill `{name}` has no version {version}")]
    VersionNotFound { name: String, version: i64 },
    #[error("the stored content {sha256} of `{path}` is missing from the blob store")]
    BlobMissing { path: String, sha256: String },
    #[error("skill `{name}` is not active in conversation `{conversation_id}`; read it (level 2) or match a message that activates it first")]
    NotActive { name: String, conversation_id: String },
    #[error("the skills directory {dir} is not available: {reason}")]
    DirUnavailable { dir: String, reason: String },
    #[error("file system error at {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(transparent)]
    Disclosure(#[from] DisclosureError),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Remote(#[from] crate::remote::RemoteError),
}

fn summary(findings: &[Finding]) -> String {
    let codes: Vec<String> =
        findings.iter().filter(|f| f.is_error()).map(|f| format!("{} ({})", f.code, f.location())).collect();
    codes.join(", ")
}

impl From<rusqlite::Error> for LibraryError {
    fn from(e: rusqlite::Error) -> Self {
        LibraryError::Db(DbError::Sqlite(e))
    }
}

impl LibraryError {
    /// An I/O failure at `path`.
    pub fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> LibraryError + '_ {
        move |source| LibraryError::Io { path: path.display().to_string(), source }
    }
}

impl Coded for LibraryError {
    fn code(&self) -> &'static str {
        match self {
            LibraryError::NotFound { .. } => "skill_not_found",
            LibraryError::BadName { .. } => "skill_name_invalid",
            LibraryError::AlreadyExists { .. } => "skill_exists",
            LibraryError::BadPath { .. } => "skill_path_invalid",
            LibraryError::FileNotFound { .. } => "file_not_in_skill",
            LibraryError::NotText { .. } => "file_not_text",
            LibraryError::PatchNoMatch { .. } => "patch_no_match",
            LibraryError::PatchManyMatches { .. } => "patch_ambiguous",
            LibraryError::Refused { .. } => "edit_refused",
            LibraryError::TriggerCaseExists { .. } => "trigger_case_exists",
            LibraryError::TriggerCaseNotFound { .. } => "trigger_case_not_found",
            LibraryError::Invalid { .. } => "skill_invalid",
            LibraryError::ReadOnly { .. } => "skill_read_only",
            LibraryError::NotInCatalog { .. } => "catalog_skill_not_found",
            LibraryError::NotOverridden { .. } => "skill_not_overridden",
            LibraryError::VersionNotFound { .. } => "version_not_found",
            LibraryError::BlobMissing { .. } => "blob_missing",
            LibraryError::NotActive { .. } => skillcase_skill::disclosure::SKILL_NOT_ACTIVE,
            LibraryError::DirUnavailable { .. } => "skills_dir_unavailable",
            LibraryError::Io { .. } => "io_error",
            LibraryError::Archive(e) => e.code(),
            LibraryError::Disclosure(e) => e.code(),
            LibraryError::Db(e) => e.code(),
            LibraryError::Remote(e) => e.code(),
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            LibraryError::NotFound { name }
            | LibraryError::BadName { name }
            | LibraryError::AlreadyExists { name }
            | LibraryError::ReadOnly { name }
            | LibraryError::NotInCatalog { name }
            | LibraryError::NotOverridden { name } => Some(json!({ "name": name })),
            LibraryError::Invalid { name, errors } => Some(json!({ "name": name, "errors": errors })),
            LibraryError::BadPath { path } | LibraryError::NotText { path } => Some(json!({ "path": path })),
            LibraryError::FileNotFound { name, path } => Some(json!({ "name": name, "path": path })),
            LibraryError::PatchNoMatch { path } => Some(json!({ "path": path, "matches": 0 })),
            LibraryError::PatchManyMatches { path, count } => Some(json!({ "path": path, "matches": count })),
            LibraryError::Refused { findings } => Some(json!({ "findings": findings })),
            LibraryError::VersionNotFound { name, version } => {
                Some(json!({ "name": name, "version": version }))
            }
            LibraryError::NotActive { name, conversation_id } => {
                Some(json!({ "name": name, "conversation_id": conversation_id }))
            }
            LibraryError::Archive(e) => e.details(),
            LibraryError::Disclosure(e) => e.details(),
            LibraryError::Remote(e) => e.details(),
            _ => None,
        }
    }
}
