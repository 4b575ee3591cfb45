//! What every case test shares: a fresh database of either kind behind one type, [`Db`], so a
//! behaviour is written once and [`on_both!`] runs it on a real SQLite file and on a real
//! PostgreSQL (the test kit's throw-away cluster); and the sample cases.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{
    Actor, Case, CaseEvent, CaseSource, CaseStatus, ContextMessage, Delivery, EventKind, HumanAction, Lead,
    NewCase,
};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::sql::{Arg, Dialect, Row, Sql, Storage};
use skillcase_cases::store::{CaseFilter, CasePage, TabCounts};
use skillcase_cases::{CasesError, CasesRepository, OutboxRepository};
use skillcase_cases_sqlite::SqliteCases;
use skillcase_store::Database;
use skillcase_team::{PgCases, TeamUrl};
use skillcase_testkit::postgres::Cluster;

/// Runs one behaviour on both databases: `on_both! { fn name(db) { … } }` becomes the tests
/// `name::sqlite` and `name::postgres`, each with `db: &Db` fresh and empty. With `async fn`, the
/// body runs on a multi-threaded Tokio runtime (for the delivery worker and the fake endpoint).
#[macro_export]
macro_rules! on_both {
    ($(#[$meta:meta])* fn $name:ident($db:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[test]
            fn sqlite() {
                let $db = &$crate::support::Db::sqlite();
                $body
            }

            #[test]
            fn postgres() {
                let $db = &$crate::support::Db::postgres();
                $body
            }
        }
    };
    ($(#[$meta:meta])* async fn $name:ident($db:ident) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[test]
            fn sqlite() {
                let $db = &$crate::support::Db::sqlite();
                $crate::support::runtime().block_on(async move { $body })
            }

            #[test]
            fn postgres() {
                let $db = &$crate::support::Db::postgres();
                $crate::support::runtime().block_on(async move { $body })
            }
        }
    };
}

/// The runtime an `async` behaviour runs on; the test's database outlives it, so the tasks it
/// spawned (a delivery worker) stop before their database goes.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// Runs blocking database work from anywhere: on a runtime's thread (an `async` test), the
/// thread leaves the runtime while it blocks, as PostgreSQL's blocking client requires.
fn blocking<T>(work: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(work)
}

/// A fresh inbox on one of the two databases.
pub enum Db {
    Sqlite { cases: SqliteCases, path: PathBuf, _dir: tempfile::TempDir },
    Postgres(PgCases),
}

impl Db {
    /// An empty inbox in a new SQLite file.
    pub fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(skillcase_store::db::DATABASE_FILE);
        let cases = SqliteCases::new(Database::open(&path).unwrap());
        Db::Sqlite { cases, path, _dir: dir }
    }

    /// An empty inbox in a new database of the test cluster.
    pub fn postgres() -> Db {
        Db::Postgres(PgCases::open(&fresh_url()).unwrap())
    }

    /// Another instance on the same inbox, with its own writer or pool (another process).
    pub fn another_instance(&self) -> Db {
        blocking(|| match self {
            Db::Sqlite { path, .. } => {
                let dir = tempfile::tempdir().unwrap();
                Db::Sqlite {
                    cases: SqliteCases::new(Database::open(path).unwrap()),
                    path: path.clone(),
                    _dir: dir,
                }
            }
            Db::Postgres(team) => Db::Postgres(PgCases::open(team.url()).unwrap()),
        })
    }

    /// Which database this is.
    pub fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite { .. } => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The SQLite file, for the tests that only SQLite has.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            Db::Sqlite { path, .. } => Some(path),
            Db::Postgres(_) => None,
        }
    }

    /// The embedded database's repositories, for what only a desktop has (its saved replies).
    pub fn sqlite_cases(&self) -> Option<&SqliteCases> {
        match self {
            Db::Sqlite { cases, .. } => Some(cases),
            Db::Postgres(_) => None,
        }
    }

    /// The outbox, shared, for a delivery worker.
    pub fn outbox(&self) -> Arc<dyn OutboxRepository> {
        match self {
            Db::Sqlite { cases, .. } => Arc::new(cases.clone()),
            Db::Postgres(team) => Arc::new(team.clone()),
        }
    }

    /// The rows a query returns (outside the code under test's transactions).
    pub fn rows(&self, query: &str) -> Vec<Row> {
        self.read(|sql| sql.query(query, &[])).unwrap()
    }

    /// The one integer a query returns (a count, a number).
    pub fn int(&self, query: &str) -> i64 {
        self.read(|sql| sql.query_one(query, &[])?.int(0)).unwrap()
    }

    /// The one text (or NULL) a query returns.
    pub fn text(&self, query: &str) -> Option<String> {
        self.read(|sql| sql.query_one(query, &[])?.opt_text(0)).unwrap()
    }

    /// Runs a statement that changes the database (a test's set-up, never the code under test).
    pub fn exec(&self, statement: &str) -> u64 {
        self.try_exec(statement).unwrap()
    }

    /// [`Db::exec`] for a statement the database may refuse.
    pub fn try_exec(&self, statement: &str) -> Result<u64, CasesError> {
        let statement = statement.to_string();
        self.write(move |sql| sql.execute(&statement, &[]))
    }

    /// Changes the schema for a test (a trigger that makes a write fail): through the
    /// connection on SQLite, with psql on PostgreSQL (whose `Sql::execute` takes only the
    /// statements that change rows).
    pub fn ddl(&self, statements: &str) {
        match self {
            Db::Sqlite { cases, .. } => {
                let statements = statements.to_string();
                let written = cases.database().write(move |conn| {
                    conn.execute_batch(&statements).map_err(skillcase_store::DbError::from)
                });
                written.unwrap();
            }
            Db::Postgres(team) => {
                let database = team.url().secret().rsplit('/').next().unwrap().to_string();
                blocking(|| Cluster::shared().psql(&database, statements));
            }
        }
    }

    /// Saves a setting (the response targets, the business calendar) as JSON under `key`.
    pub fn put_setting(&self, key: &str, value: &str) {
        let (key, value) = (key.to_string(), value.to_string());
        self.write(move |sql| {
            sql.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &[Arg::from(&key), Arg::from(&value)],
            )
        })
        .unwrap();
    }

    /// The JSON message stored for a delivery.
    pub fn body(&self, delivery_id: &str) -> serde_json::Value {
        let body = self.text(&format!("SELECT body FROM deliveries WHERE id = '{delivery_id}'")).unwrap();
        serde_json::from_str(&body).unwrap()
    }

    /// The case as stored.
    pub fn case(&self, id: &str) -> Case {
        let id = id.to_string();
        self.read(|sql| skillcase_cases::rows::find_case(sql, &id)).unwrap()
    }

    /// The case's timeline, oldest first.
    pub fn events(&self, id: &str) -> Vec<CaseEvent> {
        self.read(|sql| skillcase_cases::rows::events_for_case(sql, id)).unwrap()
    }

    /// The kinds of the case's timeline, oldest first.
    pub fn kinds(&self, id: &str) -> Vec<EventKind> {
        self.events(id).into_iter().map(|e| e.kind).collect()
    }

    /// The case's deliveries, oldest first.
    pub fn deliveries(&self, id: &str) -> Vec<Delivery> {
        self.read(|sql| skillcase_cases::rows::deliveries_for_case(sql, id)).unwrap()
    }

    /// The open case of a conversation.
    pub fn open_case_of(&self, conversation: &str) -> Option<Case> {
        self.read(|sql| skillcase_cases::rows::open_case_for_conversation(sql, conversation)).unwrap()
    }

    /// Sets a case's column (a test's way to move time or state it cannot wait for).
    pub fn set(&self, id: &str, assignment: &str) {
        self.exec(&format!("UPDATE cases SET {assignment} WHERE id = '{id}'"));
    }

    /// One inbox page (the repository's, named here once: [`Storage`] has a method of that name
    /// too).
    pub fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        CasesRepository::list_cases(self, filter)
    }

    /// The tab counts and the unread badge.
    pub fn tab_counts(&self) -> Result<TabCounts, CasesError> {
        CasesRepository::tab_counts(self)
    }

    /// The handover report.
    pub fn report(
        &self,
        range: &skillcase_cases::report::ReportRange,
    ) -> Result<skillcase_cases::report::CaseReport, CasesError> {
        CasesRepository::report(self, range)
    }

    /// Opens the refund case of `conversation`; its id.
    pub fn open(&self, conversation: &str) -> String {
        self.open_case(refund_case(conversation)).unwrap().case.id
    }

    /// A fresh case of `conversation` brought to `status` through legal transitions; its id.
    pub fn case_in(&self, conversation: &str, status: CaseStatus) -> String {
        let id = self.open(conversation);
        match status {
            CaseStatus::AwaitingHuman => {}
            CaseStatus::AwaitingLead => {
                self.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
            }
            CaseStatus::Resolved => {
                self.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap();
            }
            CaseStatus::Escalated => {
                self.reply(&id, HumanAction::Escalate, "Legal threat.", "Ana").unwrap();
            }
            CaseStatus::Cancelled => {
                self.cancel(&id, Actor::Agent, None, Some("lead gave up")).unwrap();
            }
        }
        assert_eq!(self.case(&id).status, status);
        id
    }

    /// Everything a refused step must leave untouched: the case row, every event and every
    /// delivery.
    pub fn snapshot(&self, id: &str) -> String {
        let case = serde_json::to_string(&self.case(id)).unwrap();
        let events = self.int("SELECT count(*) FROM case_events");
        let deliveries = self.int("SELECT count(*) FROM deliveries");
        format!("{case}|{events}|{deliveries}")
    }
}

/// Runs `work(instance, n)` on `threads` threads at once, alternating between this instance and
/// another one on the same inbox (another process); what each returned, in thread order.
pub fn at_once<T: Send>(db: &Db, threads: usize, work: impl Fn(&Db, usize) -> T + Sync) -> Vec<T> {
    let other = db.another_instance();
    let instances = [db, &other];
    let start = Barrier::new(threads);
    std::thread::scope(|scope| {
        let running: Vec<_> = (0..threads)
            .map(|n| {
                let (instance, start, work) = (instances[n % 2], &start, &work);
                scope.spawn(move || {
                    start.wait();
                    work(instance, n)
                })
            })
            .collect();
        running.into_iter().map(|thread| thread.join().unwrap()).collect()
    })
}

/// The ids as the bulk actions take them.
pub fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| id.to_string()).collect()
}

/// `stamp` moved by `secs` seconds (backwards when negative), as the domain's clock writes times.
pub fn plus_secs(stamp: &str, secs: i64) -> String {
    skillcase_cases::clock::format(
        skillcase_cases::clock::parse(stamp).unwrap() + time::Duration::seconds(secs),
    )
}

impl Storage for Db {
    fn write<T: Send + 'static>(
        &self,
        work: impl FnMut(&mut dyn Sql) -> Result<T, CasesError> + Send + 'static,
    ) -> Result<T, CasesError> {
        blocking(|| match self {
            Db::Sqlite { cases, .. } => cases.write(work),
            Db::Postgres(team) => team.write(work),
        })
    }

    fn read<T>(&self, work: impl FnOnce(&mut dyn Sql) -> Result<T, CasesError>) -> Result<T, CasesError> {
        blocking(|| match self {
            Db::Sqlite { cases, .. } => cases.read(work),
            Db::Postgres(team) => team.read(work),
        })
    }

    fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        blocking(|| match self {
            Db::Sqlite { cases, .. } => Storage::list_cases(cases, filter),
            Db::Postgres(team) => Storage::list_cases(team, filter),
        })
    }

    fn tab_counts(&self) -> Result<TabCounts, CasesError> {
        blocking(|| match self {
            Db::Sqlite { cases, .. } => Storage::tab_counts(cases),
            Db::Postgres(team) => Storage::tab_counts(team),
        })
    }

    fn report(
        &self,
        range: &skillcase_cases::report::ReportRange,
    ) -> Result<skillcase_cases::report::CaseReport, CasesError> {
        blocking(|| match self {
            Db::Sqlite { cases, .. } => Storage::report(cases, range),
            Db::Postgres(team) => Storage::report(team, range),
        })
    }
}

/// The URL of a new empty database on the test cluster.
pub fn fresh_url() -> TeamUrl {
    TeamUrl::parse(&Cluster::shared().fresh_database()).unwrap()
}

/// The case an agent opens when a lead asks for a refund it cannot grant.
pub fn refund_case(conversation_id: &str) -> NewCase {
    NewCase {
        conversation_id: conversation_id.to_string(),
        lead: Lead {
            id: Some("lead-77".into()),
            name: Some("Maria Souza".into()),
            channel: Some("whatsapp".into()),
            contact: Some("+55 11 91234-5678".into()),
        },
        agent_id: Some("support-bot".into()),
        title: "Refund for a double charge".into(),
        summary: "The lead was charged twice for order 5512 and wants one charge refunded.".into(),
        blocker: Some("Refunds need a person's approval.".into()),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "I was charged twice!".into(),
            at: Some("2026-11-30T10:00:00.000Z".into()),
        }],
        source: CaseSource::Agent,
        reason: HandoverReason::PolicyRestriction,
    }
}

/// A signing secret the endpoint and agent settings accept.
pub const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// Settings for a default endpoint at `url`, switched on, with [`SECRET`].
pub fn endpoint_input(url: &str) -> EndpointInput {
    EndpointInput {
        url: url.into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    }
}
