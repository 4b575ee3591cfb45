//! What wakes the jobs that wait on cases — the overdue watch, the quiet-customer job and the
//! delivery worker — so each sleeps until its next due time instead of looking on a timer, and
//! a desktop left open costs nothing while nothing happens.
//!
//! Three sources, one signal: a case or setting change this process announces on its bus
//! (another team instance's changes reach the bus through `LISTEN`), and a write to the embedded
//! database's write-ahead log by anyone — another Skillcase process on the same data directory
//! (`skillcase mcp`, a CLI command) included — seen through the platform's file notifications,
//! and looked at again shortly after, once the writer has published its commit.
//! Where the folder cannot be watched, the signal ticks every [`UNWATCHED_TICK`] instead. Every
//! job still looks at least every [`SAFETY_NET`]: a monotonic sleep does not count a suspended
//! laptop's hours, nor a wall clock set forward.

use std::path::Path;
use std::time::Duration;

use notify::event::ModifyKind;
use notify::{EventKind, RecursiveMode, Watcher};
use skillcase_common::events::{DomainEvent, EventBus};
use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::JoinHandle;

/// The longest any waiting job sleeps without looking.
pub const SAFETY_NET: Duration = Duration::from_secs(300);

/// How long a job waits before looking again when something was due but it took nothing (another
/// instance holds those cases, or the wall clock is behind the due time): never a busy loop.
pub const NOTHING_TAKEN_PAUSE: Duration = Duration::from_secs(1);

/// How often the signal ticks where the data folder cannot be watched.
pub const UNWATCHED_TICK: Duration = Duration::from_secs(30);

/// The signal and what feeds it; dropping it stops the feeds.
pub(crate) struct CaseChanges {
    signal: watch::Sender<u64>,
    feeds: Vec<JoinHandle<()>>,
    _watcher: Option<notify::RecommendedWatcher>,
}

impl CaseChanges {
    /// Starts the feeds: the bus, and the write-ahead log of the database file `db` (else a tick).
    pub(crate) fn start(events: &EventBus, db: &Path) -> CaseChanges {
        let (signal, _) = watch::channel(0);
        let mut feeds = vec![tokio::spawn(forward_bus(events.subscribe(), signal.clone()))];
        let watcher = watch_log(db, signal.clone(), &mut feeds);
        if watcher.is_none() {
            feeds.push(tokio::spawn(tick(signal.clone())));
        }
        CaseChanges { signal, feeds, _watcher: watcher }
    }

    /// A receiver that sees every change from now on.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.signal.subscribe()
    }

    /// Whether another process's writes are seen as they happen (else by the tick).
    #[cfg(test)]
    pub(crate) fn watched(&self) -> bool {
        self._watcher.is_some()
    }
}

impl Drop for CaseChanges {
    fn drop(&mut self) {
        for feed in &self.feeds {
            feed.abort();
        }
    }
}

/// Runs a job for as long as the application runs: each `look` does what is due and says how
/// long to sleep before the next (at most `longest`); a failed look is reported (`failing` says
/// what was being done) and the job sleeps `longest`. A change wakes it early.
pub(crate) fn spawn_job<F, Fut>(
    mut changes: watch::Receiver<u64>,
    longest: Duration,
    failing: &'static str,
    mut look: F,
) -> JoinHandle<()>
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<Duration, skillcase_common::ErrorBody>> + Send,
{
    tokio::spawn(async move {
        loop {
            let pause = match look().await {
                Ok(pause) => pause.min(longest),
                Err(err) => {
                    eprintln!("skillcase: {failing} failed: {err}");
                    longest
                }
            };
            sleep_or_change(&mut changes, pause).await;
        }
    })
}

/// Sleeps `pause` or until something changes, whichever comes first. Marks what was seen, so a
/// change during the job's next look wakes it again rather than being lost.
async fn sleep_or_change(changes: &mut watch::Receiver<u64>, pause: Duration) {
    let changed = async {
        if changes.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = tokio::time::sleep(pause) => {}
        () = changed => {}
    }
    changes.mark_unchanged();
}

/// A positive number of seconds from the environment variable `name` (tests shorten the jobs'
/// longest sleep with it).
pub(crate) fn env_secs(name: &str) -> Option<Duration> {
    std::env::var(name)
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .filter(|secs| *secs > 0)
        .map(Duration::from_secs)
}

/// Whether an event on the bus can move a job's next due time.
fn moves_cases(event: &DomainEvent) -> bool {
    matches!(
        event,
        DomainEvent::CaseOpened { .. }
            | DomainEvent::CaseChanged { .. }
            | DomainEvent::SettingsChanged { .. }
    )
}

async fn forward_bus(mut events: broadcast::Receiver<DomainEvent>, signal: watch::Sender<u64>) {
    loop {
        match events.recv().await {
            Ok(event) if moves_cases(&event) => bump(&signal),
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => bump(&signal),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

async fn tick(signal: watch::Sender<u64>) {
    let mut ticks = tokio::time::interval(UNWATCHED_TICK);
    loop {
        ticks.tick().await;
        bump(&signal);
    }
}

fn bump(signal: &watch::Sender<u64>) {
    signal.send_modify(|seen| *seen = seen.wrapping_add(1));
}

/// When to look again after the last write to the log: a writer appends its frames, syncs them,
/// and only then publishes the commit to readers, so a look right at the write can still see the
/// state before it. Each delay restarts while writes keep coming.
const LATE_LOOKS: [Duration; 2] = [Duration::from_millis(250), Duration::from_secs(2)];

/// Watches the folder of `db` for writes to its `-wal` file: every committed write by any
/// connection appends there, while reads never write it (so the jobs' own looks wake nothing).
/// Each burst of writes wakes the jobs at once and again at each of [`LATE_LOOKS`].
fn watch_log(
    db: &Path,
    signal: watch::Sender<u64>,
    feeds: &mut Vec<JoinHandle<()>>,
) -> Option<notify::RecommendedWatcher> {
    let folder = db.parent()?;
    let mut log = db.file_name()?.to_os_string();
    log.push("-wal");
    let (writes, written) = mpsc::unbounded_channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let write = match event {
            Ok(event) => {
                matches!(
                    event.kind,
                    EventKind::Create(_) | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any)
                ) && event.paths.iter().any(|path| path.file_name() == Some(log.as_os_str()))
            }
            Err(_) => true,
        };
        if write {
            let _ = writes.send(());
        }
    })
    .ok()?;
    watcher.watch(folder, RecursiveMode::NonRecursive).ok()?;
    feeds.push(tokio::spawn(settle(written, signal)));
    Some(watcher)
}

/// Wakes the jobs on the first write of a burst and again [`LATE_LOOKS`] after its last one.
async fn settle(mut written: mpsc::UnboundedReceiver<()>, signal: watch::Sender<u64>) {
    while written.recv().await.is_some() {
        bump(&signal);
        for delay in LATE_LOOKS {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(delay) => break,
                    more = written.recv() => if more.is_none() { return },
                }
            }
            bump(&signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use skillcase_store::{db, Database};

    use super::*;

    const WAIT: Duration = Duration::from_secs(5);

    /// A fresh database in its own folder, as the app keeps it.
    fn database() -> (tempfile::TempDir, Arc<Database>) {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::open(&dir.path().join(db::DATABASE_FILE)).unwrap();
        (dir, database)
    }

    /// A fresh database, a bus, and the signal over both with a receiver subscribed from the start.
    struct Watched {
        _dir: tempfile::TempDir,
        database: Arc<Database>,
        bus: EventBus,
        changes: CaseChanges,
        seen: watch::Receiver<u64>,
    }

    fn watched() -> Watched {
        let (_dir, database) = database();
        let bus = EventBus::new();
        let changes = CaseChanges::start(&bus, database.path());
        let seen = changes.subscribe();
        Watched { _dir, database, bus, changes, seen }
    }

    fn write_a_setting(database: &Database, value: &str) {
        let value = value.to_string();
        database
            .write(move |conn| {
                Ok::<_, db::DbError>(
                    conn.execute(
                        "INSERT OR REPLACE INTO settings (key, value) VALUES ('probe', ?1)",
                        [value],
                    )?,
                )
            })
            .unwrap();
    }

    async fn woken(changes: &mut watch::Receiver<u64>, within: Duration) -> bool {
        tokio::time::timeout(within, changes.changed()).await.is_ok()
    }

    #[tokio::test]
    async fn a_write_by_another_connection_to_the_database_wakes_the_jobs() {
        let mut watched = watched();
        assert!(watched.changes.watched(), "the data folder can be watched here");
        let other = Database::open(watched.database.path()).unwrap();
        write_a_setting(&other, "written elsewhere");
        assert!(woken(&mut watched.seen, WAIT).await);
    }

    #[tokio::test]
    async fn reading_the_database_wakes_nothing() {
        let (_dir, database) = database();
        write_a_setting(&database, "before");
        let changes = CaseChanges::start(&EventBus::new(), database.path());
        let mut seen = changes.subscribe();
        for _ in 0..20 {
            let value: String = database
                .read(|conn| {
                    Ok::<_, db::DbError>(conn.query_row(
                        "SELECT value FROM settings WHERE key = 'probe'",
                        [],
                        |row| row.get(0),
                    )?)
                })
                .unwrap();
            assert_eq!(value, "before");
        }
        assert!(!woken(&mut seen, Duration::from_millis(500)).await);
    }

    #[tokio::test]
    async fn a_case_event_on_the_bus_wakes_the_jobs_and_a_skill_event_does_not() {
        let mut watched = watched();
        watched.bus.publish(DomainEvent::SkillChanged { name: "frete".into() });
        assert!(!woken(&mut watched.seen, Duration::from_millis(300)).await);
        watched.bus.publish(DomainEvent::CaseOpened { id: "c1".into() });
        assert!(woken(&mut watched.seen, WAIT).await);
    }

    #[tokio::test]
    async fn a_job_sleeps_its_pause_when_nothing_changes_and_wakes_at_once_on_a_change() {
        let mut watched = watched();
        let started = tokio::time::Instant::now();
        sleep_or_change(&mut watched.seen, Duration::from_millis(200)).await;
        assert!(started.elapsed() >= Duration::from_millis(200));
        watched.bus.publish(DomainEvent::CaseChanged { id: "c1".into() });
        let started = tokio::time::Instant::now();
        sleep_or_change(&mut watched.seen, Duration::from_secs(60)).await;
        assert!(started.elapsed() < WAIT);
    }
}
