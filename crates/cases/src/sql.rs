//! The storage steps every case step is written over: one SQL statement at a time, inside the
//! transaction its caller opened. SQLite and PostgreSQL each implement [`Sql`] (and nothing of a
//! case's rules), so a transition, the ledger, the clocks, the jobs and the outbox are written
//! once, here in the domain, and the two databases cannot drift.
//!
//! Statements are written once for both databases: parameters as `$1`, `$2`, … (the SQLite side
//! rewrites them), flags as `true` / `false`, and the few words the two dialects spell
//! differently come from [`Dialect`].

use std::borrow::Cow;

use serde::Serialize;

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

    /// Names the index a query of the overdue jobs reads on SQLite, whose planner (without
    /// statistics) would rather walk every open case in the order asked for than a partial index
    /// of the few due; PostgreSQL's planner weighs its statistics and needs no hint.
    pub fn indexed_by(self, index: &str) -> String {
        match self {
            Dialect::Sqlite => format!(" INDEXED BY {index}"),
            Dialect::Postgres => String::new(),
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

/// One parameter of a statement, typed so a NULL still says what it stands for. Text is always
/// [`storable`]: whatever a case step writes, both databases keep the same characters.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    Text(Option<Cow<'a, str>>),
    Int(Option<i64>),
    Bool(bool),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Arg::Text(Some(storable(value)))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(value: &'a String) -> Self {
        Arg::from(value.as_str())
    }
}

impl<'a> From<Option<&'a str>> for Arg<'a> {
    fn from(value: Option<&'a str>) -> Self {
        Arg::Text(value.map(storable))
    }
}

impl<'a> From<&'a Option<String>> for Arg<'a> {
    fn from(value: &'a Option<String>) -> Self {
        Arg::from(value.as_deref())
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

/// The character a database cannot keep, NUL (PostgreSQL refuses it in text and in JSON, SQLite
/// would keep it), as U+FFFD REPLACEMENT CHARACTER: decided here once for both databases, so a
/// customer's words with a stray NUL open a case on either instead of failing on one. Nothing
/// else is changed, and text without NUL is not copied.
pub fn storable(text: &str) -> Cow<'_, str> {
    match text.contains('\0') {
        true => Cow::Owned(text.replace('\0', "\u{FFFD}")),
        false => Cow::Borrowed(text),
    }
}

/// `value` as the JSON text a case step stores (a timeline payload, a case's context, a
/// delivery's body), with every NUL in its strings [`storable`] too: JSON writes NUL as the escape
/// `\u0000`, which PostgreSQL's `jsonb` refuses.
pub fn json(value: &impl Serialize) -> String {
    let text = serde_json::to_string(value).expect("the engine's values always serialise");
    storable_json(text)
}

/// JSON text with each `\u0000` escape written as `\ufffd`; every other escape (an escaped
/// backslash followed by `u0000` among them) is kept as it is.
pub fn storable_json(json: String) -> String {
    if !json.contains("\\u0000") {
        return json;
    }
    let mut out = String::with_capacity(json.len());
    let mut rest = json.as_str();
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let escape = &rest[at..];
        let kept = match escape.starts_with("\\u0000") {
            true => {
                out.push_str("\\ufffd");
                6
            }
            false => {
                let len = escape[1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                out.push_str(&escape[..len]);
                len
            }
        };
        rest = &escape[kept..];
    }
    out.push_str(rest);
    out
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

    /// [`Storage::list_cases`] for the page a person is waiting on while typing a search: a newer
    /// call interrupts this one where the database can stop a running query (it then fails with
    /// `superseded`). By default an ordinary page.
    fn list_cases_latest(
        &self,
        filter: &crate::store::CaseFilter,
    ) -> Result<crate::store::CasePage, CasesError> {
        self.list_cases(filter)
    }

    /// The tab counts and the unread badge.
    fn tab_counts(&self) -> Result<crate::store::TabCounts, CasesError>;

    /// The handover report over the cases opened in `range`.
    fn report(&self, range: &crate::report::ReportRange) -> Result<crate::report::CaseReport, CasesError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_character_is_stored_as_the_replacement_character() {
        assert_eq!(storable("refund\0 now"), "refund\u{FFFD} now");
    }

    #[test]
    fn text_without_nul_is_borrowed_as_it_is() {
        assert!(matches!(storable("Refund for order 5512"), Cow::Borrowed("Refund for order 5512")));
    }

    #[test]
    fn a_nul_in_a_json_string_is_stored_as_the_replacement_character() {
        let stored = json(&serde_json::json!({ "text": "a\0b", "n": 1 }));
        assert_eq!(stored, r#"{"n":1,"text":"a\ufffdb"}"#);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&stored).unwrap()["text"], "a\u{FFFD}b");
    }

    #[test]
    fn an_escaped_backslash_before_u0000_is_text_and_kept() {
        let written = serde_json::json!({ "text": r"C:\u0000 and \\n" });
        assert_eq!(serde_json::from_str::<serde_json::Value>(&json(&written)).unwrap(), written);
    }

    #[test]
    fn json_escapes_around_a_nul_are_kept() {
        let written = serde_json::json!({ "text": "\"quoted\"\n\0\u{7}é" });
        let read: serde_json::Value = serde_json::from_str(&json(&written)).unwrap();
        assert_eq!(read["text"], "\"quoted\"\n\u{FFFD}\u{7}é");
    }
}
