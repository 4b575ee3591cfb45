//! One place where the team database's transactions begin and end: a read borrows a pooled
//! connection, a write runs its closure in a transaction and commits, trying again when the server
//! says another instance's transaction got in the way (a serialization failure, a deadlock, or
//! two instances opening the first case of one conversation at once).

use std::sync::Arc;

use postgres::{Client, Transaction};

use crate::connect::Pool;
use crate::error::TeamError;

/// How many times a write is tried before the conflict is reported.
const ATTEMPTS: usize = 5;

/// The pool with the two ways of using it. Cheap to clone.
#[derive(Clone)]
pub struct Pg {
    pool: Arc<PoolHolder>,
}

/// Owns the pool so its connections close on a thread of their own: each blocking connection
/// keeps a small tokio runtime, which may not be dropped on an async task's thread, and the last
/// clone of an application often goes away on one.
struct PoolHolder(Option<Pool>);

impl Drop for PoolHolder {
    fn drop(&mut self) {
        if let Some(pool) = self.0.take() {
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

impl std::ops::Deref for PoolHolder {
    type Target = Pool;
    fn deref(&self) -> &Pool {
        self.0.as_ref().expect("the pool lives until its holder is dropped")
    }
}

impl Pg {
    pub fn new(pool: Pool) -> Self {
        Pg { pool: Arc::new(PoolHolder(Some(pool))) }
    }

    /// A connection of the pool for work of several transactions (the jobs).
    pub fn connection(&self) -> Result<r2d2::PooledConnection<crate::connect::Manager>, TeamError> {
        Ok(self.pool.get()?)
    }

    /// Runs `work` on a pooled connection, outside any explicit transaction.
    pub fn read<T>(&self, work: impl FnOnce(&mut Client) -> Result<T, TeamError>) -> Result<T, TeamError> {
        let mut conn = self.pool.get()?;
        work(&mut conn)
    }

    /// Runs `work` in one transaction and commits it; everything or nothing. A refusal from
    /// `work` rolls back. `work` may run more than once, so it must not keep effects outside the
    /// transaction.
    pub fn write<T>(
        &self,
        mut work: impl FnMut(&mut Transaction<'_>) -> Result<T, TeamError>,
    ) -> Result<T, TeamError> {
        let mut conn = self.pool.get()?;
        let mut attempt = 1;
        loop {
            let mut tx = conn.transaction()?;
            let outcome =
                work(&mut tx).and_then(|value| tx.commit().map(|()| value).map_err(TeamError::from));
            match outcome {
                Err(error) if attempt < ATTEMPTS && raced(&error) => attempt += 1,
                other => return other,
            }
        }
    }
}

/// Whether `error` is a conflict with a concurrent transaction that a new attempt resolves (the
/// statement runner said so, [`crate::sql::storage_error`]).
fn raced(error: &TeamError) -> bool {
    match error {
        TeamError::Cases(e) => e.is_retryable(),
        TeamError::Postgres(e) => crate::sql::storage_error_ref(e),
        _ => false,
    }
}
