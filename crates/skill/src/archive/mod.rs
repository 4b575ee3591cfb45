//! Import of untrusted `.zip` packages (SPEC A8): [`inspect`] reads and checks an archive in
//! memory without writing anything (staging and installing a checked package is the library's
//! `archive::extract`); [`pack`] is the way out, a skill folder as a `.skill` zip. A refused or failed import leaves nothing behind.

mod central;
pub mod codes;
mod file;
pub mod inspect;
mod layout;
mod names;
pub mod pack;

use std::path::PathBuf;

pub use file::read_package;
pub use inspect::{inspect, inspect_bytes, max_archive_bytes};

use crate::finding::Finding;
use skillcase_common::error::Coded;

/// Why an import did not happen: the archive was refused (with its findings) or the disk failed.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The archive broke one or more rules; the findings say which and where.
    #[error("the archive was refused: {}", summary(findings))]
    Refused { findings: Vec<Finding> },
    /// The archive could not be read from its source.
    #[error("the archive could not be read: {source}")]
    Read { source: std::io::Error },
    /// A package path that cannot be written safely (only reachable with a hand-built package).
    #[error("the package path `{path}` is not a plain relative path")]
    UnsafePath { path: String },
    /// Writing the staging folder failed.
    #[error("staging the package in {} failed: {source}", path.display())]
    Stage { path: PathBuf, source: std::io::Error },
    /// Moving the staged folder into place failed; the target is unchanged.
    #[error("installing into {} failed: {source}", target.display())]
    Install { target: PathBuf, source: std::io::Error },
}

fn summary(findings: &[Finding]) -> String {
    let codes: Vec<&str> = findings.iter().map(|f| f.code.as_str()).collect();
    codes.join(", ")
}

impl Coded for ArchiveError {
    fn code(&self) -> &'static str {
        match self {
            ArchiveError::Refused { .. } => "import_refused",
            ArchiveError::Read { .. } => codes::READ_FAILED,
            ArchiveError::UnsafePath { .. } => "package_path_unsafe",
            ArchiveError::Stage { .. } => "staging_failed",
            ArchiveError::Install { .. } => "install_failed",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            ArchiveError::Refused { findings } => {
                serde_json::to_value(findings).ok().map(|f| serde_json::json!({ "findings": f }))
            }
            _ => None,
        }
    }
}
