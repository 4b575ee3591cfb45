//! The watched skills directory (SPEC A9): raw file events in, one small event per skill out.
//!
//! [`SkillsWatcher::start`] watches the skills directory on a background thread and hands the
//! consumer (the library) a batch of [`WatchEvent`]s whenever skills have settled: one
//! `SkillChanged` per skill folder that changed, however many files an editor save, an unzip or
//! a `git checkout` touched in it. The consumer re-scans that one skill; nothing here reads skill
//! content or knows about versions, so the watcher can be tested on its own.
//!
//! Timing: a skill is reported once nothing in it has changed for [`WatchOptions::quiet`]
//! (250 ms) and no file in it is still open for writing (Linux), and at the latest
//! [`WatchOptions::max_wait`] after its first change. The directory itself is probed every
//! [`WatchOptions::poll`]; when it disappears or becomes unreadable the watcher says so and,
//! when it comes back, re-arms itself and says that too.
//!
//! Consuming the events (the library): `SkillChanged` → re-scan that folder and record a version
//! if its content differs (the library's own writes come back as events too, and must dedupe by
//! content); `SkillRemoved` → the skill is gone from the directory; `Rescan` and `DirBack` →
//! [`skill_names`] and re-scan each, treating known skills missing from the list as removed;
//! `DirUnavailable` → keep what is known and tell the UI (`DomainEvent::SkillsDirStatus`);
//! `Incomplete` → tell the UI too (some changes arrive only with the next rescan of the unwatched
//! folders), and `Complete` when that is over.

mod error;
mod filter;
mod modes;
mod polled;
mod settle;
mod tree;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

pub use error::WatchError;

/// What the consumer learns about the skills directory, in batches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// The folder `name` holds a `SKILL.md` and something in it changed (or it appeared, or a
    /// folder was renamed to it): re-scan and re-validate that skill.
    SkillChanged { name: String },
    /// The skill folder `name` (known to hold a `SKILL.md`) is gone, or its `SKILL.md` is.
    SkillRemoved { name: String },
    /// Events were lost (the OS queue overflowed) or more skills changed at once than
    /// [`WatchOptions::max_batch`]: re-scan the whole directory.
    Rescan,
    /// The skills directory is missing, not a folder or unreadable; `reason` says which. Nothing
    /// more is reported until [`WatchEvent::DirBack`].
    DirUnavailable { reason: String },
    /// The skills directory is readable again and watched afresh: re-scan the whole directory.
    DirBack,
    /// Some folders cannot be watched (unreadable, past the OS watch limit or past
    /// [`WatchOptions::max_dirs`]); every other folder still is, and the unwatched ones are
    /// rescanned every [`WatchOptions::rescan_unwatched`] instead, so their changes arrive late
    /// rather than never. `reason` says which folders, why and what to do about it. Said again
    /// when the set changes (per refused folder; a budget once), and [`WatchEvent::Complete`]
    /// follows when every folder is watched again.
    Incomplete { reason: String },
    /// Every folder is watched again after an [`WatchEvent::Incomplete`].
    Complete,
}

/// The watcher's bounds and timings. The defaults suit a person saving in an editor and tools
/// writing bursts; tests and benches may shorten them.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// How long a skill must be quiet before it is reported.
    pub quiet: Duration,
    /// The longest a skill's change waits, even if the skill never goes quiet.
    pub max_wait: Duration,
    /// How often the directory itself is checked (it cannot always report its own removal, say
    /// when a parent folder is renamed) right after it appeared or while it is missing.
    pub poll: Duration,
    /// The longest wait between two checks: while the directory stays where it is, each check
    /// doubles the wait up to this, so an idle watch costs a wake-up every half minute, not every
    /// second (its own removal and moves still arrive as events at once).
    pub poll_max: Duration,
    /// Deepest folder level watched, the skill folder being level 1.
    pub max_depth: usize,
    /// Most folders watched in all (each costs one inotify watch on Linux).
    pub max_dirs: usize,
    /// Most skills in one batch; beyond it the batch is a single [`WatchEvent::Rescan`].
    pub max_batch: usize,
    /// How often folders that cannot be watched are rescanned (and tried again).
    pub rescan_unwatched: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            quiet: Duration::from_millis(250),
            max_wait: Duration::from_secs(3),
            poll: Duration::from_secs(1),
            poll_max: Duration::from_secs(30),
            max_depth: 8,
            max_dirs: 20_000,
            max_batch: 1_000,
            rescan_unwatched: Duration::from_secs(2),
        }
    }
}

/// A running watch of one skills directory. Dropping it stops the watch and joins its thread.
#[derive(Debug)]
pub struct SkillsWatcher {
    dir: PathBuf,
    stop: mpsc::Sender<worker::Msg>,
    thread: Option<JoinHandle<()>>,
}

impl SkillsWatcher {
    /// Starts watching `dir`, calling `on_event` on the watcher's thread with each batch.
    ///
    /// A directory that is missing at start is not an error: the first batch is
    /// [`WatchEvent::DirUnavailable`], and [`WatchEvent::DirBack`] follows when it appears. Nor
    /// is a folder that cannot be watched, or a tree larger than the watch budget: the first
    /// batch is [`WatchEvent::Incomplete`] and the rest is watched. Fails only when the path is
    /// a file or the OS file-notification service cannot start.
    pub fn start(
        dir: &Path,
        options: WatchOptions,
        on_event: impl Fn(Vec<WatchEvent>) + Send + 'static,
    ) -> Result<SkillsWatcher, WatchError> {
        let dir =
            std::fs::canonicalize(dir).unwrap_or_else(|_| std::path::absolute(dir).unwrap_or(dir.into()));
        if dir.exists() && !dir.is_dir() {
            return Err(WatchError::NotADirectory { path: dir });
        }
        let (tx, rx) = mpsc::channel();
        let (worker, first) = worker::Worker::new(&dir, options, tx.clone(), on_event)?;
        let thread = std::thread::Builder::new()
            .name("skills-watcher".into())
            .spawn(move || worker.run(rx, first))
            .map_err(|e| WatchError::StartFailed { path: dir.clone(), message: e.to_string() })?;
        Ok(SkillsWatcher { dir, stop: tx, thread: Some(thread) })
    }

    /// The watched directory, absolute (as event paths are resolved against it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for SkillsWatcher {
    fn drop(&mut self) {
        let _ = self.stop.send(worker::Msg::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The skills in `dir`: its non-hidden folders that hold a `SKILL.md`, sorted. This is the
/// The skill folders' names under `dir` (the one discovery rule set of `skillcase_skill::discover`).
pub fn skill_names(dir: &Path) -> std::io::Result<Vec<String>> {
    Ok(skillcase_skill::discover::skill_folders(dir)?.into_iter().map(|f| f.name).collect())
}

/// True when `folder` is a folder holding a `SKILL.md` (or `skill.md`).
pub fn is_skill_folder(folder: &Path) -> bool {
    skillcase_skill::discover::has_skill_md(folder)
}
