//! When the customer goes quiet (issue 28): a case waiting on the customer past a first delay
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

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, Case, CaseStatus, Delivery, DeliveryAction, EventKind};
use super::outbox::{self, PayloadCase};
use super::store::CaseWithTimeline;
use super::transition;

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
    /// waits on the customer for the answer to `asked`. Public so every storage backend sends the
    /// same message.
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
/// case view. Times are RFC 3339 UTC; the job runs periodically, so each happens at the first
/// run after its time.
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

/// One run of the job at `now`: reminds every case due a reminder, then closes every case due
/// to close (each at most [`BATCH`]). A case that stopped qualifying between the listing and its
/// own transaction (another run got there first, the agent handed back an answer) is skipped.
pub fn follow_up(conn: &Connection, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError> {
    let mut run = QuietRun::default();
    if let Some(after) = delays.remind_after {
        let cutoff = before(now, after)?;
        for id in due_for_reminder(conn, &cutoff, BATCH)? {
            if skipped(transition::remind_quiet(conn, &id, now, &cutoff))?.is_some() {
                run.reminded.push(id);
            }
        }
    }
    if let Some(after) = delays.close_after {
        let cutoff = before(now, after)?;
        let reminders = delays.remind_after.is_some();
        for id in due_for_close(conn, &cutoff, reminders, BATCH)? {
            if skipped(transition::close_unresponsive(conn, &id, now, &cutoff, reminders))?.is_some() {
                run.closed.push(id);
            }
        }
    }
    Ok(run)
}

/// A case that can no longer take the move is not an error for the job, just not its business.
fn skipped<T>(result: Result<Option<T>, CasesError>) -> Result<Option<T>, CasesError> {
    match result {
        Err(error) if no_longer_qualifies(&error) => Ok(None),
        other => other,
    }
}

/// Whether `error` only says the case left the job's hands (it moved on, or is gone). Public so
/// every storage backend's job skips the same cases.
pub fn no_longer_qualifies(error: &CasesError) -> bool {
    matches!(error, CasesError::InvalidTransition { .. } | CasesError::CaseNotFound { .. })
}

/// The cases waiting on the customer since `cutoff` or earlier with no reminder in this wait,
/// longest waiting first (served by the partial index `cases_to_remind`).
pub fn due_for_reminder(conn: &Connection, cutoff: &str, limit: usize) -> Result<Vec<String>, CasesError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM cases WHERE status = 'awaiting_lead' AND reminded_at IS NULL AND waiting_since <= ?1 \
         ORDER BY waiting_since LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![cutoff, limit as i64], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The cases due to close at `cutoff`: reminded then or earlier (or, with reminders off, waiting
/// since then) with no person's event since. Served by the partial indexes.
pub fn due_for_close(
    conn: &Connection,
    cutoff: &str,
    reminders: bool,
    limit: usize,
) -> Result<Vec<String>, CasesError> {
    let mut ids: Vec<String> = Vec::new();
    let mut wanted =
        vec![("reminded_at IS NOT NULL AND reminded_at <= ?1", "coalesce(reminded_at, waiting_since)")];
    if !reminders {
        wanted.push(("reminded_at IS NULL AND waiting_since <= ?1", "waiting_since"));
    }
    for (condition, since) in wanted {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT id FROM cases WHERE status = 'awaiting_lead' AND {condition} AND NOT {PERSON_ACTED} \
             ORDER BY {since} LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![cutoff, limit as i64], |r| r.get::<_, String>(0))?;
        for row in rows {
            ids.push(row?);
        }
    }
    ids.truncate(limit);
    Ok(ids)
}

/// Whether a person acted on the case (in `cases`) since its reminder, or since the reply that
/// began the wait when there was none: an event by a person after the latest `reminder_sent` or
/// `human_replied` event. Compared by position on the timeline, not by clock. Standard SQL,
/// public so every storage backend asks the same question.
pub const PERSON_ACTED: &str =
    "EXISTS (SELECT 1 FROM case_events e WHERE e.case_id = cases.id AND e.actor = 'human' \
     AND e.seq > (SELECT max(b.seq) FROM case_events b WHERE b.case_id = cases.id \
                  AND b.kind IN ('reminder_sent', 'human_replied')))";

/// Whether the case qualifies for a reminder at `cutoff`, read inside the reminder's transaction.
pub(crate) fn reminder_due(conn: &Connection, case_id: &str, cutoff: &str) -> Result<bool, CasesError> {
    Ok(conn
        .query_row(
            "SELECT status = 'awaiting_lead' AND reminded_at IS NULL AND waiting_since <= ?2 FROM cases WHERE id = ?1",
            params![case_id, cutoff],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(false))
}

/// Whether the case qualifies for closing at `cutoff`, read inside the closing's transaction.
pub(crate) fn close_due(
    conn: &Connection,
    case_id: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<bool, CasesError> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT status = 'awaiting_lead' \
             AND coalesce(reminded_at, CASE WHEN ?3 THEN NULL ELSE waiting_since END) <= ?2 \
             AND NOT {PERSON_ACTED} FROM cases WHERE id = ?1"
            ),
            params![case_id, cutoff, reminders],
            |r| r.get::<_, Option<bool>>(0),
        )
        .optional()?
        .flatten()
        .unwrap_or(false))
}

/// What the person last asked the customer on this case, if anything.
pub(crate) fn last_question(conn: &Connection, case_id: &str) -> Result<Option<String>, CasesError> {
    Ok(conn
        .query_row(
            "SELECT json_extract(payload, '$.text') FROM case_events WHERE case_id = ?1 AND kind = 'human_replied' \
             AND json_extract(payload, '$.action') = 'need_lead_info' ORDER BY seq DESC LIMIT 1",
            [case_id],
            |r| r.get(0),
        )
        .optional()?
        .flatten())
}

/// Writes the `case.reminder` delivery of the `reminder_sent` event `event_seq`.
pub(crate) fn enqueue_reminder(
    conn: &Connection,
    case: &Case,
    asked: Option<String>,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::to_string(&ReminderPayload::new(&id, now, case, asked))
        .expect("a reminder payload always serialises");
    outbox::insert(conn, &id, &case.id, event_seq, DeliveryAction::Reminder, &body, now)
}

/// Writes the `case.closed` delivery of the `lead_unresponsive` event `event_seq`.
pub(crate) fn enqueue_closed(
    conn: &Connection,
    case: &Case,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::to_string(&ClosedPayload::new(&id, now, case))
        .expect("a closing payload always serialises");
    outbox::insert(conn, &id, &case.id, event_seq, DeliveryAction::LeadUnresponsive, &body, now)
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
