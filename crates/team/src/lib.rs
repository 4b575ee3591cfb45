//! The team inbox: the cases and outbox repositories of `skillcase-cases` on a PostgreSQL
//! database several desktops and `skillcase serve` instances share (issue 27). Skills stay on each
//! desktop; cases, their timelines, the outbox and the agents' endpoints live here.
//!
//! Every method is one transaction, as on SQLite; what makes it hold across instances is the
//! database's own machinery: a transition locks its case's row (`FOR UPDATE`) before it checks
//! the status, the case counter's row lock hands out numbers without gaps, a partial unique index
//! keeps one open case per conversation, triggers keep the timeline append-only, and a delivery
//! is claimed with `FOR UPDATE SKIP LOCKED` and a lease.
//!
//! - [`connect`]: the connection string, TLS and the pool; [`schema`]: the versioned migrations.
//! - [`db`]: where transactions begin, commit and are tried again; [`rows`]: rows as values.
//! - [`transition`], [`sla`], [`quiet`]: the case's state changes, its response-time clocks and
//!   the quiet-customer job.
//! - [`reads`]: one case, the inbox pages, counts, read marks and the report.
//! - [`outbox`], [`endpoint`], [`agents`], [`enqueue`]: deliveries and where they go.
//! - [`jobs`]: the guardrail's vetoes, the promise ledger and the periodic jobs.
//! - [`live`]: LISTEN/NOTIFY, so every instance hears every committed change within a second.

pub mod agents;
pub mod connect;
pub mod copy;
pub mod db;
pub mod endpoint;
pub mod enqueue;
pub mod error;
pub mod jobs;
pub mod lease;
pub mod live;
pub mod outbox;
pub mod quiet;
pub mod reads;
pub mod rows;
pub mod schema;
pub mod sla;
pub mod transition;

mod repository;

pub use connect::TeamUrl;
pub use error::TeamError;

use db::Pg;

/// The cases and outbox repositories on a team's PostgreSQL. Cheap to clone.
#[derive(Clone)]
pub struct PgCases {
    pg: Pg,
    url: TeamUrl,
    /// This instance's application name on the server, unique per process and open.
    instance: String,
}

impl PgCases {
    /// Connects to `url`, brings its schema up to date (refusing a newer one) and keeps a pool
    /// of up to [`connect::MAX_CONNECTIONS`].
    pub fn open(url: &TeamUrl) -> Result<PgCases, TeamError> {
        PgCases::open_with(url, connect::MAX_CONNECTIONS)
    }

    /// [`PgCases::open`] with a pool of `max_connections`.
    pub fn open_with(url: &TeamUrl, max_connections: u32) -> Result<PgCases, TeamError> {
        let instance = format!("skillcase {}", uuid::Uuid::new_v4().simple());
        let pool = connect::pool(url, max_connections, &instance)?;
        let mut conn = pool.get()?;
        schema::migrate(&mut conn)?;
        drop(conn);
        Ok(PgCases { pg: Pg::new(pool), url: url.clone(), instance })
    }

    /// Where the cases live, without the password.
    pub fn url(&self) -> &TeamUrl {
        &self.url
    }

    /// Listens for the changes other instances commit (see [`live`]), calling `on_change` for
    /// each on the listener's thread.
    pub fn listen(&self, on_change: impl Fn(live::TeamChange) + Send + 'static) -> live::Listener {
        live::Listener::start(self.url.clone(), Some(self.instance.clone()), on_change)
    }

    /// Saves one of the team's case settings (the response-time targets, the business calendar:
    /// JSON under the keys the embedded database uses), which transitions on every instance read.
    pub fn put_case_setting(&self, key: &str, json: &str) -> Result<(), TeamError> {
        self.pg.write(|tx| {
            tx.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[&key, &json],
            )?;
            Ok(())
        })
    }

    /// The pool, for the jobs that need several transactions.
    pub fn pg(&self) -> &Pg {
        &self.pg
    }
}

impl std::fmt::Debug for PgCases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PgCases({})", self.url)
    }
}
