//! The skill library (SPEC A9): the watched skills directory and the shipped catalog, every
//! distinct content of every skill as an immutable version in SQLite with its files in a
//! content-addressed blob store, and the operations the UI, the API and the CLI share.
//!
//! One [`Library`] is opened per skills directory and shared (`Arc<Library>`). Reads (list,
//! index, matching) come from an in-memory view; each write is validated in memory first, then
//! staged beside the skills directory and renamed into place, and only then committed to the
//! database in one transaction. On open and scan the folders on disk are the truth: a folder whose
//! content is not recorded gets a `watch` version. Every change publishes one small event.
//!
//! Module map: [`store`] (SQL), [`blobs`], [`versions`] (manifest and content hash), [`scan`]
//! (start-up scan and single-skill sync), [`listing`] (list, detail, the disclosure levels),
//! [`folder`] (atomic folder writes), [`edit`], [`import`], [`catalog`], [`rollback`], [`diff`],
//! [`activations`], [`remote`] (remote catalogs: subscriptions, incremental pulls, forks on install), [`watching`] (the watcher's events applied), [`served`] (the served skills as
//! stored versions, for clients that publish digests), [`install`] (copies into agents' skills
//! folders with their `skillcase.lock`, drift and sync).

pub mod activations;
pub mod archive;
pub mod catalog;
pub mod clients;
pub mod diff;
pub mod edit;
pub mod error;
mod folder;
mod folder_zip;
pub mod import;
pub mod install;
pub mod listing;
pub mod remote;
pub mod repository;
pub mod rollback;
pub mod scan;
pub mod served;
mod state;
pub mod store;
mod sync;
pub mod trigger_tests;
pub mod types;
pub mod versions;
pub mod watch;
pub mod watching;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub use error::LibraryError;
pub use types::*;

use remote::store::RemoteRepository;
use repository::{LibraryRepository, SqliteLibrary};
use skillcase_common::events::{DomainEvent, EventBus};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::Profile;
use skillcase_store::blobs::BlobStore;
use skillcase_store::Database;
use state::State;

/// What made a change: the same names as [`VersionSource`].
pub type Source = VersionSource;

/// The profile every library validation uses.
pub const PROFILE: Profile = Profile::Skillcase;

/// Where the library keeps things and whom it tells about changes.
#[derive(Debug, Clone)]
pub struct LibraryOptions {
    /// The SQLite database (created and migrated if needed) when `database` is not given.
    pub db_path: PathBuf,
    /// The process's open database, shared with the rest of the application.
    pub database: Option<Arc<Database>>,
    /// The watched skills directory: one folder per skill.
    pub skills_dir: PathBuf,
    /// The read-only catalog (`skills-examples/`); ignored when it is the skills directory itself.
    pub catalog_dir: Option<PathBuf>,
    /// The content-addressed blob store.
    pub blobs_dir: PathBuf,
    pub policy: Policy,
    pub events: EventBus,
}

impl LibraryOptions {
    /// The usual layout under a data directory: `<data>/skillcase.sqlite3` and `<data>/blobs`.
    pub fn in_data_dir(data_dir: &Path, skills_dir: PathBuf, catalog_dir: Option<PathBuf>) -> Self {
        LibraryOptions {
            db_path: data_dir.join(skillcase_store::db::DATABASE_FILE),
            database: None,
            skills_dir,
            catalog_dir,
            blobs_dir: data_dir.join("blobs"),
            policy: Policy::default(),
            events: EventBus::default(),
        }
    }
}

/// The skill library. Internally synchronised: share it as `Arc<Library>`.
#[derive(Debug)]
pub struct Library {
    skills_dir: PathBuf,
    catalog_dir: Option<PathBuf>,
    policy: Policy,
    events: EventBus,
    blobs: BlobStore,
    repo: Arc<dyn LibraryRepository>,
    /// The remote catalogs' subscriptions, pulls and forks.
    remote: Arc<dyn RemoteRepository>,
    /// Serialises writes (edits, imports, syncs, scans) so each sees the previous one's result.
    writer: Mutex<()>,
    state: RwLock<State>,
}

impl Library {
    /// Opens the database (applying migrations) and the blob store. Nothing is listed until
    /// [`Library::scan`] runs.
    pub fn open(options: LibraryOptions) -> Result<Library, LibraryError> {
        let database = match options.database {
            Some(database) => database,
            None => Database::open(&options.db_path)?,
        };
        let skills_dir = std::path::absolute(&options.skills_dir).unwrap_or(options.skills_dir);
        let catalog_dir = options
            .catalog_dir
            .map(|dir| std::path::absolute(&dir).unwrap_or(dir))
            .filter(|dir| !same_dir(dir, &skills_dir));
        Ok(Library {
            skills_dir,
            catalog_dir,
            policy: options.policy,
            events: options.events,
            blobs: BlobStore::new(options.blobs_dir),
            repo: Arc::new(SqliteLibrary::new(Arc::clone(&database))),
            remote: Arc::new(SqliteLibrary::new(database)),
            writer: Mutex::new(()),
            state: RwLock::new(State::default()),
        })
    }

    /// The watched skills directory (absolute).
    pub fn skills_dir(&self) -> &Path {
        &self.skills_dir
    }

    /// The catalog folder, unless it is the skills directory itself.
    pub fn catalog_dir(&self) -> Option<&Path> {
        self.catalog_dir.as_deref()
    }

    /// The workspace policy validations run under.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// `Some(reason)` while the skills directory cannot be read.
    pub fn unavailable(&self) -> Option<String> {
        self.read_state().unavailable.clone()
    }

    /// Removes the blobs no recorded version (nor remote catalog pull) names (left behind by interrupted writes). Never
    /// runs by itself: versions are kept forever, so this only reclaims orphans.
    pub fn gc_blobs(&self) -> Result<GcReport, LibraryError> {
        let _writing = self.write_lock();
        let mut manifests = self.repo.all_manifests()?;
        manifests.extend(self.remote.pulled_manifests()?);
        let referenced: std::collections::HashSet<String> =
            manifests.into_iter().flatten().map(|m| m.sha256).collect();
        let (kept, removed, freed_bytes) =
            self.blobs.collect(&referenced).map_err(LibraryError::io(self.blobs.root()))?;
        Ok(GcReport { kept, removed, freed_bytes })
    }

    fn write_lock(&self) -> MutexGuard<'_, ()> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn read_state(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write_state(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(|p| p.into_inner())
    }

    fn publish(&self, event: DomainEvent) {
        self.events.publish(event);
    }
}

/// True when both paths name the same folder (compared canonically when both exist).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A skill name usable as one folder name: non-empty, one plain segment, no separators.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && !name.contains(['/', '\\', ':', '\0'])
        && name.len() <= 255
}

fn check_name(name: &str) -> Result<(), LibraryError> {
    if is_plain_name(name) {
        Ok(())
    } else {
        Err(LibraryError::BadName { name: name.to_string() })
    }
}

fn now() -> String {
    skillcase_common::clock::now()
}
