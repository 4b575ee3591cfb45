//! Which metadata changes are content changes.
//!
//! A file's metadata event (inotify's `IN_ATTRIB`) fires for timestamps, owners and permission
//! bits alike, and extractors replay them in a pass of their own after writing every file (the
//! `zip` crate sets permissions children-first at the end; `unzip` restores folder times last).
//! Only the executable bit matters to a skill (SPEC A1 executable content), so the watcher
//! remembers which files had it when their skill was last reported and counts a metadata event
//! only when that bit flipped.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::filter::is_ignored_folder;

/// Files known to carry an executable bit.
#[derive(Debug, Default)]
pub(crate) struct ExecBits {
    executable: HashSet<PathBuf>,
}

impl ExecBits {
    /// Re-learns the executable files under `dir` (a skill folder or the whole directory).
    pub(crate) fn learn_below(&mut self, dir: &Path, max_depth: usize) {
        self.executable.retain(|p| !p.starts_with(dir));
        let mut stack = vec![(dir.to_path_buf(), 0)];
        while let Some((folder, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            for entry in entries.filter_map(Result::ok) {
                let Ok(kind) = entry.file_type() else { continue };
                let path = entry.path();
                if kind.is_dir() {
                    let hidden = entry.file_name().to_str().is_none_or(is_ignored_folder);
                    if depth < max_depth && !hidden {
                        stack.push((path, depth + 1));
                    }
                } else if kind.is_file() && is_executable(&path) {
                    self.executable.insert(path);
                }
            }
        }
    }

    /// True when `path` is a file whose executable bit differs from what was last seen
    /// (and remembers the new state); false for folders and vanished files.
    pub(crate) fn flipped(&mut self, path: &Path) -> bool {
        if !path.is_file() {
            return false;
        }
        let now = is_executable(path);
        if now {
            self.executable.insert(path.to_path_buf())
        } else {
            self.executable.remove(path)
        }
    }

    /// Forgets everything (the directory went away).
    pub(crate) fn clear(&mut self) {
        self.executable.clear();
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_path: &Path) -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn only_a_flip_of_the_executable_bit_counts() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("frete/scripts/calc.sh");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        chmod(&script, 0o644);
        let mut bits = ExecBits::default();
        bits.learn_below(dir.path(), 8);
        chmod(&script, 0o600);
        assert!(!bits.flipped(&script), "permission change without the executable bit");
        chmod(&script, 0o755);
        assert!(bits.flipped(&script));
        assert!(!bits.flipped(&script), "already known to be executable");
        chmod(&script, 0o644);
        assert!(bits.flipped(&script));
        assert!(!bits.flipped(script.parent().unwrap()), "folders never count");
    }

    #[test]
    fn learning_a_folder_picks_up_executables_already_there() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("frete/run.sh");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        chmod(&script, 0o755);
        let mut bits = ExecBits::default();
        bits.learn_below(&dir.path().join("frete"), 8);
        assert!(!bits.flipped(&script));
    }
}
