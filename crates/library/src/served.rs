//! The served skills as stored versions: which live, valid skills the agent is given and under
//! which version, that version's manifest (every file's path, size and sha256, recorded when the
//! version was made) and one stored file's bytes. A client that publishes digests (the MCP
//! Skills extension) reads these instead of the folders, so a digest is never recomputed per
//! request and the bytes it serves always match the digest it announced, even while a folder is
//! being edited.

use super::types::ManifestEntry;
use super::{Library, LibraryError};

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
    /// when it has errors (or no recorded version yet).
    pub fn served_skill(&self, name: &str) -> Result<ServedSkill, LibraryError> {
        let served = self.write_state().served();
        let skill = served.skills.iter().find(|skill| skill.name == name);
        if let Some((skill, Some(version))) = skill.map(|s| (s, served.versions.get(name).copied().flatten()))
        {
            return Ok(ServedSkill { name: skill.name.clone(), version, hidden: skill.is_hidden() });
        }
        let (entry, _) = self.live_entry(name)?;
        Err(LibraryError::Invalid { name: name.to_string(), errors: entry.validity.errors.max(1) })
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
}
