//! What the app holds while it runs: where its state lives and the agent-facing service.

use std::path::PathBuf;
use std::sync::Mutex;

use skillcase_core::events::EventBus;
use skillcase_core::info::{ApiStatus, AppInfo};
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
                catalog_dir: paths::catalog_dir(),
                policy: Default::default(),
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
        Ok(Self { data_dir, skills_dir, database_path, events, api, service: Mutex::new(service) })
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
