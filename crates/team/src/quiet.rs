//! When the customer goes quiet (SPEC D5) on the team database: the reminder and the closing,
//! each case taken by one instance however many run the job at once. The job lists the cases
//! that look due, then takes each in a transaction of its own ([`crate::transition`]'s
//! `remind_quiet` and `close_unresponsive`), which locks the case and checks again; a case
//! another instance got to first no longer qualifies and is skipped. The delays, cut-offs,
//! payloads and "a person acted" rule are `skillcase_cases::quiet`'s.

use postgres::GenericClient;
use skillcase_cases::model::{Case, Delivery, DeliveryAction};
use skillcase_cases::quiet::{
    before, no_longer_qualifies, ClosedPayload, QuietDelays, QuietRun, ReminderPayload, BATCH, PERSON_ACTED,
};

use crate::db::Pg;
use crate::enqueue::insert;
use crate::error::TeamError;
use crate::transition;

/// One run of the job at `now`: reminds every case due a reminder, then closes every case due to
/// close (each at most [`BATCH`]), each case in its own transaction so one case's trouble or a
/// race with another instance holds up no other.
pub fn follow_up(pg: &Pg, now: &str, delays: &QuietDelays) -> Result<QuietRun, TeamError> {
    let mut run = QuietRun::default();
    if let Some(after) = delays.remind_after {
        run.reminded = remind_all(pg, now, &before(now, after)?)?;
    }
    if let Some(after) = delays.close_after {
        run.closed = close_all(pg, now, &before(now, after)?, delays.remind_after.is_some())?;
    }
    Ok(run)
}

/// Reminds the cases quiet since `cutoff`; returns the ids this instance reminded.
fn remind_all(pg: &Pg, now: &str, cutoff: &str) -> Result<Vec<String>, TeamError> {
    let mut reminded = Vec::new();
    for id in pg.read(|c| due_for_reminder(c, cutoff, BATCH))? {
        if skipped(pg.write(|tx| transition::remind_quiet(tx, &id, now, cutoff)))?.is_some() {
            reminded.push(id);
        }
    }
    Ok(reminded)
}

/// Closes the cases due to close at `cutoff`; returns the ids this instance closed.
fn close_all(pg: &Pg, now: &str, cutoff: &str, reminders: bool) -> Result<Vec<String>, TeamError> {
    let mut closed = Vec::new();
    for id in pg.read(|c| due_for_close(c, cutoff, reminders, BATCH))? {
        if skipped(pg.write(|tx| transition::close_unresponsive(tx, &id, now, cutoff, reminders)))?.is_some()
        {
            closed.push(id);
        }
    }
    Ok(closed)
}

/// A case that can no longer take the move is not an error for the job, just not its business.
fn skipped<T>(result: Result<Option<T>, TeamError>) -> Result<Option<T>, TeamError> {
    match result {
        Err(TeamError::Cases(error)) if no_longer_qualifies(&error) => Ok(None),
        other => other,
    }
}

/// The cases waiting on the customer since `cutoff` or earlier with no reminder in this wait,
/// longest waiting first (served by the partial index `cases_to_remind`).
pub fn due_for_reminder(
    c: &mut impl GenericClient,
    cutoff: &str,
    limit: usize,
) -> Result<Vec<String>, TeamError> {
    quiet_ids(c, "reminded_at IS NULL AND waiting_since <= $1", "waiting_since", cutoff, limit)
}

/// The cases due to close at `cutoff`: reminded then or earlier (or, with reminders off, waiting
/// since then) with no person's event since, served by the partial indexes `cases_to_close` and
/// `cases_to_remind`.
pub fn due_for_close(
    c: &mut impl GenericClient,
    cutoff: &str,
    reminders: bool,
    limit: usize,
) -> Result<Vec<String>, TeamError> {
    let unheld = |condition: &str| format!("{condition} AND NOT {PERSON_ACTED}");
    let reminded = unheld("reminded_at IS NOT NULL AND reminded_at <= $1");
    let mut ids = quiet_ids(c, &reminded, "reminded_at", cutoff, limit)?;
    if !reminders {
        let waiting = unheld("reminded_at IS NULL AND waiting_since <= $1");
        ids.extend(quiet_ids(c, &waiting, "waiting_since", cutoff, limit)?);
    }
    ids.truncate(limit);
    Ok(ids)
}

/// The ids of up to `limit` cases waiting on the customer that meet `condition` (on `$1`, the
/// cut-off), in `order`.
fn quiet_ids(
    c: &mut impl GenericClient,
    condition: &str,
    order: &str,
    cutoff: &str,
    limit: usize,
) -> Result<Vec<String>, TeamError> {
    let sql = format!(
        "SELECT id FROM cases WHERE status = 'awaiting_lead' AND {condition} ORDER BY {order} LIMIT $2"
    );
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    c.query(&sql, &[&cutoff, &limit])?.iter().map(|row| Ok(row.try_get(0)?)).collect()
}

/// Whether the case qualifies for a reminder at `cutoff`, read inside the reminder's
/// transaction after the case is locked, so a second instance sees the first one's reminder.
pub fn reminder_due(c: &mut impl GenericClient, case_id: &str, cutoff: &str) -> Result<bool, TeamError> {
    let row = c.query_opt(
        "SELECT status = 'awaiting_lead' AND reminded_at IS NULL AND waiting_since <= $2 FROM cases WHERE id = $1",
        &[&case_id, &cutoff],
    )?;
    flag(row)
}

/// Whether the case qualifies for closing at `cutoff`, read inside the closing's transaction
/// after the case is locked.
pub fn close_due(
    c: &mut impl GenericClient,
    case_id: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<bool, TeamError> {
    let sql = format!(
        "SELECT status = 'awaiting_lead' \
         AND coalesce(reminded_at, CASE WHEN $3 THEN NULL ELSE waiting_since END) <= $2 \
         AND NOT {PERSON_ACTED} FROM cases WHERE id = $1"
    );
    flag(c.query_opt(&sql, &[&case_id, &cutoff, &reminders])?)
}

/// A one-column boolean answer; false when there is no row or the answer is unknown (NULL).
fn flag(row: Option<postgres::Row>) -> Result<bool, TeamError> {
    let value: Option<bool> = row.map(|r| r.try_get(0)).transpose()?.flatten();
    Ok(value.unwrap_or(false))
}

/// What the person last asked the customer on this case (the text of the latest
/// `need_lead_info` reply), if anything: the reminder asks the customer exactly that again.
pub fn last_question(c: &mut impl GenericClient, case_id: &str) -> Result<Option<String>, TeamError> {
    let row = c.query_opt(
        "SELECT payload::jsonb ->> 'text' FROM case_events WHERE case_id = $1 AND kind = 'human_replied' \
         AND payload::jsonb ->> 'action' = 'need_lead_info' ORDER BY seq DESC LIMIT 1",
        &[&case_id],
    )?;
    Ok(row.map(|r| r.try_get(0)).transpose()?.flatten())
}

/// Writes the `case.reminder` delivery of the `reminder_sent` event `event_seq`.
pub fn enqueue_reminder(
    c: &mut impl GenericClient,
    case: &Case,
    asked: Option<String>,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, TeamError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::to_string(&ReminderPayload::new(&id, now, case, asked))
        .expect("a reminder payload always serialises");
    insert(c, &id, &case.id, event_seq, DeliveryAction::Reminder, &body, now)
}

/// Writes the `case.closed` delivery of the `lead_unresponsive` event `event_seq`.
pub fn enqueue_closed(
    c: &mut impl GenericClient,
    case: &Case,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, TeamError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::to_string(&ClosedPayload::new(&id, now, case))
        .expect("a closing payload always serialises");
    insert(c, &id, &case.id, event_seq, DeliveryAction::LeadUnresponsive, &body, now)
}
