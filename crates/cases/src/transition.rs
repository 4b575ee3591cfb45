//! Every state change of a case (SPEC B2), one function per transition.
//!
//! Each function runs inside its caller's transaction ([`crate::sql::Storage::write`]): it locks
//! the case's row ([`lock_case`]) before it checks the status, writes the new state and its event
//! together (and, for a person's reply, the outbox delivery that relays it to the agent), or
//! refuses and changes nothing. Written once over [`Sql`] for both databases. The transition
//! table lives in [`allowed`] and nowhere else.

use serde::{Deserialize, Serialize};
use serde_json::json;
use ts_rs::TS;

use crate::args;
use crate::sql::Sql;

use super::agents;
use super::clock;
use super::error::CasesError;
use super::model::{Actor, Case, CaseSource, CaseStatus, Delivery, EventKind, HumanAction, NewCase};
use super::outbox;
use super::quiet;
use super::reason::HandoverReason;
use super::rows::{append_event, find_case, lock_case, open_case_for_conversation};
use super::sla;

/// The longest conversation id, title, lead field or agent id accepted, in characters.
pub const MAX_SHORT_TEXT: usize = 200;
/// The most context messages a case keeps.
pub const MAX_CONTEXT_MESSAGES: usize = 100;
/// The most cases one bulk action takes (a screenful many times over, and one short transaction).
pub const MAX_BULK_CASES: usize = 500;

/// The result of opening a case: the new case, or the one already open for the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct OpenOutcome {
    pub case: Case,
    /// True when the conversation already had an open case and no new one was made.
    pub already_open: bool,
}

/// A transition someone asks for, named as `invalid_transition` reports it. Public so every
/// storage backend (the team database too) looks its moves up in the one table, [`allowed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Reply(HumanAction),
    ProvideUpdate,
    LeadAsked,
    LeadUnresponsive,
    Cancel,
    /// The job reminds the agent to nudge a quiet customer.
    Remind,
    /// The job closes a case whose customer stayed quiet.
    CloseUnresponsive,
}

impl Move {
    /// The name `invalid_transition` reports.
    pub fn name(self) -> &'static str {
        match self {
            Move::Reply(action) => action.as_str(),
            Move::ProvideUpdate => "provide_update",
            Move::LeadAsked => "lead_asked",
            Move::LeadUnresponsive => "lead_unresponsive",
            Move::Cancel => "cancel",
            Move::Remind => "remind",
            Move::CloseUnresponsive => "close_unresponsive",
        }
    }
}

/// The transition table of SPEC B2: the status a move leads to from `from`, or `None` when the
/// move is not allowed there. Recording what the lead was asked or that they went quiet keeps
/// the case waiting on the lead, and so does the reminder; closing a quiet case is a cancel.
pub fn allowed(from: CaseStatus, mv: Move) -> Option<CaseStatus> {
    use CaseStatus::*;
    match (from, mv) {
        (AwaitingHuman, Move::Reply(HumanAction::Resolved)) => Some(Resolved),
        (AwaitingHuman, Move::Reply(HumanAction::NeedLeadInfo)) => Some(AwaitingLead),
        (AwaitingHuman | AwaitingLead, Move::Reply(HumanAction::Escalate)) => Some(Escalated),
        (AwaitingLead, Move::ProvideUpdate) => Some(AwaitingHuman),
        (AwaitingLead, Move::LeadAsked | Move::LeadUnresponsive | Move::Remind) => Some(AwaitingLead),
        (AwaitingHuman | AwaitingLead, Move::Cancel) => Some(Cancelled),
        (AwaitingLead, Move::CloseUnresponsive) => Some(Cancelled),
        _ => None,
    }
}

/// Opens a case for a conversation, or returns the one already open for it (`already_open`).
/// The case starts `awaiting_human`, waiting since now, with the next short number. Its reason
/// is `guardrail_autofallback` exactly when the guardrail opens it (`invalid_reason` otherwise).
/// When two instances open one at once, the team database's unique index refuses the second,
/// whose transaction is tried again and then finds the first; the number comes from the
/// counter's row, locked until commit, so numbers have no gaps.
pub fn open_case(sql: &mut dyn Sql, new: &NewCase) -> Result<OpenOutcome, CasesError> {
    let new = checked_new_case(new.clone())?;
    if let Some(case) = open_case_for_conversation(sql, &new.conversation_id)? {
        return Ok(OpenOutcome { case, already_open: true });
    }
    if !agents::switches(sql, new.agent_id.as_deref())?.cases_enabled {
        let agent_id = new.agent_id.clone().unwrap_or_default();
        return Err(CasesError::AgentCasesDisabled { agent_id });
    }
    let id = uuid::Uuid::new_v4().to_string();
    let now = clock::now();
    insert_case(sql, &id, &new, &now)?;
    let (actor, payload) = opened_event(&new);
    append_event(sql, &id, EventKind::Opened, actor, new.agent_id.as_deref(), &now, &payload)?;
    sla::start(sql, &id, &now)?;
    Ok(OpenOutcome { case: find_case(sql, &id)?, already_open: false })
}

/// Writes the new case's row, `awaiting_human` and waiting since `now`, under the next number.
fn insert_case(sql: &mut dyn Sql, id: &str, new: &NewCase, now: &str) -> Result<(), CasesError> {
    let number = sql
        .query_one("UPDATE case_counter SET next = next + 1 WHERE id = 1 RETURNING next - 1", &[])?
        .int(0)?;
    let context = crate::sql::json(&new.context);
    sql.execute(
        "INSERT INTO cases (id, number, conversation_id, lead_id, lead_name, lead_channel, lead_contact, \
         agent_id, status, title, summary, blocker, context, source, reason, waiting_since, opened_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'awaiting_human', $9, $10, $11, $12, $13, $14, $15, $15, $15)",
        args![
            id,
            number,
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
            new.source.as_str(),
            new.reason.as_str(),
            now,
        ],
    )?;
    Ok(())
}

/// A person answers a case with one of the three actions: the new status (and, on the case's
/// first answer, when it came: the report's time to first reply), the `human_replied` event
/// (plus `resolved` or `escalated` when the case closes), the promises kept, the person's read
/// mark and the outbox delivery that relays the reply to the agent, all in one transaction.
/// `text` is the note for the customer, the question to ask, or the escalation reason.
pub fn reply(
    sql: &mut dyn Sql,
    case_id: &str,
    action: HumanAction,
    text: &str,
    actor_name: &str,
) -> Result<(Case, Delivery), CasesError> {
    let text = required("text", text)?;
    let actor_name = required("actor_name", actor_name)?;
    let (case, to) = check(sql, case_id, Move::Reply(action))?;
    let now = clock::now();
    let lease = crate::lease::stored(sql, case_id)?;
    crate::lease::check_send(lease.as_ref(), actor_name, case.assignee.as_deref(), &now)?;
    crate::lease::clear(sql, case_id)?;
    sql.execute(
        "UPDATE cases SET first_reply_at = $2 WHERE id = $1 AND first_reply_at IS NULL",
        args![case_id, now.as_str()],
    )?;
    set_status(sql, &case, to, &now)?;
    let seq = record_reply(sql, case_id, action, text, to, actor_name, &now)?;
    crate::promises::keep_promises(sql, case_id)?;
    crate::reads::set_read_at(sql, case_id, Some(&now))?;
    let case = find_case(sql, case_id)?;
    let delivery = outbox::enqueue(sql, &case, action, text, seq, &now)?;
    Ok((case, delivery))
}

/// The reply's events: `human_replied`, then the closing event when it closes the case. Returns
/// the reply's `seq`, which its delivery points at.
fn record_reply(
    sql: &mut dyn Sql,
    case_id: &str,
    action: HumanAction,
    text: &str,
    to: CaseStatus,
    actor_name: &str,
    now: &str,
) -> Result<i64, CasesError> {
    let payload = json!({ "action": action.as_str(), "text": text, "status": to.as_str() });
    let seq =
        append_event(sql, case_id, EventKind::HumanReplied, Actor::Human, Some(actor_name), now, &payload)?;
    if let Some(kind) = closing_event(to) {
        let closed = json!({ "reply_seq": seq });
        append_event(sql, case_id, kind, Actor::Human, Some(actor_name), now, &closed)?;
    }
    Ok(seq)
}

/// The agent hands back what the lead answered: `awaiting_lead` → `awaiting_human`, event
/// `lead_provided`, and the case waits on the person again from now.
pub fn provide_update(sql: &mut dyn Sql, case_id: &str, info: &str) -> Result<Case, CasesError> {
    let info = required("info", info)?;
    agent_event(sql, case_id, Move::ProvideUpdate, EventKind::LeadProvided, json!({ "info": info }))
}

/// The agent records that it asked the lead (what it asked, if it says). The case keeps waiting
/// on the lead.
pub fn record_lead_asked(sql: &mut dyn Sql, case_id: &str, text: Option<&str>) -> Result<Case, CasesError> {
    agent_event(sql, case_id, Move::LeadAsked, EventKind::LeadAsked, optional_text("text", text))
}

/// The agent records that the lead stopped answering. The case keeps waiting on the lead; the
/// person decides whether to escalate or cancel.
pub fn record_lead_unresponsive(
    sql: &mut dyn Sql,
    case_id: &str,
    note: Option<&str>,
) -> Result<Case, CasesError> {
    let payload = optional_text("note", note);
    agent_event(sql, case_id, Move::LeadUnresponsive, EventKind::LeadUnresponsive, payload)
}

/// The agent or a person cancels an open case (the lead gave up, it was opened by mistake).
/// `actor` must be `agent` or `human`. Nothing is sent to the agent.
pub fn cancel(
    sql: &mut dyn Sql,
    case_id: &str,
    actor: Actor,
    actor_name: Option<&str>,
    reason: Option<&str>,
) -> Result<Case, CasesError> {
    checked_canceller(actor)?;
    let actor_name = actor_name.map(str::trim).filter(|n| !n.is_empty());
    let (case, to) = check(sql, case_id, Move::Cancel)?;
    let now = clock::now();
    set_status(sql, &case, to, &now)?;
    let payload = optional_text("reason", reason);
    append_event(sql, case_id, EventKind::Cancelled, actor, actor_name, &now, &payload)?;
    find_case(sql, case_id)
}

/// A person cancels several open cases with one reason (a bulk action on the inbox list): all
/// of them in one transaction, or none when one cannot be cancelled — the refusal names that
/// case by its number. Nothing is sent to the agent: a cancel is not one of the three answers.
pub fn cancel_many(
    sql: &mut dyn Sql,
    case_ids: &[String],
    actor_name: &str,
    reason: &str,
) -> Result<Vec<Case>, CasesError> {
    let reason = required("reason", reason)?;
    let actor_name = required("actor_name", actor_name)?;
    let case_ids = bulk_ids(case_ids)?;
    let mut locked = lock_all(sql, &case_ids)?;
    let now = clock::now();
    let payload = json!({ "reason": reason });
    let mut cancelled = Vec::with_capacity(case_ids.len());
    for id in &case_ids {
        let case = take_locked(&mut locked, id)?;
        let to = next_status_in_bulk(&case, Move::Cancel)?;
        set_status(sql, &case, to, &now)?;
        append_event(sql, id, EventKind::Cancelled, Actor::Human, Some(actor_name), &now, &payload)?;
        cancelled.push(find_case(sql, id)?);
    }
    Ok(cancelled)
}

/// The ids of a bulk action, each once, in the order given: at least one, at most
/// [`MAX_BULK_CASES`].
pub fn bulk_ids(case_ids: &[String]) -> Result<Vec<String>, CasesError> {
    let mut seen = std::collections::HashSet::new();
    let ids: Vec<String> = case_ids.iter().filter(|id| seen.insert(id.as_str())).cloned().collect();
    if ids.is_empty() {
        return Err(CasesError::InvalidInput { field: "ids", reason: "must name at least one case".into() });
    }
    if ids.len() > MAX_BULK_CASES {
        return Err(CasesError::InvalidInput {
            field: "ids",
            reason: format!("names {} cases; at most {MAX_BULK_CASES} are taken at once", ids.len()),
        });
    }
    Ok(ids)
}

/// Locks the cases of `case_ids` in id order (the one order every bulk action takes them in, so
/// two bulk actions never wait on each other in a circle).
pub(crate) fn lock_all(
    sql: &mut dyn Sql,
    case_ids: &[String],
) -> Result<std::collections::HashMap<String, Case>, CasesError> {
    let mut sorted: Vec<&String> = case_ids.iter().collect();
    sorted.sort();
    let mut locked = std::collections::HashMap::with_capacity(sorted.len());
    for id in sorted {
        match lock_case(sql, id) {
            Ok(case) => {
                locked.insert(id.clone(), case);
            }
            Err(CasesError::CaseNotFound { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(locked)
}

/// The locked case `id`; `case_not_found` when there is none.
pub(crate) fn take_locked(
    locked: &mut std::collections::HashMap<String, Case>,
    id: &str,
) -> Result<Case, CasesError> {
    locked.remove(id).ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })
}

/// The customer has been quiet since `cutoff` or earlier: a `reminder_sent` event (actor
/// `system`) and the `case.reminder` delivery, in one transaction, at `now`. `None` when the case
/// waits on the customer but is not due (reminded already in this wait — by another instance
/// too — or waiting since after `cutoff`); `invalid_transition` when it does not wait on the
/// customer.
pub fn remind_quiet(
    sql: &mut dyn Sql,
    case_id: &str,
    now: &str,
    cutoff: &str,
) -> Result<Option<(Case, Delivery)>, CasesError> {
    let (case, _) = check(sql, case_id, Move::Remind)?;
    if !quiet::reminder_due(sql, case_id, cutoff)? {
        return Ok(None);
    }
    sql.execute("UPDATE cases SET reminded_at = $2, updated_at = $2 WHERE id = $1", args![case_id, now])?;
    let asked = quiet::last_question(sql, case_id)?;
    let payload = json!({ "asked": asked, "waiting_since": case.waiting_since });
    let seq = append_event(sql, case_id, EventKind::ReminderSent, Actor::System, None, now, &payload)?;
    let case = find_case(sql, case_id)?;
    let delivery = quiet::enqueue_reminder(sql, &case, asked, seq, now)?;
    Ok(Some((case, delivery)))
}

/// The customer stayed quiet and no person acted since the reminder: the case is cancelled at
/// `now` with a `lead_unresponsive` event (actor `system`, `auto_closed: true`), a `cancelled`
/// event, and the `case.closed` delivery that tells the agent, in one transaction. Due when the
/// reminder went out at `cutoff` or earlier — with `reminders` off, when the wait began then.
/// `None` when not due; `invalid_transition` when the case does not wait on the customer.
pub fn close_unresponsive(
    sql: &mut dyn Sql,
    case_id: &str,
    now: &str,
    cutoff: &str,
    reminders: bool,
) -> Result<Option<(Case, Delivery)>, CasesError> {
    let (case, to) = check(sql, case_id, Move::CloseUnresponsive)?;
    if !quiet::close_due(sql, case_id, cutoff, reminders)? {
        return Ok(None);
    }
    set_status(sql, &case, to, now)?;
    let payload = json!({ "auto_closed": true, "waiting_since": case.waiting_since });
    let seq = append_event(sql, case_id, EventKind::LeadUnresponsive, Actor::System, None, now, &payload)?;
    let closed = json!({ "lead_unresponsive_seq": seq });
    append_event(sql, case_id, EventKind::Cancelled, Actor::System, None, now, &closed)?;
    let case = find_case(sql, case_id)?;
    let delivery = quiet::enqueue_closed(sql, &case, seq, now)?;
    Ok(Some((case, delivery)))
}

/// A move the agent makes: the new status and its event, by the case's agent.
fn agent_event(
    sql: &mut dyn Sql,
    case_id: &str,
    mv: Move,
    kind: EventKind,
    payload: serde_json::Value,
) -> Result<Case, CasesError> {
    let (case, to) = check(sql, case_id, mv)?;
    let now = clock::now();
    set_status(sql, &case, to, &now)?;
    append_event(sql, case_id, kind, Actor::Agent, case.agent_id.as_deref(), &now, &payload)?;
    find_case(sql, case_id)
}

/// Locks the case and looks the move up in the table, against the status as it stands once
/// every other instance's change to it has committed.
fn check(sql: &mut dyn Sql, case_id: &str, mv: Move) -> Result<(Case, CaseStatus), CasesError> {
    let case = lock_case(sql, case_id)?;
    let to = next_status(&case, mv)?;
    Ok((case, to))
}

/// The status `mv` leads `case` to, or the `invalid_transition` refusal. Public so every storage
/// backend refuses a move with the same words, after reading the case its own way.
pub fn next_status(case: &Case, mv: Move) -> Result<CaseStatus, CasesError> {
    allowed(case.status, mv).ok_or(CasesError::InvalidTransition { from: case.status, action: mv.name() })
}

/// [`next_status`] for one case of a bulk action: the refusal names the case by its number.
pub fn next_status_in_bulk(case: &Case, mv: Move) -> Result<CaseStatus, CasesError> {
    next_status(case, mv)
        .map_err(|refusal| CasesError::InCase { number: case.number, source: Box::new(refusal) })
}

/// Who opens a case (the agent, or the system for the guardrail) and its `opened` event's
/// payload.
pub fn opened_event(new: &NewCase) -> (Actor, serde_json::Value) {
    let actor = match new.source {
        CaseSource::Agent => Actor::Agent,
        CaseSource::GuardrailAutofallback => Actor::System,
    };
    (actor, json!({ "source": new.source.as_str(), "reason": new.reason.as_str() }))
}

/// The event that follows a reply which closes the case (`resolved`, `escalated`), if it does.
pub fn closing_event(to: CaseStatus) -> Option<EventKind> {
    match to {
        CaseStatus::Resolved => Some(EventKind::Resolved),
        CaseStatus::Escalated => Some(EventKind::Escalated),
        _ => None,
    }
}

/// Only the agent or a person cancels a case (`invalid_case_input` for anyone else). Public so
/// every storage backend refuses the same callers.
pub fn checked_canceller(actor: Actor) -> Result<(), CasesError> {
    if !matches!(actor, Actor::Agent | Actor::Human) {
        return Err(CasesError::InvalidInput { field: "actor", reason: "must be agent or human".into() });
    }
    Ok(())
}

/// The waiting and closing times of `case` moving to `to` at `now`: waiting restarts whenever
/// the case changes whom it waits on and stops when it closes, which sets `closed_at`. Public so
/// every storage backend keeps the same clocks.
pub fn waiting_after<'a>(case: &Case, to: CaseStatus, now: &'a str) -> (Option<String>, Option<&'a str>) {
    let waiting_since = match (to.is_open(), to == case.status) {
        (true, true) => case.waiting_since.clone(),
        (true, false) => Some(now.to_string()),
        (false, _) => None,
    };
    (waiting_since, (!to.is_open()).then_some(now))
}

/// Writes the new status with its clocks: waiting restarts whenever the case changes whom it
/// waits on, and stops (with `closed_at`) when it closes. A new wait has had no reminder yet.
/// The response-time clocks pause and resume with the wait on the customer ([`sla::on_status`]),
/// and a closing counts the case in its closed total ([`crate::totals`]).
fn set_status(sql: &mut dyn Sql, case: &Case, to: CaseStatus, now: &str) -> Result<(), CasesError> {
    let (waiting_since, closed_at) = waiting_after(case, to, now);
    sql.execute(
        "UPDATE cases SET status = $2, waiting_since = $3, closed_at = $4, updated_at = $5, \
         reminded_at = CASE WHEN status = $2 THEN reminded_at END WHERE id = $1",
        args![&case.id, to.as_str(), &waiting_since, closed_at, now],
    )?;
    if case.status.is_open() && !to.is_open() {
        count_closed(sql, case.assignee.as_deref())?;
    }
    sla::on_status(sql, &case.id, case.status, to, now)
}

/// One more case closed in the hands of `assignee` (`None`: nobody's): the total the *Closed*
/// tab of *Mine* and *Unassigned* shows. Kept here, by the one step every closing goes through;
/// a closed case never reopens or changes hands, so the total never has to go down.
fn count_closed(sql: &mut dyn Sql, assignee: Option<&str>) -> Result<(), CasesError> {
    sql.execute(
        "INSERT INTO closed_totals (assignee, n) VALUES ($1, 1) \
         ON CONFLICT (assignee) DO UPDATE SET n = closed_totals.n + 1",
        args![assignee.unwrap_or("")],
    )?;
    Ok(())
}

/// The cases closed in the hands of `assignee` (`None`: nobody's), as the closing steps counted them.
pub fn closed_total(sql: &mut dyn Sql, assignee: Option<&str>) -> Result<i64, CasesError> {
    let row =
        sql.query_opt("SELECT n FROM closed_totals WHERE assignee = $1", args![assignee.unwrap_or("")])?;
    Ok(row.map(|r| r.int(0)).transpose()?.unwrap_or(0))
}

/// `text` trimmed; `text_required` naming `field` when that leaves nothing. Public so every
/// storage backend checks its inputs the same way.
pub fn required<'a>(field: &'static str, text: &'a str) -> Result<&'a str, CasesError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(CasesError::TextRequired { field });
    }
    Ok(text)
}

/// The payload `{ field: text }` of an optional text, `{}` when it is absent or blank. Public so
/// every storage backend writes the same timeline.
pub fn optional_text(field: &str, text: Option<&str>) -> serde_json::Value {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => json!({ field: text }),
        None => json!({}),
    }
}

/// `new` with its fields trimmed and checked: the required ones present, the short ones short,
/// the reason matching the source, the context not too long.
pub fn checked_new_case(mut new: NewCase) -> Result<NewCase, CasesError> {
    new.conversation_id = short("conversation_id", &new.conversation_id)?;
    new.title = short("title", &new.title)?;
    new.summary = required("summary", &new.summary)?.to_string();
    new.blocker = new.blocker.map(|b| b.trim().to_string()).filter(|b| !b.is_empty());
    for (field, value) in [
        ("lead.id", &mut new.lead.id),
        ("lead.name", &mut new.lead.name),
        ("lead.channel", &mut new.lead.channel),
        ("lead.contact", &mut new.lead.contact),
        ("agent_id", &mut new.agent_id),
    ] {
        *value = match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            Some(v) => Some(short(field, v)?),
            None => None,
        };
    }
    let by_guardrail = new.source == CaseSource::GuardrailAutofallback;
    if by_guardrail != (new.reason == HandoverReason::GuardrailAutofallback) {
        return Err(CasesError::InvalidReason { given: new.reason.as_str().to_string() });
    }
    if new.context.len() > MAX_CONTEXT_MESSAGES {
        return Err(CasesError::InvalidInput {
            field: "context",
            reason: format!("has {} messages; at most {MAX_CONTEXT_MESSAGES} are kept", new.context.len()),
        });
    }
    Ok(new)
}

fn short(field: &'static str, value: &str) -> Result<String, CasesError> {
    let value = required(field, value)?;
    let chars = value.chars().count();
    if chars > MAX_SHORT_TEXT {
        return Err(CasesError::InvalidInput {
            field,
            reason: format!("is {chars} characters long; at most {MAX_SHORT_TEXT} are allowed"),
        });
    }
    Ok(value.to_string())
}
