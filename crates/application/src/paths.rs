//! Where Skillcase keeps things on disk: the data directory (database, blobs, API token) and
//! the skills directory. Both have defaults that work out of the box and environment overrides
//! that tests and scripts use.

use std::path::PathBuf;

use skillcase_common::error::Coded;

/// Environment variable that overrides the data directory (tests use a temporary one).
pub const DATA_DIR_ENV: &str = "SKILLCASE_DATA_DIR";
/// Environment variable that overrides the skills directory.
pub const SKILLS_DIR_ENV: &str = "SKILLCASE_SKILLS_DIR";
/// Environment variable that overrides the factory catalog; set but empty, no catalog is served
/// (benchmarks that compare a folder with another tool's view of the same folder).
pub const CATALOG_DIR_ENV: &str = "SKILLCASE_CATALOG_DIR";

/// The factory skills shipped with the repository; the skills directory in development.
const REPO_SKILLS_EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../skills-examples");

/// Why a directory could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum PathsError {
    #[error("no application data directory is known for this user; set {DATA_DIR_ENV}")]
    NoDataDir,
}

impl Coded for PathsError {
    fn code(&self) -> &'static str {
        match self {
            PathsError::NoDataDir => "no_data_dir",
        }
    }
}

/// The data directory: `$SKILLCASE_DATA_DIR` if set, else the platform's app-data directory
/// (`~/.local/share/skillcase` on Linux).
pub fn data_dir() -> Result<PathBuf, PathsError> {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    default_data_dir()
}

/// Whether `data_dir` holds a Skillcase database already (a command that only reads need not
/// create one).
pub fn has_database(data_dir: &std::path::Path) -> bool {
    data_dir.join(skillcase_store::db::DATABASE_FILE).is_file()
}

/// The platform's app-data directory, whatever `$SKILLCASE_DATA_DIR` says: where a program
/// started without that variable (an agent's host starting `skillcase mcp`) keeps its data.
pub fn default_data_dir() -> Result<PathBuf, PathsError> {
    directories::ProjectDirs::from("dev", "skillcase", "skillcase")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or(PathsError::NoDataDir)
}

/// The skills directory, first match wins: `$SKILLCASE_SKILLS_DIR`, the persisted setting,
/// the repository's `skills-examples/` (development), `<data dir>/skills`.
pub fn skills_dir(setting: Option<PathBuf>, data_dir: &std::path::Path) -> PathBuf {
    if let Some(dir) = std::env::var_os(SKILLS_DIR_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = setting {
        return dir;
    }
    match std::fs::canonicalize(REPO_SKILLS_EXAMPLES) {
        Ok(dir) => dir,
        Err(_) => data_dir.join("skills"),
    }
}

/// The shipped catalog folder: `$SKILLCASE_CATALOG_DIR` when set (none when it is empty), else
/// the repository's `skills-examples/` when this build runs from a checkout.
pub fn catalog_dir() -> Option<PathBuf> {
    match std::env::var_os(CATALOG_DIR_ENV) {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => std::fs::canonicalize(REPO_SKILLS_EXAMPLES).ok(),
    }
}
