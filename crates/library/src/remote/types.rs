//! What the remote catalog actions hand to the window, the CLI and scripts, as generated
//! TypeScript.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::{Origin, VersionInfo};

/// How a catalog is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CatalogKind {
    /// A static JSON index (docs/catalogs.md) with the files beside it.
    Index,
    /// An MCP server serving the Skills extension (`io.modelcontextprotocol/skills`).
    Mcp,
    /// A git repository (`git+URL[#branch]`): every skill folder at the branch's newest commit,
    /// read through the system `git` with the person's own credentials.
    Git,
}

impl CatalogKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            CatalogKind::Index => "index",
            CatalogKind::Mcp => "mcp",
            CatalogKind::Git => "git",
        }
    }

    /// Reads a stored name back.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "index" => Some(CatalogKind::Index),
            "mcp" => Some(CatalogKind::Mcp),
            "git" => Some(CatalogKind::Git),
            _ => None,
        }
    }
}

/// One subscribed catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RemoteCatalog {
    #[ts(type = "number")]
    pub id: i64,
    pub url: String,
    pub kind: CatalogKind,
    /// True when a bearer token is sent with its requests (the token itself is never shown).
    pub has_token: bool,
    pub added_at: String,
    /// When the last successful pull ended; `null` before the first.
    pub pulled_at: Option<String>,
    /// `code: message` of the last pull, when it failed.
    pub last_error: Option<String>,
    /// Skills the last pull found (removed ones not counted).
    pub skills: u32,
}

/// How one upstream skill changed in a pull.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PullChange {
    /// Not seen before (or back after a removal).
    New,
    /// Its files changed since the last pull.
    Updated,
    Unchanged,
    /// Gone from the catalog: a local copy stays, marked upstream removed.
    Removed,
    /// Still listed, but marked revoked by the catalog: like a removal.
    Revoked,
}

/// One skill of a pull's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PulledSkill {
    pub name: String,
    pub change: PullChange,
    /// The catalog's version label.
    pub version: Option<String>,
    /// Files downloaded for this skill (0 when every blob was already stored).
    pub downloaded: u32,
}

/// What one pull of one catalog did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PullReport {
    #[ts(type = "number")]
    pub catalog: i64,
    pub url: String,
    /// Every skill of the catalog and every one that left it since the last pull, by name.
    pub skills: Vec<PulledSkill>,
    /// Files downloaded in all (each distinct digest once).
    pub files_downloaded: u32,
    #[ts(type = "number")]
    pub bytes_downloaded: u64,
}

/// The local copy of a remote skill, installed from it (fork on install).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ForkStatus {
    /// The local skill's name.
    pub name: String,
    /// The upstream digest it was forked from.
    pub forked_digest: String,
    pub forked_version: Option<String>,
    /// Upstream moved ahead since the install: installing again brings the new files.
    pub update_available: bool,
    /// The local copy was edited since the install.
    pub locally_modified: bool,
}

/// One skill of a remote catalog as the last pull found it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RemoteSkill {
    #[ts(type = "number")]
    pub catalog: i64,
    pub catalog_url: String,
    pub name: String,
    pub version: Option<String>,
    pub description: String,
    /// The content hash of its files (the formula of a library version's `content_hash`).
    pub digest: String,
    pub files: u32,
    #[ts(type = "number")]
    pub bytes: u64,
    pub pulled_at: String,
    /// Gone from the catalog (or revoked) since a pull: kept here for the local copy's sake.
    pub upstream_removed: bool,
    pub revoked: bool,
    /// The local copy installed from it, if any.
    pub installed: Option<ForkStatus>,
}

/// What installing a remote skill did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RemoteInstall {
    #[ts(type = "number")]
    pub catalog: i64,
    pub catalog_url: String,
    pub name: String,
    pub upstream_version: Option<String>,
    pub upstream_digest: String,
    /// The local version written (source `import`).
    pub version: VersionInfo,
    /// True when an earlier copy from the same upstream skill was replaced (an update).
    pub replaced: bool,
}

/// Where a library skill came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SkillProvenance {
    /// Made or imported here.
    Local,
    /// A factory catalog skill (`skills-examples/`), served as is or locally overridden.
    FactoryCatalog,
    /// Installed from a subscribed remote catalog.
    RemoteCatalog,
}

impl SkillProvenance {
    /// `local`, `factory_catalog` or `remote_catalog`.
    pub fn as_str(self) -> &'static str {
        match self {
            SkillProvenance::Local => "local",
            SkillProvenance::FactoryCatalog => "factory_catalog",
            SkillProvenance::RemoteCatalog => "remote_catalog",
        }
    }
}

/// One skill of the library for the inventory, before where it is installed is added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LibrarySkillOrigin {
    pub name: String,
    pub origin: Origin,
    /// The live version's id.
    #[ts(type = "number | null")]
    pub version: Option<i64>,
    /// The live version's content hash (sha256 over its manifest).
    pub digest: Option<String>,
    pub source: SkillProvenance,
    /// The remote catalog's URL, for `remote_catalog`.
    pub catalog_url: Option<String>,
    /// The upstream version label it was forked from, for `remote_catalog`.
    pub upstream_version: Option<String>,
    /// The remote catalog no longer offers it (the local copy stays).
    pub upstream_removed: bool,
    /// The remote catalog has newer files than the ones it was forked from.
    pub update_available: bool,
}
