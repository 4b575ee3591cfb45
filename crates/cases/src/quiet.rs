//! When the customer goes quiet: a case waiting on the customer past a first delay
//! gets one `case.reminder` delivery, asking the agent to nudge the customer; past a second delay
//! it closes as `lead_unresponsive` (status `cancelled`) and the agent gets a `case.closed`
//! delivery, unless a person acted on the case since the reminder.
//!
//! The job ([`follow_up`]) takes `now` and the delays, so a test decides what time it is. Each
//! reminder and each closing is one transaction of [`crate::transition`] that re-checks the case,
//! so two runs racing remind a case once and close it once. "A person acted" means any event by
//! a person (in a case waiting on the customer that is an internal note; an escalation or a
//! cancel closes the case anyway): the person is handling it, so it no longer closes by itself.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, Case, CaseStatus, Delivery, DeliveryAction, EventKind};
use super::outbox::{self, PayloadCase};
use super::store::CaseWithTimeline;
use super::transition;
use crate::args;
use crate::sql::{Sql, Storage};

/// What the agent does with a `case.reminder`.
pub const REMINDER_INSTRUCTION: &str =
    "The customer has not answered what they were asked (in `asked`). Send them one short, \
     friendly reminder about exactly that, in your own words. Promise nothing (no times, no \
     outcomes) and send no further reminders; when they answer, call provide-update on this case \
     with their answer.";
/// What the agent does with a `case.closed`.
pub const CLOSED_INSTRUCTION: &str =
    "This case was closed because the customer did not answer. Send the customer nothing about \
     it and do not call provide-update on it; if they write again, treat it as a new request and \
     open a new case if a person is needed.";

/// How many cases one run reminds, and how many it closes, at most; the next run takes the rest.
pub const BATCH: usize = 500;

/// The two delays, each `None` when switched off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuietDelays {
    /// How long a case waits on the customer before the reminder.
    pub remind_after: Option<Duration>,
    /// How long after the reminder (after the wait began, when reminders are off) it closes.
    pub close_after: Option<Duration>,
}

/// What one run of the job did: the ids of the cases it reminded and of those it closed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuietRun {
    pub reminded: Vec<String>,
    pub closed: Vec<String>,
}

/// The `case.reminder` message POSTed to the agent endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReminderPayload {
    /// Always `case.reminder`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The delivery id, equal to the `webhook-id` header.
    pub id: String,
    pub created_at: String,
    pub case: PayloadCase,
    /// What the person asked the customer (the `text` of the `need_lead_info` reply that started
    /// the wait); `None` when the wait did not start with a reply.
    pub asked: Option<String>,
    /// Since when the case waits on the customer.
    pub waiting_since: String,
    pub instruction: String,
}

impl ReminderPayload {
    /// The reminder of delivery `id` at `now` for `case` (as it stands after the reminder), which
    /// waits on the customer for the answer to `asked`.
    pub fn new(id: &str, now: &str, case: &Case, asked: Option<String>) -> Self {
        ReminderPayload {
            kind: "case.reminder".into(),
            id: id.into(),
            created_at: now.into(),
            case: PayloadCase::of(case),
            asked,
            waiting_since: case.waiting_since.clone().unwrap_or_default(),
            instruction: REMINDER_INSTRUCTION.into(),
        }
    }
}

/// The `case.closed` message POSTed to the agent endpoint when a quiet case closes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ClosedPayload {
    /// Always `case.closed`.
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    pub created_at: String,
    pub case: PayloadCase,
    /// Always `lead_unresponsive`.
    pub reason: String,
    pub instruction: String,
}

impl ClosedPayload {
    /// The closing message of delivery `id` at `now` for `case` (as it stands, closed). Public
    /// so every storage backend sends the same message.
    pub fn new(id: &str, now: &str, case: &Case) -> Self {
        ClosedPayload {
            kind: "case.closed".into(),
            id: id.into(),
            created_at: now.into(),
            case: PayloadCase::of(case),
            reason: "lead_unresponsive".into(),
            instruction: CLOSED_INSTRUCTION.into(),
        }
    }
}

/// Where a case waiting on the customer stands with the reminder and the auto-close, for the
/// case view. Times are RFC 3339 UTC; the job sleeps until the earliest of them, so each happens
/// at its time (within a second) while Skillcase runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct QuietPlan {
    /// When this wait's reminder went out, if it did.
    pub reminded_at: Option<String>,
    /// When the reminder will go out (reminders on, not sent yet).
    pub remind_at: Option<String>,
    /// When the case will close if nobody acts (closing on, no person acted).
    pub close_at: Option<String>,
    /// A person acted on the case since the reminder, so it will not close by itself.
    pub held: bool,
}

/// One run of the job at `now`: reminds every case due a reminder, then closes every case due to
/// close (each at most [`BATCH`]), each case in its own transaction so one case's trouble or a
/// race with another instance holds up no other.
pub fn follow_up(storage: &impl Storage, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError> {
    let mut run = QuietRun::default();
    if let Some(after) = delays.remind_after {
        run.reminded = remind_all(storage, now, &before(now, after)?)?;
    }
    if let Some(after) = delays.close_after {
        run.closed = close_all(storage, now, &before(now, after)?, delays.remind_after.is_some())?;
    }
    Ok(run)
}

/// Reminds the cases quiet since `cutoff`; returns the ids this instance reminded.
fn remind_all(storage: &impl Storage, now: &str, cutoff: &str) -> Result<Vec<String>, CasesError> {
    let mut reminded = Vec::new();
    for id in storage.read(|sql| due_for_reminder(sql, cutoff, BATCH))? {
        let (case_id, now, cutoff) = (id.clone(), now.to_string(), cutoff.to_string());
        let done = storage
            .write(move |sql| transition::remind_quiet(sql, &case_id, &now, &cutoff).map(|r| r.is_some()));
        if skipped(done)? {
            reminded.push(id);
        }
    }
    Ok(reminded)
}

/// Closes the cases due to close at `cutoff`; returns the ids this instance closed.
fn close_all(
    storage: &impl Storage,
    now: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<Vec<String>, CasesError> {
    let mut closed = Vec::new();
    for id in storage.read(|sql| due_for_close(sql, cutoff, reminders, BATCH))? {
        let (case_id, now, cutoff) = (id.clone(), now.to_string(), cutoff.to_string());
        let done = storage.write(move |sql| {
            transition::close_unresponsive(sql, &case_id, &now, &cutoff, reminders).map(|r| r.is_some())
        });
        if skipped(done)? {
            closed.push(id);
        }
    }
    Ok(closed)
}

/// A case that can no longer take the move is not an error for the job, just not its business.
fn skipped(result: Result<bool, CasesError>) -> Result<bool, CasesError> {
    match result {
        Err(error) if no_longer_qualifies(&error) => Ok(false),
        other => other,
    }
}

/// Whether a refusal only says the case no longer qualifies (a person acted, another run got
/// there first): the job moves on.
pub fn no_longer_qualifies(error: &CasesError) -> bool {
    matches!(error, CasesError::InvalidTransition { .. } | CasesError::CaseNotFound { .. })
}

/// The cases waiting on the customer since `cutoff` or earlier with no reminder in this wait,
/// longest waiting first (served by the partial index `cases_to_remind`).
pub fn due_for_reminder(sql: &mut dyn Sql, cutoff: &str, limit: usize) -> Result<Vec<String>, CasesError> {
    quiet_ids(sql, "reminded_at IS NULL AND waiting_since <= $1", "waiting_since", cutoff, limit)
}

/// The cases due to close at `cutoff`: reminded then or earlier (or, with reminders off, waiting
/// since then) with no person's event since, served by the partial indexes `cases_to_close` and
/// `cases_to_remind`.
pub fn due_for_close(
    sql: &mut dyn Sql,
    cutoff: &str,
    reminders: bool,
    limit: usize,
) -> Result<Vec<String>, CasesError> {
    let unheld = |condition: &str| format!("{condition} AND NOT {PERSON_ACTED}");
    let reminded = unheld("reminded_at IS NOT NULL AND reminded_at <= $1");
    let mut ids = quiet_ids(sql, &reminded, "reminded_at", cutoff, limit)?;
    if !reminders {
        let waiting = unheld("reminded_at IS NULL AND waiting_since <= $1");
        ids.extend(quiet_ids(sql, &waiting, "waiting_since", cutoff, limit)?);
    }
    ids.truncate(limit);
    Ok(ids)
}

/// When the job next has something to do under `delays` (`None`: nothing waits on the customer,
/// or both delays are off): the earliest reminder due and the earliest closing due, with the
/// conditions of [`due_for_reminder`] and [`due_for_close`], so the job sleeps until then.
pub fn next_due(sql: &mut dyn Sql, delays: &QuietDelays) -> Result<Option<String>, CasesError> {
    let unheld = |condition: &str| format!("{condition} AND NOT {PERSON_ACTED}");
    let mut due = Vec::new();
    if let Some(after) = delays.remind_after {
        let waiting = first_quiet(sql, "reminded_at IS NULL", "waiting_since")?;
        due.push(waiting.and_then(|at| later(&at, after)));
    }
    if let Some(after) = delays.close_after {
        let reminded = first_quiet(sql, &unheld("reminded_at IS NOT NULL"), "reminded_at")?;
        due.push(reminded.and_then(|at| later(&at, after)));
        if delays.remind_after.is_none() {
            let waiting = first_quiet(sql, &unheld("reminded_at IS NULL"), "waiting_since")?;
            due.push(waiting.and_then(|at| later(&at, after)));
        }
    }
    Ok(crate::sla::earliest(due))
}

/// The earliest `column` among the cases waiting on the customer that meet `condition`.
fn first_quiet(sql: &mut dyn Sql, condition: &str, column: &str) -> Result<Option<String>, CasesError> {
    let query = format!(
        "SELECT {column} FROM cases WHERE status = 'awaiting_lead' AND {condition} \
         AND {column} IS NOT NULL ORDER BY {column} LIMIT 1"
    );
    sql.query_opt(&query, args![])?.map(|row| row.text(0)).transpose()
}

/// The ids of up to `limit` cases waiting on the customer that meet `condition` (on `$1`, the
/// cut-off), in `order`.
fn quiet_ids(
    sql: &mut dyn Sql,
    condition: &str,
    order: &str,
    cutoff: &str,
    limit: usize,
) -> Result<Vec<String>, CasesError> {
    let query = format!(
        "SELECT id FROM cases WHERE status = 'awaiting_lead' AND {condition} ORDER BY {order} LIMIT $2"
    );
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    sql.query(&query, args![cutoff, limit])?.iter().map(|row| row.text(0)).collect()
}

/// Whether a person acted on the case (in `cases`) since its reminder, or since the reply that
/// began the wait when there was none: an event by a person after the latest `reminder_sent` or
/// `human_replied` event. Compared by position on the timeline, not by clock. Standard SQL,
pub const PERSON_ACTED: &str =
    "EXISTS (SELECT 1 FROM case_events e WHERE e.case_id = cases.id AND e.actor = 'human' \
     AND e.seq > (SELECT max(b.seq) FROM case_events b WHERE b.case_id = cases.id \
                  AND b.kind IN ('reminder_sent', 'human_replied')))";

/// Whether the case qualifies for a reminder at `cutoff`, read inside the reminder's
/// transaction after the case is locked, so a second run sees the first one's reminder.
pub(crate) fn reminder_due(sql: &mut dyn Sql, case_id: &str, cutoff: &str) -> Result<bool, CasesError> {
    let row = sql.query_opt(
        "SELECT status = 'awaiting_lead' AND reminded_at IS NULL AND waiting_since <= $2 FROM cases WHERE id = $1",
        args![case_id, cutoff],
    )?;
    flag(row)
}

/// Whether the case qualifies for closing at `cutoff`, read inside the closing's transaction
/// after the case is locked.
pub(crate) fn close_due(
    sql: &mut dyn Sql,
    case_id: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<bool, CasesError> {
    let query = format!(
        "SELECT status = 'awaiting_lead' \
         AND coalesce(reminded_at, CASE WHEN $3 THEN NULL ELSE waiting_since END) <= $2 \
         AND NOT {PERSON_ACTED} FROM cases WHERE id = $1"
    );
    flag(sql.query_opt(&query, args![case_id, cutoff, reminders])?)
}

/// A one-column answer; false when there is no row or the answer is unknown (NULL).
fn flag(row: Option<crate::sql::Row>) -> Result<bool, CasesError> {
    Ok(row.map(|r| r.opt_bool(0)).transpose()?.flatten().unwrap_or(false))
}

/// What the person last asked the customer on this case (the text of the latest
/// `need_lead_info` reply), if anything: the reminder asks the customer exactly that again.
pub(crate) fn last_question(sql: &mut dyn Sql, case_id: &str) -> Result<Option<String>, CasesError> {
    let dialect = sql.dialect();
    let (text, action) = (dialect.json_text("payload", "text"), dialect.json_text("payload", "action"));
    let query = format!(
        "SELECT {text} FROM case_events WHERE case_id = $1 AND kind = 'human_replied' \
         AND {action} = 'need_lead_info' ORDER BY seq DESC LIMIT 1"
    );
    Ok(sql.query_opt(&query, args![case_id])?.map(|r| r.opt_text(0)).transpose()?.flatten())
}

/// Writes the `case.reminder` delivery of the `reminder_sent` event `event_seq`.
pub(crate) fn enqueue_reminder(
    sql: &mut dyn Sql,
    case: &Case,
    asked: Option<String>,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = crate::sql::json(&ReminderPayload::new(&id, now, case, asked));
    outbox::insert(sql, &id, &case.id, event_seq, DeliveryAction::Reminder, &body, now)
}

/// Writes the `case.closed` delivery of the `lead_unresponsive` event `event_seq`.
pub(crate) fn enqueue_closed(
    sql: &mut dyn Sql,
    case: &Case,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = crate::sql::json(&ClosedPayload::new(&id, now, case));
    outbox::insert(sql, &id, &case.id, event_seq, DeliveryAction::LeadUnresponsive, &body, now)
}

/// The plan of a case waiting on the customer under `delays`; `None` for any other case.
/// Read from the timeline alone, with the same rules as the job.
pub fn plan(case: &CaseWithTimeline, delays: &QuietDelays) -> Option<QuietPlan> {
    if case.case.status != CaseStatus::AwaitingLead {
        return None;
    }
    let since = case.case.waiting_since.as_deref()?;
    let base =
        case.events.iter().rposition(|e| matches!(e.kind, EventKind::ReminderSent | EventKind::HumanReplied));
    let reminded_at =
        base.map(|i| &case.events[i]).filter(|e| e.kind == EventKind::ReminderSent).map(|e| e.at.clone());
    let held = base.is_some_and(|i| case.events[i + 1..].iter().any(|e| e.actor == Actor::Human));
    let remind_at = match (&reminded_at, delays.remind_after) {
        (None, Some(after)) => later(since, after),
        _ => None,
    };
    let close_at = match delays.close_after {
        Some(after) if !held => {
            let from = reminded_at.clone().or_else(|| remind_at.clone());
            match (from, delays.remind_after) {
                (Some(from), _) => later(&from, after),
                (None, None) => later(since, after),
                (None, Some(_)) => None,
            }
        }
        _ => None,
    };
    Some(QuietPlan { reminded_at, remind_at, close_at, held })
}

/// The stamp `delay` before `at` (`invalid_case_input` when `at` is not a time). Public so every
/// storage backend's job computes its cut-offs the same way.
pub fn before(at: &str, delay: Duration) -> Result<String, CasesError> {
    let parsed = clock::parse(at)
        .ok_or_else(|| CasesError::InvalidInput { field: "now", reason: format!("is {at:?}, not a time") })?;
    Ok(clock::format(parsed - delay))
}

/// The stamp `delay` after `at`, if `at` is a time.
fn later(at: &str, delay: Duration) -> Option<String> {
    clock::parse(at).map(|parsed| clock::format(parsed + delay))
}
