//! Rollback (SPEC A9): any recorded version of a skill can be made live again. The folder is
//! rebuilt from the blob store (each blob's hash checked), written like any other change, and
//! the pointer moves to that version — no new version is made, since the content is known.

use super::types::VersionInfo;
use super::{check_name, Library, LibraryError, Source, PROFILE};
use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::validate::validate_package;

impl Library {
    /// Makes version `version` of `name` live: rewrites the folder byte for byte from the blob
    /// store, atomically, and moves the pointer.
    pub fn rollback(&self, name: &str, version: i64) -> Result<VersionInfo, LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        let pkg = self.version_package(name, version)?;
        let validated = validate_package(&pkg, PROFILE, &self.policy);
        self.write_folder(name, &pkg, validated, Source::Edit)
    }

    /// The files of a recorded version, read back from the blob store.
    pub fn version_package(&self, name: &str, version: i64) -> Result<Package, LibraryError> {
        let missing = || LibraryError::VersionNotFound { name: name.to_string(), version };
        let row = self.repo.version(version)?.filter(|v| v.name == name).ok_or_else(missing)?;
        let mut files = Vec::with_capacity(row.manifest.len());
        for entry in &row.manifest {
            let bytes = self.blobs.get(&entry.sha256).map_err(|_| LibraryError::BlobMissing {
                path: entry.path.clone(),
                sha256: entry.sha256.clone(),
            })?;
            files.push(PackageFile::new(entry.path.clone(), bytes, None));
        }
        Ok(Package { folder_name: Some(name.to_string()), files })
    }
}
