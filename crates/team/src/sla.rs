//! The response-time clocks of a case on the team database: started when it opens with the
//! team's targets, paused while it waits on the customer, the next due time kept for the inbox.
//! The rules (which change pauses or resumes, the business-time arithmetic, how the saved
//! settings read) are `skillcase_cases::sla`'s; only the SQL is here.

use postgres::{GenericClient, Transaction};
use skillcase_cases::model::CaseStatus;
use skillcase_cases::sla::{
    calendar_from, clock_change, due_after, push_by_pause, targets_from, Calendar, ClockChange,
    CALENDAR_SETTING, TARGETS_SETTING,
};

use crate::error::TeamError;

/// Starts the clocks of a case just opened at `opened_at` with the team's targets in force, so
/// a case keeps the targets it opened under whatever is saved later.
pub fn start(tx: &mut Transaction<'_>, case_id: &str, opened_at: &str) -> Result<(), TeamError> {
    let targets = targets_from(setting(tx, TARGETS_SETTING)?.as_deref());
    let (first_reply, resolution) = (targets.first_reply_minutes, targets.resolution_minutes);
    if first_reply.is_none() && resolution.is_none() {
        return Ok(());
    }
    let calendar = calendar(tx)?;
    let due = |minutes: Option<u32>| minutes.and_then(|m| due_after(&calendar, opened_at, m));
    tx.execute(
        "UPDATE cases SET first_reply_target = $2, first_reply_due_at = $3, resolution_target = $4, \
         resolution_due_at = $5 WHERE id = $1",
        &[
            &case_id,
            &first_reply.map(i64::from),
            &due(first_reply),
            &resolution.map(i64::from),
            &due(resolution),
        ],
    )?;
    refresh_next_due(tx, case_id)
}

/// Moves the clocks with a change of status at `now` (after the status and a first reply are
/// written): entering *Waiting on customer* pauses them, leaving it pushes them by the pause.
pub fn on_status(
    tx: &mut Transaction<'_>,
    case_id: &str,
    from: CaseStatus,
    to: CaseStatus,
    now: &str,
) -> Result<(), TeamError> {
    match clock_change(from, to) {
        ClockChange::Pause => {
            tx.execute("UPDATE cases SET sla_paused_at = $2 WHERE id = $1", &[&case_id, &now])?;
        }
        ClockChange::Resume => resume(tx, case_id, now)?,
        ClockChange::Keep => {}
    }
    refresh_next_due(tx, case_id)
}

/// Ends a pause at `now`, pushing the due times not yet met by the business time paused, so the
/// customer's silence does not count against the team.
fn resume(tx: &mut Transaction<'_>, case_id: &str, now: &str) -> Result<(), TeamError> {
    let row = tx.query_one(
        "SELECT sla_paused_at, CASE WHEN first_reply_at IS NULL THEN first_reply_due_at END, resolution_due_at \
         FROM cases WHERE id = $1",
        &[&case_id],
    )?;
    let (paused_at, first_reply_due, resolution_due): (Option<String>, Option<String>, Option<String>) =
        (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
    let calendar = match &paused_at {
        Some(_) if first_reply_due.is_some() || resolution_due.is_some() => Some(calendar(tx)?),
        _ => None,
    };
    let pushed = |due: Option<String>| push_by_pause(calendar.as_ref()?, &due?, paused_at.as_deref()?, now);
    tx.execute(
        "UPDATE cases SET sla_paused_at = NULL, first_reply_due_at = coalesce($2, first_reply_due_at), \
         resolution_due_at = coalesce($3, resolution_due_at) WHERE id = $1",
        &[&case_id, &pushed(first_reply_due), &pushed(resolution_due)],
    )?;
    Ok(())
}

/// Writes the next running due time — the unmet first reply or the resolution, whichever is
/// sooner; none while paused or closed — which "due soonest" and the watch read.
pub fn refresh_next_due(tx: &mut Transaction<'_>, case_id: &str) -> Result<(), TeamError> {
    tx.execute(
        "UPDATE cases SET sla_due_at = CASE \
             WHEN closed_at IS NOT NULL OR sla_paused_at IS NOT NULL THEN NULL \
             WHEN first_reply_at IS NOT NULL OR first_reply_due_at IS NULL THEN resolution_due_at \
             WHEN resolution_due_at IS NULL THEN first_reply_due_at \
             ELSE least(first_reply_due_at, resolution_due_at) END \
         WHERE id = $1",
        &[&case_id],
    )?;
    Ok(())
}

/// The team's business calendar (the default one when none is saved or it no longer resolves).
fn calendar(c: &mut impl GenericClient) -> Result<Calendar, TeamError> {
    Ok(calendar_from(setting(c, CALENDAR_SETTING)?.as_deref()))
}

/// One of the team's case settings, as saved (JSON text).
fn setting(c: &mut impl GenericClient, key: &str) -> Result<Option<String>, TeamError> {
    let row = c.query_opt("SELECT value FROM settings WHERE key = $1", &[&key])?;
    Ok(row.map(|r| r.try_get(0)).transpose()?)
}
