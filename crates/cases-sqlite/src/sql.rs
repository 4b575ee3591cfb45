//! [`Sql`] on a SQLite connection: `$n` parameters become SQLite's `?n`, statements are cached,
//! values are read as the domain's [`Value`]s, and SQLite's errors become the domain's.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::Connection;
use skillcase_cases::sql::{Arg, Dialect, Row, Sql, Value};
use skillcase_cases::CasesError;
use skillcase_common::error::Coded;
use skillcase_store::DbError;

/// A statement runner on one connection (the writer's, inside its transaction, or a reader's).
pub struct SqliteSql<'c> {
    conn: &'c Connection,
}

impl<'c> SqliteSql<'c> {
    pub fn new(conn: &'c Connection) -> Self {
        SqliteSql { conn }
    }
}

/// `sql` with every `$n` parameter written `?n`, as SQLite numbers them.
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn to_sql<'a>(arg: &'a Arg<'a>) -> ToSqlOutput<'a> {
    ToSqlOutput::Borrowed(match arg {
        Arg::Text(Some(text)) => ValueRef::Text(text.as_bytes()),
        Arg::Int(Some(n)) => ValueRef::Integer(*n),
        Arg::Bool(b) => ValueRef::Integer(i64::from(*b)),
        Arg::Text(None) | Arg::Int(None) => ValueRef::Null,
    })
}

fn value(raw: ValueRef<'_>) -> Value {
    match raw {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Int(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => {
            Value::Text(String::from_utf8_lossy(bytes).into_owned())
        }
    }
}

/// SQLite's error as the domain's `db_error`; a read interrupted because a newer one of its kind
/// started is `superseded`.
pub(crate) fn db_error(error: rusqlite::Error) -> CasesError {
    if error.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
        return CasesError::Storage {
            code: "superseded",
            message: "a newer request of the same kind replaced this one".into(),
            retryable: false,
        };
    }
    CasesError::Storage { code: "db_error", message: format!("database error: {error}"), retryable: false }
}

impl Sql for SqliteSql<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, CasesError> {
        let mut statement = self.conn.prepare_cached(&numbered(sql)).map_err(db_error)?;
        let params: Vec<ToSqlOutput<'_>> = args.iter().map(to_sql).collect();
        let changed = statement.execute(rusqlite::params_from_iter(params.iter())).map_err(db_error)?;
        Ok(changed as u64)
    }

    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, CasesError> {
        let mut statement = self.conn.prepare_cached(&numbered(sql)).map_err(db_error)?;
        let columns = statement.column_count();
        let params: Vec<ToSqlOutput<'_>> = args.iter().map(to_sql).collect();
        let mut rows = statement.query(rusqlite::params_from_iter(params.iter())).map_err(db_error)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(db_error)? {
            let values = (0..columns).map(|i| row.get_ref(i).map(value)).collect::<Result<_, _>>();
            out.push(Row(values.map_err(db_error)?));
        }
        Ok(out)
    }
}

/// A domain error on its way through the database's writer and read pool, which report their
/// own failures as [`DbError`]s.
pub(crate) struct Failed(pub CasesError);

impl From<DbError> for Failed {
    fn from(error: DbError) -> Self {
        Failed(CasesError::Storage { code: error.code(), message: error.to_string(), retryable: false })
    }
}
