//! Export (the reverse of [`super::inspect`]): a skill folder as a `.skill` zip that Anthropic's
//! upload and the `claude` profile accept — one top-level folder named after the skill, the files
//! as the one folder walk reads them (OS junk and caches left out, symbolic links refused), exec
//! bits kept on the files that have them, and nothing written when the `claude` profile finds an
//! error. Entries are sorted and carry a fixed timestamp, so the same folder always packs to the
//! same bytes.

use std::io::Write;
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::finding::Finding;
use crate::load::{package_from_dir_within, LoadError};
use crate::package::Package;
use crate::policy::Policy;
use crate::validate::{validate_package, Profile, CLAUDE_MAX_BYTES};
use skillcase_common::error::Coded;

/// The profile an export must pass: Anthropic's upload rules.
pub const EXPORT_PROFILE: Profile = Profile::Claude;

/// A packed skill: its name, the zip's bytes and the warnings the `claude` profile had.
#[derive(Debug, Clone)]
pub struct Packed {
    pub name: String,
    pub bytes: Vec<u8>,
    /// How many files the zip holds.
    pub files: usize,
    pub warnings: Vec<Finding>,
}

/// Why a skill was not exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The folder could not be read (missing, a symbolic link inside, too large).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The skill breaks Anthropic's upload rules; the findings say which and where.
    #[error("the skill does not meet Anthropic's upload rules: {}", codes(findings))]
    Refused { findings: Vec<Finding> },
    /// Writing the zip failed.
    #[error("packing the skill failed: {0}")]
    Pack(#[from] zip::result::ZipError),
}

fn codes(findings: &[Finding]) -> String {
    findings.iter().filter(|f| f.is_error()).map(|f| f.code.as_str()).collect::<Vec<_>>().join(", ")
}

impl Coded for ExportError {
    fn code(&self) -> &'static str {
        match self {
            ExportError::Load(e) => e.code(),
            ExportError::Refused { .. } => "export_refused",
            ExportError::Pack(_) => "export_failed",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            ExportError::Refused { findings } => {
                serde_json::to_value(findings).ok().map(|f| serde_json::json!({ "findings": f }))
            }
            _ => None,
        }
    }
}

/// Reads the skill folder `dir`, checks it against the `claude` profile and packs it. A folder
/// over the profile's 30 MB is refused from its files' sizes (`package_too_large`), unread.
pub fn pack_dir(dir: &Path) -> Result<Packed, ExportError> {
    let pkg = package_from_dir_within(dir, CLAUDE_MAX_BYTES)?;
    let validated =
        validate_package(&pkg, EXPORT_PROFILE, &Policy { allow_executable: true, ..Policy::default() });
    let (errors, warnings): (Vec<Finding>, Vec<Finding>) =
        validated.findings.into_iter().partition(Finding::is_error);
    let name = match validated.skill {
        Some(skill) if errors.is_empty() => skill.name,
        _ => return Err(ExportError::Refused { findings: errors }),
    };
    let bytes = pack(&pkg, &name)?;
    Ok(Packed { name, bytes, files: pkg.files.len(), warnings })
}

/// `pkg` as a zip whose one top-level folder is `top`: files in path order, deflated, each with
/// mode 755 when it had an exec bit and 644 otherwise, all dated 1980-01-01.
pub fn pack(pkg: &Package, top: &str) -> Result<Vec<u8>, zip::result::ZipError> {
    let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let base = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default());
    for file in &pkg.files {
        let executable = file.unix_mode.is_some_and(|m| m & 0o111 != 0);
        let options = base.unix_permissions(if executable { 0o755 } else { 0o644 });
        zip.start_file(format!("{top}/{}", file.path), options)?;
        zip.write_all(&file.bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}
