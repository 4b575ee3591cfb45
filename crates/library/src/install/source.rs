//! The skill an install copies: a folder read whole (OS junk and caches left out, as the
//! `.skill` export packs it), checked against the `standard` profile that every agent's reader
//! follows, with where it came from.

use std::path::{Path, PathBuf};

use skillcase_skill::load::package_from_dir;
use skillcase_skill::package::Package;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_package, Profile};

use super::drift::{digests, Digests};
use super::error::InstallError;
use super::lock::SkillSource;

/// The profile a skill must pass to be installed: the Agent Skills standard the agents read.
pub const INSTALL_PROFILE: Profile = Profile::Standard;

/// A skill ready to be copied into agents' folders.
#[derive(Debug, Clone)]
pub struct SourceSkill {
    /// The skill's name: the installed folder's name.
    pub name: String,
    /// The library's version id of this content, when it is a library skill.
    pub version: Option<i64>,
    pub source: SkillSource,
    /// The folder it was read from (the library's live folder for a library skill).
    pub dir: PathBuf,
    /// The files to copy.
    pub package: Package,
}

impl SourceSkill {
    /// Reads the skill folder `dir` and checks it; a skill with validation errors is refused
    /// (`install_refused`, with the findings) because the agents would not load it either.
    pub fn read(dir: &Path, source: SkillSource, version: Option<i64>) -> Result<SourceSkill, InstallError> {
        SourceSkill::checked(package_from_dir(dir)?, dir, source, version)
    }

    /// `package` (read from `dir`) checked as [`SourceSkill::read`] checks a folder.
    pub fn checked(
        package: Package,
        dir: &Path,
        source: SkillSource,
        version: Option<i64>,
    ) -> Result<SourceSkill, InstallError> {
        let policy = Policy { allow_executable: true, ..Policy::default() };
        let validated = validate_package(&package, INSTALL_PROFILE, &policy);
        let errors: Vec<_> = validated.findings.into_iter().filter(|f| f.is_error()).collect();
        match validated.skill {
            Some(skill) if errors.is_empty() => {
                Ok(SourceSkill { name: skill.name, version, source, dir: dir.to_path_buf(), package })
            }
            _ => Err(InstallError::Refused { findings: errors }),
        }
    }

    /// The digest of every file to copy.
    pub fn digests(&self) -> Digests {
        digests(&self.package)
    }

    /// The `skills` CLI's hash of the files to copy (its locks' `computedHash`).
    pub fn folder_hash(&self) -> String {
        super::ecosystem::hash::package_hash(&self.package)
    }
}
