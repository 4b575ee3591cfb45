//! Why a remote catalog action did not happen, each with a stable code (docs/error-codes.md,
//! "Remote catalogs").

use serde_json::json;

use skillcase_common::error::Coded;
use skillcase_skill::finding::Finding;

/// A remote catalog error.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error("`{url}` is not a catalog URL: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("already subscribed to {url} (catalog {id})")]
    Exists { url: String, id: i64 },
    #[error("no subscribed catalog has the id {id}; `skillcase catalogs list` shows them")]
    NotFound { id: i64 },
    #[error("cannot reach the catalog at {url}: {reason}")]
    Unreachable { url: String, status: Option<u16>, reason: String },
    #[error("{url} answers neither a skills index (JSON with a `skills` list) nor the MCP Skills extension")]
    NotRecognised { url: String },
    #[error("the catalog at {url} is not valid: {reason}")]
    BadIndex { url: String, skill: Option<String>, path: Option<String>, reason: String },
    #[error("`{path}` of skill `{skill}` from {url} is not what the catalog announced ({reason}); nothing of this pull was kept")]
    DigestMismatch { url: String, skill: String, path: String, reason: String },
    #[error("the catalog at {url} is over the limit: {reason}")]
    TooLarge { url: String, reason: String },
    #[error("the pull of {url} took over {seconds} s and was stopped; nothing of it was kept")]
    Deadline { url: String, seconds: u64 },
    #[error("the MCP server at {url} answered {method} with error {code}: {message}")]
    Mcp { url: String, method: String, code: i64, message: String },
    #[error("catalog {catalog} has no skill `{name}`; pull it first (`skillcase catalogs pull`)")]
    SkillNotFound { catalog: i64, name: String },
    #[error("skill `{name}` was removed from catalog {catalog} upstream; it cannot be installed again")]
    SkillRemoved { catalog: i64, name: String },
    #[error("skill `{name}` from catalog {catalog} names itself `{declared}` in its SKILL.md; it is not installed")]
    NameMismatch { catalog: i64, name: String, declared: String },
    #[error("skill `{name}` from catalog {catalog} was refused as an import would be ({code}), nothing was written")]
    InstallRefused { catalog: i64, name: String, code: &'static str, findings: Vec<Finding> },
}

impl Coded for RemoteError {
    fn code(&self) -> &'static str {
        match self {
            RemoteError::BadUrl { .. } => "catalog_url_invalid",
            RemoteError::Exists { .. } => "catalog_exists",
            RemoteError::NotFound { .. } => "catalog_not_found",
            RemoteError::Unreachable { .. } => "catalog_unreachable",
            RemoteError::NotRecognised { .. } => "catalog_not_recognised",
            RemoteError::BadIndex { .. } => "catalog_index_invalid",
            RemoteError::DigestMismatch { .. } => "catalog_digest_mismatch",
            RemoteError::TooLarge { .. } => "catalog_too_large",
            RemoteError::Deadline { .. } => "catalog_pull_timeout",
            RemoteError::Mcp { .. } => "catalog_mcp_error",
            RemoteError::SkillNotFound { .. } => "remote_skill_not_found",
            RemoteError::SkillRemoved { .. } => "remote_skill_removed",
            RemoteError::NameMismatch { .. } => "remote_skill_name_mismatch",
            RemoteError::InstallRefused { code, .. } => code,
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        Some(match self {
            RemoteError::BadUrl { url, .. }
            | RemoteError::NotRecognised { url }
            | RemoteError::TooLarge { url, .. } => json!({ "url": url }),
            RemoteError::Exists { url, id } => json!({ "url": url, "id": id }),
            RemoteError::Deadline { url, seconds } => json!({ "url": url, "seconds": seconds }),
            RemoteError::NotFound { id } => json!({ "id": id }),
            RemoteError::Unreachable { url, status, .. } => json!({ "url": url, "status": status }),
            RemoteError::BadIndex { url, skill, path, .. } => {
                json!({ "url": url, "skill": skill, "path": path })
            }
            RemoteError::DigestMismatch { url, skill, path, .. } => {
                json!({ "url": url, "skill": skill, "path": path })
            }
            RemoteError::Mcp { url, method, code, .. } => {
                json!({ "url": url, "method": method, "code": code })
            }
            RemoteError::SkillNotFound { catalog, name } | RemoteError::SkillRemoved { catalog, name } => {
                json!({ "catalog": catalog, "name": name })
            }
            RemoteError::NameMismatch { catalog, name, declared } => {
                json!({ "catalog": catalog, "name": name, "declared": declared })
            }
            RemoteError::InstallRefused { catalog, name, findings, .. } => {
                json!({ "catalog": catalog, "name": name, "findings": findings })
            }
        })
    }
}
