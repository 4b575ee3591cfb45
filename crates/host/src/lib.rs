//! The agent-facing service: the local API and the delivery worker, started and stopped as one
//! unit. The desktop app and `skillcase serve` both run exactly this, so the two can never drift.

use std::path::PathBuf;
use std::sync::Arc;

use skillcase_api::connections::Connections;
use skillcase_api::server::RunningServer;
use skillcase_api::{serve, ApiConfig, ApiState};
use skillcase_application::token::TokenStore;
use skillcase_cases::delivery::{DeliveryWaker, DeliveryWorker, WorkerOptions};
use skillcase_common::events::EventBus;
use skillcase_common::ErrorBody;
use skillcase_library::watch::{SkillsWatcher, WatchOptions};
use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::policy::Policy;
use skillcase_store::db;

/// Where the service finds its state and which port it listens on (0 picks a free one).
#[derive(Debug, Clone)]
pub struct ServiceOptions {
    pub data_dir: PathBuf,
    pub skills_dir: PathBuf,
    /// The shipped catalog (`skills-examples/`), when there is one.
    pub catalog_dir: Option<PathBuf>,
    /// The workspace policy the library validates under.
    pub policy: Policy,
    pub port: u16,
    /// Where the API and the worker announce changes (the app forwards them to the window).
    pub events: EventBus,
}

/// A running service. Dropping it without [`Service::stop`] ends it abruptly, like a crash: the
/// outbox is durable, so pending deliveries resume on the next start.
pub struct Service {
    library: Arc<Library>,
    /// The watch of the skills directory (stops when dropped); absent when it could not start.
    _watcher: Option<SkillsWatcher>,
    /// Turns true when the start-up scan has finished.
    scanned: tokio::sync::watch::Receiver<bool>,
    server: RunningServer,
    worker: DeliveryWorker,
    stop_worker: tokio::sync::oneshot::Sender<()>,
}

impl Service {
    /// Opens the database, the API token (creating it on first run) and the skill library,
    /// starts watching the skills directory (each change re-scans one skill) and the library's
    /// scan in the background (the listing fills in as it runs, with
    /// `scan-progress` events), the delivery worker, then the loopback server. Must run inside a
    /// tokio runtime.
    pub async fn start(options: ServiceOptions) -> Result<Service, ErrorBody> {
        let db_path = options.data_dir.join(db::DATABASE_FILE);
        let db = Connections::open(&db_path)?;
        let tokens = Arc::new(TokenStore::open(&options.data_dir)?);
        let mut library_options =
            LibraryOptions::in_data_dir(&options.data_dir, options.skills_dir, options.catalog_dir);
        library_options.policy = options.policy;
        library_options.events = options.events.clone();
        let library = Arc::new(Library::open(library_options)?);
        let scanning = Arc::clone(&library);
        let (scan_done, scanned) = tokio::sync::watch::channel(false);
        tokio::task::spawn_blocking(move || {
            if let Err(err) = scanning.scan() {
                eprintln!("skillcase: the skills scan failed: {err}");
            }
            let _ = scan_done.send(true);
        });
        let watcher = match skillcase_library::watching::watch(&library, WatchOptions::default()) {
            Ok(watcher) => Some(watcher),
            Err(err) => {
                eprintln!("skillcase: the skills directory is not watched: {err}");
                None
            }
        };
        let skills = Arc::clone(&library);
        let (stop_worker, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker =
            DeliveryWorker::spawn(db_path, WorkerOptions::default(), options.events.clone(), async {
                let _ = stopped.await;
            })?;
        let config = ApiConfig { port: options.port, ..ApiConfig::default() };
        let state = ApiState { db, tokens, skills, events: options.events };
        let server = serve(config, state).await?;
        Ok(Service { library, _watcher: watcher, scanned, server, worker, stop_worker })
    }

    /// Resolves once the start-up scan has finished (`skillcase serve` waits for it before it
    /// announces itself, so the first request sees every skill; the window does not wait).
    pub async fn scanned(&self) {
        let mut scanned = self.scanned.clone();
        let _ = scanned.wait_for(|done| *done).await;
    }

    /// The skill library this service serves; the desktop app's commands use the same one.
    pub fn library(&self) -> Arc<Library> {
        Arc::clone(&self.library)
    }

    /// Wakes the delivery worker; the app hands one to its reply and Retry commands so an answer
    /// goes out at once instead of at the next poll.
    pub fn waker(&self) -> DeliveryWaker {
        self.worker.waker()
    }

    /// The port the API listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// Finishes requests in flight, then lets the worker give back a delivery it is sending.
    pub async fn stop(self) -> Result<(), ErrorBody> {
        let shutdown = self.server.shutdown().await;
        let _ = self.stop_worker.send(());
        self.worker.join().await;
        shutdown.map_err(|e| {
            ErrorBody::new("api_shutdown_failed", format!("the local API stopped with an error: {e}"))
        })
    }
}
