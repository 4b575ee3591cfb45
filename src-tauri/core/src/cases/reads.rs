//! Which cases a person has opened: the inbox marks a case unread until it is opened, and a
//! person can mark it unread again. A case the agent hands back after it was read (it waits on
//! the person since after the read) counts as unread again, so new information is never missed.

use rusqlite::{params, Connection};

use super::clock;
use super::error::CasesError;
use super::store::find_case;

/// The SQL condition, over `cases` joined with `case_reads AS r`, that a case is unread.
pub(crate) const UNREAD_SQL: &str = "(r.read_at IS NULL OR (cases.status = 'awaiting_human' \
     AND r.read_at < cases.waiting_since))";

/// Records that a person opened the case now; `case_not_found` if there is none.
pub fn mark_read(conn: &Connection, case_id: &str) -> Result<(), CasesError> {
    find_case(conn, case_id)?;
    conn.execute(
        "INSERT INTO case_reads (case_id, read_at) VALUES (?1, ?2) \
         ON CONFLICT (case_id) DO UPDATE SET read_at = excluded.read_at",
        params![case_id, clock::now()],
    )?;
    Ok(())
}

/// Forgets that the case was opened, so the inbox marks it unread again.
pub fn mark_unread(conn: &Connection, case_id: &str) -> Result<(), CasesError> {
    find_case(conn, case_id)?;
    conn.execute("DELETE FROM case_reads WHERE case_id = ?1", [case_id])?;
    Ok(())
}

/// Whether the case counts as unread; `case_not_found` if there is none.
pub fn is_unread(conn: &Connection, case_id: &str) -> Result<bool, CasesError> {
    find_case(conn, case_id)?;
    Ok(conn.query_row(
        &format!("SELECT {UNREAD_SQL} FROM cases LEFT JOIN case_reads r ON r.case_id = cases.id WHERE cases.id = ?1"),
        [case_id],
        |r| r.get(0),
    )?)
}
