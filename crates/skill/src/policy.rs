//! Workspace policy for what a skill may contain (SPEC A1, A8): executable content and import
//! limits. Defaults are the SPEC's; Settings can change them per workspace.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Limits applied to untrusted packages, before anything is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportLimits {
    /// Most files a package may hold.
    pub max_files: u32,
    /// Largest uncompressed size of one file, in bytes.
    #[ts(type = "number")]
    pub max_file_bytes: u64,
    /// Largest uncompressed size of the whole package, in bytes.
    #[ts(type = "number")]
    pub max_total_bytes: u64,
    /// Extensions (lowercase, no dot) accepted under `assets/`.
    pub asset_extensions: Vec<String>,
}

impl Default for ImportLimits {
    fn default() -> Self {
        Self {
            max_files: 64,
            max_file_bytes: 1024 * 1024,
            max_total_bytes: 5 * 1024 * 1024,
            asset_extensions: [
                "png", "jpg", "jpeg", "webp", "gif", "svg", "pdf", "mp3", "ogg", "wav", "mp4", "txt", "md",
                "csv", "json",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        }
    }
}

/// The workspace policy: may skills carry executable content, may an import carry a critical
/// security finding, and the import limits.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Policy {
    /// Setting `allow_executable`: false (the default) refuses scripts and executables.
    pub allow_executable: bool,
    /// Setting `allow_critical_findings`: false (the default) refuses an import the security scan
    /// finds anything critical in (`import_security_refused`). Absent in policies saved before it
    /// existed, which read as false.
    #[serde(default)]
    pub allow_critical_findings: bool,
    pub limits: ImportLimits,
}
