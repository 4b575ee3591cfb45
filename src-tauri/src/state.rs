//! What the app holds while it runs: where its state lives and the agent-facing service.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use skillcase_core::events::EventBus;
use skillcase_core::info::{ApiStatus, AppInfo};
use skillcase_core::library::{Library, LibraryOptions};
use skillcase_core::service::{self, Service, ServiceOptions};
use skillcase_core::{db, paths, ErrorBody};

/// Shared by every command through `tauri::State`.
pub struct AppState {
    pub data_dir: PathBuf,
    pub skills_dir: PathBuf,
    pub database_path: PathBuf,
    /// Domain changes (new cases, skill edits) that [`crate::events`] forwards to the window.
    pub events: EventBus,
    api: ApiStatus,
    service: Mutex<Option<Service>>,
    /// The skills library the Skills and Catalog screens read and change.
    library: Result<Arc<Library>, ErrorBody>,
}

impl AppState {
    /// Resolves the directories (honouring `SKILLCASE_DATA_DIR` / `SKILLCASE_SKILLS_DIR`), opens
    /// the database once so migrations run (or a too-new database is refused) before the window,
    /// and starts the local agent API with the delivery worker. A service that cannot start (port
    /// in use) does not stop the window: the status line says why.
    pub fn start() -> Result<Self, ErrorBody> {
        let data_dir = paths::data_dir()?;
        let database_path = data_dir.join(db::DATABASE_FILE);
        db::open(&database_path)?;
        let skills_dir = paths::skills_dir(None, &data_dir);
        let events = EventBus::new();
        let started = service::port_from_env().and_then(|port| {
            let options = ServiceOptions {
                data_dir: data_dir.clone(),
                skills_dir: skills_dir.clone(),
                port,
                events: events.clone(),
            };
            tauri::async_runtime::block_on(Service::start(options))
        });
        let (api, service) = match started {
            Ok(service) => {
                (ApiStatus::Listening { url: format!("http://127.0.0.1:{}", service.port()) }, Some(service))
            }
            Err(error) => (ApiStatus::Failed { error }, None),
        };
        let library = open_library(&data_dir, &skills_dir, &events);
        Ok(Self { data_dir, skills_dir, database_path, events, api, service: Mutex::new(service), library })
    }

    /// The skills library, or why it could not be opened.
    pub fn library(&self) -> Result<Arc<Library>, ErrorBody> {
        self.library.clone()
    }

    /// The status-line facts.
    pub fn info(&self) -> AppInfo {
        AppInfo::new(&self.skills_dir, &self.data_dir, &self.database_path).with_api(self.api.clone())
    }

    /// Stops the service cleanly when the app exits (requests finish, a delivery in flight is
    /// handed back to the outbox).
    pub fn shutdown(&self) {
        let service = self.service.lock().map(|mut s| s.take()).unwrap_or(None);
        if let Some(service) = service {
            if let Err(err) = tauri::async_runtime::block_on(service.stop()) {
                eprintln!("skillcase: {err}");
            }
        }
    }
}

/// Opens the library and scans the skills directory on a background thread, so the window opens
/// at once and the list fills in as the scan reports progress.
fn open_library(
    data_dir: &std::path::Path,
    skills_dir: &std::path::Path,
    events: &EventBus,
) -> Result<Arc<Library>, ErrorBody> {
    let mut options = LibraryOptions::in_data_dir(data_dir, skills_dir.to_path_buf(), paths::catalog_dir());
    options.events = events.clone();
    let library = Arc::new(Library::open(options)?);
    let scanning = library.clone();
    std::thread::spawn(move || {
        if let Err(err) = scanning.scan() {
            eprintln!("skillcase: scanning the skills directory failed: {err}");
        }
    });
    Ok(library)
}
