//! The inbox page a person waits on while typing a search, read on a connection of its own so a
//! newer page can stop an older one on the server. Each key typed asks for a page; on a million
//! cases the early prefixes (`w`, `wa`) are the costliest reads of all, and without a stop each
//! would run to its end on the server and the pool while the person already typed on.
//!
//! A newer read sends PostgreSQL's cancel request for the running one, waits for the connection
//! (the cancelled statement ends at once) and runs unless an even newer one has come meanwhile.
//! The cancel request travels apart from the connection, so it can land after the statement it
//! was meant for has ended and stop the next one instead: that is why these reads have a
//! connection of their own (a late cancel can only stop another typing read, never a pooled
//! one), and why a cancelled statement on it is `superseded`, which the window asks again for.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use postgres::{CancelToken, Client};
use skillcase_cases::CasesError;

use crate::connect;
use crate::error::TeamError;

/// The typing reads' connection and the one running now. Cheap to clone; clones share it.
#[derive(Clone)]
pub struct TypingReads(Arc<Shared>);

struct Shared {
    config: postgres::Config,
    connection: Mutex<Option<Client>>,
    running: Mutex<Option<(u64, CancelToken)>>,
    tickets: AtomicU64,
}

impl TypingReads {
    /// Typing reads on connections made from `config` (opened at the first read).
    pub fn new(config: postgres::Config) -> Self {
        TypingReads(Arc::new(Shared {
            config,
            connection: Mutex::new(None),
            running: Mutex::new(None),
            tickets: AtomicU64::new(0),
        }))
    }

    /// Runs `work` as the newest typing read: cancels the one running, and fails with
    /// `superseded` when a newer one replaces this one before or while it runs.
    pub fn read<T>(&self, work: impl FnOnce(&mut Client) -> Result<T, CasesError>) -> Result<T, CasesError> {
        let shared = &self.0;
        let ticket = shared.tickets.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some((_, older)) = lock(&shared.running).take() {
            // Nothing to do when it fails: the older read then simply runs to its end.
            let _ = older.cancel_query(connect::tls());
        }
        let mut connection = lock(&shared.connection);
        if shared.tickets.load(Ordering::SeqCst) != ticket {
            return Err(superseded());
        }
        let client = match connection.as_mut().filter(|client| !client.is_closed()) {
            Some(client) => client,
            None => connection.insert(shared.config.connect(connect::tls()).map_err(TeamError::from)?),
        };
        *lock(&shared.running) = Some((ticket, client.cancel_token()));
        let outcome = work(client);
        let mut running = lock(&shared.running);
        if running.as_ref().is_some_and(|(current, _)| *current == ticket) {
            *running = None;
        }
        drop(running);
        match outcome {
            Err(_) if shared.tickets.load(Ordering::SeqCst) != ticket => Err(superseded()),
            Err(error) if cancelled(&error) => Err(superseded()),
            other => other,
        }
    }
}

impl Drop for Shared {
    /// The connection keeps a small tokio runtime, which may not be dropped on an async task's
    /// thread: it closes on a thread of its own.
    fn drop(&mut self) {
        if let Some(client) = lock(&self.connection).take() {
            let _ = std::thread::spawn(move || drop(client)).join();
        }
    }
}

/// Whether `error` is a statement the server cancelled.
fn cancelled(error: &CasesError) -> bool {
    matches!(error, CasesError::Storage { code: "team_query_cancelled", .. })
}

fn superseded() -> CasesError {
    CasesError::Storage {
        code: "superseded",
        message: "a newer request of the same kind replaced this one".into(),
        retryable: false,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
