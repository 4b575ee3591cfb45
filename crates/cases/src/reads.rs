//! Which cases a person has opened: the inbox marks a case unread until it is opened, and a
//! person can mark it unread again. A case the agent hands back after it was read (it waits on
//! the person since after the read) counts as unread again, so new information is never missed.

use rusqlite::{params, Connection};

use super::clock;
use super::error::CasesError;

/// The SQL condition, over a row of `cases`, that the case is unread. Public so the team
/// database's inbox marks and badge use the same condition (it is plain SQL both databases run).
pub const UNREAD_SQL: &str = "(cases.read_at IS NULL OR (cases.status = 'awaiting_human' \
     AND cases.read_at < cases.waiting_since))";

/// Records that a person opened the case now; `case_not_found` if there is none.
pub fn mark_read(conn: &Connection, case_id: &str) -> Result<(), CasesError> {
    set_read_at(conn, case_id, Some(&clock::now()))
}

/// Forgets that the case was opened, so the inbox marks it unread again.
pub fn mark_unread(conn: &Connection, case_id: &str) -> Result<(), CasesError> {
    set_read_at(conn, case_id, None)
}

/// Marks several cases read or unread at once (a bulk action): all of them, or none when one
/// does not exist.
pub fn set_read_many(conn: &Connection, case_ids: &[String], read: bool) -> Result<(), CasesError> {
    let case_ids = super::transition::bulk_ids(case_ids)?;
    let at = read.then(clock::now);
    skillcase_store::atomic(conn, |tx| {
        for id in &case_ids {
            set_read_at(tx, id, at.as_deref())?;
        }
        Ok(())
    })
}

/// Whether the case counts as unread; `case_not_found` if there is none.
pub fn is_unread(conn: &Connection, case_id: &str) -> Result<bool, CasesError> {
    let sql = format!("SELECT {UNREAD_SQL} FROM cases WHERE id = ?1");
    match conn.query_row(&sql, [case_id], |r| r.get(0)) {
        Err(rusqlite::Error::QueryReturnedNoRows) => Err(not_found(case_id)),
        other => Ok(other?),
    }
}

fn set_read_at(conn: &Connection, case_id: &str, at: Option<&str>) -> Result<(), CasesError> {
    match conn.execute("UPDATE cases SET read_at = ?2 WHERE id = ?1", params![case_id, at])? {
        0 => Err(not_found(case_id)),
        _ => Ok(()),
    }
}

fn not_found(case_id: &str) -> CasesError {
    CasesError::CaseNotFound { id: case_id.to_string() }
}
