//! The one way into the database: a single writer with group commit, and a small read pool.
//!
//! **Why one writer.** SQLite lets one connection write at a time. With a connection per caller,
//! concurrent writers queue on the file lock and busy-wait (sleep, retry) for it: 16 clients
//! opening cases at once saw a p99 of about a second. Here one thread owns the write connection
//! and every write is a job sent to it. The thread takes every job waiting, runs them one after
//! another inside one `BEGIN IMMEDIATE` transaction — each in its own savepoint, so a job that
//! fails rolls back only itself — and commits once: one fsync for the whole batch (group commit).
//! A job's caller hears back only after that commit, so an acknowledged write is durable.
//!
//! **Why reads go elsewhere.** In WAL mode readers never wait for the writer, so reads run on
//! their own connections, checked out of a small pool on the caller's thread.
//!
//! Another process (`skillcase serve` beside the app) may write the same file: its transactions
//! and ours still take SQLite's lock in turn, with the busy timeout as before.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::Connection;

use crate::db::{self, DbError};

/// The most jobs committed together; a longer queue is committed in several batches.
const MAX_BATCH: usize = 256;
/// Idle read connections kept for reuse; more are opened when needed and closed when returned.
const MAX_IDLE_READERS: usize = 8;

/// A write job: runs inside the batch's transaction (in its own savepoint) and returns what to
/// tell its caller once the batch's commit is known. Given no connection (the batch could not
/// begin), it does nothing and its caller is told why.
type Job = Box<dyn FnOnce(Option<&Connection>) -> Settle + Send>;
/// Tells a job's caller how it ended: its own result, or the commit's error.
type Settle = Box<dyn FnOnce(Result<(), &DbError>) + Send>;

/// The database of one data directory, shared by everything in the process (`Arc<Database>`).
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    idle: Mutex<Vec<Connection>>,
    /// Transactions the writer has committed, for diagnostics and the group-commit tests.
    commits: Arc<AtomicU64>,
    /// Writes submitted and not yet taken by the writer.
    queued: Arc<AtomicI64>,
}

impl Database {
    /// Opens (creating if needed) the database at `path`, applies pending migrations (refusing a
    /// newer schema) and starts the writer thread on that first connection.
    pub fn open(path: &Path) -> Result<Arc<Database>, DbError> {
        let conn = db::open(path)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        let commits = Arc::new(AtomicU64::new(0));
        let queued = Arc::new(AtomicI64::new(0));
        let counters = (Arc::clone(&commits), Arc::clone(&queued));
        let writer = std::thread::Builder::new()
            .name("skillcase-db-writer".into())
            .spawn(move || write_loop(conn, queue, &counters.0, &counters.1))
            .map_err(|e| DbError::Open {
                path: path.display().to_string(),
                source: rusqlite::Error::InvalidPath(format!("cannot start the writer thread: {e}").into()),
            })?;
        Ok(Arc::new(Database {
            path: path.to_path_buf(),
            jobs: Mutex::new(Some(jobs)),
            writer: Mutex::new(Some(writer)),
            idle: Mutex::new(Vec::new()),
            commits,
            queued,
        }))
    }

    /// How many transactions the writer has committed so far (each holds one or more writes).
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// How many writes wait for the writer right now (submitted, not yet taken into a batch).
    pub fn queued(&self) -> u64 {
        // A job is counted once it is on the queue, so the writer may take it (and subtract)
        // a moment before it is added: the count dips below zero, never a job unaccounted for.
        self.queued.load(Ordering::Relaxed).max(0) as u64
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `work` on the writer, inside a transaction with every other write waiting now, and
    /// returns its result once that transaction is committed. If `work` fails, its changes are
    /// rolled back and nothing else in the batch is affected. Blocks the calling thread: from
    /// async code use [`Database::write_async`].
    pub fn write<T, E>(&self, work: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let (tx, rx) = mpsc::sync_channel(1);
        self.submit(work, move |outcome| {
            let _ = tx.send(outcome);
        })?;
        rx.recv().unwrap_or_else(|_| Err(E::from(DbError::WriterStopped)))
    }

    /// [`Database::write`] for async callers: the task waits without holding a thread.
    pub async fn write_async<T, E>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.submit(work, move |outcome| {
            let _ = tx.send(outcome);
        })?;
        rx.await.unwrap_or_else(|_| Err(E::from(DbError::WriterStopped)))
    }

    /// Runs `work` on a read connection on the calling thread. Reads see every committed write
    /// and never wait for the writer.
    pub fn read<T, E>(&self, work: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<DbError>,
    {
        let conn = self.checkout()?;
        let result = work(&conn);
        self.checkin(conn);
        result
    }

    /// [`Database::read`] for a read that a newer one makes pointless (the inbox page for what a
    /// person is typing): starting it interrupts the read `latest` still runs, which then fails
    /// with SQLite's "interrupted", so a slow search for an early prefix never holds up the one
    /// for the whole word.
    pub fn read_latest<T, E>(
        &self,
        latest: &LatestRead,
        work: impl FnOnce(&Connection) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DbError>,
    {
        let conn = self.checkout()?;
        let ticket = latest.begin(conn.get_interrupt_handle());
        let result = work(&conn);
        latest.end(ticket);
        self.checkin(conn);
        result
    }

    /// [`Database::read`] on tokio's blocking pool, for async callers.
    pub async fn read_async<T, E>(
        self: &Arc<Self>,
        work: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let db = Arc::clone(self);
        tokio::task::spawn_blocking(move || db.read(work))
            .await
            .unwrap_or_else(|_| Err(E::from(DbError::TaskStopped)))
    }

    /// Stops the writer after the jobs already queued, and waits for it. Later writes fail with
    /// `db_writer_stopped`; reads keep working. Dropping the last `Arc` does the same.
    pub fn close(&self) {
        drop(lock(&self.jobs).take());
        if let Some(writer) = lock(&self.writer).take() {
            let _ = writer.join();
        }
    }

    fn submit<T, E>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        reply: impl FnOnce(Result<T, E>) + Send + 'static,
    ) -> Result<(), E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let job: Job = Box::new(move |conn| {
            let result = conn.map(|conn| atomic(conn, work));
            Box::new(move |committed| match (result, committed) {
                (Some(Err(err)), _) => reply(Err(err)),
                (Some(Ok(value)), Ok(())) => reply(Ok(value)),
                (_, Err(err)) => reply(Err(E::from(DbError::Batch(err.to_string())))),
                (None, Ok(())) => reply(Err(E::from(DbError::WriterStopped))),
            })
        });
        let jobs = lock(&self.jobs);
        let sender = jobs.as_ref().ok_or(DbError::WriterStopped)?;
        sender.send(job).map_err(|_| E::from(DbError::WriterStopped))?;
        self.queued.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn checkout(&self) -> Result<Connection, DbError> {
        if let Some(conn) = lock(&self.idle).pop() {
            return Ok(conn);
        }
        let conn = Connection::open(&self.path)
            .map_err(|source| DbError::Open { path: self.path.display().to_string(), source })?;
        db::configure(&conn)?;
        Ok(conn)
    }

    fn checkin(&self, conn: Connection) {
        let mut idle = lock(&self.idle);
        if idle.len() < MAX_IDLE_READERS && conn.is_autocommit() {
            idle.push(conn);
        }
    }
}

/// The one read of a kind that is running now, so the next one can interrupt it
/// ([`Database::read_latest`]). Cheap to clone; clones share it.
#[derive(Clone, Default)]
pub struct LatestRead(Arc<Mutex<Running>>);

#[derive(Default)]
struct Running {
    tickets: u64,
    read: Option<(u64, rusqlite::InterruptHandle)>,
}

impl LatestRead {
    /// Interrupts the read running now, if any, and records `handle`'s as the running one.
    fn begin(&self, handle: rusqlite::InterruptHandle) -> u64 {
        let mut running = lock(&self.0);
        if let Some((_, older)) = running.read.take() {
            older.interrupt();
        }
        running.tickets += 1;
        running.read = Some((running.tickets, handle));
        running.tickets
    }

    /// The read `ticket` is over (unless a newer one already took its place).
    fn end(&self, ticket: u64) {
        let mut running = lock(&self.0);
        if running.read.as_ref().is_some_and(|(current, _)| *current == ticket) {
            running.read = None;
        }
    }
}

impl std::fmt::Debug for LatestRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LatestRead").finish_non_exhaustive()
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        self.close();
    }
}

/// Runs `body` as one unit: all of its changes are kept, or (when it fails) none. Inside a
/// transaction — the writer's batch — it is a savepoint of it; on a connection in autocommit
/// mode (a test's own connection) the savepoint is the transaction. This is how every domain
/// step that writes several rows (a transition with its event and its outbox row) stays atomic
/// wherever it runs.
pub fn atomic<T, E: From<DbError>>(
    conn: &Connection,
    body: impl FnOnce(&Connection) -> Result<T, E>,
) -> Result<T, E> {
    conn.execute_batch("SAVEPOINT atomic").map_err(|e| E::from(DbError::from(e)))?;
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| body(conn)))
        .unwrap_or_else(|_| Err(E::from(DbError::JobPanicked)));
    let end = if result.is_ok() { "RELEASE atomic" } else { "ROLLBACK TO atomic; RELEASE atomic" };
    match conn.execute_batch(end) {
        Ok(()) => result,
        Err(e) => Err(E::from(DbError::from(e))),
    }
}

/// The writer thread: waits for a job, takes every other job already queued, runs them in one
/// transaction, commits, then tells each caller.
fn write_loop(conn: Connection, queue: mpsc::Receiver<Job>, commits: &AtomicU64, queued: &AtomicI64) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        queued.fetch_sub(batch.len() as i64, Ordering::Relaxed);
        run_batch(&conn, batch, commits);
    }
}

/// `BEGIN IMMEDIATE` is written here and nowhere else: every write of the process passes through.
/// A committed batch is counted in `commits` before any caller hears back, so a caller that
/// reads the count after its write always sees its own commit.
fn run_batch(conn: &Connection, batch: Vec<Job>, commits: &AtomicU64) {
    if let Err(err) = conn.execute_batch("BEGIN IMMEDIATE") {
        let err = DbError::from(err);
        for job in batch {
            job(None)(Err(&err));
        }
        return;
    }
    let settles: Vec<Settle> = batch.into_iter().map(|job| job(Some(conn))).collect();
    let committed = conn.execute_batch("COMMIT").map_err(DbError::from);
    match &committed {
        Ok(()) => {
            commits.fetch_add(1, Ordering::Relaxed);
        }
        Err(_) => {
            let _ = conn.execute_batch("ROLLBACK");
        }
    }
    for settle in settles {
        settle(committed.as_ref().map(|_| ()));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn database() -> (tempfile::TempDir, Arc<Database>) {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(&dir.path().join(db::DATABASE_FILE)).unwrap();
        db.write(|c| c.execute_batch("CREATE TABLE t (v INTEGER UNIQUE)").map_err(DbError::from)).unwrap();
        (dir, db)
    }

    fn insert(db: &Database, v: i64) -> Result<usize, DbError> {
        db.write(move |c| c.execute("INSERT INTO t (v) VALUES (?1)", [v]).map_err(DbError::from))
    }

    /// Waits (at most 10 s) until `done` holds.
    fn wait_until(done: impl Fn() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "timed out waiting");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn values(db: &Database) -> Vec<i64> {
        db.read(|c| {
            let mut stmt = c.prepare("SELECT v FROM t ORDER BY v")?;
            let rows = stmt.query_map([], |r| r.get(0))?.collect::<Result<Vec<i64>, _>>()?;
            Ok::<_, DbError>(rows)
        })
        .unwrap()
    }

    #[test]
    fn a_write_returns_its_result_once_committed_and_reads_see_it() {
        let (_dir, db) = database();
        assert_eq!(insert(&db, 1).unwrap(), 1);
        assert_eq!(values(&db), vec![1]);
    }

    #[test]
    fn a_failing_write_rolls_back_only_itself() {
        let (_dir, db) = database();
        insert(&db, 1).unwrap();
        let failed = db.write(|c| {
            c.execute("INSERT INTO t (v) VALUES (2)", [])?;
            c.execute("INSERT INTO t (v) VALUES (1)", [])?;
            Ok::<_, DbError>(())
        });
        assert_eq!(skillcase_common::Coded::code(&failed.unwrap_err()), "db_error");
        insert(&db, 3).unwrap();
        assert_eq!(values(&db), vec![1, 3], "the failed job's first insert was rolled back");
    }

    #[test]
    fn writes_waiting_while_one_runs_are_committed_together() {
        let (_dir, db) = database();
        let before = db.commits();
        let (release, gate) = mpsc::channel::<()>();
        let (started, running) = mpsc::channel::<()>();
        let blocker = {
            let db = Arc::clone(&db);
            std::thread::spawn(move || {
                db.write(move |c| {
                    started.send(()).unwrap();
                    gate.recv().unwrap();
                    c.execute("INSERT INTO t (v) VALUES (0)", []).map_err(DbError::from)
                })
            })
        };
        running.recv().unwrap();
        let waiting: Vec<_> = (1..=10)
            .map(|v| {
                let db = Arc::clone(&db);
                std::thread::spawn(move || insert(&db, v))
            })
            .collect();
        wait_until(|| db.queued() == 10);
        release.send(()).unwrap();
        blocker.join().unwrap().unwrap();
        for writer in waiting {
            writer.join().unwrap().unwrap();
        }
        assert_eq!(values(&db), (0..=10).collect::<Vec<_>>());
        assert_eq!(db.commits() - before, 2, "the ten waiting writes shared one commit");
    }

    #[test]
    fn a_panicking_write_is_rolled_back_and_the_writer_keeps_going() {
        let (_dir, db) = database();
        let panicked = db.write(|c| -> Result<(), DbError> {
            c.execute("INSERT INTO t (v) VALUES (1)", [])?;
            panic!("a bug in a job");
        });
        assert_eq!(skillcase_common::Coded::code(&panicked.unwrap_err()), "db_write_failed");
        insert(&db, 2).unwrap();
        assert_eq!(values(&db), vec![2]);
    }

    #[test]
    fn writes_after_close_are_refused_and_reads_still_work() {
        let (_dir, db) = database();
        insert(&db, 1).unwrap();
        db.close();
        assert_eq!(skillcase_common::Coded::code(&insert(&db, 2).unwrap_err()), "db_closed");
        assert_eq!(values(&db), vec![1]);
    }

    #[tokio::test]
    async fn async_writes_and_reads_see_the_same_database() {
        let (_dir, db) = database();
        db.write_async(|c| c.execute("INSERT INTO t (v) VALUES (7)", []).map_err(DbError::from))
            .await
            .unwrap();
        let count: i64 = db
            .read_async(|c| c.query_row("SELECT count(*) FROM t", [], |r| r.get(0)).map_err(DbError::from))
            .await
            .unwrap();
        assert_eq!(count, 1);
    }

    /// A read that counts for as long as nobody stops it (about a minute).
    const ENDLESS: &str =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000000) \
                           SELECT count(*) FROM n";

    #[test]
    fn a_newer_latest_read_interrupts_the_one_still_running() {
        let (_dir, db) = database();
        let latest = LatestRead::default();
        let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let older = {
            let (db, latest, started) = (Arc::clone(&db), latest.clone(), Arc::clone(&started));
            std::thread::spawn(move || {
                db.read_latest(&latest, |c| {
                    started.store(true, Ordering::SeqCst);
                    c.query_row(ENDLESS, [], |r| r.get::<_, i64>(0)).map_err(DbError::from)
                })
            })
        };
        wait_until(|| started.load(Ordering::SeqCst));
        std::thread::sleep(Duration::from_millis(50));
        let newer = db.read_latest(&latest, |c| {
            c.query_row("SELECT 42", [], |r| r.get::<_, i64>(0)).map_err(DbError::from)
        });
        assert_eq!(newer.unwrap(), 42);
        let stopped = older.join().unwrap().unwrap_err();
        assert!(
            matches!(&stopped, DbError::Sqlite(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted)),
            "{stopped}"
        );
    }

    #[test]
    fn a_latest_read_that_finished_leaves_the_next_one_alone() {
        let (_dir, db) = database();
        let latest = LatestRead::default();
        let first = db.read_latest(&latest, |c| {
            c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0)).map_err(DbError::from)
        });
        let second = db.read_latest(&latest, |c| {
            c.query_row("SELECT 2", [], |r| r.get::<_, i64>(0)).map_err(DbError::from)
        });
        assert_eq!((first.unwrap(), second.unwrap()), (1, 2));
    }
}
