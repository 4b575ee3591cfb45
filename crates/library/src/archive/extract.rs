//! Writing a checked package to disk (SPEC A8): first into a fresh staging folder on the same
//! file system as the skills directory but outside it, fsynced, then renamed into place. Only
//! regular files are written, with fixed permissions (0644 files, 0755 folders) whatever the
//! archive said. A staging folder that is never installed is removed when dropped.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use skillcase_common::durable::sync_dir;
use skillcase_skill::archive::ArchiveError;
use skillcase_skill::package::Package;

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
    dir: TempDir,
}

impl StagedSkill {
    /// The staging folder (its contents are the skill folder's contents).
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Writes `package` into a new hidden folder inside `staging_parent` (created if missing) and
/// fsyncs every file and folder. Callers put `staging_parent` on the same file system as the
/// skills directory, outside any watched tree, so [`install`] is a rename.
pub fn stage(package: &Package, staging_parent: &Path) -> Result<StagedSkill, ArchiveError> {
    stage_as(package, staging_parent, Modes::Fixed)
}

/// [`stage`] for a package read from a folder we trust (installing a skill into an agent's
/// folder): a file that had an exec bit gets 0755, so the agent can still run its scripts.
pub fn stage_keeping_exec_bits(
    package: &Package,
    staging_parent: &Path,
) -> Result<StagedSkill, ArchiveError> {
    stage_as(package, staging_parent, Modes::KeepExec)
}

/// Which permissions staged files get.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Modes {
    /// 0644 whatever the source said (an untrusted archive).
    Fixed,
    /// 0755 for a file with an exec bit, else 0644.
    KeepExec,
}

fn stage_as(package: &Package, staging_parent: &Path, modes: Modes) -> Result<StagedSkill, ArchiveError> {
    let stage_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ArchiveError::Stage { path, source }
    };
    fs::create_dir_all(staging_parent).map_err(stage_err(staging_parent))?;
    let dir = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempdir_in(staging_parent)
        .map_err(stage_err(staging_parent))?;
    let root = dir.path().to_path_buf();
    let mut folders: BTreeSet<PathBuf> = BTreeSet::from([root.clone()]);
    for file in &package.files {
        let relative = safe_relative(&file.path)?;
        let target = root.join(&relative);
        for ancestor in relative.ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()) {
            folders.insert(root.join(ancestor));
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(stage_err(parent))?;
        }
        let executable = modes == Modes::KeepExec && file.unix_mode.is_some_and(|m| m & 0o111 != 0);
        let mode = if executable { EXEC_MODE } else { FILE_MODE };
        write_file(&target, &file.bytes, mode).map_err(stage_err(&target))?;
    }
    for folder in folders.iter().rev() {
        set_mode(folder, DIR_MODE).and_then(|()| sync_dir(folder)).map_err(stage_err(folder))?;
    }
    Ok(StagedSkill { dir })
}

/// Moves `staged` to `target_dir` by rename. An existing folder there is swapped with the new one
/// in one atomic exchange where the system has it (Linux `renameat2(RENAME_EXCHANGE)`), so even a
/// crash at any instant leaves `target_dir` holding the old skill or the new one. Elsewhere the
/// old folder is renamed aside first and removed only once the new one is in place; if the second
/// rename fails the old folder is renamed back.
pub fn install(staged: StagedSkill, target_dir: &Path) -> Result<(), ArchiveError> {
    let install_err = |source| ArchiveError::Install { target: target_dir.to_path_buf(), source };
    let parent = target_dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(install_err)?;
    let staging_parent = staged.path().parent().unwrap_or(Path::new(".")).to_path_buf();
    if fs::symlink_metadata(target_dir).is_err() {
        fs::rename(staged.path(), target_dir).map_err(install_err)?;
        return finish(staged, parent, &staging_parent).map_err(install_err);
    }
    if exchange(staged.path(), target_dir).is_ok() {
        // The staging path now holds the previous folder: dropping `staged` removes it.
        sync_dir(parent).and_then(|()| sync_dir(&staging_parent)).map_err(install_err)?;
        drop(staged);
        return Ok(());
    }
    let holder =
        tempfile::Builder::new().prefix(REPLACED_PREFIX).tempdir_in(&staging_parent).map_err(install_err)?;
    let aside = holder.path().join("previous");
    fs::rename(target_dir, &aside).map_err(install_err)?;
    if let Err(source) = fs::rename(staged.path(), target_dir) {
        if fs::rename(&aside, target_dir).is_err() {
            // The old skill must not be deleted with the holder: leave it where it is.
            let kept = holder.keep();
            return Err(ArchiveError::Install {
                target: target_dir.to_path_buf(),
                source: std::io::Error::new(
                    source.kind(),
                    format!(
                        "{source}; the previous folder could not be put back and is kept at {}",
                        kept.display()
                    ),
                ),
            });
        }
        return Err(install_err(source));
    }
    finish(staged, parent, &staging_parent).map_err(install_err)?;
    drop(holder);
    Ok(())
}

/// Swaps two folders atomically (both must exist).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

/// No atomic exchange here: the caller falls back to rename-aside.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(_a: &Path, _b: &Path) -> std::io::Result<()> {
    Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no atomic exchange"))
}

/// After the rename: the staging folder no longer exists under its old name, so it must not be
/// cleaned up; the renames are made durable by syncing both parents.
fn finish(staged: StagedSkill, parent: &Path, staging_parent: &Path) -> std::io::Result<()> {
    let _installed = staged.dir.keep();
    sync_dir(parent)?;
    sync_dir(staging_parent)
}

/// Turns a package path into a relative path of plain segments, refusing anything else (the
/// inspector already refused such names; a package built by hand gets the same protection).
fn safe_relative(path: &str) -> Result<PathBuf, ArchiveError> {
    let unsafe_path = || ArchiveError::UnsafePath { path: path.to_string() };
    let plain = |seg: &str| !seg.is_empty() && seg != "." && seg != ".." && !seg.contains(['\\', ':', '\0']);
    if path.is_empty() || !path.split('/').all(plain) {
        return Err(unsafe_path());
    }
    Ok(path.split('/').collect())
}

fn write_file(target: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    let mut file = options.open(target)?;
    file.write_all(bytes)?;
    set_mode(target, mode)?;
    file.sync_all()
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
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
