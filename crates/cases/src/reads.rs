//! Which cases a person has opened: the inbox marks a case unread until it is opened, and a
//! person can mark it unread again. A case the agent hands back after it was read (it waits on
//! the person since after the read) counts as unread again, so new information is never missed.

use super::clock;
use super::error::CasesError;
use crate::args;
use crate::sql::Sql;

/// The SQL condition, over a row of `cases`, that the case is unread. Public so the team
/// database's inbox marks and badge use the same condition (it is plain SQL both databases run).
pub const UNREAD_SQL: &str = "(cases.read_at IS NULL OR (cases.status = 'awaiting_human' \
     AND cases.read_at < cases.waiting_since))";

/// Marks the case read (the person opened it) at now, or unread again; `case_not_found` if
/// there is none.
pub fn set_read(sql: &mut dyn Sql, case_id: &str, read: bool) -> Result<(), CasesError> {
    set_read_at(sql, case_id, read.then(clock::now).as_deref())
}

/// Marks several cases read or unread at once (a bulk action): all of them, or none when one
/// does not exist. The rows are locked in id order first, so two instances marking overlapping
/// sets take turns instead of deadlocking.
pub fn set_read_many(sql: &mut dyn Sql, case_ids: &[String], read: bool) -> Result<(), CasesError> {
    let case_ids = super::transition::bulk_ids(case_ids)?;
    let mut locked = super::transition::lock_all(sql, &case_ids)?;
    for id in &case_ids {
        super::transition::take_locked(&mut locked, id)?;
    }
    let at = read.then(clock::now);
    for id in &case_ids {
        set_read_at(sql, id, at.as_deref())?;
    }
    Ok(())
}

/// Whether the person has not opened the case since it last came to them.
pub fn is_unread(sql: &mut dyn Sql, case_id: &str) -> Result<bool, CasesError> {
    let row = sql.query_opt(&format!("SELECT {UNREAD_SQL} FROM cases WHERE id = $1"), args![case_id])?;
    row.ok_or_else(|| not_found(case_id))?.bool(0)
}

/// Writes the case's read mark (`None`: unread); `case_not_found` if there is no such case.
pub(crate) fn set_read_at(sql: &mut dyn Sql, case_id: &str, at: Option<&str>) -> Result<(), CasesError> {
    match sql.execute("UPDATE cases SET read_at = $2 WHERE id = $1", args![case_id, at])? {
        0 => Err(not_found(case_id)),
        _ => Ok(()),
    }
}

fn not_found(case_id: &str) -> CasesError {
    CasesError::CaseNotFound { id: case_id.to_string() }
}
