//! Writing a checked package to disk (SPEC A8): first into a fresh staging folder on the same
//! file system as its destination, fsynced, then renamed into place. Only regular files are
//! written, with fixed permissions (0644 files, 0755 folders) whatever the archive said. Every
//! write goes through the folder handles of `skillcase_skill::skill_dir::OpenDir` — sub-folders
//! opened without following a link, files created new with `O_NOFOLLOW` — so a link planted inside
//! a staging folder (or a destination swapped for one) never redirects a byte. A staging folder
//! that is never installed is removed when dropped.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use skillcase_skill::archive::ArchiveError;
use skillcase_skill::package::Package;
use skillcase_skill::skill_dir::{FileError, OpenDir};

/// Prefix of staging folders, hidden so file browsers and watchers of a parent skip them.
pub const STAGING_PREFIX: &str = ".skillcase-staging-";
/// Prefix of the folder an installed-over skill waits in until the new one is in place.
pub const REPLACED_PREFIX: &str = ".skillcase-replaced-";
const FILE_MODE: u32 = 0o644;
const EXEC_MODE: u32 = 0o755;
const DIR_MODE: u32 = 0o755;

/// A package written to a staging folder and not yet installed. Dropping it removes the
/// folder, so an import that stops half-way (refused, failed, cancelled) leaves nothing behind.
#[derive(Debug)]
pub struct StagedSkill {
    /// The folder the staging folder is in.
    parent: OpenDir,
    /// The staging folder's name in `parent`.
    name: String,
    /// True once renamed into place: nothing is left to remove.
    installed: bool,
}

impl StagedSkill {
    /// The staging folder (its contents are the skill folder's contents).
    pub fn path(&self) -> PathBuf {
        self.parent.path().join(&self.name)
    }
}

impl Drop for StagedSkill {
    fn drop(&mut self) {
        if !self.installed {
            let _ = self.parent.remove_tree(&self.name);
        }
    }
}

/// Writes `package` into a new hidden folder inside `staging_parent` (created if missing) and
/// fsyncs every file and folder. Callers put `staging_parent` on the same file system as the
/// skills directory, outside any watched tree, so [`install`] is a rename.
pub fn stage(package: &Package, staging_parent: &Path) -> Result<StagedSkill, ArchiveError> {
    let parent =
        OpenDir::create_named(staging_parent).map_err(|e| stage_error(staging_parent, e.into_io()))?;
    stage_as(package, &parent, Modes::Fixed)
}

/// [`stage`] for a package read from a folder we trust (installing a skill into an agent's
/// folder), into the held folder `parent`: a file that had an exec bit gets 0755, so the agent
/// can still run its scripts.
pub fn stage_keeping_exec_bits(package: &Package, parent: &OpenDir) -> Result<StagedSkill, ArchiveError> {
    stage_as(package, parent, Modes::KeepExec)
}

/// Which permissions staged files get.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Modes {
    /// 0644 whatever the source said (an untrusted archive).
    Fixed,
    /// 0755 for a file with an exec bit, else 0644.
    KeepExec,
}

fn stage_error(path: &Path, source: std::io::Error) -> ArchiveError {
    ArchiveError::Stage { path: path.to_path_buf(), source }
}

fn stage_as(package: &Package, parent: &OpenDir, modes: Modes) -> Result<StagedSkill, ArchiveError> {
    let (name, root) = parent.make_unique_dir(STAGING_PREFIX).map_err(|e| stage_error(parent.path(), e))?;
    let staged = StagedSkill {
        parent: parent.try_clone().map_err(|e| stage_error(parent.path(), e))?,
        name,
        installed: false,
    };
    let shown = staged.path();
    let failed = |rel: &str| {
        let path = shown.join(rel);
        move |source| stage_error(&path, source)
    };
    let mut folders: BTreeSet<String> = BTreeSet::new();
    let mut last: Option<(String, OpenDir)> = None;
    for file in &package.files {
        let segments = safe_relative(&file.path)?;
        let (file_name, dirs) = segments.split_last().expect("a safe path has a segment");
        let folder_rel = dirs.join("/");
        for depth in 1..=dirs.len() {
            folders.insert(dirs[..depth].join("/"));
        }
        if last.as_ref().is_none_or(|(rel, _)| *rel != folder_rel) {
            let dir = folder(&root, dirs, true).map_err(failed(&folder_rel))?;
            last = Some((folder_rel, dir));
        }
        let (_, dir) = last.as_ref().expect("set above");
        let executable = modes == Modes::KeepExec && file.unix_mode.is_some_and(|m| m & 0o111 != 0);
        let mode = if executable { EXEC_MODE } else { FILE_MODE };
        let write = || -> std::io::Result<()> {
            let mut out = dir.create_file(file_name, mode)?;
            out.write_all(&file.bytes)?;
            out.sync_all()
        };
        write().map_err(failed(&file.path))?;
    }
    drop(last);
    for rel in folders.iter().rev() {
        let parts: Vec<&str> = rel.split('/').collect();
        let dir = folder(&root, &parts, false).map_err(failed(rel))?;
        dir.set_mode(DIR_MODE).and_then(|()| dir.sync()).map_err(failed(rel))?;
    }
    root.set_mode(DIR_MODE).and_then(|()| root.sync()).map_err(failed(""))?;
    Ok(staged)
}

/// The folder at `parts` beneath `root`, each step opened (and, with `create`, made) without
/// following a link: a link planted in the staging folder fails the stage.
fn folder(root: &OpenDir, parts: &[&str], create: bool) -> std::io::Result<OpenDir> {
    let mut at = root.try_clone()?;
    for part in parts {
        at = if create {
            at.child_or_create(part)
        } else {
            at.child(part).and_then(|dir| dir.ok_or_else(|| FileError::NotFound(PathBuf::from(part))))
        }
        .map_err(FileError::into_io)?;
    }
    Ok(at)
}

/// Moves `staged` to `target_dir` by rename (see [`install_in`]).
pub fn install(staged: StagedSkill, target_dir: &Path) -> Result<(), ArchiveError> {
    let install_err = |source| ArchiveError::Install { target: target_dir.to_path_buf(), source };
    let parent = target_dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = target_dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| install_err(std::io::ErrorKind::InvalidInput.into()))?;
    let into = OpenDir::create_named(parent).map_err(|e| install_err(e.into_io()))?;
    install_in(staged, &into, name)
}

/// Moves `staged` to the entry `name` of the held folder `into` by rename. An existing entry
/// there is swapped with the new folder in one atomic exchange where the system has it (Linux
/// `renameat2(RENAME_EXCHANGE)`), so even a crash at any instant leaves `name` holding the old
/// skill or the new one; the old one, now at the staging name, is then removed without following
/// any link in it. Elsewhere the old folder is renamed aside first and removed only once the new
/// one is in place; if the second rename fails the old folder is renamed back.
pub fn install_in(mut staged: StagedSkill, into: &OpenDir, name: &str) -> Result<(), ArchiveError> {
    let target = into.path().join(name);
    let install_err = |source| ArchiveError::Install { target: target.clone(), source };
    if into.kind_of(name).is_none() {
        staged.parent.rename(&staged.name, into, name).map_err(install_err)?;
        staged.installed = true;
        return into.sync().and_then(|()| staged.parent.sync()).map_err(install_err);
    }
    if staged.parent.exchange(&staged.name, into, name).is_ok() {
        // The staging name now holds the previous folder: dropping `staged` removes it.
        into.sync().and_then(|()| staged.parent.sync()).map_err(install_err)?;
        drop(staged);
        return Ok(());
    }
    let (holder_name, holder) = staged.parent.make_unique_dir(REPLACED_PREFIX).map_err(install_err)?;
    into.rename(name, &holder, "previous").map_err(install_err)?;
    if let Err(source) = staged.parent.rename(&staged.name, into, name) {
        if holder.rename("previous", into, name).is_err() {
            // The old skill must not be deleted with the holder: leave it where it is.
            let kept = staged.parent.path().join(&holder_name).join("previous");
            return Err(ArchiveError::Install {
                target: target.clone(),
                source: std::io::Error::new(
                    source.kind(),
                    format!(
                        "{source}; the previous folder could not be put back and is kept at {}",
                        kept.display()
                    ),
                ),
            });
        }
        let _ = staged.parent.remove_tree(&holder_name);
        return Err(install_err(source));
    }
    staged.installed = true;
    into.sync().and_then(|()| staged.parent.sync()).map_err(install_err)?;
    let _ = staged.parent.remove_tree(&holder_name);
    Ok(())
}

/// Splits a package path into plain segments, refusing anything else (the inspector already
/// refused such names; a package built by hand gets the same protection).
fn safe_relative(path: &str) -> Result<Vec<&str>, ArchiveError> {
    let unsafe_path = || ArchiveError::UnsafePath { path: path.to_string() };
    let plain = |seg: &str| !seg.is_empty() && seg != "." && seg != ".." && !seg.contains(['\\', ':', '\0']);
    if path.is_empty() || !path.split('/').all(plain) {
        return Err(unsafe_path());
    }
    Ok(path.split('/').collect())
}

/// Where staging folders go: the parent of the skills folder (so a rename reaches it and the
/// watcher of the skills folder never sees a half-written skill).
pub fn staging_parent(skills_dir: &Path) -> PathBuf {
    let absolute = std::path::absolute(skills_dir).unwrap_or_else(|_| skills_dir.to_path_buf());
    absolute.parent().map_or(absolute.clone(), Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_written() {
        assert!(safe_relative("references/a.md").is_ok());
        for bad in ["", "../a", "a/../b", "/a", "a//b", "./a", "a\\b", "C:a"] {
            assert!(matches!(safe_relative(bad), Err(ArchiveError::UnsafePath { .. })), "{bad} accepted");
        }
    }
}
