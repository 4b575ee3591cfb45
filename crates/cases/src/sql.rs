//! The storage steps every case step is written over: one SQL statement at a time, inside the
//! transaction its caller opened. SQLite and PostgreSQL each implement [`Sql`] (and nothing of a
//! case's rules), so a transition, the ledger, the clocks, the jobs and the outbox are written
//! once, here in the domain, and the two databases cannot drift.
//!
//! Statements are written once for both databases: parameters as `$1`, `$2`, … (the SQLite side
//! rewrites them), flags as `true` / `false`, and the few words the two dialects spell
//! differently come from [`Dialect`].

use crate::error::CasesError;

/// Which database a statement runs on, for the few words the two spell differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The row lock a transition takes on its case before it checks the status. SQLite needs
    /// none: its single writer runs one transaction at a time.
    pub fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// The lock a job takes on the rows it claims, passing over the ones another instance holds.
    pub fn skip_locked(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// The smaller of two values of one row (SQLite's scalar `min`).
    pub fn least(self) -> &'static str {
        match self {
            Dialect::Sqlite => "min",
            Dialect::Postgres => "least",
        }
    }

    /// The larger of two values of one row (SQLite's scalar `max`).
    pub fn greatest(self) -> &'static str {
        match self {
            Dialect::Sqlite => "max",
            Dialect::Postgres => "greatest",
        }
    }

    /// The text under `key` of the JSON object stored as text in `column`.
    pub fn json_text(self, column: &str, key: &str) -> String {
        match self {
            Dialect::Sqlite => format!("json_extract({column}, '$.{key}')"),
            Dialect::Postgres => format!("({column}::jsonb ->> '{key}')"),
        }
    }
}

/// One parameter of a statement, typed so a NULL still says what it stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg<'a> {
    Text(Option<&'a str>),
    Int(Option<i64>),
    Bool(bool),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Arg::Text(Some(value))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(value: &'a String) -> Self {
        Arg::Text(Some(value))
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(value: Option<&'a str>) -> Self {
        Arg::Text(value)
    }
}

impl<'a> From<&'a Option<String>> for Arg<'a> {
    fn from(value: &'a Option<String>) -> Self {
        Arg::Text(value.as_deref())
    }
}

impl From<i64> for Arg<'_> {
    fn from(value: i64) -> Self {
        Arg::Int(Some(value))
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(value: Option<i64>) -> Self {
        Arg::Int(value)
    }
}

impl From<bool> for Arg<'_> {
    fn from(value: bool) -> Self {
        Arg::Bool(value)
    }
}

/// The parameters of a statement, each converted with `Arg::from`.
#[macro_export]
macro_rules! args {
    ($($value:expr),* $(,)?) => { &[$($crate::sql::Arg::from($value)),*] };
}

/// One value a statement returned.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bool(bool),
}

/// One row a statement returned, its values in the order the statement selected them.
#[derive(Debug, Clone, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn value(&self, i: usize) -> Result<&Value, CasesError> {
        self.0.get(i).ok_or_else(|| storage_shape(format!("no column {i}")))
    }

    /// The text in column `i`, or `None` for NULL.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, CasesError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Text(text) => Ok(Some(text.clone())),
            other => Err(storage_shape(format!("column {i} is {other:?}, not text"))),
        }
    }

    /// The text in column `i`, which must not be NULL.
    pub fn text(&self, i: usize) -> Result<String, CasesError> {
        self.opt_text(i)?.ok_or_else(|| storage_shape(format!("column {i} is NULL")))
    }

    /// The integer in column `i`, or `None` for NULL.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, CasesError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Int(n) => Ok(Some(*n)),
            Value::Bool(b) => Ok(Some(i64::from(*b))),
            other => Err(storage_shape(format!("column {i} is {other:?}, not an integer"))),
        }
    }

    /// The integer in column `i`, which must not be NULL.
    pub fn int(&self, i: usize) -> Result<i64, CasesError> {
        self.opt_int(i)?.ok_or_else(|| storage_shape(format!("column {i} is NULL")))
    }

    /// The flag in column `i` (SQLite keeps flags as 0 and 1), or `None` for NULL.
    pub fn opt_bool(&self, i: usize) -> Result<Option<bool>, CasesError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Bool(b) => Ok(Some(*b)),
            Value::Int(n) => Ok(Some(*n != 0)),
            other => Err(storage_shape(format!("column {i} is {other:?}, not a flag"))),
        }
    }

    /// The flag in column `i`, which must not be NULL.
    pub fn bool(&self, i: usize) -> Result<bool, CasesError> {
        self.opt_bool(i)?.ok_or_else(|| storage_shape(format!("column {i} is NULL")))
    }

    /// The number in column `i` (an integer read as one too), or `None` for NULL.
    pub fn opt_real(&self, i: usize) -> Result<Option<f64>, CasesError> {
        match self.value(i)? {
            Value::Null => Ok(None),
            Value::Real(x) => Ok(Some(*x)),
            Value::Int(n) => Ok(Some(*n as f64)),
            other => Err(storage_shape(format!("column {i} is {other:?}, not a number"))),
        }
    }
}

fn storage_shape(message: String) -> CasesError {
    CasesError::Storage { code: "db_error", message: format!("unexpected row: {message}"), retryable: false }
}

/// A database transaction the case steps run their statements in. Implemented by each database;
/// a refusal anywhere rolls the whole transaction back, which is the caller's to manage.
pub trait Sql {
    /// Which database this is.
    fn dialect(&self) -> Dialect;

    /// Runs a statement that returns no rows; returns how many rows it changed.
    fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, CasesError>;

    /// Runs a statement and returns every row.
    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, CasesError>;

    /// The first row a statement returns, if any.
    fn query_opt(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Option<Row>, CasesError> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// The one row a statement must return.
    fn query_one(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Row, CasesError> {
        self.query_opt(sql, args)?.ok_or_else(|| storage_shape("the statement returned no row".into()))
    }
}

/// Where cases live, as the engine needs it: transactions to run steps in, and the reads whose
/// SQL really differs between the databases (inbox pages, tab counts, search, the report).
pub trait Storage: Send + Sync + 'static {
    /// Runs `work` in one transaction and commits it; a refusal rolls it back. `work` may run
    /// more than once (PostgreSQL tries a transaction again when another instance's got in the
    /// way), so it keeps no effect outside the transaction.
    fn write<T: Send + 'static>(
        &self,
        work: impl FnMut(&mut dyn Sql) -> Result<T, CasesError> + Send + 'static,
    ) -> Result<T, CasesError>;

    /// Runs `work` on a consistent view of the database, writing nothing.
    fn read<T>(&self, work: impl FnOnce(&mut dyn Sql) -> Result<T, CasesError>) -> Result<T, CasesError>;

    /// One inbox page with the tab counts.
    fn list_cases(&self, filter: &crate::store::CaseFilter) -> Result<crate::store::CasePage, CasesError>;

    /// The tab counts and the unread badge.
    fn tab_counts(&self) -> Result<crate::store::TabCounts, CasesError>;

    /// The handover report over the cases opened in `range`.
    fn report(&self, range: &crate::report::ReportRange) -> Result<crate::report::CaseReport, CasesError>;
}
