//! The watcher's thread: receives raw notify events, keeps the watches in step with the folders,
//! probes the directory itself, and hands settled skills to the consumer.

use std::collections::HashSet;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{Config, Event, EventKind, RecommendedWatcher, Watcher, WatcherKind};

use super::filter::skill_of;
use super::modes::ExecBits;
use super::settle::{Due, Settle};
use super::tree::{AddError, Tree};
use super::{is_skill_folder, skill_names, WatchError, WatchEvent, WatchOptions};

/// Most queued events handled before the thread looks at the clock again, so a storm cannot
/// hold back the directory probe and the skills already due.
const DRAIN_AT_ONCE: usize = 10_000;

/// What the watcher's thread receives: a raw event from notify, or the order to stop.
#[derive(Debug)]
pub(crate) enum Msg {
    Fs(notify::Result<Event>),
    Stop,
}

/// Identity of the directory being watched, so a folder re-created under the same path is
/// noticed even between two probes.
type RootId = Option<(u64, u64)>;

/// The state owned by the watcher's thread.
pub(crate) struct Worker<F> {
    root: PathBuf,
    options: WatchOptions,
    watcher: RecommendedWatcher,
    tree: Tree,
    settle: Settle,
    /// Top-level folders known to hold a `SKILL.md`: only these can be reported removed.
    known: HashSet<String>,
    /// Which files are executable, so a metadata event counts only when that changed.
    exec_bits: ExecBits,
    /// `Some` while the directory is available.
    root_id: Option<RootId>,
    /// Whether the OS reports closes after writing (inotify), so open files can hold a skill.
    tracks_closes: bool,
    /// Set by an event on the directory itself: probe it now rather than at the next poll.
    probe_now: bool,
    /// Set once an `Incomplete` was reported, so a full watch budget is said once, not per folder.
    incomplete: bool,
    on_event: F,
}

impl<F: Fn(Vec<WatchEvent>)> Worker<F> {
    /// Arms the OS watcher on `root` and returns the worker with its first batch (empty, or
    /// `DirUnavailable` when the directory is missing at start).
    pub(crate) fn new(
        root: &Path,
        options: WatchOptions,
        tx: Sender<Msg>,
        on_event: F,
    ) -> Result<(Self, Vec<WatchEvent>), WatchError> {
        let start_failed =
            |e: notify::Error| WatchError::StartFailed { path: root.into(), message: e.to_string() };
        let watcher = RecommendedWatcher::new(
            move |res| {
                let _ = tx.send(Msg::Fs(res));
            },
            Config::default(),
        )
        .map_err(start_failed)?;
        let mut worker = Worker {
            root: root.to_path_buf(),
            tree: Tree::new(root, options.max_depth, options.max_dirs),
            settle: Settle::new(options.quiet, options.max_wait),
            options,
            watcher,
            known: HashSet::new(),
            exec_bits: ExecBits::default(),
            root_id: None,
            tracks_closes: RecommendedWatcher::kind() == WatcherKind::Inotify,
            probe_now: false,
            incomplete: false,
            on_event,
        };
        let first = match probe(root) {
            Ok(id) => {
                worker.bring_up(id).map_err(|e| worker.start_error(e))?;
                Vec::new()
            }
            Err(reason) => vec![WatchEvent::DirUnavailable { reason }],
        };
        Ok((worker, first))
    }

    /// The thread's loop: runs until told to stop or until the watcher is dropped.
    pub(crate) fn run(mut self, rx: Receiver<Msg>, first: Vec<WatchEvent>) {
        let mut batch = first;
        let mut next_poll = Instant::now() + self.options.poll;
        loop {
            self.deliver(&mut batch);
            let wake = self.settle.next_due().map_or(next_poll, |due| due.min(next_poll));
            match rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(Msg::Fs(res)) => {
                    batch.extend(self.on_fs(res, Instant::now()));
                    for msg in rx.try_iter().take(DRAIN_AT_ONCE) {
                        match msg {
                            Msg::Fs(res) => batch.extend(self.on_fs(res, Instant::now())),
                            Msg::Stop => return,
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if self.probe_now || now >= next_poll {
                self.probe_now = false;
                next_poll = now + self.options.poll;
                batch.extend(self.check_root());
            }
            batch.extend(self.flush(Instant::now()));
        }
    }

    /// Hands a non-empty batch to the consumer; a panicking consumer does not stop the watcher.
    fn deliver(&self, batch: &mut Vec<WatchEvent>) {
        if !batch.is_empty() {
            let events = std::mem::take(batch);
            let _ = catch_unwind(AssertUnwindSafe(|| (self.on_event)(events)));
        }
    }

    /// Folds one raw event into the pending state; returns any event that cannot wait.
    fn on_fs(&mut self, res: notify::Result<Event>, now: Instant) -> Vec<WatchEvent> {
        let event = match res {
            Ok(event) => event,
            Err(err) => return self.on_error(err),
        };
        let close_write = matches!(event.kind, EventKind::Access(AccessKind::Close(AccessMode::Write)));
        if matches!(event.kind, EventKind::Access(_)) && !close_write {
            return Vec::new();
        }
        if event.need_rescan() {
            self.settle.owe_rescan(now);
        }
        if self.root_id.is_none() {
            return Vec::new();
        }
        let mut urgent = Vec::new();
        for path in &event.paths {
            if path == &self.root {
                self.probe_now = true;
                continue;
            }
            let Some(skill) = skill_of(&self.root, path, self.options.max_depth) else { continue };
            match event.kind {
                EventKind::Access(_) => {
                    self.settle.closed(&skill, path, now);
                }
                EventKind::Modify(ModifyKind::Data(_)) if self.tracks_closes => {
                    self.settle.writing(&skill, path, now);
                }
                EventKind::Create(_) | EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_)) => {
                    urgent.extend(self.follow_structure(path));
                    self.settle.closed(&skill, path, now);
                    self.settle.touch(&skill, now);
                }
                EventKind::Modify(ModifyKind::Metadata(_)) => {
                    if self.exec_bits.flipped(path) {
                        self.settle.touch(&skill, now);
                    }
                }
                _ => self.settle.touch(&skill, now),
            }
        }
        if self.settle.len() > self.options.max_batch {
            self.settle.owe_rescan(now);
        }
        urgent
    }

    /// A notify error: the watch budget running out is reported; anything else may mean the
    /// directory itself is in trouble, so it is probed.
    fn on_error(&mut self, err: notify::Error) -> Vec<WatchEvent> {
        match err.kind {
            notify::ErrorKind::MaxFilesWatch => {
                self.incomplete(AddError::Limit { limit: super::tree::inotify_limit() }).into_iter().collect()
            }
            _ => {
                self.probe_now = true;
                Vec::new()
            }
        }
    }

    /// Keeps the watches in step after a create, remove or rename at `path`.
    fn follow_structure(&mut self, path: &Path) -> Option<WatchEvent> {
        let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
        if !is_dir {
            self.tree.forget_below(path);
            return None;
        }
        match self.tree.watch_below(&mut self.watcher, path) {
            Ok(()) => None,
            Err(err) => self.incomplete(err),
        }
    }

    /// Reports (once) that some folders go unwatched.
    fn incomplete(&mut self, err: AddError) -> Option<WatchEvent> {
        if std::mem::replace(&mut self.incomplete, true) {
            return None;
        }
        Some(WatchEvent::Incomplete { reason: self.start_error(err).to_string() })
    }

    /// Turns the skills that have settled into events.
    fn flush(&mut self, now: Instant) -> Vec<WatchEvent> {
        match self.settle.take_due(now) {
            Due::Skills(names) if names.len() <= self.options.max_batch => {
                names.into_iter().filter_map(|name| self.resolve(name)).collect()
            }
            Due::Skills(_) | Due::Rescan => {
                let mut events = vec![WatchEvent::Rescan];
                if let Err(err) = self.tree.watch_all(&mut self.watcher) {
                    events.extend(self.incomplete(err));
                }
                self.learn_all();
                events
            }
        }
    }

    /// What a settled skill folder amounts to now: changed, removed, or nothing (never a skill).
    fn resolve(&mut self, name: String) -> Option<WatchEvent> {
        let folder = self.root.join(&name);
        self.exec_bits.learn_below(&folder, self.options.max_depth);
        if is_skill_folder(&folder) {
            self.known.insert(name.clone());
            Some(WatchEvent::SkillChanged { name })
        } else if self.known.remove(&name) {
            Some(WatchEvent::SkillRemoved { name })
        } else {
            None
        }
    }

    /// Compares the directory with what was last seen: gone, back, or replaced by another folder.
    fn check_root(&mut self) -> Vec<WatchEvent> {
        match (self.root_id, probe(&self.root)) {
            (Some(_), Err(reason)) => {
                self.bring_down();
                vec![WatchEvent::DirUnavailable { reason }]
            }
            (Some(seen), Ok(now)) if seen != now => {
                self.bring_down();
                let mut events =
                    vec![WatchEvent::DirUnavailable { reason: "the folder was replaced".to_string() }];
                events.extend(self.come_back(now));
                events
            }
            (None, Ok(now)) => self.come_back(now),
            _ => Vec::new(),
        }
    }

    fn come_back(&mut self, id: RootId) -> Vec<WatchEvent> {
        let mut events = vec![WatchEvent::DirBack];
        if let Err(err) = self.bring_up(id) {
            events.extend(self.incomplete(err));
        }
        events
    }

    /// Watches the whole tree and learns which folders are skills.
    fn bring_up(&mut self, id: RootId) -> Result<(), AddError> {
        self.root_id = Some(id);
        self.incomplete = false;
        self.settle.clear();
        let watched = self.tree.watch_all(&mut self.watcher);
        self.learn_all();
        watched
    }

    /// Learns which folders are skills and which files are executable, from the disk.
    fn learn_all(&mut self) {
        self.known = skill_names(&self.root).unwrap_or_default().into_iter().collect();
        self.exec_bits.learn_below(&self.root, self.options.max_depth);
    }

    /// Drops every watch: the directory is gone, unreadable or replaced.
    fn bring_down(&mut self) {
        self.root_id = None;
        self.tree.unwatch_all(&mut self.watcher);
        self.settle.clear();
        self.known.clear();
        self.exec_bits.clear();
    }

    fn start_error(&self, err: AddError) -> WatchError {
        let path = self.root.clone();
        match err {
            AddError::Limit { limit } => WatchError::WatchLimitReached { path, limit },
            AddError::TooMany { max } => WatchError::TooManyFolders { path, max },
            AddError::Other { path, message } => WatchError::StartFailed { path, message },
        }
    }
}

/// Whether the directory is usable now, and which folder it is; or why not, in words.
fn probe(root: &Path) -> Result<RootId, String> {
    let meta = fs::metadata(root).map_err(|e| format!("{}: {e}", root.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a folder", root.display()));
    }
    fs::read_dir(root).map_err(|e| format!("{} cannot be read: {e}", root.display()))?;
    Ok(root_id(&meta))
}

#[cfg(unix)]
fn root_id(meta: &fs::Metadata) -> RootId {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn root_id(_meta: &fs::Metadata) -> RootId {
    None
}
