//! Rows of the team database as the domain's values, and the few reads and writes every other
//! module builds on: one case (plain, or locked for a transition), its timeline and deliveries,
//! the open case of a conversation, and the one insert into the append-only timeline.

use postgres::types::{ToSql, Type};
use postgres::{GenericClient, Row};
use skillcase_cases::model::{
    Actor, Case, CaseEvent, CaseSource, CaseStatus, ContextMessage, Delivery, DeliveryAction, DeliveryState,
    EventKind, Lead,
};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::sla::{state_of, CaseSla, SlaClock};
use skillcase_cases::CasesError;

use crate::error::TeamError;

/// The columns [`case_from_row`] reads, in its order.
pub const CASE_COLUMNS: &str = "id, number, conversation_id, lead_id, lead_name, lead_channel, \
     lead_contact, agent_id, status, title, summary, blocker, context, source, waiting_since, opened_at, \
     updated_at, closed_at, reason, first_reply_target, first_reply_due_at, first_reply_at, resolution_target, \
     resolution_due_at, closed_at, sla_paused_at, sla_due_at, assignee";

/// How many columns [`CASE_COLUMNS`] names; a query's extra columns come after them.
pub const CASE_COLUMN_COUNT: usize = 28;

/// The columns [`event_from_row`] reads.
pub const EVENT_COLUMNS: &str = "seq, case_id, kind, actor, actor_name, at, payload";

/// The columns [`delivery_from_row`] reads.
pub const DELIVERY_COLUMNS: &str = "id, case_id, event_seq, action, state, attempts, next_attempt_at, \
     last_error, last_status, created_at, updated_at, delivered_at";

fn parse_enum<T>(what: &'static str, value: String, parse: fn(&str) -> Option<T>) -> Result<T, TeamError> {
    parse(&value).ok_or(TeamError::Cases(CasesError::Corrupt { what, value }))
}

/// A row selected with [`CASE_COLUMNS`].
pub fn case_from_row(row: &Row) -> Result<Case, TeamError> {
    let context: String = row.try_get(12)?;
    let context: Vec<ContextMessage> = serde_json::from_str(&context)
        .map_err(|_| CasesError::Corrupt { what: "case context", value: context.clone() })?;
    Ok(Case {
        id: row.try_get(0)?,
        number: row.try_get(1)?,
        conversation_id: row.try_get(2)?,
        lead: Lead {
            id: row.try_get(3)?,
            name: row.try_get(4)?,
            channel: row.try_get(5)?,
            contact: row.try_get(6)?,
        },
        agent_id: row.try_get(7)?,
        status: parse_enum("case status", row.try_get(8)?, CaseStatus::parse)?,
        title: row.try_get(9)?,
        summary: row.try_get(10)?,
        blocker: row.try_get(11)?,
        context,
        source: parse_enum("case source", row.try_get(13)?, CaseSource::parse)?,
        reason: parse_enum("handover reason", row.try_get(18)?, HandoverReason::parse)?,
        waiting_since: row.try_get(14)?,
        opened_at: row.try_get(15)?,
        updated_at: row.try_get(16)?,
        closed_at: row.try_get(17)?,
        sla: sla_from_row(row, 19, &skillcase_cases::clock::now())?,
        assignee: row.try_get(27)?,
    })
}

/// Reads `first_reply_target, first_reply_due_at, first_reply_at, resolution_target,
/// resolution_due_at, closed_at, sla_paused_at, sla_due_at` from column `first` on, the states
/// as of `now`.
fn sla_from_row(row: &Row, first: usize, now: &str) -> Result<CaseSla, TeamError> {
    let paused_since: Option<String> = row.try_get(first + 6)?;
    let clock = |target: usize, due: usize, met: usize| -> Result<Option<SlaClock>, TeamError> {
        let target: Option<i64> = row.try_get(first + target)?;
        let due_at: Option<String> = row.try_get(first + due)?;
        let (Some(target), Some(due_at)) = (target, due_at) else { return Ok(None) };
        let met_at: Option<String> = row.try_get(first + met)?;
        let state = state_of(&due_at, met_at.as_deref(), paused_since.as_deref(), now);
        let target_minutes = u32::try_from(target)
            .map_err(|_| CasesError::Corrupt { what: "response target", value: target.to_string() })?;
        Ok(Some(SlaClock { target_minutes, due_at, met_at, state }))
    };
    Ok(CaseSla {
        first_reply: clock(0, 1, 2)?,
        resolution: clock(3, 4, 5)?,
        next_due_at: row.try_get(first + 7)?,
        paused_since: paused_since.clone(),
    })
}

/// A row selected with [`EVENT_COLUMNS`].
pub fn event_from_row(row: &Row) -> Result<CaseEvent, TeamError> {
    let payload: String = row.try_get(6)?;
    Ok(CaseEvent {
        seq: row.try_get(0)?,
        case_id: row.try_get(1)?,
        kind: parse_enum("event kind", row.try_get(2)?, EventKind::parse)?,
        actor: parse_enum("event actor", row.try_get(3)?, Actor::parse)?,
        actor_name: row.try_get(4)?,
        at: row.try_get(5)?,
        payload: serde_json::from_str(&payload)
            .map_err(|_| CasesError::Corrupt { what: "event payload", value: payload.clone() })?,
    })
}

/// A row selected with [`DELIVERY_COLUMNS`].
pub fn delivery_from_row(row: &Row) -> Result<Delivery, TeamError> {
    Ok(Delivery {
        id: row.try_get(0)?,
        case_id: row.try_get(1)?,
        event_seq: row.try_get(2)?,
        action: parse_enum("delivery action", row.try_get(3)?, DeliveryAction::parse)?,
        state: parse_enum("delivery state", row.try_get(4)?, DeliveryState::parse)?,
        attempts: row.try_get(5)?,
        next_attempt_at: row.try_get(6)?,
        last_error: row.try_get(7)?,
        last_status: row.try_get(8)?,
        created_at: row.try_get(9)?,
        updated_at: row.try_get(10)?,
        delivered_at: row.try_get(11)?,
    })
}

/// `value` as the one text parameter of a query sent with its type (`query_typed`): the server
/// parses, binds and runs it in one round trip, where `query` prepares it in a round trip of its
/// own first. Opening a case makes three such reads, each a round trip fewer.
fn text_param<'a>(value: &'a &str) -> [(&'a (dyn ToSql + Sync), Type); 1] {
    [(value, Type::TEXT)]
}

/// Just the case; `case_not_found` if there is none.
pub fn find_case(c: &mut impl GenericClient, id: &str) -> Result<Case, TeamError> {
    let row =
        c.query_typed_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = $1"), &text_param(&id))?;
    case_from_row(&row.ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?)
}

/// The case, its row locked until the transaction ends: every transition reads the status it
/// checks this way, so two instances changing one case take turns and the second sees the first's
/// result (`invalid_transition` when it no longer applies).
pub fn lock_case(c: &mut impl GenericClient, id: &str) -> Result<Case, TeamError> {
    let row = c.query_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = $1 FOR UPDATE"), &[&id])?;
    case_from_row(&row.ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?)
}

/// The open case of a conversation, if it has one.
pub fn open_case_for_conversation(
    c: &mut impl GenericClient,
    conversation_id: &str,
) -> Result<Option<Case>, TeamError> {
    let sql = format!(
        "SELECT {CASE_COLUMNS} FROM cases WHERE conversation_id = $1 AND status IN ('awaiting_human', 'awaiting_lead')"
    );
    c.query_opt(&sql, &[&conversation_id])?.as_ref().map(case_from_row).transpose()
}

/// The timeline of a case, oldest first.
pub fn events_for_case(c: &mut impl GenericClient, case_id: &str) -> Result<Vec<CaseEvent>, TeamError> {
    let sql = format!("SELECT {EVENT_COLUMNS} FROM case_events WHERE case_id = $1 ORDER BY seq");
    c.query_typed(&sql, &text_param(&case_id))?.iter().map(event_from_row).collect()
}

/// The deliveries of a case, oldest first.
pub fn deliveries_for_case(c: &mut impl GenericClient, case_id: &str) -> Result<Vec<Delivery>, TeamError> {
    let sql = format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE case_id = $1 ORDER BY created_at, id");
    c.query_typed(&sql, &text_param(&case_id))?.iter().map(delivery_from_row).collect()
}

/// One delivery; `delivery_not_found` if there is none.
pub fn get_delivery(c: &mut impl GenericClient, id: &str) -> Result<Delivery, TeamError> {
    let row = c.query_opt(&format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = $1"), &[&id])?;
    delivery_from_row(&row.ok_or_else(|| CasesError::DeliveryNotFound { id: id.to_string() })?)
}

/// Appends one event to a case's timeline (the only write to `case_events`). Returns its `seq`.
pub fn append_event(
    c: &mut impl GenericClient,
    case_id: &str,
    kind: EventKind,
    actor: Actor,
    actor_name: Option<&str>,
    at: &str,
    payload: &serde_json::Value,
) -> Result<i64, TeamError> {
    let row = c.query_one(
        "INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq",
        &[&case_id, &kind.as_str(), &actor.as_str(), &actor_name, &at, &payload.to_string()],
    )?;
    Ok(row.try_get(0)?)
}
