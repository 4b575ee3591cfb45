//! The one SQLite database: opening it safely and bringing its schema up to date.
//!
//! Every connection gets WAL, foreign keys, a busy timeout and `synchronous=FULL` (a person's
//! reply must not un-happen after a power cut). The schema is a list of numbered `.sql` files
//! embedded in the binary and tracked with `PRAGMA user_version` (rusqlite_migration); a
//! database written by a newer Skillcase is refused instead of being touched.
//!
//! The data directory is created 0700 and the database file 0600 (the database holds people's
//! cases); one process migrates at a time ([`lock`]), so processes started together on a fresh
//! data directory all open it.

mod hooks;
mod lock;

use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

use skillcase_common::error::Coded;

use crate::private;
use crate::secrets::SecretFiles;

/// File name of the database inside the data directory.
pub const DATABASE_FILE: &str = "skillcase.sqlite3";

/// How long a writer waits for another connection's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema history, oldest first. Append only: never edit a migration that has shipped.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_settings.sql"),
    include_str!("migrations/0002_cases.sql"),
    include_str!("migrations/0003_guard.sql"),
    include_str!("migrations/0004_library.sql"),
    include_str!("migrations/0005_case_read_at.sql"),
    include_str!("migrations/0006_promise_ledger.sql"),
    include_str!("migrations/0007_promise_overdue.sql"),
    include_str!("migrations/0008_internal_notes.sql"),
    include_str!("migrations/0009_case_search.sql"),
    include_str!("migrations/0010_handover_reason.sql"),
    include_str!("migrations/0011_quiet_customers.sql"),
    include_str!("migrations/0012_saved_replies.sql"),
    include_str!("migrations/0013_response_targets.sql"),
    include_str!("migrations/0014_agents.sql"),
    include_str!("migrations/0015_overdue_watch_index.sql"),
    include_str!("migrations/0016_case_assignee.sql"),
    include_str!("migrations/0017_remote_catalogs.sql"),
    include_str!("migrations/0018_reply_leases.sql"),
    include_str!("migrations/0019_closed_totals.sql"),
    include_str!("migrations/0020_catalog_token_files.sql"),
    include_str!("migrations/0021_drop_catalog_token.sql"),
    include_str!("migrations/0022_activation_messages.sql"),
    include_str!("migrations/0023_git_catalogs.sql"),
    include_str!("migrations/0024_overdue_watch_terms.sql"),
    include_str!("migrations/0025_guard_marks.sql"),
];
/// The migration (its index in [`MIGRATIONS`]) whose hook moves the catalog tokens into files.
const CATALOG_TOKEN_FILES: usize = 19;

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("the database at {path} was written by a newer Skillcase (schema {found}, this build knows up to {supported}); update Skillcase or choose another data directory")]
    TooNew { path: String, found: i64, supported: usize },
    #[error("cannot open the database at {path}: {source}")]
    Open { path: String, source: rusqlite::Error },
    #[error("cannot update the database schema at {path}: {message}")]
    Migration { path: String, message: String },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The batch a write belonged to could not be committed; nothing of it was kept.
    #[error("the write was not saved: {0}")]
    Batch(String),
    /// The database was closed (the app is stopping) before the write could run.
    #[error("the database is closed; the change was not saved")]
    WriterStopped,
    /// A blocking read task ended before it answered (the runtime is shutting down).
    #[error("the database task stopped before it finished")]
    TaskStopped,
    /// A write job panicked; its changes were rolled back.
    #[error("a database write failed unexpectedly and was rolled back")]
    JobPanicked,
}

impl Coded for DbError {
    fn code(&self) -> &'static str {
        match self {
            DbError::TooNew { .. } => "db_too_new",
            DbError::Open { .. } => "db_open_failed",
            DbError::Migration { .. } => "db_migration_failed",
            DbError::Sqlite(_) | DbError::Batch(_) => "db_error",
            DbError::WriterStopped => "db_closed",
            DbError::TaskStopped => "task_failed",
            DbError::JobPanicked => "db_write_failed",
        }
    }
}

/// Number of schema versions this build knows.
pub fn schema_version() -> usize {
    MIGRATIONS.len()
}

/// Opens (creating if needed) the database at `path`, configures the connection and applies
/// pending migrations. Refuses a database whose schema is newer than this build. A new data
/// directory is created 0700 and a new database file 0600; an existing database file readable by
/// others is made private.
pub fn open(path: &Path) -> Result<Connection, DbError> {
    let shown = path.display().to_string();
    let data_dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let failed = |what: &Path, e: &dyn std::fmt::Display| DbError::Open {
        path: shown.clone(),
        source: rusqlite::Error::InvalidPath(format!("{}: {e}", what.display()).into()),
    };
    private::create_dir(data_dir).map_err(|e| failed(data_dir, &e))?;
    let _migrating = lock::MigrationLock::acquire(path).map_err(|e| failed(path, &e))?;
    private::create_file(path).and_then(|()| private::tighten(path)).map_err(|e| failed(path, &e))?;
    let mut conn = Connection::open(path).map_err(|source| DbError::Open { path: shown.clone(), source })?;
    configure(&conn)?;
    refuse_newer(&conn, &shown)?;
    migrate(&mut conn, data_dir).map_err(|message| DbError::Migration { path: shown, message })?;
    Ok(conn)
}

/// Applies pending migrations with foreign keys off, as SQLite's procedure for rebuilding a
/// table requires (a rebuilt parent keeps its rows, but a deferred check cannot see that); each
/// migration runs `PRAGMA foreign_key_check` before it commits, so none can leave a dangling
/// reference behind. Foreign keys are on again afterwards, whatever happened.
///
/// Migrations run with `secure_delete` on, so what one removes (a secret moved out of the
/// database) is overwritten rather than left in free pages; when any ran, the write-ahead log is
/// checkpointed and emptied, so no older copy of a page survives there either.
fn migrate(conn: &mut Connection, data_dir: &Path) -> Result<(), String> {
    let pending = migrations(data_dir).pending_migrations(conn).map_err(|e| e.to_string())?;
    if pending <= 0 {
        return Ok(());
    }
    conn.pragma_update(None, "foreign_keys", "OFF").map_err(|e| e.to_string())?;
    conn.pragma_update(None, "secure_delete", "ON").map_err(|e| e.to_string())?;
    let applied = migrations(data_dir).to_latest(conn).map_err(|e| e.to_string());
    let restored = conn
        .pragma_update(None, "foreign_keys", "ON")
        .and_then(|()| conn.pragma_update(None, "secure_delete", "OFF"))
        .map_err(|e| e.to_string());
    applied.and(restored)?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).map_err(|e| e.to_string())
}

/// Applies the per-connection settings every Skillcase connection relies on.
pub fn configure(conn: &Connection) -> Result<(), DbError> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

fn refuse_newer(conn: &Connection, shown: &str) -> Result<(), DbError> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if found > MIGRATIONS.len() as i64 {
        return Err(DbError::TooNew { path: shown.to_string(), found, supported: MIGRATIONS.len() });
    }
    Ok(())
}

/// The migrations of the database in `data_dir` (where the catalog tokens' files go).
fn migrations(data_dir: &Path) -> Migrations<'static> {
    let secrets = SecretFiles::catalog_tokens(data_dir);
    Migrations::new(
        MIGRATIONS
            .iter()
            .enumerate()
            .map(|(index, sql)| match index {
                CATALOG_TOKEN_FILES => {
                    let secrets = secrets.clone();
                    M::up_with_hook(sql, move |tx: &rusqlite::Transaction| {
                        hooks::move_catalog_tokens(tx, &secrets)
                    })
                }
                _ => M::up(sql),
            })
            .map(M::foreign_key_check)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuilding_the_catalogs_table_keeps_every_pulled_skill_and_fork_and_accepts_git() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Connection::open(dir.path().join("old.sqlite3")).unwrap();
        migrations(dir.path()).to_version(&mut conn, 22).unwrap();
        conn.execute_batch(
            "INSERT INTO remote_catalogs (url, kind, added_at) VALUES ('https://x.test/index.json', 'index', 't');
             INSERT INTO remote_skills (catalog_id, name, description, manifest, digest, pulled_at)
                 VALUES (1, 'frete', 'd', '[]', 'h', 't');
             INSERT INTO remote_forks (name, catalog_id, catalog_url, upstream_name, upstream_digest, installed_at)
                 VALUES ('frete', 1, 'https://x.test/index.json', 'frete', 'h', 't');",
        )
        .unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        migrate(&mut conn, dir.path()).unwrap();
        let kept: (i64, i64) = conn
            .query_row("SELECT (SELECT count(*) FROM remote_skills WHERE catalog_id = 1), (SELECT catalog_id FROM remote_forks)", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(kept, (1, 1));
        conn.execute("INSERT INTO remote_catalogs (url, kind, added_at) VALUES ('git+https://x.test/r.git', 'git', 't')", []).unwrap();
        conn.execute("DELETE FROM remote_catalogs WHERE id = 1", []).unwrap();
        let cascaded: i64 = conn.query_row("SELECT count(*) FROM remote_skills", [], |r| r.get(0)).unwrap();
        assert_eq!(cascaded, 0, "the rebuilt table's foreign keys still cascade");
    }

    #[test]
    fn migrations_are_valid() {
        migrations(Path::new(".")).validate().unwrap();
    }

    #[test]
    fn opening_a_new_file_applies_every_migration_with_wal_and_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(&dir.path().join(DATABASE_FILE)).unwrap();
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
        let fks: i64 = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0)).unwrap();
        assert_eq!(version as usize, schema_version());
        assert_eq!(mode, "wal");
        assert_eq!(fks, 1);
    }

    #[test]
    fn connections_opening_a_fresh_file_at_once_all_succeed_and_migrate_it_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data").join(DATABASE_FILE);
        let start = std::sync::Arc::new(std::sync::Barrier::new(8));
        let openers: Vec<_> = (0..8)
            .map(|_| {
                let (path, start) = (path.clone(), std::sync::Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    open(&path).map(drop)
                })
            })
            .collect();
        for opener in openers {
            opener.join().unwrap().unwrap();
        }
        let version: i64 =
            open(&path).unwrap().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version as usize, schema_version());
    }

    #[cfg(unix)]
    #[test]
    fn a_new_database_is_0600_in_a_new_0700_data_directory() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        open(&data.join(DATABASE_FILE)).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!((mode(&data), mode(&data.join(DATABASE_FILE))), (0o700, 0o600));
    }

    #[test]
    fn reopening_keeps_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        open(&path).unwrap().execute("INSERT INTO settings (key, value) VALUES ('k', '\"v\"')", []).unwrap();
        let value: String = open(&path)
            .unwrap()
            .query_row("SELECT value FROM settings WHERE key = 'k'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(value, "\"v\"");
    }

    #[test]
    fn a_database_from_a_newer_version_is_refused_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;").unwrap();
        }
        let err = open(&path).unwrap_err();
        assert_eq!(err.code(), "db_too_new");
        assert!(err.to_string().contains("schema 99"), "{err}");
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        let future: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE name = 'future'", [], |r| r.get(0))
            .unwrap();
        assert_eq!((version, future), (99, 1));
    }
}
