//! The team database's versioned migrations: numbered `.sql` files embedded in the binary,
//! applied in order inside one transaction under an advisory lock (so instances starting together
//! migrate once), the version kept in `skillcase_schema`. A database from a newer Skillcase is
//! refused and left untouched, as the embedded database's `db_too_new` does.

use postgres::Client;

use crate::error::TeamError;

/// Every migration, in order; the version of a database is how many of them it has.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_inbox.sql"),
    include_str!("../migrations/0002_closed_totals.sql"),
    include_str!("../migrations/0003_people_and_chain.sql"),
    include_str!("../migrations/0004_guard_marks.sql"),
    include_str!("../migrations/0005_promise_watch.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Any fixed key: instances migrating the same database at once take turns on it.
const MIGRATION_LOCK: i64 = 0x536b_696c_6c63_6173;

/// Brings the database up to [`SCHEMA_VERSION`]; returns the version it had before. A database
/// already current is only read, so a person's login (which may create nothing) opens it.
pub fn migrate(client: &mut Client) -> Result<i64, TeamError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    let found = version(&mut tx)?;
    if found > SCHEMA_VERSION {
        return Err(TeamError::TooNew { found, supported: SCHEMA_VERSION });
    }
    if found == SCHEMA_VERSION {
        return Ok(found);
    }
    tx.batch_execute("CREATE TABLE IF NOT EXISTS skillcase_schema (version BIGINT NOT NULL)")?;
    for sql in &MIGRATIONS[found as usize..] {
        tx.batch_execute(sql)?;
    }
    if found == 0 {
        tx.execute("INSERT INTO skillcase_schema (version) VALUES ($1)", &[&SCHEMA_VERSION])?;
    } else {
        tx.execute("UPDATE skillcase_schema SET version = $1", &[&SCHEMA_VERSION])?;
    }
    tx.commit()?;
    Ok(found)
}

/// The schema version the database has, 0 for a database Skillcase never set up.
fn version(tx: &mut postgres::Transaction<'_>) -> Result<i64, TeamError> {
    let exists: bool = tx.query_one("SELECT to_regclass('skillcase_schema') IS NOT NULL", &[])?.get(0);
    if !exists {
        return Ok(0);
    }
    Ok(tx.query_opt("SELECT version FROM skillcase_schema", &[])?.map_or(0, |r| r.get(0)))
}
