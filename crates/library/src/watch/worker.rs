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
use super::polled::Polled;
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
    /// Fingerprints of the unwatched folders, compared at each rescan.
    polled: Polled,
    /// When the unwatched folders are next rescanned.
    next_rescan: Instant,
    /// What the last `Incomplete` said, by kind and folder, so it is said again only when that
    /// changes (a full watch budget is said once, not per folder), and `Complete` follows it.
    reported: Option<std::collections::BTreeSet<String>>,
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
            polled: Polled::default(),
            next_rescan: Instant::now(),
            reported: None,
            on_event,
        };
        let first = match probe(root) {
            Ok(id) => worker.bring_up(id).into_iter().collect(),
            Err(reason) => vec![WatchEvent::DirUnavailable { reason }],
        };
        Ok((worker, first))
    }

    /// The thread's loop: runs until told to stop or until the watcher is dropped.
    pub(crate) fn run(mut self, rx: Receiver<Msg>, first: Vec<WatchEvent>) {
        let mut batch = first;
        let mut poll_every = self.options.poll;
        let mut next_poll = Instant::now() + poll_every;
        loop {
            self.deliver(&mut batch);
            let mut wake = self.settle.next_due().map_or(next_poll, |due| due.min(next_poll));
            if !self.tree.unwatched().is_empty() {
                wake = wake.min(self.next_rescan);
            }
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
                let news = self.check_root();
                poll_every = if news.is_empty() && self.root_id.is_some() {
                    (poll_every * 2).min(self.options.poll_max.max(self.options.poll))
                } else {
                    self.options.poll
                };
                next_poll = now + poll_every;
                batch.extend(news);
            }
            if self.root_id.is_some() && !self.tree.unwatched().is_empty() && now >= self.next_rescan {
                batch.extend(self.rescan_unwatched(now));
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
                // Where the event stream itself lost track: rescan everything (which re-walks the
                // tree and records what cannot be watched).
                self.settle.owe_rescan(Instant::now());
                Vec::new()
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
        self.tree.watch_below(&mut self.watcher, path);
        self.report_incomplete()
    }

    /// Tries the unwatched folders again (a skill under one now watched is re-read, since what
    /// happened there meanwhile is unknown) and compares the rest with their last fingerprints.
    fn rescan_unwatched(&mut self, now: Instant) -> Option<WatchEvent> {
        self.next_rescan = now + self.options.rescan_unwatched;
        for dir in self.tree.retry(&mut self.watcher) {
            if dir == self.root {
                self.settle.owe_rescan(now);
            } else if let Some(skill) = skill_of(&self.root, &dir, self.options.max_depth) {
                self.settle.touch(&skill, now);
            }
        }
        let changed = self.polled.rescan(&self.root, self.tree.unwatched().keys(), self.options.max_depth);
        for skill in changed {
            self.settle.touch(&skill, now);
        }
        self.report_incomplete()
    }

    /// `Incomplete` when the unwatched folders (by kind and folder) differ from what was last
    /// said, `Complete` when none is left after some were reported.
    fn report_incomplete(&mut self) -> Option<WatchEvent> {
        let unwatched = self.tree.unwatched();
        let key: std::collections::BTreeSet<String> =
            unwatched.iter().map(|(dir, why)| label(dir, why)).collect();
        let now = (!key.is_empty()).then_some(key);
        if now == self.reported {
            return None;
        }
        let before = std::mem::replace(&mut self.reported, now);
        if self.reported.is_none() {
            return before.map(|_| WatchEvent::Complete);
        }
        if self.next_rescan < Instant::now() {
            self.next_rescan = Instant::now() + self.options.rescan_unwatched;
        }
        Some(WatchEvent::Incomplete { reason: self.describe_unwatched() })
    }

    /// The unwatched folders in words: which, why, and what is done instead.
    fn describe_unwatched(&self) -> String {
        let unwatched = self.tree.unwatched();
        let mut parts = Vec::new();
        let shown = |dir: &Path| {
            dir.strip_prefix(&self.root).map_or(dir.display().to_string(), |d| d.display().to_string())
        };
        let refused: Vec<String> = unwatched
            .iter()
            .filter_map(|(dir, why)| match why {
                AddError::Other { message } => Some(format!("{} ({message})", shown(dir))),
                _ => None,
            })
            .collect();
        if !refused.is_empty() {
            let more = refused.len().saturating_sub(5);
            let mut list = refused.into_iter().take(5).collect::<Vec<_>>().join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more"));
            }
            parts.push(format!("cannot be watched: {list}"));
        }
        for budget in unwatched.values() {
            let said = match budget {
                AddError::Limit { limit } => format!(
                    "the system allows no more file watches{}; raise fs.inotify.max_user_watches",
                    limit.map(|l| format!(" (limit {l})")).unwrap_or_default()
                ),
                AddError::TooMany { max } => {
                    format!("the skills directory holds more than {max} folders, the most watched")
                }
                AddError::Other { .. } => continue,
            };
            if !parts.contains(&said) {
                parts.push(said);
            }
        }
        let count = unwatched.len();
        let folders = if count == 1 { "1 folder is".to_string() } else { format!("{count} folders are") };
        format!(
            "{folders} not watched ({}); changes there are picked up by a rescan every {} s instead",
            parts.join("; "),
            self.options.rescan_unwatched.as_secs_f32()
        )
    }

    /// Turns the skills that have settled into events.
    fn flush(&mut self, now: Instant) -> Vec<WatchEvent> {
        match self.settle.take_due(now) {
            Due::Skills(names) if names.len() <= self.options.max_batch => {
                names.into_iter().filter_map(|name| self.resolve(name)).collect()
            }
            Due::Skills(_) | Due::Rescan => {
                let mut events = vec![WatchEvent::Rescan];
                self.tree.watch_all(&mut self.watcher);
                events.extend(self.report_incomplete());
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
        events.extend(self.bring_up(id));
        events
    }

    /// Watches the whole tree and learns which folders are skills; says which folders could not
    /// be watched, if any.
    fn bring_up(&mut self, id: RootId) -> Option<WatchEvent> {
        self.root_id = Some(id);
        self.reported = None;
        self.settle.clear();
        self.polled.clear();
        self.tree.watch_all(&mut self.watcher);
        self.learn_all();
        self.next_rescan = Instant::now() + self.options.rescan_unwatched;
        self.polled.rescan(&self.root, self.tree.unwatched().keys(), self.options.max_depth);
        self.report_incomplete()
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
        self.polled.clear();
        self.reported = None;
    }
}

/// What an unwatched folder counts as when deciding whether to say so again: a budget that ran
/// out counts once whatever the folder, a refused folder counts on its own.
fn label(dir: &Path, why: &AddError) -> String {
    match why {
        AddError::Limit { .. } => "limit".to_string(),
        AddError::TooMany { .. } => "too many".to_string(),
        AddError::Other { message } => format!("{}: {message}", dir.display()),
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
