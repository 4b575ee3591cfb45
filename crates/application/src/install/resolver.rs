//! Finding the current content of an installed skill's source: a folder is read again; a git
//! source is read at its pinned commit from the mirror (so it is `same` until `update` moves the
//! pin); a library skill is looked up in this application's library, and only when the lock names this data
//! directory (a copy from another data directory's library cannot be checked from here and
//! counts as `source_missing`).

use std::path::Path;
use std::sync::Arc;

use skillcase_library::install::git::GitCache;
use skillcase_library::install::{lock, SkillSource, SourceSkill};
use skillcase_library::Library;

use super::places;
use super::types::InstallTarget;

/// Resolves sources for sync, verify and the status badge.
pub(super) struct Resolver {
    library: Option<Arc<Library>>,
    data_dir: String,
    /// The mirrors a git source's pinned commit is read from.
    git: GitCache,
}

impl Resolver {
    pub(super) fn new(library: Option<Arc<Library>>, data_dir: String, git: GitCache) -> Self {
        Resolver { library, data_dir, git }
    }

    /// The source's current content, `None` when it is gone, unreadable or no longer valid.
    pub(super) fn resolve(&self, _installed_as: &str, source: &SkillSource) -> Option<SourceSkill> {
        match source {
            SkillSource::Folder { path } => SourceSkill::read(Path::new(path), source.clone(), None).ok(),
            SkillSource::Library { name, data_dir } if *data_dir == self.data_dir => {
                let library = self.library.as_ref()?;
                let dir = library.live_dir(name).ok()?;
                let version = library.summary(name).ok()?.live_version;
                SourceSkill::read(&dir, source.clone(), version).ok()
            }
            SkillSource::Library { .. } => None,
            SkillSource::Git { url, reference, commit, path } => {
                super::git::read_at(&self.git, url, reference, commit, path).ok()
            }
        }
    }
}

/// The data directory as locks record it: absolute.
pub(super) fn data_dir_text(data_dir: &Path) -> String {
    std::path::absolute(data_dir).unwrap_or_else(|_| data_dir.to_path_buf()).display().to_string()
}

/// True when a lock in one of `targets` lists a skill of the library of `data_dir` (folders and
/// locks that cannot be read are skipped here; the action itself reports them).
pub(super) fn names_library(targets: &[InstallTarget], data_dir: &str) -> bool {
    let held = targets.iter().filter_map(|target| places::open(target, false).ok().flatten());
    held.filter_map(|dir| lock::read(&dir).ok().flatten()).any(|lock| {
        lock.skills
            .values()
            .any(|s| matches!(&s.source, SkillSource::Library { data_dir: d, .. } if d == data_dir))
    })
}
