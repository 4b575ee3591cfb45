//! The folders under the skills directory that carry an OS watch, and those that could not.
//!
//! Every folder is watched on its own (non-recursively) so the walk can skip what is not skill
//! content (`.git/`, `node_modules/`, hidden folders), stop at the depth limit and count what it
//! adds. inotify spends one watch per folder out of a per-user budget
//! (`/proc/sys/fs/inotify/max_user_watches`). A folder that cannot be watched — unreadable, or
//! past the OS's budget or [`super::WatchOptions::max_dirs`] — is recorded as *unwatched* with the
//! reason, and the walk goes on with the others (after a budget ran out, everything still to visit
//! is unwatched too). The worker re-checks unwatched folders by periodic rescans
//! ([`super::polled`]) and tries to watch them again; nothing is ever silently missed, and one
//! bad folder never unwatches the rest.

use std::collections::{BTreeMap, HashSet};
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
    /// Any other refusal (permissions, I/O), with the OS's words.
    Other { message: String },
}

impl AddError {
    /// True for the reasons that apply to every folder still to visit, not just this one.
    fn is_budget(&self) -> bool {
        matches!(self, AddError::Limit { .. } | AddError::TooMany { .. })
    }
}

/// The watched folders, bounded in depth and count, and the unwatched ones with their reasons.
#[derive(Debug)]
pub(crate) struct Tree {
    root: PathBuf,
    max_depth: usize,
    max_dirs: usize,
    watched: HashSet<PathBuf>,
    /// Folders whose subtree carries no watch (or whose listing failed), each with why.
    unwatched: BTreeMap<PathBuf, AddError>,
}

impl Tree {
    pub(crate) fn new(root: &Path, max_depth: usize, max_dirs: usize) -> Self {
        Tree {
            root: root.to_path_buf(),
            max_depth,
            max_dirs,
            watched: HashSet::new(),
            unwatched: BTreeMap::new(),
        }
    }

    /// Watches the root and every skill folder below it.
    pub(crate) fn watch_all(&mut self, watcher: &mut dyn Watcher) {
        self.watch_below(watcher, &self.root.clone());
    }

    /// Watches `dir` and its folders down to the depth limit (a folder that vanished meanwhile
    /// is skipped). Watching a folder twice is harmless, so a re-created folder is re-watched.
    /// Folders that cannot be watched are recorded as unwatched; see [`Tree::unwatched`].
    pub(crate) fn watch_below(&mut self, watcher: &mut dyn Watcher, dir: &Path) {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let Some(depth) = self.depth_of(&dir) else { continue };
            match self.watch_one(watcher, &dir) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(reason) if reason.is_budget() => {
                    self.unwatched.insert(dir, reason.clone());
                    for rest in stack.drain(..) {
                        self.unwatched.insert(rest, reason.clone());
                    }
                    return;
                }
                Err(reason) => {
                    self.unwatched.insert(dir, reason);
                    continue;
                }
            }
            if depth < self.max_depth {
                match subfolders(&dir) {
                    Ok(folders) => stack.extend(folders),
                    Err(message) => {
                        self.unwatched.insert(dir, AddError::Other { message });
                    }
                }
            }
        }
    }

    /// Adds the watch of one folder: `Ok(false)` when it vanished, the reason when refused.
    fn watch_one(&mut self, watcher: &mut dyn Watcher, dir: &Path) -> Result<bool, AddError> {
        if !self.watched.contains(dir) && self.watched.len() >= self.max_dirs {
            return Err(AddError::TooMany { max: self.max_dirs });
        }
        match watcher.watch(dir, RecursiveMode::NonRecursive) {
            Ok(()) => {
                self.watched.insert(dir.to_path_buf());
                self.unwatched.remove(dir);
                Ok(true)
            }
            Err(err) => match err.kind {
                ErrorKind::PathNotFound => Ok(false),
                ErrorKind::Io(ref io) if io.kind() == std::io::ErrorKind::NotFound => Ok(false),
                ErrorKind::MaxFilesWatch => Err(AddError::Limit { limit: inotify_limit() }),
                _ => Err(AddError::Other { message: os_words(&err) }),
            },
        }
    }

    /// Tries to watch every unwatched folder again; returns the folders now fully watched (their
    /// changes since they were last looked at are unknown, so the caller re-reads them).
    pub(crate) fn retry(&mut self, watcher: &mut dyn Watcher) -> Vec<PathBuf> {
        let mut recovered = Vec::new();
        for (dir, _) in std::mem::take(&mut self.unwatched) {
            if self.unwatched.keys().any(|u| dir.starts_with(u)) {
                continue;
            }
            self.watch_below(watcher, &dir);
            if !self.unwatched.keys().any(|u| u.starts_with(&dir) || dir.starts_with(u)) {
                recovered.push(dir);
            }
        }
        recovered
    }

    /// The folders that carry no watch, with why, in path order.
    pub(crate) fn unwatched(&self) -> &BTreeMap<PathBuf, AddError> {
        &self.unwatched
    }

    /// Forgets `dir` and everything below it (the OS drops the watches of a deleted or moved
    /// folder itself; this keeps the count honest).
    pub(crate) fn forget_below(&mut self, dir: &Path) {
        if self.watched.contains(dir) {
            self.watched.retain(|p| !p.starts_with(dir));
        }
        self.unwatched.retain(|p, _| !p.starts_with(dir));
    }

    /// Removes every watch (the root went away or was replaced).
    pub(crate) fn unwatch_all(&mut self, watcher: &mut dyn Watcher) {
        for dir in self.watched.drain() {
            let _ = watcher.unwatch(&dir);
        }
        self.unwatched.clear();
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

/// The real (not symlinked) folders directly inside `dir`, or why it cannot be listed.
fn subfolders(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| e.to_string())?;
    Ok(entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect())
}

/// The OS's own words for a refused watch, without the path notify appends.
fn os_words(err: &notify::Error) -> String {
    match &err.kind {
        ErrorKind::Io(io) => io.to_string(),
        other => format!("{other:?}"),
    }
}

/// The inotify per-user watch limit, where there is one.
pub(crate) fn inotify_limit() -> Option<u64> {
    fs::read_to_string("/proc/sys/fs/inotify/max_user_watches").ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::Config;

    /// A watcher that refuses the folders named in `refuse` as the OS refuses an unreadable
    /// one, and accepts the rest.
    struct Refusing {
        refuse: Vec<PathBuf>,
        watched: Vec<PathBuf>,
        /// How many watches the "kernel" grants before it answers `MaxFilesWatch` (inotify's
        /// `ENOSPC` once `max_user_watches` is spent).
        kernel_budget: usize,
    }

    fn refusing(refuse: Vec<PathBuf>) -> Refusing {
        Refusing { refuse, watched: Vec::new(), kernel_budget: usize::MAX }
    }

    impl Watcher for Refusing {
        fn new<F: notify::EventHandler>(_: F, _: Config) -> notify::Result<Self> {
            Ok(refusing(Vec::new()))
        }
        fn watch(&mut self, path: &Path, _: RecursiveMode) -> notify::Result<()> {
            if self.refuse.iter().any(|r| r == path) {
                let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
                return Err(notify::Error::io(denied).add_path(path.to_path_buf()));
            }
            if self.watched.len() >= self.kernel_budget {
                return Err(notify::Error::new(ErrorKind::MaxFilesWatch));
            }
            self.watched.push(path.to_path_buf());
            Ok(())
        }
        fn unwatch(&mut self, _: &Path) -> notify::Result<()> {
            Ok(())
        }
        fn kind() -> notify::WatcherKind {
            notify::WatcherKind::NullWatcher
        }
    }

    fn tree_of(folders: &[&str]) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        for folder in folders {
            fs::create_dir_all(root.path().join(folder)).unwrap();
        }
        root
    }

    #[test]
    fn a_folder_the_os_refuses_is_unwatched_alone_and_the_rest_is_watched() {
        let root = tree_of(&["frete/private/deep", "frete/references", "troca/references"]);
        let private = root.path().join("frete/private");
        let mut watcher = refusing(vec![private.clone()]);
        let mut tree = Tree::new(root.path(), 8, 100);
        tree.watch_all(&mut watcher);
        let unwatched: Vec<&PathBuf> = tree.unwatched().keys().collect();
        assert_eq!(unwatched, [&private]);
        assert!(matches!(tree.unwatched()[&private], AddError::Other { .. }));
        let mut watched: Vec<String> = watcher
            .watched
            .iter()
            .map(|p| p.strip_prefix(root.path()).unwrap().display().to_string())
            .collect();
        watched.sort();
        assert_eq!(watched, ["", "frete", "frete/references", "troca", "troca/references"]);
    }

    #[test]
    fn past_the_folder_limit_the_rest_is_unwatched_and_a_retry_watches_it_once_there_is_room() {
        let root = tree_of(&["a/x", "b/y", "c/z"]);
        let mut watcher = refusing(Vec::new());
        let mut tree = Tree::new(root.path(), 8, 4);
        tree.watch_all(&mut watcher);
        assert_eq!(watcher.watched.len(), 4);
        assert!(!tree.unwatched().is_empty());
        assert!(tree.unwatched().values().all(|r| *r == AddError::TooMany { max: 4 }));
        tree.max_dirs = 100;
        let recovered = tree.retry(&mut watcher);
        assert!(!recovered.is_empty() && tree.unwatched().is_empty(), "{recovered:?}");
        assert_eq!(watcher.watched.len(), 7);
    }

    #[test]
    fn a_deleted_unwatched_folder_is_forgotten() {
        let root = tree_of(&["frete/private"]);
        let private = root.path().join("frete/private");
        let mut watcher = refusing(vec![private.clone()]);
        let mut tree = Tree::new(root.path(), 8, 100);
        tree.watch_all(&mut watcher);
        tree.forget_below(&root.path().join("frete"));
        assert!(tree.unwatched().is_empty());
    }

    #[test]
    fn past_the_kernels_watch_limit_the_rest_is_unwatched_and_the_watched_part_stays() {
        let root = tree_of(&["a/x", "b/y", "c/z"]);
        let mut watcher = Refusing { kernel_budget: 3, ..refusing(Vec::new()) };
        let mut tree = Tree::new(root.path(), 8, 100);
        tree.watch_all(&mut watcher);
        assert_eq!(watcher.watched.len(), 3, "what the kernel granted is kept");
        assert!(!tree.unwatched().is_empty());
        assert!(
            tree.unwatched().values().all(|r| matches!(r, AddError::Limit { .. })),
            "{:?}",
            tree.unwatched()
        );
        watcher.kernel_budget = usize::MAX;
        tree.retry(&mut watcher);
        assert!(tree.unwatched().is_empty(), "watched once the kernel allows it");
        assert_eq!(watcher.watched.len(), 7);
    }
}
