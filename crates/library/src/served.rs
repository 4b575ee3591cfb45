//! The served skills as stored versions: which live, valid skills the agent is given and under
//! which version, that version's manifest (every file's path, size and sha256, recorded when the
//! version was made), one stored file's bytes, and the whole skill parsed from them.
//!
//! This is the one source of what the agent reads at levels 2 and 3: the disclosure levels
//! ([`Library::level2_parts`], [`Library::level3`]) and the clients that publish digests (the MCP
//! Skills extension) all read the stored version the library serves, never the folder on disk.
//! So a folder being edited, or left invalid on disk before the watcher has settled, changes
//! nothing the agent is given until the library has recorded it: while it is recorded as valid
//! the agent keeps the last stored version, byte for byte on every front end; once the library
//! has recorded it as invalid, every front end refuses it the same way (`skill_invalid`).

use skillcase_skill::model::Skill;
use skillcase_skill::package::Package;
use skillcase_skill::validate::validate_package;

use super::types::ManifestEntry;
use super::{Library, LibraryError, PROFILE};

/// The file every stored skill has, under this name.
const SKILL_MD: &str = "SKILL.md";

/// A served skill's stored version, whole: the skill parsed from the stored files, and the files.
#[derive(Debug, Clone)]
pub struct StoredSkill {
    pub served: ServedSkill,
    /// The skill as validated from the stored files (`dir` is the live folder, for level 1).
    pub skill: Skill,
    pub package: Package,
}

impl StoredSkill {
    /// The bytes of the stored file `path`: the `read` callback of the disclosure levels.
    pub fn read(&self, path: &str) -> Result<Vec<u8>, LibraryError> {
        self.package.file(path).map(|file| file.bytes.clone()).ok_or_else(|| LibraryError::FileNotFound {
            name: self.served.name.clone(),
            path: path.to_string(),
        })
    }
}

/// A served skill's stored version as a listing shows it: the manifest in path order and the
/// stored `SKILL.md`.
#[derive(Debug, Clone)]
pub struct ServedVersion {
    pub served: ServedSkill,
    pub files: Vec<ManifestEntry>,
    pub skill_md: Vec<u8>,
}

/// One skill the agent is served, with the version it is served at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedSkill {
    pub name: String,
    /// The live version's id: immutable content, so anything derived from it can be kept.
    pub version: i64,
    /// `disable-model-invocation: true`: left out of listings, still readable by name.
    pub hidden: bool,
}

impl Library {
    /// Every live skill that loads without errors and has a recorded version, sorted by name
    /// (hidden ones included and marked).
    pub fn served_skills(&self) -> Vec<ServedSkill> {
        let served = self.write_state().served();
        served
            .skills
            .iter()
            .filter_map(|skill| {
                let version = (*served.versions.get(&skill.name)?)?;
                Some(ServedSkill { name: skill.name.clone(), version, hidden: skill.is_hidden() })
            })
            .collect()
    }

    /// The served skill `name`: `skill_not_found` when there is no such skill, `skill_invalid`
    /// when it has errors (or no recorded version yet). Read from the one live entry: building
    /// the whole served set to answer for one skill held a copy of every skill (12 MB at 10,000)
    /// in a window where nobody asked for the index.
    pub fn served_skill(&self, name: &str) -> Result<ServedSkill, LibraryError> {
        let (entry, _) = self.live_entry(name)?;
        match (entry.is_servable(), entry.version, entry.skill.as_deref()) {
            (true, Some(version), Some(skill)) => {
                Ok(ServedSkill { name: skill.name.clone(), version, hidden: skill.is_hidden() })
            }
            _ => Err(LibraryError::Invalid { name: name.to_string(), errors: entry.validity.errors.max(1) }),
        }
    }

    /// The manifest recorded with version `version` of `name`.
    pub fn version_manifest(&self, name: &str, version: i64) -> Result<Vec<ManifestEntry>, LibraryError> {
        let missing = || LibraryError::VersionNotFound { name: name.to_string(), version };
        let row = self.repo.version(version)?.filter(|v| v.name == name).ok_or_else(missing)?;
        Ok(row.manifest)
    }

    /// The bytes of the stored file `entry` (from the blob store, by its digest).
    pub fn stored_file(&self, entry: &ManifestEntry) -> Result<Vec<u8>, LibraryError> {
        self.blobs
            .get(&entry.sha256)
            .map_err(|_| LibraryError::BlobMissing { path: entry.path.clone(), sha256: entry.sha256.clone() })
    }

    /// The stored version `served` names, as a listing shows it: `blob_missing` when its
    /// `SKILL.md` is gone from the blob store.
    pub fn served_version(&self, served: &ServedSkill) -> Result<ServedVersion, LibraryError> {
        let mut files = self.version_manifest(&served.name, served.version)?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let skill_md = files
            .iter()
            .find(|f| f.path == SKILL_MD)
            .ok_or_else(|| LibraryError::FileNotFound { name: served.name.clone(), path: SKILL_MD.into() })?;
        let skill_md = self.stored_file(skill_md)?;
        Ok(ServedVersion { served: served.clone(), files, skill_md })
    }

    /// The file `path` of the served skill `name`, byte for byte from its stored version, with
    /// its manifest entry: `skill_not_found`, `skill_invalid`, or `file_not_in_skill` when that
    /// version has no such file.
    pub fn served_file(&self, name: &str, path: &str) -> Result<(ManifestEntry, Vec<u8>), LibraryError> {
        let served = self.served_skill(name)?;
        let manifest = self.version_manifest(name, served.version)?;
        let entry = manifest
            .into_iter()
            .find(|f| f.path == path)
            .ok_or_else(|| LibraryError::FileNotFound { name: name.to_string(), path: path.to_string() })?;
        let bytes = self.stored_file(&entry)?;
        Ok((entry, bytes))
    }

    /// The served skill `name` read whole from its stored version and validated again under the
    /// policy in force: `skill_invalid` when that finds errors (the policy changed since).
    pub fn stored_skill(&self, name: &str) -> Result<StoredSkill, LibraryError> {
        let served = self.served_skill(name)?;
        let package = self.version_package(name, served.version)?;
        let validated = validate_package(&package, PROFILE, &self.policy);
        let errors = validated.findings.iter().filter(|f| f.is_error()).count() as u32;
        match validated.skill {
            Some(mut skill) if errors == 0 => {
                skill.dir = self.live_dir(name)?;
                Ok(StoredSkill { served, skill, package })
            }
            _ => Err(LibraryError::Invalid { name: name.to_string(), errors: errors.max(1) }),
        }
    }
}
