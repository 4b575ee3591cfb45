//! Writing a skill folder safely: the package is validated in memory by the caller, its blobs
//! stored (fsynced), then it is staged beside the skills directory and swapped into place in one
//! rename (`archive::stage` + `archive::install`), and only then is the version committed to the
//! database. Removing a folder renames it out of the skills directory first. A crash at any
//! instant leaves each skill folder either the old content or the new one.

use std::fs;

use super::scan::fingerprint;
use super::state::Entry;

use super::sync::FullRead;
use super::types::VersionInfo;
use super::versions::content_of;
use super::{Library, LibraryError, Source};
use crate::archive::{self, staging_parent};
use skillcase_common::durable::sync_dir;
use skillcase_common::events::DomainEvent;
use skillcase_skill::package::Package;
use skillcase_skill::validate::Validated;

/// Prefix of the folder a removed skill passes through on its way out.
const REMOVED_PREFIX: &str = ".skillcase-removed-";

/// Leftovers younger than this may belong to a write in progress in another process.
const LEFTOVER_AGE: std::time::Duration = std::time::Duration::from_secs(600);

impl Library {
    /// Writes `pkg` as the folder of `name`, records its version (made by `source`) and makes it
    /// live, then publishes `skill-changed`. The caller holds the write lock and has validated
    /// `pkg` (`validated` is that result).
    pub(super) fn write_folder(
        &self,
        name: &str,
        pkg: &Package,
        validated: Validated,
        source: Source,
    ) -> Result<VersionInfo, LibraryError> {
        let content = content_of(pkg, &validated);
        for file in &pkg.files {
            self.blobs.put(&file.sha256, &file.bytes, true).map_err(LibraryError::io(self.blobs.root()))?;
        }
        fs::create_dir_all(&self.skills_dir).map_err(LibraryError::io(&self.skills_dir))?;
        let target = self.skills_dir.join(name);
        let staged = archive::stage(pkg, &staging_parent(&self.skills_dir))?;
        archive::install(staged, &target)?;
        let print = fingerprint(&target);
        let read = FullRead { validated, content: Some((pkg.clone(), content)) };
        let version = self.commit_live(name, &read, source, print.as_deref())?;
        self.install_entry(Entry::new(name, &target, read.validated, version, super::now()));
        self.publish(DomainEvent::SkillChanged { name: name.to_string() });
        let id = version.expect("a written folder has content");
        let row = self
            .repo
            .version(id)?
            .ok_or(LibraryError::VersionNotFound { name: name.to_string(), version: id })?;
        Ok(row.info(true))
    }

    /// Takes the folder of `name` out of the skills directory (renamed aside, then deleted) and
    /// forgets it: the catalog's skill of that name comes back if there is one. The caller holds
    /// the write lock.
    pub(super) fn remove_folder(&self, name: &str) -> Result<(), LibraryError> {
        let target = self.skills_dir.join(name);
        let parent = staging_parent(&self.skills_dir);
        let holder = tempfile::Builder::new()
            .prefix(REMOVED_PREFIX)
            .tempdir_in(&parent)
            .map_err(LibraryError::io(&parent))?;
        fs::rename(&target, holder.path().join(name)).map_err(LibraryError::io(&target))?;
        sync_dir(&self.skills_dir).map_err(LibraryError::io(&self.skills_dir))?;
        drop(holder);
        self.forget_local(name)
    }
}

/// Removes staging and removal folders that a killed process left beside the skills directory
/// (never the folders a non-atomic replace set aside: those may hold the only copy of a skill).
/// Only folders older than ten minutes are touched, so a write in progress elsewhere is safe.
pub(super) fn sweep_leftovers(skills_dir: &std::path::Path) {
    let parent = staging_parent(skills_dir);
    let Ok(entries) = fs::read_dir(&parent) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name.starts_with(archive::extract::STAGING_PREFIX) || name.starts_with(REMOVED_PREFIX);
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > LEFTOVER_AGE);
        if ours && old && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}
