//! [`Sql`] on a PostgreSQL connection or transaction: each statement sent with its parameters'
//! types (`query_typed`), so the server parses, binds and runs it in one round trip; values read
//! as the domain's [`Value`]s by their column types; the server's errors as the domain's, saying
//! whether trying the transaction again may succeed.

use postgres::error::SqlState;
use postgres::types::{ToSql, Type};
use postgres::GenericClient;
use skillcase_cases::sql::{Arg, Dialect, Row, Sql, Value};
use skillcase_cases::CasesError;
use skillcase_common::error::Coded;

use crate::error::TeamError;

/// Constraints whose violation means "another instance just wrote the same thing": the write is
/// tried again and then sees that row.
const RACED_CONSTRAINTS: &[&str] = &["cases_one_open_per_conversation", "guard_vetoes_pkey"];

/// A statement runner on a pooled connection or inside a transaction.
pub struct PgSql<'c, C: GenericClient> {
    client: &'c mut C,
}

impl<'c, C: GenericClient> PgSql<'c, C> {
    pub fn new(client: &'c mut C) -> Self {
        PgSql { client }
    }
}

/// One parameter with the type it is sent as.
fn typed<'a>(arg: &'a Arg<'a>) -> (&'a (dyn ToSql + Sync), Type) {
    match arg {
        Arg::Text(text) => (text, Type::TEXT),
        Arg::Int(n) => (n, Type::INT8),
        Arg::Bool(b) => (b, Type::BOOL),
    }
}

/// Column `i` of `row` as a domain value, by its type.
fn value(row: &postgres::Row, i: usize) -> Result<Value, postgres::Error> {
    let ty = row.columns()[i].type_().clone();
    Ok(match ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map_or(Value::Null, Value::Int),
        Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map_or(Value::Null, |n| Value::Int(n.into())),
        Type::INT2 => row.try_get::<_, Option<i16>>(i)?.map_or(Value::Null, |n| Value::Int(n.into())),
        Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map_or(Value::Null, Value::Bool),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map_or(Value::Null, Value::Real),
        Type::FLOAT4 => row.try_get::<_, Option<f32>>(i)?.map_or(Value::Null, |x| Value::Real(x.into())),
        _ => row.try_get::<_, Option<String>>(i)?.map_or(Value::Null, Value::Text),
    })
}

/// The server's error as the domain's: its code (`team_db_unreachable` when the connection is
/// gone, else `team_db_error`), and whether another instance's transaction got in the way.
pub fn storage_error(error: postgres::Error) -> CasesError {
    let retryable = raced(&error);
    // The server's own words (a trigger's refusal, a constraint's name) say what went wrong;
    // the client error's display alone says only "db error".
    let detail = error.as_db_error().map(|db| db.message().to_string());
    let error = TeamError::Postgres(error);
    let message = match detail {
        Some(detail) => format!("{error}: {detail}"),
        None => error.to_string(),
    };
    CasesError::Storage { code: error.code(), message, retryable }
}

/// Whether `error` is a conflict with a concurrent transaction that a new attempt resolves.
pub(crate) fn storage_error_ref(error: &postgres::Error) -> bool {
    raced(error)
}

fn raced(error: &postgres::Error) -> bool {
    match error.code() {
        Some(code)
            if *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED =>
        {
            true
        }
        Some(code) if *code == SqlState::UNIQUE_VIOLATION => error
            .as_db_error()
            .and_then(|db| db.constraint())
            .is_some_and(|name| RACED_CONSTRAINTS.contains(&name)),
        _ => false,
    }
}

impl<C: GenericClient> Sql for PgSql<'_, C> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64, CasesError> {
        let params: Vec<_> = args.iter().map(typed).collect();
        // `execute` has no typed form; a statement returning no rows costs the same as a query.
        let rows = self.client.query_typed(
            &format!("WITH changed AS ({sql} RETURNING 1) SELECT count(*) FROM changed"),
            &params,
        );
        let rows = rows.map_err(storage_error)?;
        let changed: i64 = rows[0].try_get(0).map_err(storage_error)?;
        Ok(changed as u64)
    }

    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, CasesError> {
        let params: Vec<_> = args.iter().map(typed).collect();
        let rows = self.client.query_typed(sql, &params).map_err(storage_error)?;
        rows.iter()
            .map(|row| (0..row.len()).map(|i| value(row, i)).collect::<Result<Vec<_>, _>>().map(Row))
            .collect::<Result<_, _>>()
            .map_err(storage_error)
    }
}
