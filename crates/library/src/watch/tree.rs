//! The folders under the skills directory that carry an OS watch.
//!
//! Every folder is watched on its own (non-recursively) so the walk can skip what is not skill
//! content (`.git/`, `node_modules/`, hidden folders), stop at the depth limit and count what it
//! adds. inotify spends one watch per folder out of a per-user budget
//! (`/proc/sys/fs/inotify/max_user_watches`); running out is reported, never silently missed.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use notify::{ErrorKind, RecursiveMode, Watcher};

use super::filter::is_ignored_folder;

/// Why a folder could not be watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AddError {
    /// The OS refused another watch (inotify's per-user limit, when known).
    Limit { limit: Option<u64> },
    /// The configured maximum number of watched folders was reached.
    TooMany { max: usize },
    /// Any other refusal, with the OS's words.
    Other { path: PathBuf, message: String },
}

/// The watched folders, bounded in depth and count.
#[derive(Debug)]
pub(crate) struct Tree {
    root: PathBuf,
    max_depth: usize,
    max_dirs: usize,
    watched: HashSet<PathBuf>,
}

impl Tree {
    pub(crate) fn new(root: &Path, max_depth: usize, max_dirs: usize) -> Self {
        Tree { root: root.to_path_buf(), max_depth, max_dirs, watched: HashSet::new() }
    }

    /// Watches the root and every skill folder below it.
    pub(crate) fn watch_all(&mut self, watcher: &mut dyn Watcher) -> Result<(), AddError> {
        self.watch_below(watcher, &self.root.clone())
    }

    /// Watches `dir` and its folders down to the depth limit (a folder that vanished meanwhile
    /// is skipped). Watching a folder twice is harmless, so a re-created folder is re-watched.
    pub(crate) fn watch_below(&mut self, watcher: &mut dyn Watcher, dir: &Path) -> Result<(), AddError> {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let Some(depth) = self.depth_of(&dir) else { continue };
            if !self.watched.contains(&dir) && self.watched.len() >= self.max_dirs {
                return Err(AddError::TooMany { max: self.max_dirs });
            }
            match watcher.watch(&dir, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(dir.clone());
                }
                Err(err) => match err.kind {
                    ErrorKind::PathNotFound => continue,
                    ErrorKind::Io(ref io) if io.kind() == std::io::ErrorKind::NotFound => continue,
                    ErrorKind::MaxFilesWatch => return Err(AddError::Limit { limit: inotify_limit() }),
                    _ => return Err(AddError::Other { path: dir, message: err.to_string() }),
                },
            }
            if depth < self.max_depth {
                stack.extend(subfolders(&dir));
            }
        }
        Ok(())
    }

    /// Forgets `dir` and everything below it (the OS drops the watches of a deleted or moved
    /// folder itself; this keeps the count honest).
    pub(crate) fn forget_below(&mut self, dir: &Path) {
        if self.watched.contains(dir) {
            self.watched.retain(|p| !p.starts_with(dir));
        }
    }

    /// Removes every watch (the root went away or was replaced).
    pub(crate) fn unwatch_all(&mut self, watcher: &mut dyn Watcher) {
        for dir in self.watched.drain() {
            let _ = watcher.unwatch(&dir);
        }
    }

    /// Folder depth below the root (root 0, skill folder 1), or `None` when `dir` is outside
    /// the root, inside an ignored folder or deeper than the limit.
    fn depth_of(&self, dir: &Path) -> Option<usize> {
        let relative = dir.strip_prefix(&self.root).ok()?;
        let mut depth = 0;
        for part in relative.components() {
            let name = part.as_os_str().to_str()?;
            if is_ignored_folder(name) {
                return None;
            }
            depth += 1;
        }
        (depth <= self.max_depth).then_some(depth)
    }
}

/// The real (not symlinked) folders directly inside `dir`; an unreadable folder has none.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

/// The inotify per-user watch limit, where there is one.
pub(crate) fn inotify_limit() -> Option<u64> {
    fs::read_to_string("/proc/sys/fs/inotify/max_user_watches").ok()?.trim().parse().ok()
}
