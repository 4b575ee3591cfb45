//! The team inbox: the case engine of `skillcase-cases` on a PostgreSQL database several desktops
//! and `skillcase serve` instances share. Skills stay on each desktop; cases, their timelines,
//! the outbox and the agents' endpoints live here.
//!
//! Every case step is the domain's, the same as on SQLite; this crate gives it a
//! [`Storage`]: statements in a transaction ([`sql`]), tried again when another instance's
//! transaction got in the way ([`db`]). What makes a step hold across instances is the
//! database's own machinery: a transition locks its case's row (`FOR UPDATE`) before it checks
//! the status, the case counter's row lock hands out numbers without gaps, a partial unique index
//! keeps one open case per conversation, triggers keep the timeline append-only, and a delivery
//! is claimed with `FOR UPDATE SKIP LOCKED` and a lease.
//!
//! - [`connect`]: the connection string, TLS and the pool; [`schema`]: the versioned migrations.
//! - [`reads`]: the inbox pages, tab counts and the report, whose SQL is PostgreSQL's own.
//! - [`live`]: LISTEN/NOTIFY, so every instance hears every committed change within a second.
//! - [`copy`]: a desktop's inbox copied into an empty team database.
//! - [`people`]: each person's own login in one of the team's roles; [`chain`]: the timeline's
//!   hash chain walked.
//! - [`typing`]: the inbox page read while a person types, which the next one cancels.

pub mod chain;
pub mod connect;
pub mod copy;
pub mod db;
pub mod error;
pub mod live;
pub mod people;
pub mod reads;
pub mod schema;
pub mod sql;
pub mod typing;

pub use connect::TeamUrl;
pub use error::TeamError;

use db::Pg;
use skillcase_cases::sql::{Sql, Storage};
use skillcase_cases::CasesError;
use sql::PgSql;

/// The cases and outbox repositories on a team's PostgreSQL. Cheap to clone.
#[derive(Clone)]
pub struct PgCases {
    pg: Pg,
    url: TeamUrl,
    /// This instance's application name on the server, unique per process and open.
    instance: String,
    /// The inbox page read for a person typing a search, which the next one cancels.
    typing: typing::TypingReads,
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
        let mut typing = connect::config(url)?;
        typing.application_name(&instance);
        Ok(PgCases {
            pg: Pg::new(pool),
            url: url.clone(),
            instance,
            typing: typing::TypingReads::new(typing),
        })
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

    /// The person this connection's login is on the team, if it is one (see [`people`]).
    pub fn person(&self) -> Result<Option<people::Person>, TeamError> {
        self.pg.read(people::current)
    }

    /// Walks every case's hash chain (see [`chain`]).
    pub fn verify_chain(&self) -> Result<chain::ChainReport, TeamError> {
        self.pg.read(chain::verify)
    }

    /// Walks one case's hash chain (see [`chain::verify_case`]).
    pub fn verify_case_chain(&self, case_id: &str) -> Result<Vec<chain::ChainBreak>, TeamError> {
        self.pg.read(|client| chain::verify_case(client, case_id))
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

impl Storage for PgCases {
    fn write<T: Send + 'static>(
        &self,
        mut work: impl FnMut(&mut dyn Sql) -> Result<T, CasesError> + Send + 'static,
    ) -> Result<T, CasesError> {
        Ok(self.pg.write(|tx| Ok(work(&mut PgSql::new(tx))?))?)
    }

    fn read<T>(&self, work: impl FnOnce(&mut dyn Sql) -> Result<T, CasesError>) -> Result<T, CasesError> {
        Ok(self.pg.read(|client| Ok(work(&mut PgSql::new(client))?))?)
    }

    fn list_cases(
        &self,
        filter: &skillcase_cases::store::CaseFilter,
    ) -> Result<skillcase_cases::store::CasePage, CasesError> {
        self.read(|sql| reads::list_cases(sql, filter))
    }

    fn list_cases_latest(
        &self,
        filter: &skillcase_cases::store::CaseFilter,
    ) -> Result<skillcase_cases::store::CasePage, CasesError> {
        self.typing.read(|client| reads::list_cases(&mut PgSql::new(client), filter))
    }

    fn tab_counts(&self) -> Result<skillcase_cases::store::TabCounts, CasesError> {
        self.read(reads::tab_counts)
    }

    fn report(
        &self,
        range: &skillcase_cases::report::ReportRange,
    ) -> Result<skillcase_cases::report::CaseReport, CasesError> {
        Ok(self.pg.read(|client| {
            let mut tx = client.transaction()?;
            tx.batch_execute("SET LOCAL jit = off")?;
            let report = reads::report(&mut PgSql::new(&mut tx), range)?;
            tx.commit()?;
            Ok(report)
        })?)
    }
}
