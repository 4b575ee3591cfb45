//! [`App`]: one running Skillcase over one data directory — the database, the repositories, the
//! skills library with its watcher, the delivery worker, the API token and the event bus — and
//! the one place each user action is carried out, whichever front end asked for it.
//!
//! Front ends (the window, the local HTTP API, the CLI, MCP) hold an `App` (cheap to clone) and
//! call one method per action; that method does every step: the repository call, marking what
//! the person read, announcing the change on the bus, waking the delivery worker. None of those
//! steps is written anywhere else.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use skillcase_cases::delivery::{DeliveryWaker, DeliveryWorker, WorkerOptions};
use skillcase_cases::{CasesRepository, GuardRepository, OutboxRepository, SavedRepliesRepository};
use skillcase_cases_sqlite::SqliteCases;
use skillcase_common::events::{DomainEvent, EventBus};
use skillcase_common::ErrorBody;
use skillcase_library::watch::WatchOptions;
use skillcase_store::settings::{SettingsRepository, SqliteSettings};
use skillcase_store::{db, Database};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::case_changes::CaseChanges;
use crate::mcp_clients::{McpClients, HEARTBEAT};
use crate::running::RunningLibrary;
use crate::settings;
use crate::token::TokenStore;

/// How long [`App::stop`] waits for the background parts (the delivery worker handing back its
/// claim, the watcher's thread) before leaving them behind: a part stuck in a blocking call (a
/// file that never answers) must not keep the app from stopping.
const STOP_WAIT: Duration = Duration::from_secs(1);
/// How long [`App::block_on`] waits, once its future is done, for blocking work still running
/// before it returns anyway; the process then exits and takes that work with it.
const BLOCKING_WAIT: Duration = Duration::from_secs(1);

/// What an application is opened with.
#[derive(Debug, Clone)]
pub struct AppOptions {
    /// Where the database, blobs and token live.
    pub data_dir: PathBuf,
    /// The skills directory to serve; `None` takes the saved setting (or its environment
    /// override, or the default).
    pub skills_dir: Option<PathBuf>,
    /// The shipped catalog (`skills-examples/`), when there is one.
    pub catalog_dir: Option<PathBuf>,
    /// Who answers from this desktop, recorded on each reply.
    pub person: String,
    /// Where changes are announced (the desktop forwards them to the window).
    pub events: EventBus,
    /// How the delivery worker paces itself.
    pub worker: WorkerOptions,
    /// Run the delivery worker and watch the skills directory (the window and `serve`); a
    /// one-shot CLI command leaves both off, so it never sends a reply as a side effect.
    pub background: bool,
    /// How often overdue promises and response-time targets are looked for (with `background`).
    pub overdue_poll: std::time::Duration,
    /// How often the quiet-customer job runs (with `background`).
    pub quiet_poll: std::time::Duration,
    /// How long one remote catalog pull may spend listing and downloading ([`crate::catalogs::PULL_DEADLINE`]).
    pub pull_deadline: Duration,
    /// The team database given on the command line (`--database postgres://…`); `None` takes
    /// `$SKILLCASE_DATABASE_URL`, else the one saved in Settings, else the embedded database.
    pub database: Option<String>,
    /// Open this desktop's own inbox whatever is saved, because the team database could not be
    /// opened for this reason (Settings says so); the desktop falls back to it rather than not
    /// starting at all.
    pub team_unavailable: Option<ErrorBody>,
}

impl AppOptions {
    /// The options for `data_dir` with the saved skills directory, the repository's catalog,
    /// the system user as the person and a fresh bus.
    pub fn new(data_dir: PathBuf) -> Self {
        AppOptions {
            data_dir,
            skills_dir: None,
            catalog_dir: crate::paths::catalog_dir(),
            person: person_name(),
            events: EventBus::new(),
            worker: WorkerOptions::default(),
            background: true,
            overdue_poll: crate::overdue::poll_interval(),
            quiet_poll: crate::quiet::poll_interval(),
            pull_deadline: crate::catalogs::PULL_DEADLINE,
            database: None,
            team_unavailable: None,
        }
    }
}

/// A running Skillcase. Clone it freely: every clone is the same application.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub data_dir: PathBuf,
    pub person: String,
    pub events: EventBus,
    pub db: Arc<Database>,
    pub cases: Arc<dyn CasesRepository>,
    pub outbox: Arc<dyn OutboxRepository>,
    pub replies: Arc<dyn SavedRepliesRepository>,
    /// The guardrail's marks and adopted model: the team's on a team database.
    pub guard: Arc<dyn GuardRepository>,
    pub(crate) model_in_use: crate::teaching::ModelInUse,
    pub settings: Arc<dyn SettingsRepository>,
    pub tokens: Arc<TokenStore>,
    pub library: RunningLibrary,
    pub mcp_clients: Arc<McpClients>,
    /// How long one remote catalog pull may take.
    pub pull_deadline: Duration,
    /// The sweep of the MCP clients' leases and files (background applications only).
    sweeper: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    worker: std::sync::Mutex<Option<(DeliveryWorker, oneshot::Sender<()>)>>,
    waker: DeliveryWaker,
    /// The overdue watch and the quiet-customer job, with what wakes them (background only).
    jobs: std::sync::Mutex<Option<Jobs>>,
    /// The team database, when the cases live on one.
    pub team: Option<crate::team::TeamConnection>,
    /// Why the saved team database is not in use (it could not be opened at start).
    pub team_unavailable: Option<ErrorBody>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("data_dir", &self.inner.data_dir).finish_non_exhaustive()
    }
}

impl App {
    /// Opens the database (migrating it, refusing a newer one) and the token. With `background`
    /// it also starts the library on the skills directory (its scan runs in the background;
    /// [`App::scanned`] waits for it), its watcher and the delivery worker; without, the library
    /// starts, unwatched, on first use. Must run inside a tokio runtime.
    pub async fn start(options: AppOptions) -> Result<App, ErrorBody> {
        let db = Database::open(&options.data_dir.join(db::DATABASE_FILE))?;
        let sqlite = SqliteCases::new(Arc::clone(&db));
        let team = match &options.team_unavailable {
            Some(_) => None,
            None => crate::team::connect(options.database.as_deref(), &options.data_dir).await?,
        };
        let settings: Arc<dyn SettingsRepository> = Arc::new(SqliteSettings::new(Arc::clone(&db)));
        let tokens = Arc::new(TokenStore::open(&options.data_dir)?);
        let skills_dir = match options.skills_dir {
            Some(dir) => dir,
            None => settings::effective_skills_dir(settings.as_ref(), &options.data_dir)?,
        };
        let policy = saved_policy(settings.as_ref());
        let library = RunningLibrary::new(
            Arc::clone(&db),
            &options.data_dir,
            (skills_dir, policy),
            options.catalog_dir.clone(),
            options.events.clone(),
            options.background.then(WatchOptions::default),
        );
        if options.background {
            library.get()?;
        }
        type Repositories = (Arc<dyn CasesRepository>, Arc<dyn OutboxRepository>, Arc<dyn GuardRepository>);
        let (cases, outbox, guard): Repositories = match &team {
            Some(team) => {
                (Arc::new(team.cases.clone()), Arc::new(team.cases.clone()), Arc::new(team.cases.clone()))
            }
            None => (Arc::new(sqlite.clone()), Arc::new(sqlite.clone()), Arc::new(sqlite.clone())),
        };
        let replies: Arc<dyn SavedRepliesRepository> = Arc::new(sqlite.clone());
        let delivers = team.as_ref().is_none_or(crate::team::TeamConnection::delivers);
        let person = match team.as_ref().and_then(|team| team.person.as_ref()) {
            Some(on_team) => on_team.name.clone(),
            None => options.person,
        };
        let (worker, waker) = if options.background && delivers {
            let (stop, stopped) = oneshot::channel::<()>();
            let worker =
                DeliveryWorker::spawn(Arc::clone(&outbox), options.worker, options.events.clone(), async {
                    let _ = stopped.await;
                })?;
            let waker = worker.waker();
            (Some((worker, stop)), waker)
        } else {
            (None, DeliveryWaker::default())
        };
        let mcp_clients = Arc::new(McpClients::new(&options.data_dir, options.events.clone()));
        let sweeper = options.background.then(|| spawn_sweeper(Arc::clone(&mcp_clients)));
        let app = App {
            inner: Arc::new(Inner {
                data_dir: options.data_dir,
                person,
                events: options.events,
                db,
                cases,
                outbox,
                replies,
                guard,
                model_in_use: crate::teaching::ModelInUse::default(),
                settings,
                tokens,
                library,
                mcp_clients,
                pull_deadline: options.pull_deadline,
                sweeper: std::sync::Mutex::new(sweeper),
                worker: std::sync::Mutex::new(worker),
                waker,
                jobs: std::sync::Mutex::new(None),
                team,
                team_unavailable: options.team_unavailable,
            }),
        };
        if options.background {
            if let Some(team) = &app.inner.team {
                team.listen(&app.inner.events);
            }
        }
        if options.background && delivers {
            let changes = CaseChanges::start(&app.inner.events, app.inner.db.path());
            let watch = crate::overdue::watch(app.clone(), changes.subscribe(), options.overdue_poll);
            let quiet = crate::quiet::watch(app.clone(), changes.subscribe(), options.quiet_poll);
            let wake = wake_on_change(app.inner.waker.clone(), changes.subscribe());
            *app.inner.jobs.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(Jobs { _changes: changes, tasks: vec![watch, quiet, wake] });
        }
        Ok(app)
    }

    /// Stops the delivery worker (a delivery in flight is handed back to the outbox), the sweep of
    /// the MCP clients and the watcher, waiting at most [`STOP_WAIT`] for the worker and the
    /// watcher. Requests already running finish; the database stays readable.
    pub async fn stop(&self) {
        if let Some(jobs) = self.inner.jobs.lock().unwrap_or_else(|p| p.into_inner()).take() {
            jobs.tasks.iter().for_each(JoinHandle::abort);
        }
        let running = self.inner.worker.lock().unwrap_or_else(|p| p.into_inner()).take();
        let worker = async {
            if let Some((worker, stop)) = running {
                let _ = stop.send(());
                worker.join().await;
            }
        };
        let inner = Arc::clone(&self.inner);
        let watcher = tokio::task::spawn_blocking(move || inner.library.stop());
        let both = async { tokio::join!(worker, watcher) };
        if tokio::time::timeout(STOP_WAIT, both).await.is_err() {
            eprintln!(
                "skillcase: the delivery worker or the skills watcher did not stop within {} ms; left behind",
                STOP_WAIT.as_millis()
            );
        }
        if let Some(sweeper) = self.inner.sweeper.lock().unwrap_or_else(|p| p.into_inner()).take() {
            sweeper.abort();
        }
        if let Some(team) = &self.inner.team {
            let team = team.clone();
            let _ = tokio::task::spawn_blocking(move || team.stop_listening()).await;
        }
    }

    /// Resolves once the library's current scan has finished (`skillcase serve` waits for it
    /// before it announces itself, so the first request sees every skill).
    pub async fn scanned(&self) -> Result<(), ErrorBody> {
        self.inner.library.scanned().await
    }

    /// The data directory.
    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    /// The database file.
    pub fn database_path(&self) -> &Path {
        self.inner.db.path()
    }

    /// The bus every change is announced on.
    pub fn events(&self) -> &EventBus {
        &self.inner.events
    }

    /// The API token store, which the local API checks every request against.
    pub fn tokens(&self) -> &Arc<TokenStore> {
        &self.inner.tokens
    }

    /// The person recorded on replies from this desktop.
    pub fn person(&self) -> &str {
        &self.inner.person
    }

    pub(crate) fn inner(&self) -> &Inner {
        &self.inner
    }

    /// Runs blocking work (repositories, the library, files) on tokio's blocking pool.
    pub(crate) async fn blocking<T, F>(&self, work: F) -> Result<T, ErrorBody>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Result<T, ErrorBody> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(&inner))
            .await
            .unwrap_or_else(|e| Err(ErrorBody::new("task_failed", format!("a background task stopped: {e}"))))
    }

    pub(crate) fn publish(&self, event: DomainEvent) {
        self.inner.events.publish(event);
    }

    /// Tells the delivery worker a reply waits (or the endpoint changed), so it looks now.
    pub(crate) fn wake_delivery(&self) {
        self.inner.waker.wake();
    }

    /// Runs `future` to completion on a runtime of its own: for the CLI, whose commands are
    /// one call each, and `skillcase serve`. Blocking work still running when the future is done
    /// gets [`BLOCKING_WAIT`], not forever: a thread stuck in a blocking call (a FIFO with no
    /// writer, a hung network file system) cannot keep the process alive.
    pub fn block_on<T>(future: impl Future<Output = T>) -> T {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime starts");
        let value = runtime.block_on(future);
        runtime.shutdown_timeout(BLOCKING_WAIT);
        value
    }
}

/// Sweeps the MCP clients (leases that ran out, other processes' clients) when a sweep is due or
/// something wakes it, never on a clock of its own while nothing is connected; where the folder
/// cannot be watched, at least every [`HEARTBEAT`].
/// The jobs that wait on cases and the signal that wakes them; the signal's feeds stop with it.
struct Jobs {
    /// Held so its feeds run as long as the jobs.
    _changes: CaseChanges,
    tasks: Vec<JoinHandle<()>>,
}

/// Wakes the delivery worker whenever cases change: a reply another process wrote to the
/// outbox goes out now rather than at the worker's longest sleep.
fn wake_on_change(waker: DeliveryWaker, mut changes: tokio::sync::watch::Receiver<u64>) -> JoinHandle<()> {
    tokio::spawn(async move {
        while changes.changed().await.is_ok() {
            waker.wake();
        }
    })
}

fn spawn_sweeper(clients: Arc<McpClients>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let watcher = clients.watch_others();
        loop {
            let sweeping = Arc::clone(&clients);
            let due = tokio::task::spawn_blocking(move || sweeping.sweep()).await.ok().flatten();
            let due = if watcher.is_some() { due } else { Some(due.map_or(HEARTBEAT, |d| d.min(HEARTBEAT))) };
            match due {
                Some(after) => {
                    tokio::select! {
                        () = tokio::time::sleep(after) => {}
                        () = clients.woken() => {}
                    }
                }
                None => clients.woken().await,
            }
        }
    })
}

/// The import policy saved in Settings; the default when none is saved. A stored policy that no
/// longer parses is reported and the default is used, so the app still starts.
fn saved_policy(settings: &dyn SettingsRepository) -> skillcase_skill::policy::Policy {
    settings::policy(settings).unwrap_or_else(|error| {
        eprintln!("skillcase: using the default import policy: {error}");
        skillcase_skill::policy::Policy::default()
    })
}

/// Who answers from this desktop, recorded on each reply: the system user, or "support".
pub fn person_name() -> String {
    ["USER", "USERNAME"]
        .iter()
        .find_map(|key| std::env::var(key).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "support".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_on_returns_although_blocking_work_it_started_never_ends() {
        let (answered, answer) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let value = App::block_on(async {
                let (started, running) = oneshot::channel();
                tokio::task::spawn_blocking(move || {
                    let _ = started.send(());
                    loop {
                        std::thread::park();
                    }
                });
                running.await.unwrap();
                "answered"
            });
            let _ = answered.send(value);
        });
        assert_eq!(answer.recv_timeout(Duration::from_secs(5)), Ok("answered"));
    }
}
