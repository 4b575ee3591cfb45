//! The skills library as it runs: the library over the current skills directory, and on one
//! background thread its watcher (armed first, so no change made during the scan is missed) and
//! its start-up scan. Nothing on the start path reads a skill folder: starting returns as soon as
//! the database is open, so no file or folder in the skills directory (a FIFO, a huge file, a tree
//! of 100,000 folders) delays `serve` or the window, and neither the watch nor the scan can hang
//! on one (both read through the safe open, `skillcase_skill::skill_dir`). Settings can point it
//! at another folder or change the policy it validates under; both restart it in place, so every
//! front end keeps its `App` and simply sees the new library on its next call.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use skillcase_common::events::EventBus;
use skillcase_common::ErrorBody;
use skillcase_library::watch::{SkillsWatcher, WatchOptions};
use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::policy::Policy;
use skillcase_store::Database;
use tokio::sync::watch;

/// The current library and what keeps it up to date. The library starts on first use, so a
/// CLI command that never reads skills never scans the folder.
pub(crate) struct RunningLibrary {
    db: Arc<Database>,
    data_dir: PathBuf,
    catalog_dir: Option<PathBuf>,
    events: EventBus,
    /// How each library is watched; `None` for one-shot CLI commands, which do not watch.
    watch: Option<WatchOptions>,
    /// The folder and policy the library serves under (the next start uses them).
    config: Mutex<(PathBuf, Policy)>,
    current: RwLock<Option<Running>>,
}

struct Running {
    library: Arc<Library>,
    /// The watch, once the background thread has armed it.
    watching: Arc<Mutex<Watching>>,
    /// Turns true when the scan of this library has finished.
    scanned: watch::Receiver<bool>,
}

/// The watcher of one library, set by the background thread unless stopped first.
#[derive(Default)]
struct Watching {
    /// Set by [`Watching::stop`]: a watcher armed later is dropped at once.
    stopped: bool,
    /// Dropping it stops the watch; absent until armed, or when the directory cannot be watched.
    watcher: Option<SkillsWatcher>,
}

impl Watching {
    /// Stops the watch now, or as soon as the background thread has armed it.
    fn stop(watching: &Mutex<Watching>) {
        let watcher = {
            let mut watching = lock(watching);
            watching.stopped = true;
            watching.watcher.take()
        };
        drop(watcher);
    }

    /// Keeps `watcher` unless the watch was stopped meanwhile.
    fn arm(watching: &Mutex<Watching>, watcher: Option<SkillsWatcher>) {
        let late = {
            let mut watching = lock(watching);
            if watching.stopped {
                watcher
            } else {
                watching.watcher = watcher;
                None
            }
        };
        drop(late);
    }
}

impl RunningLibrary {
    /// A library to serve `skills_dir` under `policy`, started by the first [`RunningLibrary::get`].
    pub fn new(
        db: Arc<Database>,
        data_dir: &Path,
        (skills_dir, policy): (PathBuf, Policy),
        catalog_dir: Option<PathBuf>,
        events: EventBus,
        watch: Option<WatchOptions>,
    ) -> Self {
        RunningLibrary {
            db,
            data_dir: data_dir.to_path_buf(),
            catalog_dir,
            events,
            watch,
            config: Mutex::new((skills_dir, policy)),
            current: RwLock::new(None),
        }
    }

    /// The library in force, started (scan in the background, watcher) when it is not yet.
    pub fn get(&self) -> Result<Arc<Library>, ErrorBody> {
        if let Some(running) = self.current.read().unwrap_or_else(|p| p.into_inner()).as_ref() {
            return Ok(Arc::clone(&running.library));
        }
        let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
        if current.is_none() {
            *current = Some(self.open()?);
        }
        Ok(Arc::clone(&current.as_ref().expect("just started").library))
    }

    /// The skills directory served (or to be served).
    pub fn skills_dir(&self) -> PathBuf {
        lock(&self.config).0.clone()
    }

    /// What the watcher of the library in force cannot watch, if anything; `None` too before
    /// the library has started (this never starts it, so the status line costs nothing).
    pub fn watch_note(&self) -> Option<String> {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        current.as_ref().and_then(|running| running.library.watch_note())
    }

    /// The policy the library validates under.
    pub fn policy(&self) -> Policy {
        lock(&self.config).1.clone()
    }

    /// Resolves when the scan of the library in force has finished (starting it if needed).
    pub async fn scanned(&self) -> Result<(), ErrorBody> {
        self.get()?;
        let mut scanned = match self.current.read().unwrap_or_else(|p| p.into_inner()).as_ref() {
            Some(running) => running.scanned.clone(),
            None => return Ok(()),
        };
        let _ = scanned.wait_for(|done| *done).await;
        Ok(())
    }

    /// Serves `skills_dir` under `policy` from now on; a running library is replaced at once.
    pub fn restart(&self, skills_dir: PathBuf, policy: Policy) -> Result<(), ErrorBody> {
        *lock(&self.config) = (skills_dir, policy);
        let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
        if current.is_some() {
            let fresh = self.open()?;
            if let Some(old) = current.replace(fresh) {
                Watching::stop(&old.watching);
            }
        }
        Ok(())
    }

    /// Stops watching (the library itself stays readable).
    pub fn stop(&self) {
        if let Some(running) = self.current.read().unwrap_or_else(|p| p.into_inner()).as_ref() {
            Watching::stop(&running.watching);
        }
    }

    fn open(&self) -> Result<Running, ErrorBody> {
        let (skills_dir, policy) = lock(&self.config).clone();
        open(
            &self.db,
            &self.data_dir,
            skills_dir,
            self.catalog_dir.clone(),
            policy,
            &self.events,
            self.watch.clone(),
        )
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

fn open(
    db: &Arc<Database>,
    data_dir: &Path,
    skills_dir: PathBuf,
    catalog_dir: Option<PathBuf>,
    policy: Policy,
    events: &EventBus,
    watch: Option<WatchOptions>,
) -> Result<Running, ErrorBody> {
    let mut options = LibraryOptions::in_data_dir(data_dir, skills_dir, catalog_dir);
    options.database = Some(Arc::clone(db));
    options.policy = policy;
    options.events = events.clone();
    let library = Arc::new(Library::open(options)?);
    let (done, scanned) = watch::channel(false);
    let watching = Arc::new(Mutex::new(Watching::default()));
    let (scanning, arming) = (Arc::clone(&library), Arc::clone(&watching));
    std::thread::Builder::new()
        .name("skillcase-scan".into())
        .spawn(move || {
            // Listed first, watched next (the watch's walk of every folder takes longer than
            // the listing on a large library), then reconciled: the window shows its skills
            // sooner, and what changes while the watch is armed is in the second phase's look.
            // The watch and the second phase are background work, and run as such.
            let first = scanning.list_first();
            crate::priority::lower_this_thread();
            if let Some(options) = watch {
                Watching::arm(&arming, start_watching(&scanning, options));
            }
            if let Err(err) = first.and_then(|first| scanning.finish_scan(first)) {
                eprintln!("skillcase: the skills scan failed: {err}");
            }
            crate::memory::release_freed();
            let _ = done.send(true);
        })
        .map_err(|e| ErrorBody::new("task_failed", format!("cannot start the skills scan: {e}")))?;
    Ok(Running { library, watching, scanned })
}

fn start_watching(library: &Arc<Library>, options: WatchOptions) -> Option<SkillsWatcher> {
    match skillcase_library::watching::watch(library, options) {
        Ok(watcher) => Some(watcher),
        Err(err) => {
            eprintln!("skillcase: the skills directory is not watched: {err}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A watch budget the test's tree exceeds, and a quick rescan.
    fn options() -> WatchOptions {
        WatchOptions {
            max_dirs: 500,
            rescan_unwatched: Duration::from_millis(200),
            ..WatchOptions::default()
        }
    }

    /// One skill beside a folder of 1,000 empty folders: little for the scan to read, a
    /// thousand watches for the watcher (past the budget of [`options`]).
    fn large_tree(root: &Path) {
        for i in 0..1_000 {
            std::fs::create_dir_all(root.join(format!("bulk/d{i}"))).unwrap();
        }
        std::fs::create_dir_all(root.join("frete")).unwrap();
        let md = skillcase_testkit::skills::skill_md("frete", "Calcula o frete.");
        std::fs::write(root.join("frete/SKILL.md"), md).unwrap();
    }

    /// The watch walk runs on the background thread, so the first `get` — a window's first
    /// command, `serve` on its way to listening — takes a fraction of what starting the watch
    /// takes on the same tree (before, it took all of it: 1.0 s for 20,400 folders against
    /// 0.3 ms now); and the folders past the budget are then said in the status line's note.
    #[test]
    fn the_first_get_does_not_wait_for_the_watch_and_the_note_says_what_is_unwatched() {
        let tmp = tempfile::tempdir().unwrap();
        let skills = tmp.path().join("skills");
        large_tree(&skills);
        let started = Instant::now();
        drop(SkillsWatcher::start(&skills, options(), |_| {}).unwrap());
        let watch_takes = started.elapsed();

        let db = Database::open(&tmp.path().join("db.sqlite")).unwrap();
        let config = (skills, Policy::default());
        let running = RunningLibrary::new(db, tmp.path(), config, None, EventBus::new(), Some(options()));
        let started = Instant::now();
        running.get().unwrap();
        let get_takes = started.elapsed();
        assert!(get_takes * 4 < watch_takes, "the first get took {get_takes:?}, the watch {watch_takes:?}");

        let deadline = Instant::now() + Duration::from_secs(30);
        let note = loop {
            if let Some(note) = running.watch_note() {
                break note;
            }
            assert!(Instant::now() < deadline, "the watcher never said the tree is past its budget");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(note.contains("more than 500 folders") && note.contains("rescan"), "{note}");
        running.stop();
    }
}
