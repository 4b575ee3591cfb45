//! Rows as the domain's values, and the few reads and writes every case step builds on: one case
//! (plain, or locked for a transition), its timeline and deliveries, the open case of a
//! conversation, and the one insert into the append-only timeline. Written once over [`Sql`].

use crate::args;
use crate::clock;
use crate::error::CasesError;
use crate::model::{
    Actor, Case, CaseEvent, CaseSource, CaseStatus, ContextMessage, Delivery, DeliveryAction, DeliveryState,
    EventKind, Lead,
};
use crate::reason::HandoverReason;
use crate::sla::{state_of, CaseSla, SlaClock};
use crate::sql::{Row, Sql};

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

/// A stored name this build knows, or `db_corrupt` naming what it is.
pub fn parse_enum<T>(
    what: &'static str,
    value: String,
    parse: fn(&str) -> Option<T>,
) -> Result<T, CasesError> {
    parse(&value).ok_or(CasesError::Corrupt { what, value })
}

/// Stored JSON text as a value, or `db_corrupt` naming what it is.
fn parse_json<T: serde::de::DeserializeOwned>(what: &'static str, text: String) -> Result<T, CasesError> {
    serde_json::from_str(&text).map_err(|_| CasesError::Corrupt { what, value: text })
}

/// A row selected with [`CASE_COLUMNS`] (extra columns may follow).
pub fn case_from_row(row: &Row) -> Result<Case, CasesError> {
    let context: Vec<ContextMessage> = parse_json("case context", row.text(12)?)?;
    Ok(Case {
        id: row.text(0)?,
        number: row.int(1)?,
        conversation_id: row.text(2)?,
        lead: Lead {
            id: row.opt_text(3)?,
            name: row.opt_text(4)?,
            channel: row.opt_text(5)?,
            contact: row.opt_text(6)?,
        },
        agent_id: row.opt_text(7)?,
        status: parse_enum("case status", row.text(8)?, CaseStatus::parse)?,
        title: row.text(9)?,
        summary: row.text(10)?,
        blocker: row.opt_text(11)?,
        context,
        source: parse_enum("case source", row.text(13)?, CaseSource::parse)?,
        reason: parse_enum("handover reason", row.text(18)?, HandoverReason::parse)?,
        waiting_since: row.opt_text(14)?,
        opened_at: row.text(15)?,
        updated_at: row.text(16)?,
        closed_at: row.opt_text(17)?,
        sla: sla_from_row(row, 19, &clock::now())?,
        assignee: row.opt_text(27)?,
    })
}

/// Reads `first_reply_target, first_reply_due_at, first_reply_at, resolution_target,
/// resolution_due_at, closed_at, sla_paused_at, sla_due_at` from column `first` on, the states
/// as of `now`.
fn sla_from_row(row: &Row, first: usize, now: &str) -> Result<CaseSla, CasesError> {
    let paused_since = row.opt_text(first + 6)?;
    let clock = |target: usize, due: usize, met: usize| -> Result<Option<SlaClock>, CasesError> {
        let (Some(target), Some(due_at)) = (row.opt_int(first + target)?, row.opt_text(first + due)?) else {
            return Ok(None);
        };
        let met_at = row.opt_text(first + met)?;
        let state = state_of(&due_at, met_at.as_deref(), paused_since.as_deref(), now);
        let target_minutes = u32::try_from(target)
            .map_err(|_| CasesError::Corrupt { what: "response target", value: target.to_string() })?;
        Ok(Some(SlaClock { target_minutes, due_at, met_at, state }))
    };
    Ok(CaseSla {
        first_reply: clock(0, 1, 2)?,
        resolution: clock(3, 4, 5)?,
        next_due_at: row.opt_text(first + 7)?,
        paused_since: paused_since.clone(),
    })
}

/// A row selected with [`EVENT_COLUMNS`].
pub fn event_from_row(row: &Row) -> Result<CaseEvent, CasesError> {
    Ok(CaseEvent {
        seq: row.int(0)?,
        case_id: row.text(1)?,
        kind: parse_enum("event kind", row.text(2)?, EventKind::parse)?,
        actor: parse_enum("event actor", row.text(3)?, Actor::parse)?,
        actor_name: row.opt_text(4)?,
        at: row.text(5)?,
        payload: parse_json("event payload", row.text(6)?)?,
    })
}

/// A row selected with [`DELIVERY_COLUMNS`].
pub fn delivery_from_row(row: &Row) -> Result<Delivery, CasesError> {
    Ok(Delivery {
        id: row.text(0)?,
        case_id: row.text(1)?,
        event_seq: row.int(2)?,
        action: parse_enum("delivery action", row.text(3)?, DeliveryAction::parse)?,
        state: parse_enum("delivery state", row.text(4)?, DeliveryState::parse)?,
        attempts: row.int(5)?,
        next_attempt_at: row.opt_text(6)?,
        last_error: row.opt_text(7)?,
        last_status: row.opt_int(8)?,
        created_at: row.text(9)?,
        updated_at: row.text(10)?,
        delivered_at: row.opt_text(11)?,
    })
}

/// Just the case; `case_not_found` if there is none.
pub fn find_case(sql: &mut dyn Sql, id: &str) -> Result<Case, CasesError> {
    let row = sql.query_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = $1"), args![id])?;
    case_from_row(&row.ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?)
}

/// The case, its row locked until the transaction ends: every transition reads the status it
/// checks this way, so two instances changing one case take turns and the second sees the first's
/// result (`invalid_transition` when it no longer applies).
pub fn lock_case(sql: &mut dyn Sql, id: &str) -> Result<Case, CasesError> {
    let lock = sql.dialect().for_update();
    let row = sql.query_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = $1{lock}"), args![id])?;
    case_from_row(&row.ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?)
}

/// The case people know by `number` (`#1042`); `case_not_found` naming the number if there is none.
pub fn find_case_by_number(sql: &mut dyn Sql, number: i64) -> Result<Case, CasesError> {
    let row = sql.query_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE number = $1"), args![number])?;
    case_from_row(&row.ok_or(CasesError::CaseNumberNotFound { number })?)
}

/// The open case of a conversation, if it has one (the guardrail asks this before vetoing).
pub fn open_case_for_conversation(
    sql: &mut dyn Sql,
    conversation_id: &str,
) -> Result<Option<Case>, CasesError> {
    let query = format!(
        "SELECT {CASE_COLUMNS} FROM cases WHERE conversation_id = $1 AND status IN ('awaiting_human', 'awaiting_lead')"
    );
    sql.query_opt(&query, args![conversation_id])?.as_ref().map(case_from_row).transpose()
}

/// The timeline of a case, oldest first.
pub fn events_for_case(sql: &mut dyn Sql, case_id: &str) -> Result<Vec<CaseEvent>, CasesError> {
    let query = format!("SELECT {EVENT_COLUMNS} FROM case_events WHERE case_id = $1 ORDER BY seq");
    sql.query(&query, args![case_id])?.iter().map(event_from_row).collect()
}

/// The deliveries of a case, oldest first.
pub fn deliveries_for_case(sql: &mut dyn Sql, case_id: &str) -> Result<Vec<Delivery>, CasesError> {
    let query =
        format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE case_id = $1 ORDER BY created_at, id");
    sql.query(&query, args![case_id])?.iter().map(delivery_from_row).collect()
}

/// One delivery; `delivery_not_found` if there is none.
pub fn get_delivery(sql: &mut dyn Sql, id: &str) -> Result<Delivery, CasesError> {
    let row =
        sql.query_opt(&format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = $1"), args![id])?;
    delivery_from_row(&row.ok_or_else(|| CasesError::DeliveryNotFound { id: id.to_string() })?)
}

/// Appends one event to a case's timeline (the only write to `case_events`). Returns its `seq`.
pub fn append_event(
    sql: &mut dyn Sql,
    case_id: &str,
    kind: EventKind,
    actor: Actor,
    actor_name: Option<&str>,
    at: &str,
    payload: &serde_json::Value,
) -> Result<i64, CasesError> {
    let payload = crate::sql::json(payload);
    sql.query_one(
        "INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq",
        args![case_id, kind.as_str(), actor.as_str(), actor_name, at, &payload],
    )?
    .int(0)
}
