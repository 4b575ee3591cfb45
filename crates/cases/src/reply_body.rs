//! What a reply's delivery must say, rebuilt from the timeline before a worker signs it.
//!
//! On a team database the people who answer cases can write rows the delivery worker later
//! signs, so the body is not trusted as stored: the worker rebuilds it from the reply's event
//! (which no member can alter, and which names who wrote it) and the case, and sends only a body
//! equal to that. A body written any other way — edited, or inserted beside someone else's
//! reply — is refused and never signed. On the embedded database the check always passes.

use crate::error::CasesError;
use crate::model::{CaseStatus, DeliveryAction, EventKind, HumanAction};
use crate::outbox::ReplyPayload;
use crate::promises::promises_of;
use crate::rows::{events_for_case, find_case};
use crate::sql::Sql;

/// The delivery as the worker found it.
pub(crate) struct Stored<'a> {
    pub id: &'a str,
    pub case_id: &'a str,
    pub event_seq: i64,
    pub action: &'a str,
    pub body: &'a str,
}

/// Why a delivery's body was refused, as its `delivery_failed` event says.
pub(crate) const FORGED: &str =
    "the body does not match the reply it was written for; it was not signed or sent";

/// Whether `stored` says exactly what its reply's event and case say. Reminders and closings
/// are written only by the jobs (on a team, the database refuses them from a member) and pass.
pub(crate) fn matches_its_reply(sql: &mut dyn Sql, stored: &Stored<'_>) -> Result<bool, CasesError> {
    let Some(action) = DeliveryAction::parse(stored.action).and_then(human_action) else { return Ok(true) };
    let Ok(body) = serde_json::from_str::<serde_json::Value>(stored.body) else { return Ok(false) };
    // When it was written is the body's own word: nothing a reply says depends on it.
    let Some(created_at) = body.get("created_at").and_then(serde_json::Value::as_str) else {
        return Ok(false);
    };
    Ok(rebuilt(sql, stored, action, created_at)?.as_ref() == Some(&body))
}

/// The body the reply event `stored.event_seq` makes, or `None` when that event is not a reply
/// with `action` on the delivery's case.
fn rebuilt(
    sql: &mut dyn Sql,
    stored: &Stored<'_>,
    action: HumanAction,
    created_at: &str,
) -> Result<Option<serde_json::Value>, CasesError> {
    let events = events_for_case(sql, stored.case_id)?;
    let Some(reply) = events.iter().find(|e| e.seq == stored.event_seq) else { return Ok(None) };
    let said = |key: &str| reply.payload.get(key).and_then(serde_json::Value::as_str);
    let status = said("status").and_then(CaseStatus::parse);
    let (Some(text), Some(status)) = (said("text"), status) else { return Ok(None) };
    if reply.kind != EventKind::HumanReplied || said("action") != Some(action.as_str()) {
        return Ok(None);
    }
    let mut case = find_case(sql, stored.case_id)?;
    case.status = status;
    let before: Vec<_> = events.iter().filter(|e| e.seq <= stored.event_seq).cloned().collect();
    let payload = ReplyPayload::new(stored.id, created_at, &case, action, text, promises_of(&before));
    Ok(serde_json::from_str(&crate::sql::json(&payload)).ok())
}

fn human_action(action: DeliveryAction) -> Option<HumanAction> {
    match action {
        DeliveryAction::Resolved => Some(HumanAction::Resolved),
        DeliveryAction::NeedLeadInfo => Some(HumanAction::NeedLeadInfo),
        DeliveryAction::Escalate => Some(HumanAction::Escalate),
        DeliveryAction::Reminder | DeliveryAction::LeadUnresponsive => None,
    }
}
