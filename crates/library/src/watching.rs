//! Connecting the watcher (`crate::watch`) to the library: each settled change re-scans one
//! skill ([`Library::sync_skill`], which publishes `skill-changed` / `skill-removed`); lost
//! events, a directory that comes back or goes away re-scan everything ([`Library::scan`], which
//! publishes `skills-dir-status`). Folders the watcher cannot watch are said in
//! `skills-dir-status` too (`available: true` with the watcher's words, cleared when they are
//! watched again), and kept as [`Library::watch_note`]. The watcher thread does this work itself,
//! one batch at a time.

use std::sync::Arc;

use super::{Library, Source};
use crate::watch::{SkillsWatcher, WatchError, WatchEvent, WatchOptions};
use skillcase_common::events::DomainEvent;

/// Starts watching `library`'s skills directory; the watch lasts as long as the returned value.
pub fn watch(library: &Arc<Library>, options: WatchOptions) -> Result<SkillsWatcher, WatchError> {
    let target = Arc::clone(library);
    SkillsWatcher::start(library.skills_dir(), options, move |batch| apply(&target, batch))
}

/// Applies one batch of watcher events to the library. Failures are logged, not fatal: the next
/// change or scan brings the skill back in line.
pub fn apply(library: &Library, batch: Vec<WatchEvent>) {
    let mut rescan = false;
    for event in batch {
        let result = match event {
            WatchEvent::SkillChanged { name } | WatchEvent::SkillRemoved { name } => {
                library.sync_skill(&name, Source::Watch)
            }
            WatchEvent::Rescan | WatchEvent::DirBack | WatchEvent::DirUnavailable { .. } => {
                rescan = true;
                Ok(())
            }
            WatchEvent::Incomplete { reason } => {
                eprintln!("skillcase: some skill folders are not watched: {reason}");
                library.set_watch_note(Some(reason));
                Ok(())
            }
            WatchEvent::Complete => {
                library.set_watch_note(None);
                Ok(())
            }
        };
        if let Err(err) = result {
            eprintln!("skillcase: re-reading a changed skill failed: {err}");
        }
    }
    if rescan {
        if let Err(err) = library.scan() {
            eprintln!("skillcase: re-scanning the skills directory failed: {err}");
        }
    }
}

impl Library {
    /// What the watcher said it cannot watch (and rescans instead), while that lasts.
    pub fn watch_note(&self) -> Option<String> {
        self.read_state().watch_note.clone()
    }

    /// Records the watcher's note and tells the UI (`skills-dir-status`, the directory itself
    /// still available) when it changed.
    pub(crate) fn set_watch_note(&self, note: Option<String>) {
        let changed = {
            let mut state = self.write_state();
            let changed = state.watch_note != note;
            state.watch_note = note.clone();
            changed
        };
        if changed && self.unavailable().is_none() {
            self.publish(DomainEvent::SkillsDirStatus { available: true, message: note });
        }
    }
}
