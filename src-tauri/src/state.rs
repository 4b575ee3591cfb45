//! What the app holds while it runs: where its state lives and the agent-facing service.
//!
//! The service (local API and delivery worker) is the one part that changes while the window
//! is open: Settings can move it to another port or point it at another skills directory. It
//! sits behind an async lock with the facts it was started from, so the status line and
//! Settings always read the service that is actually running.

use std::path::PathBuf;
use std::sync::Arc;

use rusqlite::Connection;
use skillcase_application::info::{ApiStatus, AppInfo};
use skillcase_application::{paths, settings};
use skillcase_common::events::EventBus;
use skillcase_common::ErrorBody;
use skillcase_host::{Service, ServiceOptions};
use skillcase_library::Library;
use skillcase_skill::policy::Policy;
use skillcase_store::db;
use tokio::sync::Mutex;

use crate::error::IpcError;

/// Shared by every command through `tauri::State`.
pub struct AppState {
    pub data_dir: PathBuf,
    pub database_path: PathBuf,
    /// Domain changes (new cases, skill edits) that [`crate::events`] forwards to the window.
    pub events: EventBus,
    live: Mutex<Live>,
}

/// The running service and what it was started with.
struct Live {
    skills_dir: PathBuf,
    api: ApiStatus,
    service: Option<Service>,
}

impl AppState {
    /// Resolves the directories (honouring `SKILLCASE_DATA_DIR` / `SKILLCASE_SKILLS_DIR` and the
    /// saved settings), opens the database once so migrations run (or a too-new database is
    /// refused) before the window, and starts the local agent API with the delivery worker. A
    /// service that cannot start (port in use) does not stop the window: the status line says why.
    pub fn start() -> Result<Self, ErrorBody> {
        let data_dir = skillcase_application::paths::data_dir()?;
        let database_path = data_dir.join(db::DATABASE_FILE);
        let conn = db::open(&database_path)?;
        let skills_dir = settings::effective_skills_dir(&conn, &data_dir)?;
        let port = settings::startup_api_port(&conn);
        drop(conn);
        let events = EventBus::new();
        let started = port.and_then(|port| {
            tauri::async_runtime::block_on(Service::start(options(&data_dir, &skills_dir, port, &events)))
        });
        let (api, service) = match started {
            Ok(service) => (listening(&service), Some(service)),
            Err(error) => (ApiStatus::Failed { error }, None),
        };
        let live = Mutex::new(Live { skills_dir, api, service });
        Ok(Self { data_dir, database_path, events, live })
    }

    /// Runs `work` on a connection to the database, on a blocking thread (never the main one).
    pub async fn with_db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, IpcError> + Send + 'static,
    ) -> Result<T, IpcError> {
        let path = self.database_path.clone();
        tauri::async_runtime::spawn_blocking(move || work(&db::open(&path)?)).await.map_err(|e| {
            IpcError::from(ErrorBody::new("task_failed", format!("the database task stopped: {e}")))
        })?
    }

    /// Tells the delivery worker a reply is waiting (or the endpoint changed), so it looks now.
    /// While the service is being restarted the lock is taken and the wake is skipped: a worker
    /// that starts drains the outbox first anyway.
    pub fn wake_delivery(&self) {
        if let Ok(live) = self.live.try_lock() {
            if let Some(service) = live.service.as_ref() {
                service.waker().wake();
            }
        }
    }

    /// The skills library of the running service, which the Skills and Catalog screens read and
    /// change. When the service could not start, the error says why (the status line says it too).
    pub async fn library(&self) -> Result<Arc<Library>, IpcError> {
        let live = self.live.lock().await;
        match (&live.service, &live.api) {
            (Some(service), _) => Ok(service.library()),
            (None, ApiStatus::Failed { error }) => Err(IpcError::from(ErrorBody::new(
                "library_unavailable",
                format!("the skills library is not running: {}", error.message),
            ))),
            (None, _) => Err(IpcError::from(ErrorBody::new(
                "library_unavailable",
                "the skills library is restarting; try again in a moment",
            ))),
        }
    }

    /// The status-line facts.
    pub async fn info(&self) -> AppInfo {
        let live = self.live.lock().await;
        AppInfo::new(&live.skills_dir, &self.data_dir, &self.database_path).with_api(live.api.clone())
    }

    /// Whether the local API is up, and where.
    pub async fn api_status(&self) -> ApiStatus {
        self.live.lock().await.api.clone()
    }

    /// The port the running API listens on, if it runs.
    pub async fn api_port(&self) -> Option<u16> {
        self.live.lock().await.service.as_ref().map(Service::port)
    }

    /// Moves the API to `port`: the new service starts first, so when `port` cannot be bound
    /// the error is returned and the old service keeps running untouched.
    pub async fn move_api(&self, port: u16) -> Result<(), ErrorBody> {
        let mut live = self.live.lock().await;
        if live.service.as_ref().map(Service::port) == Some(port) {
            return Ok(());
        }
        let fresh = Service::start(options(&self.data_dir, &live.skills_dir, port, &self.events)).await?;
        live.api = listening(&fresh);
        let old = live.service.replace(fresh);
        drop(live);
        stop(old).await;
        Ok(())
    }

    /// Serves `skills_dir` from now on: stops the service and starts it again on the same port
    /// (or the saved one when it was down). If it cannot start, the status line says why.
    pub async fn switch_skills_dir(&self, skills_dir: PathBuf, saved_port: u16) {
        let mut live = self.live.lock().await;
        if live.skills_dir == skills_dir && live.service.is_some() {
            return;
        }
        let port = live.service.as_ref().map(Service::port).unwrap_or(saved_port);
        stop(live.service.take()).await;
        live.skills_dir = skills_dir;
        self.start_into(&mut live, port).await;
    }

    /// Restarts the service on the same folder and port, so it picks up what it reads only at
    /// start (the saved import policy): the library re-validates every skill under it.
    pub async fn restart_service(&self, saved_port: u16) {
        let mut live = self.live.lock().await;
        let port = live.service.as_ref().map(Service::port).unwrap_or(saved_port);
        stop(live.service.take()).await;
        self.start_into(&mut live, port).await;
    }

    async fn start_into(&self, live: &mut Live, port: u16) {
        let options = options(&self.data_dir, &live.skills_dir, port, &self.events);
        match Service::start(options).await {
            Ok(service) => {
                live.api = listening(&service);
                live.service = Some(service);
            }
            Err(error) => live.api = ApiStatus::Failed { error },
        }
    }

    /// Stops the service cleanly when the app exits (requests finish, a delivery in flight is
    /// handed back to the outbox).
    pub fn shutdown(&self) {
        tauri::async_runtime::block_on(async {
            let service = self.live.lock().await.service.take();
            stop(service).await;
        });
    }
}

fn options(
    data_dir: &std::path::Path,
    skills_dir: &std::path::Path,
    port: u16,
    events: &EventBus,
) -> ServiceOptions {
    ServiceOptions {
        data_dir: data_dir.to_path_buf(),
        skills_dir: skills_dir.to_path_buf(),
        catalog_dir: paths::catalog_dir(),
        policy: saved_policy(&data_dir.join(db::DATABASE_FILE)),
        port,
        events: events.clone(),
    }
}

/// The import policy saved in Settings; the default when none is saved. A stored policy that no
/// longer parses is reported and the default is used, so the app still starts.
fn saved_policy(database_path: &std::path::Path) -> Policy {
    let saved =
        db::open(database_path).map_err(ErrorBody::from).and_then(|conn| Ok(settings::policy(&conn)?));
    saved.unwrap_or_else(|error| {
        eprintln!("skillcase: using the default import policy: {error}");
        Policy::default()
    })
}

fn listening(service: &Service) -> ApiStatus {
    ApiStatus::Listening { url: format!("http://127.0.0.1:{}", service.port()) }
}

async fn stop(service: Option<Service>) {
    if let Some(service) = service {
        if let Err(err) = service.stop().await {
            eprintln!("skillcase: {err}");
        }
    }
}

/// Who answers from this desktop, recorded on each reply: the system user, or "support".
pub fn person_name() -> String {
    ["USER", "USERNAME"]
        .iter()
        .find_map(|key| std::env::var(key).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "support".to_string())
}
