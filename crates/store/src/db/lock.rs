//! One migration at a time across processes. Several processes started together on a fresh data
//! directory (the desktop, `skillcase serve`, an agent's `skillcase mcp`) would each read schema
//! version 0 and each try to create the tables; all but the first then fail ("table settings
//! already exists"). Each process takes an exclusive lock on a file beside the database before it
//! reads the version, and holds it until its migrations are committed: the first migrates, the
//! others wait, then find the schema current and change nothing.
//!
//! The lock is `flock` on `<database>.lock`, a file of its own (SQLite's own locks are `fcntl`
//! locks on the database, which a second lock on the same file could disturb), never removed
//! (removing a lock file lets two processes hold "the" lock on two different files). Elsewhere
//! than Unix no lock is taken.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a process waits for another's migration before it gives up.
const WAIT: Duration = Duration::from_secs(120);
/// How often it tries again meanwhile.
const RETRY: Duration = Duration::from_millis(20);

/// Held while the schema is read and brought up to date; released when dropped.
pub(super) struct MigrationLock {
    #[cfg(unix)]
    _file: std::fs::File,
}

/// The lock file of the database at `db`.
pub(super) fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    db.with_file_name(name)
}

impl MigrationLock {
    /// Takes the lock of the database at `db`, waiting up to two minutes for another process;
    /// the error says why it could not.
    #[cfg(unix)]
    pub(super) fn acquire(db: &Path) -> Result<MigrationLock, String> {
        use rustix::fs::{flock, FlockOperation};
        let path = lock_path(db);
        crate::private::create_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let started = Instant::now();
        loop {
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => return Ok(MigrationLock { _file: file }),
                Err(rustix::io::Errno::WOULDBLOCK | rustix::io::Errno::INTR) if started.elapsed() < WAIT => {
                    std::thread::sleep(RETRY)
                }
                Err(e) if e == rustix::io::Errno::WOULDBLOCK => {
                    return Err(format!(
                        "another process has been updating the database for {} s ({} is locked)",
                        WAIT.as_secs(),
                        path.display()
                    ))
                }
                Err(e) => return Err(format!("cannot lock {}: {e}", path.display())),
            }
        }
    }

    /// No lock where `flock` is not available.
    #[cfg(not(unix))]
    pub(super) fn acquire(_db: &Path) -> Result<MigrationLock, String> {
        Ok(MigrationLock {})
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_waits_for_the_first_to_let_go() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("skillcase.sqlite3");
        let first = MigrationLock::acquire(&db).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let waiting = std::thread::spawn(move || {
            let _second = MigrationLock::acquire(&db).unwrap();
            tx.send(()).unwrap();
        });
        assert!(
            rx.recv_timeout(Duration::from_millis(200)).is_err(),
            "the second waits while the first holds it"
        );
        drop(first);
        rx.recv_timeout(Duration::from_secs(10)).expect("the second takes it once the first lets go");
        waiting.join().unwrap();
        assert!(lock_path(&tmp.path().join("skillcase.sqlite3")).ends_with("skillcase.sqlite3.lock"));
    }
}
