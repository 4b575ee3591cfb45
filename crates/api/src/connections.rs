//! The database connections the API's handlers borrow.
//!
//! A `rusqlite::Connection` is used by one thread at a time, and every call blocks, so handlers
//! run their database work on tokio's blocking pool with a connection checked out of this small
//! pool. Reads proceed side by side under WAL; writers queue on SQLite's own lock (busy
//! timeout), which is what keeps "one open case per conversation" true under concurrent calls.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use super::error::ApiError;
use skillcase_store::db::{self, DbError};

/// Idle connections kept for reuse; more are opened when needed and closed when returned.
const MAX_IDLE: usize = 8;

/// A pool of configured connections to one database file.
#[derive(Debug)]
pub struct Connections {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl Connections {
    /// Opens the database at `path` (creating it and applying migrations) and keeps that first
    /// connection for reuse.
    pub fn open(path: &Path) -> Result<Arc<Self>, DbError> {
        let first = db::open(path)?;
        Ok(Arc::new(Connections { path: path.to_path_buf(), idle: Mutex::new(vec![first]) }))
    }

    /// Runs `work` with a connection on the blocking thread pool and returns its result.
    pub async fn run<T, E>(
        self: &Arc<Self>,
        work: impl FnOnce(&mut Connection) -> Result<T, E> + Send + 'static,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let pool = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            let mut conn = pool.checkout()?;
            let result = work(&mut conn).map_err(Into::into);
            pool.checkin(conn);
            result
        })
        .await;
        joined.unwrap_or_else(|_| Err(ApiError::new("internal", "the database task stopped unexpectedly")))
    }

    fn checkout(&self) -> Result<Connection, ApiError> {
        if let Some(conn) = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop() {
            return Ok(conn);
        }
        let conn = Connection::open(&self.path)
            .map_err(|source| DbError::Open { path: self.path.display().to_string(), source })?;
        db::configure(&conn)?;
        Ok(conn)
    }

    fn checkin(&self, conn: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < MAX_IDLE && conn.is_autocommit() {
            idle.push(conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_configured_connection_and_errors_come_back_as_api_errors() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Connections::open(&dir.path().join(db::DATABASE_FILE)).unwrap();
        let fks: i64 = pool
            .run(|c| c.pragma_query_value(None, "foreign_keys", |r| r.get(0)).map_err(DbError::from))
            .await
            .unwrap();
        assert_eq!(fks, 1);
        let err = pool
            .run(|c| c.execute("INSERT INTO no_such_table VALUES (1)", []).map_err(DbError::from))
            .await
            .unwrap_err();
        assert_eq!(err.0.code, "db_error");
    }

    #[tokio::test]
    async fn concurrent_work_opens_extra_connections_and_keeps_a_bounded_few() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Connections::open(&dir.path().join(db::DATABASE_FILE)).unwrap();
        let barrier = Arc::new(std::sync::Barrier::new(12));
        let tasks: Vec<_> = (0..12)
            .map(|_| {
                let (pool, barrier) = (Arc::clone(&pool), Arc::clone(&barrier));
                tokio::spawn(async move {
                    pool.run(move |_| {
                        barrier.wait();
                        Ok::<_, DbError>(())
                    })
                    .await
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        assert_eq!(pool.idle.lock().unwrap().len(), MAX_IDLE);
    }
}
