//! Cases on the embedded SQLite database, one desktop's inbox: the case engine's
//! [`Storage`](skillcase_cases::sql::Storage) — its statements run on the database's single
//! writer (so concurrent callers share commits instead of waiting for the file lock) or its read
//! pool — plus the reads whose SQL is SQLite's own: the inbox pages walked from the indexes and
//! the FTS5 search ([`inbox`]), and the handover report ([`report`]). Every case step itself is
//! the domain's, written once for both databases.

pub mod inbox;
pub mod report;
mod sql;

use std::sync::Arc;

use skillcase_cases::replies::pick::PickFilter;
use skillcase_cases::replies::{self, ImportOutcome, SavedRepliesRepository, SavedReply, SavedReplyInput};
use skillcase_cases::sql::{Sql, Storage};
use skillcase_cases::CasesError;
use skillcase_store::{Database, LatestRead};

pub use sql::SqliteSql;

/// Cases and the outbox in one SQLite database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SqliteCases {
    db: Arc<Database>,
    /// The inbox page being read for a person typing a search, which the next one interrupts.
    latest_page: LatestRead,
}

impl SqliteCases {
    /// The cases over an open database.
    pub fn new(db: Arc<Database>) -> Self {
        SqliteCases { db, latest_page: LatestRead::default() }
    }

    /// The database underneath (the application shares it with the library and settings).
    pub fn database(&self) -> &Arc<Database> {
        &self.db
    }

    /// Vetoes recorded for a turn (0 when none).
    pub fn vetoes_in_turn(&self, conversation_id: &str, turn_id: &str) -> Result<i64, CasesError> {
        self.read(|sql| skillcase_cases::veto::vetoes_in_turn(sql, conversation_id, turn_id))
    }
}

impl Storage for SqliteCases {
    fn write<T: Send + 'static>(
        &self,
        mut work: impl FnMut(&mut dyn Sql) -> Result<T, CasesError> + Send + 'static,
    ) -> Result<T, CasesError> {
        self.db.write(move |conn| work(&mut SqliteSql::new(conn)).map_err(sql::Failed)).map_err(|f| f.0)
    }

    fn read<T>(&self, work: impl FnOnce(&mut dyn Sql) -> Result<T, CasesError>) -> Result<T, CasesError> {
        self.db.read(|conn| work(&mut SqliteSql::new(conn)).map_err(sql::Failed)).map_err(|f| f.0)
    }

    fn list_cases(
        &self,
        filter: &skillcase_cases::store::CaseFilter,
    ) -> Result<skillcase_cases::store::CasePage, CasesError> {
        self.read(|sql| inbox::list_cases(sql, filter))
    }

    fn list_cases_latest(
        &self,
        filter: &skillcase_cases::store::CaseFilter,
    ) -> Result<skillcase_cases::store::CasePage, CasesError> {
        self.db
            .read_latest(&self.latest_page, |conn| {
                inbox::list_cases(&mut SqliteSql::new(conn), filter).map_err(sql::Failed)
            })
            .map_err(|f| f.0)
    }

    fn tab_counts(&self) -> Result<skillcase_cases::store::TabCounts, CasesError> {
        self.read(inbox::tab_counts)
    }

    fn report(
        &self,
        range: &skillcase_cases::report::ReportRange,
    ) -> Result<skillcase_cases::report::CaseReport, CasesError> {
        self.read(|sql| report::case_report(sql, range))
    }
}

impl SavedRepliesRepository for SqliteCases {
    fn list(&self) -> Result<Vec<SavedReply>, CasesError> {
        self.read(replies::store::list)
    }

    fn create(&self, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
        self.write(move |sql| replies::store::create(sql, input.clone()))
    }

    fn update(&self, id: &str, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
        let id = id.to_owned();
        self.write(move |sql| replies::store::update(sql, &id, input.clone()))
    }

    fn delete(&self, id: &str) -> Result<(), CasesError> {
        let id = id.to_owned();
        self.write(move |sql| replies::store::delete(sql, &id))
    }

    fn pick(&self, filter: &PickFilter) -> Result<Vec<SavedReply>, CasesError> {
        self.read(|sql| replies::store::pick(sql, filter))
    }

    fn import(&self, entries: Vec<SavedReplyInput>) -> Result<ImportOutcome, CasesError> {
        self.write(move |sql| replies::store::import(sql, entries.clone()))
    }
}
