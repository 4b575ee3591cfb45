//! Every state change of a case on the team database (SPEC B2), one function per transition,
//! each inside the caller's transaction. A transition locks the case's row first
//! ([`crate::rows::lock_case`]), so racing instances take turns and the later one is checked
//! against the earlier one's result; a bulk action locks its rows in id order, so two bulk
//! actions never wait on each other in a circle. The transition table, the input checks and the
//! event payloads are `skillcase_cases::transition`'s; only the SQL is here.

use std::collections::HashMap;

use postgres::Transaction;
use serde_json::json;
use skillcase_cases::assign::{assignment_event, check_assignable, checked_assignee};
use skillcase_cases::clock;
use skillcase_cases::lease::check_send;
use skillcase_cases::model::{Actor, Case, CaseEvent, CaseStatus, Delivery, EventKind, HumanAction, NewCase};
use skillcase_cases::transition::{
    bulk_ids, checked_canceller, checked_new_case, closing_event, next_status, next_status_in_bulk,
    opened_event, optional_text, required, waiting_after, Move, OpenOutcome,
};
use skillcase_cases::CasesError;

use crate::enqueue::enqueue_reply;
use crate::error::TeamError;
use crate::rows::{
    append_event, case_from_row, find_case, lock_case, open_case_for_conversation, CASE_COLUMNS,
};
use crate::{agents, quiet, sla};

/// Opens a case for a conversation, or returns the one already open for it (`already_open`),
/// whichever instance opened it: when two open one at once, the partial unique index refuses the
/// second, whose transaction is tried again ([`crate::db::Pg::write`]) and then finds the first.
/// The number comes from the counter's row, locked until commit, so numbers have no gaps.
pub fn open_case(tx: &mut Transaction<'_>, new: &NewCase) -> Result<OpenOutcome, TeamError> {
    let new = checked_new_case(new.clone())?;
    if let Some(case) = open_case_for_conversation(tx, &new.conversation_id)? {
        return Ok(OpenOutcome { case, already_open: true });
    }
    if !agents::switches(tx, new.agent_id.as_deref())?.cases_enabled {
        let agent_id = new.agent_id.clone().unwrap_or_default();
        return Err(CasesError::AgentCasesDisabled { agent_id }.into());
    }
    let id = uuid::Uuid::new_v4().to_string();
    let now = clock::now();
    insert_case(tx, &id, &new, &now)?;
    let (actor, payload) = opened_event(&new);
    append_event(tx, &id, EventKind::Opened, actor, new.agent_id.as_deref(), &now, &payload)?;
    sla::start(tx, &id, &now)?;
    Ok(OpenOutcome { case: find_case(tx, &id)?, already_open: false })
}

/// Writes the new case's row, `awaiting_human` and waiting since `now`, under the next number.
fn insert_case(tx: &mut Transaction<'_>, id: &str, new: &NewCase, now: &str) -> Result<(), TeamError> {
    let number: i64 = tx
        .query_one("UPDATE case_counter SET next = next + 1 WHERE id = 1 RETURNING next - 1", &[])?
        .try_get(0)?;
    let context = serde_json::to_string(&new.context).expect("context messages always serialise");
    tx.execute(
        "INSERT INTO cases (id, number, conversation_id, lead_id, lead_name, lead_channel, lead_contact, \
         agent_id, status, title, summary, blocker, context, source, reason, waiting_since, opened_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'awaiting_human', $9, $10, $11, $12, $13, $14, $15, $15, $15)",
        &[
            &id,
            &number,
            &new.conversation_id,
            &new.lead.id,
            &new.lead.name,
            &new.lead.channel,
            &new.lead.contact,
            &new.agent_id,
            &new.title,
            &new.summary,
            &new.blocker,
            &context,
            &new.source.as_str(),
            &new.reason.as_str(),
            &now,
        ],
    )?;
    Ok(())
}

/// A person answers a case with one of the three actions: the new status (and the first reply's
/// time), the `human_replied` event (plus `resolved` or `escalated` when the case closes), the
/// promises kept and the outbox delivery that relays the reply, all in the caller's transaction.
pub fn reply(
    tx: &mut Transaction<'_>,
    case_id: &str,
    action: HumanAction,
    text: &str,
    actor_name: &str,
) -> Result<(Case, Delivery), TeamError> {
    let text = required("text", text)?;
    let actor_name = required("actor_name", actor_name)?;
    let (case, to) = check(tx, case_id, Move::Reply(action))?;
    let now = clock::now();
    let lease = crate::lease::stored(tx, case_id)?;
    check_send(lease.as_ref(), actor_name, case.assignee.as_deref(), &now)?;
    crate::lease::clear(tx, case_id)?;
    tx.execute(
        "UPDATE cases SET first_reply_at = $2 WHERE id = $1 AND first_reply_at IS NULL",
        &[&case_id, &now],
    )?;
    set_status(tx, &case, to, &now)?;
    let seq = record_reply(tx, case_id, action, text, to, actor_name, &now)?;
    keep_promises(tx, case_id)?;
    let case = find_case(tx, case_id)?;
    let delivery = enqueue_reply(tx, &case, action, text, seq, &now)?;
    Ok((case, delivery))
}

/// The reply's events: `human_replied`, then the closing event when it closes the case. Returns
/// the reply's `seq`, which its delivery points at.
fn record_reply(
    tx: &mut Transaction<'_>,
    case_id: &str,
    action: HumanAction,
    text: &str,
    to: CaseStatus,
    actor_name: &str,
    now: &str,
) -> Result<i64, TeamError> {
    let payload = json!({ "action": action.as_str(), "text": text, "status": to.as_str() });
    let seq =
        append_event(tx, case_id, EventKind::HumanReplied, Actor::Human, Some(actor_name), now, &payload)?;
    if let Some(kind) = closing_event(to) {
        let closed = json!({ "reply_seq": seq });
        append_event(tx, case_id, kind, Actor::Human, Some(actor_name), now, &closed)?;
    }
    Ok(seq)
}

/// A person replied: every promise made so far is kept, and the case owes none.
fn keep_promises(tx: &mut Transaction<'_>, case_id: &str) -> Result<(), TeamError> {
    tx.execute(
        "UPDATE cases SET promise_quote = NULL, promise_due_at = NULL, promise_overdue_told = false WHERE id = $1",
        &[&case_id],
    )?;
    Ok(())
}

/// A person's internal note on a case, open or closed: an `internal_note` event and nothing
/// else (no status, no delivery). The case's row is locked first, so a note and the quiet job's
/// closing take turns and the job sees the note. Returns the note's event.
pub fn add_note(
    tx: &mut Transaction<'_>,
    case_id: &str,
    text: &str,
    actor_name: &str,
) -> Result<CaseEvent, TeamError> {
    let text = required("note", text)?;
    let actor_name = required("actor_name", actor_name)?;
    lock_case(tx, case_id)?;
    let now = clock::now();
    let payload = json!({ "text": text });
    let seq =
        append_event(tx, case_id, EventKind::InternalNote, Actor::Human, Some(actor_name), &now, &payload)?;
    Ok(CaseEvent {
        seq,
        case_id: case_id.to_string(),
        kind: EventKind::InternalNote,
        actor: Actor::Human,
        actor_name: Some(actor_name.to_string()),
        at: now,
        payload,
    })
}

/// The agent hands back what the lead answered: `awaiting_lead` → `awaiting_human`, event
/// `lead_provided`, and the case waits on the person again from now.
pub fn provide_update(tx: &mut Transaction<'_>, case_id: &str, info: &str) -> Result<Case, TeamError> {
    let info = required("info", info)?;
    agent_event(tx, case_id, Move::ProvideUpdate, EventKind::LeadProvided, json!({ "info": info }))
}

/// The agent records that it asked the lead (what it asked, if it says); the case keeps waiting
/// on the lead.
pub fn record_lead_asked(
    tx: &mut Transaction<'_>,
    case_id: &str,
    text: Option<&str>,
) -> Result<Case, TeamError> {
    agent_event(tx, case_id, Move::LeadAsked, EventKind::LeadAsked, optional_text("text", text))
}

/// The agent records that the lead stopped answering; the case keeps waiting on the lead and the
/// person decides whether to escalate or cancel.
pub fn record_lead_unresponsive(
    tx: &mut Transaction<'_>,
    case_id: &str,
    note: Option<&str>,
) -> Result<Case, TeamError> {
    let payload = optional_text("note", note);
    agent_event(tx, case_id, Move::LeadUnresponsive, EventKind::LeadUnresponsive, payload)
}

/// The agent or a person cancels an open case. Nothing is sent to the agent.
pub fn cancel(
    tx: &mut Transaction<'_>,
    case_id: &str,
    actor: Actor,
    actor_name: Option<&str>,
    reason: Option<&str>,
) -> Result<Case, TeamError> {
    checked_canceller(actor)?;
    let actor_name = actor_name.map(str::trim).filter(|n| !n.is_empty());
    let (case, to) = check(tx, case_id, Move::Cancel)?;
    let now = clock::now();
    set_status(tx, &case, to, &now)?;
    append_event(
        tx,
        case_id,
        EventKind::Cancelled,
        actor,
        actor_name,
        &now,
        &optional_text("reason", reason),
    )?;
    find_case(tx, case_id)
}

/// A person cancels several open cases with one reason, all or none: the refusal names the
/// first case (in the order given) that cannot be cancelled by its number.
pub fn cancel_many(
    tx: &mut Transaction<'_>,
    case_ids: &[String],
    actor_name: &str,
    reason: &str,
) -> Result<Vec<Case>, TeamError> {
    let reason = required("reason", reason)?;
    let actor_name = required("actor_name", actor_name)?;
    let case_ids = bulk_ids(case_ids)?;
    let mut locked = lock_all(tx, &case_ids)?;
    let now = clock::now();
    let payload = json!({ "reason": reason });
    let mut cancelled = Vec::with_capacity(case_ids.len());
    for id in &case_ids {
        let case = take_locked(&mut locked, id)?;
        let to = next_status_in_bulk(&case, Move::Cancel)?;
        set_status(tx, &case, to, &now)?;
        append_event(tx, id, EventKind::Cancelled, Actor::Human, Some(actor_name), &now, &payload)?;
        cancelled.push(find_case(tx, id)?);
    }
    Ok(cancelled)
}

/// Assigns every case of `case_ids` to `assignee` (`None`: to anyone), all or none: a closed
/// case refuses the whole action. A case already in that hand stays as it is, with no event.
pub fn assign(
    tx: &mut Transaction<'_>,
    case_ids: &[String],
    assignee: Option<&str>,
    actor_name: &str,
) -> Result<Vec<Case>, TeamError> {
    let assignee = checked_assignee(assignee)?;
    let actor_name = required("actor_name", actor_name)?;
    let case_ids = bulk_ids(case_ids)?;
    let mut locked = lock_all(tx, &case_ids)?;
    let now = clock::now();
    let mut out = Vec::with_capacity(case_ids.len());
    for id in &case_ids {
        let case = take_locked(&mut locked, id)?;
        check_assignable(&case)?;
        if case.assignee.as_deref() == assignee {
            out.push(case);
            continue;
        }
        tx.execute("UPDATE cases SET assignee = $2, updated_at = $3 WHERE id = $1", &[id, &assignee, &now])?;
        // A take-over ends whoever's reply was under way: the case is someone else's now.
        crate::lease::clear(tx, id)?;
        let (kind, payload) = assignment_event(assignee, case.assignee.as_deref());
        append_event(tx, id, kind, Actor::Human, Some(actor_name), &now, &payload)?;
        out.push(find_case(tx, id)?);
    }
    Ok(out)
}

/// The quiet job's reminder (SPEC D5): when the customer has been quiet since `cutoff` or
/// earlier, a `reminder_sent` event (actor `system`) and the `case.reminder` delivery at `now`.
/// `None` when the case waits on the customer but is not due (another instance reminded it
/// first, or the wait began after `cutoff`); `invalid_transition` when it no longer waits on the
/// customer.
pub fn remind_quiet(
    tx: &mut Transaction<'_>,
    case_id: &str,
    now: &str,
    cutoff: &str,
) -> Result<Option<(Case, Delivery)>, TeamError> {
    let (case, _) = check(tx, case_id, Move::Remind)?;
    if !quiet::reminder_due(tx, case_id, cutoff)? {
        return Ok(None);
    }
    tx.execute("UPDATE cases SET reminded_at = $2, updated_at = $2 WHERE id = $1", &[&case_id, &now])?;
    let asked = quiet::last_question(tx, case_id)?;
    let payload = json!({ "asked": asked, "waiting_since": case.waiting_since });
    let seq = append_event(tx, case_id, EventKind::ReminderSent, Actor::System, None, now, &payload)?;
    let case = find_case(tx, case_id)?;
    let delivery = quiet::enqueue_reminder(tx, &case, asked, seq, now)?;
    Ok(Some((case, delivery)))
}

/// The quiet job's closing: the customer stayed quiet and no person acted since the reminder (or,
/// with `reminders` off, since the wait began) at `cutoff` or earlier. The case is cancelled at
/// `now` with a `lead_unresponsive` event (`auto_closed`), a `cancelled` event and the
/// `case.closed` delivery. `None` when not due; `invalid_transition` when it no longer waits on
/// the customer.
pub fn close_unresponsive(
    tx: &mut Transaction<'_>,
    case_id: &str,
    now: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<Option<(Case, Delivery)>, TeamError> {
    let (case, to) = check(tx, case_id, Move::CloseUnresponsive)?;
    if !quiet::close_due(tx, case_id, cutoff, reminders)? {
        return Ok(None);
    }
    set_status(tx, &case, to, now)?;
    let payload = json!({ "auto_closed": true, "waiting_since": case.waiting_since });
    let seq = append_event(tx, case_id, EventKind::LeadUnresponsive, Actor::System, None, now, &payload)?;
    let closed = json!({ "lead_unresponsive_seq": seq });
    append_event(tx, case_id, EventKind::Cancelled, Actor::System, None, now, &closed)?;
    let case = find_case(tx, case_id)?;
    let delivery = quiet::enqueue_closed(tx, &case, seq, now)?;
    Ok(Some((case, delivery)))
}

/// A move the agent makes: the new status and its event, by the case's agent.
fn agent_event(
    tx: &mut Transaction<'_>,
    case_id: &str,
    mv: Move,
    kind: EventKind,
    payload: serde_json::Value,
) -> Result<Case, TeamError> {
    let (case, to) = check(tx, case_id, mv)?;
    let now = clock::now();
    set_status(tx, &case, to, &now)?;
    append_event(tx, case_id, kind, Actor::Agent, case.agent_id.as_deref(), &now, &payload)?;
    find_case(tx, case_id)
}

/// Locks the case and looks the move up in the table, against the status as it stands once
/// every other instance's change to it has committed.
fn check(tx: &mut Transaction<'_>, case_id: &str, mv: Move) -> Result<(Case, CaseStatus), TeamError> {
    let case = lock_case(tx, case_id)?;
    let to = next_status(&case, mv)?;
    Ok((case, to))
}

/// Locks the rows of `case_ids` in id order (the one order every bulk action takes them in).
fn lock_all(tx: &mut Transaction<'_>, case_ids: &[String]) -> Result<HashMap<String, Case>, TeamError> {
    let sql = format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = ANY($1) ORDER BY id FOR UPDATE");
    tx.query(&sql, &[&case_ids])?.iter().map(|row| case_from_row(row).map(|c| (c.id.clone(), c))).collect()
}

/// The locked case `id`; `case_not_found` when there is none.
fn take_locked(locked: &mut HashMap<String, Case>, id: &str) -> Result<Case, TeamError> {
    Ok(locked.remove(id).ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?)
}

/// Writes the new status with its waiting and closing times ([`waiting_after`]), forgets the
/// reminder when the case changes whom it waits on, and moves the response-time clocks.
fn set_status(tx: &mut Transaction<'_>, case: &Case, to: CaseStatus, now: &str) -> Result<(), TeamError> {
    let (waiting_since, closed_at) = waiting_after(case, to, now);
    tx.execute(
        "UPDATE cases SET status = $2, waiting_since = $3, closed_at = $4, updated_at = $5, \
         reminded_at = CASE WHEN status = $2 THEN reminded_at END WHERE id = $1",
        &[&case.id, &to.as_str(), &waiting_since, &closed_at, &now],
    )?;
    sla::on_status(tx, &case.id, case.status, to, now)
}
