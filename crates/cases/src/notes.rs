//! Internal notes: what a person writes on a case for the team and never for the customer.
//!
//! A note is an `internal_note` event on the case's timeline, written by a person. It is not a
//! transition: the case keeps its status, its waiting time and its read mark, no outbox delivery
//! is written, and the agent's view of the case ([`CaseWithTimeline::for_agent`]) leaves notes
//! out, so neither the webhook nor the agent's API or MCP tools ever carry one.

use serde_json::json;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, CaseEvent, EventKind};
use super::rows::{append_event, lock_case};
use super::store::CaseWithTimeline;
use crate::sql::Sql;

/// Adds a person's note to a case, open or closed; `text_required` when the note is blank,
/// `case_not_found` when there is no such case. Returns the note's event.
pub fn add_note(
    sql: &mut dyn Sql,
    case_id: &str,
    text: &str,
    actor_name: &str,
) -> Result<CaseEvent, CasesError> {
    let text = crate::transition::required("note", text)?;
    let actor_name = crate::transition::required("actor_name", actor_name)?;
    lock_case(sql, case_id)?;
    let now = clock::now();
    let payload = json!({ "text": text });
    let seq =
        append_event(sql, case_id, EventKind::InternalNote, Actor::Human, Some(actor_name), &now, &payload)?;
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

/// The case as the agent sees it: without the internal notes.
impl CaseWithTimeline {
    /// The case as the agent may see it: the same, without the people's internal notes.
    pub fn for_agent(mut self) -> CaseWithTimeline {
        self.events.retain(|e| e.kind != EventKind::InternalNote);
        self
    }
}
