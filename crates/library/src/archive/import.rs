//! The whole import of an untrusted zip (SPEC A8), as the CLI and the app run it: inspect in
//! memory, validate the in-memory package, stage beside the skills folder, rename into place.
//! Nothing is written until the package has passed every check.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use ts_rs::TS;

use super::{install, stage};
use skillcase_skill::archive::{inspect, ArchiveError};
use skillcase_skill::finding::{self, Finding};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_package, Profile};

/// What an import did (or, for a dry run, would do).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Imported {
    /// The skill name from the frontmatter; the folder it is installed as.
    pub name: String,
    /// `skills_dir/<name>`.
    #[ts(type = "string")]
    pub target: PathBuf,
    /// False for a dry run.
    pub installed: bool,
    /// True when a folder of that name existed and was replaced (or would be).
    pub replaced: bool,
    pub files: u32,
    #[ts(type = "number")]
    pub bytes: u64,
    /// Warnings from validation (errors refuse the import instead).
    pub warnings: Vec<Finding>,
}

/// Imports the zip read from `reader` into `skills_dir/<name>` under `policy` (validated with the
/// `skillcase` profile). With `dry_run` every check runs and nothing is written. Staging happens
/// in a hidden folder beside `skills_dir`, on the same file system but outside the watched tree.
pub fn import_zip<R: Read>(
    reader: R,
    skills_dir: &Path,
    policy: &Policy,
    dry_run: bool,
) -> Result<Imported, ArchiveError> {
    let package = inspect(reader, policy)?;
    let validated = validate_package(&package, Profile::Skillcase, policy);
    let name = match &validated.skill {
        Some(skill) if finding::is_valid(&validated.findings) => skill.name.clone(),
        _ => return Err(ArchiveError::Refused { findings: validated.findings }),
    };
    if !is_single_segment(&name) {
        return Err(ArchiveError::UnsafePath { path: name });
    }
    let target = skills_dir.join(&name);
    let imported = Imported {
        replaced: std::fs::symlink_metadata(&target).is_ok(),
        name,
        target,
        installed: !dry_run,
        files: package.files.len() as u32,
        bytes: package.total_bytes(),
        warnings: validated.findings,
    };
    if !dry_run {
        let staged = stage(&package, &staging_parent(skills_dir))?;
        install(staged, &imported.target)?;
    }
    Ok(imported)
}

/// The validator already restricts names; this guard keeps a name from ever reaching outside
/// `skills_dir`, whatever the profile allowed.
fn is_single_segment(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!((parts.next(), parts.next()), (Some(std::path::Component::Normal(_)), None))
}

/// Where staging folders go: the parent of the skills folder (so a rename reaches it and the
/// watcher of the skills folder never sees a half-written skill).
pub fn staging_parent(skills_dir: &Path) -> PathBuf {
    let absolute = std::path::absolute(skills_dir).unwrap_or_else(|_| skills_dir.to_path_buf());
    absolute.parent().map_or(absolute.clone(), Path::to_path_buf)
}
