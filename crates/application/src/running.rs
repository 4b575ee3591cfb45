//! The skills library as it runs: the library over the current skills directory, its start-up
//! scan in the background and its watcher. Settings can point it at another folder or change the
//! policy it validates under; both restart it in place, so every front end keeps its `App` and
//! simply sees the new library on its next call.

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
    /// Whether each library is watched (off for one-shot CLI commands).
    watch: bool,
    /// The folder and policy the library serves under (the next start uses them).
    config: Mutex<(PathBuf, Policy)>,
    current: RwLock<Option<Running>>,
}

struct Running {
    library: Arc<Library>,
    /// Dropping it stops the watch; absent when the directory could not be watched.
    watcher: Option<SkillsWatcher>,
    /// Turns true when the scan of this library has finished.
    scanned: watch::Receiver<bool>,
}

impl RunningLibrary {
    /// A library to serve `skills_dir` under `policy`, started by the first [`RunningLibrary::get`].
    pub fn new(
        db: Arc<Database>,
        data_dir: &Path,
        (skills_dir, policy): (PathBuf, Policy),
        catalog_dir: Option<PathBuf>,
        events: EventBus,
        watch: bool,
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
                drop(old.watcher);
            }
        }
        Ok(())
    }

    /// Stops watching (the library itself stays readable).
    pub fn stop(&self) {
        if let Some(running) = self.current.write().unwrap_or_else(|p| p.into_inner()).as_mut() {
            running.watcher.take();
        }
    }

    fn open(&self) -> Result<Running, ErrorBody> {
        let (skills_dir, policy) = lock(&self.config).clone();
        open(&self.db, &self.data_dir, skills_dir, self.catalog_dir.clone(), policy, &self.events, self.watch)
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
    watch: bool,
) -> Result<Running, ErrorBody> {
    let mut options = LibraryOptions::in_data_dir(data_dir, skills_dir, catalog_dir);
    options.database = Some(Arc::clone(db));
    options.policy = policy;
    options.events = events.clone();
    let library = Arc::new(Library::open(options)?);
    let (done, scanned) = watch::channel(false);
    let scanning = Arc::clone(&library);
    std::thread::Builder::new()
        .name("skillcase-scan".into())
        .spawn(move || {
            if let Err(err) = scanning.scan() {
                eprintln!("skillcase: the skills scan failed: {err}");
            }
            let _ = done.send(true);
        })
        .map_err(|e| ErrorBody::new("task_failed", format!("cannot start the skills scan: {e}")))?;
    let watcher = if watch { start_watching(&library) } else { None };
    Ok(Running { library, watcher, scanned })
}

fn start_watching(library: &Arc<Library>) -> Option<SkillsWatcher> {
    match skillcase_library::watching::watch(library, WatchOptions::default()) {
        Ok(watcher) => Some(watcher),
        Err(err) => {
            eprintln!("skillcase: the skills directory is not watched: {err}");
            None
        }
    }
}
