//! Why an install, sync or verify did not happen, each with a stable code
//! (`docs/error-codes.md`, *Install to agents*).

use serde_json::json;

use skillcase_common::error::Coded;
use skillcase_skill::archive::ArchiveError;
use skillcase_skill::finding::Finding;
use skillcase_skill::load::LoadError;

/// An install-to-agents error.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The target already holds a folder of that name which Skillcase did not install (its lock
    /// does not list it): someone's own skill, never overwritten without `--force`.
    #[error("{} already holds a folder `{name}` that Skillcase did not install; pass --force to replace it", .target)]
    Conflict { target: String, name: String },
    /// The skill to install has validation errors (the `standard` profile every agent reads).
    #[error("the skill cannot be installed, it has validation errors: {}", codes(findings))]
    Refused { findings: Vec<Finding> },
    /// The skill folder to install could not be read.
    #[error(transparent)]
    Source(#[from] LoadError),
    /// `skillcase.lock` in a target is not a lock this build reads.
    #[error("{path} is not a readable skillcase.lock: {reason}")]
    LockCorrupt { path: String, reason: String },
    /// `skillcase.lock` in a target lists an entry Skillcase would never write (a skill name that
    /// is a path, a file path leaving the skill folder, ...): nothing is written.
    #[error("{path} is refused: its entry {skill:?} is unsafe: {reason}")]
    LockEntry { path: String, skill: String, reason: String },
    /// Staging or renaming the copy failed; the target still holds the previous folder.
    #[error(transparent)]
    Write(#[from] ArchiveError),
    /// `adopt` found nothing it can record: no such folder, a link or a file in its place, or a
    /// folder the lock already lists.
    #[error("cannot adopt {name} in {target}: {reason}")]
    NotAdoptable { target: String, name: String, reason: String },
    /// A `git+…` source that names no repository, or both a branch and a commit.
    #[error("{spec} is not a git source: {reason}")]
    GitSource { spec: String, reason: String },
    /// git failed on a repository (unreachable, no access, no such branch or commit).
    #[error("git failed on {url}: {reason}")]
    Git { url: String, reason: String },
    /// The repository holds no skill, or none of the names asked for.
    #[error("{url} has no skill {wanted} (a folder with a SKILL.md)")]
    GitNoSkill { url: String, wanted: String },
    /// Creating the target folder or writing the lock failed.
    #[error("writing {path} failed: {source}")]
    Io { path: String, source: std::io::Error },
}

fn codes(findings: &[Finding]) -> String {
    findings.iter().filter(|f| f.is_error()).map(|f| f.code.as_str()).collect::<Vec<_>>().join(", ")
}

impl InstallError {
    /// An I/O failure at `path`.
    pub fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> InstallError + '_ {
        move |source| InstallError::Io { path: path.display().to_string(), source }
    }
}

impl Coded for InstallError {
    fn code(&self) -> &'static str {
        match self {
            InstallError::Conflict { .. } => "install_conflict",
            InstallError::Refused { .. } => "install_refused",
            InstallError::Source(e) => e.code(),
            InstallError::LockCorrupt { .. } => "lock_corrupt",
            InstallError::LockEntry { .. } => "lock_invalid_entry",
            InstallError::Write(e) => e.code(),
            InstallError::NotAdoptable { .. } => "adopt_refused",
            InstallError::GitSource { .. } => "git_source_invalid",
            InstallError::Git { .. } => "git_failed",
            InstallError::GitNoSkill { .. } => "git_skill_not_found",
            InstallError::Io { .. } => "install_failed",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            InstallError::Conflict { target, name } => Some(json!({ "target": target, "name": name })),
            InstallError::Refused { findings } => Some(json!({ "findings": findings })),
            InstallError::LockCorrupt { path, .. } => Some(json!({ "path": path })),
            InstallError::LockEntry { path, skill, .. } => Some(json!({ "path": path, "skill": skill })),
            InstallError::NotAdoptable { target, name, .. } => {
                Some(json!({ "target": target, "name": name }))
            }
            _ => None,
        }
    }
}
