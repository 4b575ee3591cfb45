//! The one way into the team outbox: a delivery written inside the transaction of the change it
//! relays, due now, under a fresh id that is its `webhook-id` on every attempt.

use postgres::GenericClient;
use skillcase_cases::model::{Case, Delivery, DeliveryAction, HumanAction};
use skillcase_cases::outbox::ReplyPayload;
use skillcase_cases::promises::promises_of;

use crate::error::TeamError;
use crate::rows::{events_for_case, get_delivery};

/// Writes the delivery of a person's reply on `case` (as it stands after the reply).
pub fn enqueue_reply(
    c: &mut impl GenericClient,
    case: &Case,
    action: HumanAction,
    text: &str,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, TeamError> {
    let id = uuid::Uuid::new_v4().to_string();
    let promises = promises_of(&events_for_case(c, &case.id)?);
    let body = serde_json::to_string(&ReplyPayload::new(&id, now, case, action, text, promises))
        .expect("a reply payload always serialises");
    insert(c, &id, &case.id, event_seq, action.into(), &body, now)
}

/// Writes one delivery, due now, under `id` (which `body` carries too), for every message type.
pub fn insert(
    c: &mut impl GenericClient,
    id: &str,
    case_id: &str,
    event_seq: i64,
    action: DeliveryAction,
    body: &str,
    now: &str,
) -> Result<Delivery, TeamError> {
    c.execute(
        "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, \
         updated_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $6)",
        &[&id, &case_id, &event_seq, &action.as_str(), &body, &now],
    )?;
    get_delivery(c, id)
}
