//! The transactional outbox: the exact message a reply becomes (SPEC B3), and every change to a
//! delivery's row — written with the reply, claimed by a worker, settled by an attempt, or put
//! back by a person's Retry.
//!
//! A claim is a lease (`claimed_until`), not a state: if the process dies mid-request the
//! delivery is still `pending`, and once the lease runs out any worker sends it again under the
//! same id, which the agent uses to drop the repeat.

use std::time::Duration;

use rusqlite::{named_params, params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::json;
use ts_rs::TS;

use super::agents;
use super::clock;
use super::endpoint::{get_endpoint, EndpointSettings};
use super::error::CasesError;
use super::model::{
    Actor, Case, CaseStatus, Delivery, DeliveryAction, DeliveryState, EventKind, HumanAction,
};
use super::promises::{promises_of, Promise};
use super::store::{append_event, delivery_from_row, events_for_case, get_delivery, DELIVERY_COLUMNS};
use skillcase_store::atomic;

/// What the agent does after a person resolved the case.
pub const RESOLVED_INSTRUCTION: &str =
    "Relay the person's conclusion in `text` to the lead naturally, in your own \
     words, and close the topic.";
/// What the agent does after a person asked for more information from the lead.
pub const NEED_LEAD_INFO_INSTRUCTION: &str =
    "Ask the lead for exactly the information described in `text`, then \
     call provide-update on this case with the lead's answer.";
/// What the agent does after a person escalated the case.
pub const ESCALATE_INSTRUCTION: &str =
    "Stop replying in this conversation: a person is taking it over from here.";

/// The instruction for the agent's next turn; the same for every reply with this action.
pub fn instruction(action: HumanAction) -> &'static str {
    match action {
        HumanAction::Resolved => RESOLVED_INSTRUCTION,
        HumanAction::NeedLeadInfo => NEED_LEAD_INFO_INSTRUCTION,
        HumanAction::Escalate => ESCALATE_INSTRUCTION,
    }
}

/// The `case.replied` message POSTed to the agent endpoint, field for field as SPEC B3 shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReplyPayload {
    /// Always `case.replied`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The delivery id, equal to the `webhook-id` header.
    pub id: String,
    pub created_at: String,
    pub case: PayloadCase,
    pub action: HumanAction,
    pub text: String,
    pub instruction: String,
    /// What the agent promised the customer on this case, oldest first; all kept by this reply.
    pub promises: Vec<Promise>,
}

/// The part of the case the agent needs to act on a reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PayloadCase {
    pub id: String,
    pub number: i64,
    pub conversation_id: String,
    pub title: String,
    pub summary: String,
    pub status: CaseStatus,
}

impl PayloadCase {
    /// The payload's view of `case` as it stands.
    pub fn of(case: &Case) -> Self {
        PayloadCase {
            id: case.id.clone(),
            number: case.number,
            conversation_id: case.conversation_id.clone(),
            title: case.title.clone(),
            summary: case.summary.clone(),
            status: case.status,
        }
    }
}

impl ReplyPayload {
    /// The message for a reply with `action` and `text` on `case` (as it stands after the reply).
    pub fn new(
        delivery_id: &str,
        created_at: &str,
        case: &Case,
        action: HumanAction,
        text: &str,
        promises: Vec<Promise>,
    ) -> Self {
        ReplyPayload {
            kind: "case.replied".into(),
            id: delivery_id.into(),
            created_at: created_at.into(),
            case: PayloadCase::of(case),
            action,
            text: text.into(),
            instruction: instruction(action).into(),
            promises,
        }
    }
}

/// Writes the delivery of a reply, due now. Called inside the reply's transaction.
pub(crate) fn enqueue(
    conn: &Connection,
    case: &Case,
    action: HumanAction,
    text: &str,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let promises = promises_of(&events_for_case(conn, &case.id)?);
    let body = serde_json::to_string(&ReplyPayload::new(&id, now, case, action, text, promises))
        .expect("a reply payload always serialises");
    insert(conn, &id, &case.id, event_seq, action.into(), &body, now)
}

/// Writes one delivery, due now, under `id` (which the body carries too): the one way into the
/// outbox for every message type, so each is signed, retried and resumed the same way.
pub(crate) fn insert(
    conn: &Connection,
    id: &str,
    case_id: &str,
    event_seq: i64,
    action: DeliveryAction,
    body: &str,
    now: &str,
) -> Result<Delivery, CasesError> {
    conn.execute(
        "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, \
         updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, ?6, ?6)",
        params![id, case_id, event_seq, action.as_str(), body, now],
    )?;
    get_delivery(conn, id)
}

/// A delivery a worker has taken for one attempt, with where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub id: String,
    pub case_id: String,
    /// The exact bytes to POST; the same on every attempt.
    pub body: String,
    /// The endpoint of the case's agent, or the default one ([`agents::route`]).
    pub endpoint: EndpointSettings,
}

/// The deliveries that have somewhere to go: those of an agent with its own endpoint, and every
/// other one while the default endpoint is on (`:default_on`). The rest wait in the outbox.
const ROUTABLE: &str =
    "(:default_on OR EXISTS (SELECT 1 FROM agents a JOIN cases c ON a.agent_id = c.agent_id \
     WHERE c.id = d.case_id AND a.url IS NOT NULL))";

/// Takes the routable pending delivery that has been due the longest and no other worker holds,
/// leasing it for its endpoint's timeout plus `lease_margin`.
pub fn claim_next(conn: &Connection, lease_margin: Duration) -> Result<Option<Claimed>, CasesError> {
    atomic(conn, |tx| {
        let now = clock::now();
        let default_on = default_endpoint_on(tx)?;
        let found: Option<(String, String, String, Option<String>)> = tx
            .query_row(
                &format!(
                    "SELECT d.id, d.case_id, d.body, (SELECT agent_id FROM cases WHERE id = d.case_id) \
                     FROM deliveries d WHERE d.state = 'pending' AND d.next_attempt_at <= :now \
                     AND (d.claimed_until IS NULL OR d.claimed_until <= :now) AND {ROUTABLE} \
                     ORDER BY d.next_attempt_at, d.created_at LIMIT 1"
                ),
                named_params! { ":now": now, ":default_on": default_on },
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let Some((id, case_id, body, agent_id)) = found else { return Ok(None) };
        let Some(endpoint) = agents::route(tx, agent_id.as_deref())? else { return Ok(None) };
        let lease = Duration::from_secs(endpoint.timeout_secs.into()) + lease_margin;
        tx.execute(
            "UPDATE deliveries SET claimed_until = ?2 WHERE id = ?1",
            params![id, clock::after(lease)],
        )?;
        Ok(Some(Claimed { id, case_id, body, endpoint }))
    })
}

/// When the next routable pending delivery falls due, so an idle worker knows how long it may
/// sleep (one that has nowhere to go must not wake it).
pub fn next_due_at(conn: &Connection) -> Result<Option<String>, CasesError> {
    let default_on = default_endpoint_on(conn)?;
    Ok(conn.query_row(
        &format!(
            "SELECT min(max(d.next_attempt_at, coalesce(d.claimed_until, ''))) FROM deliveries d \
             WHERE d.state = 'pending' AND {ROUTABLE}"
        ),
        named_params! { ":default_on": default_on },
        |r| r.get(0),
    )?)
}

fn default_endpoint_on(conn: &Connection) -> Result<bool, CasesError> {
    Ok(get_endpoint(conn)?.is_some_and(|endpoint| endpoint.enabled))
}

/// Gives a claimed delivery back untouched (the worker is shutting down before it could try).
pub fn release(conn: &Connection, id: &str) -> Result<(), CasesError> {
    conn.execute("UPDATE deliveries SET claimed_until = NULL WHERE id = ?1 AND state = 'pending'", [id])?;
    Ok(())
}

/// How one attempt went, as the HTTP layer saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// A 2xx answer: the agent has the reply.
    Delivered { status: u16 },
    /// A network error, a timeout, 429 or 5xx: worth trying again later.
    /// `retry_after` is the endpoint's own `Retry-After`, if it sent one.
    Retryable { status: Option<u16>, error: String, retry_after: Option<Duration> },
    /// Any other answer: retrying the same message cannot help.
    Refused { status: u16, error: String },
}

/// The exponential backoff between attempts: full jitter over `base` doubling per attempt,
/// capped at `cap` (about 1 s to 5 min by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub base: Duration,
    pub cap: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { base: Duration::from_secs(1), cap: Duration::from_secs(300) }
    }
}

impl Backoff {
    /// The longest wait after the `attempt`-th failure (1-based): `base * 2^(attempt-1)`, capped.
    pub fn ceiling(&self, attempt: u32) -> Duration {
        let factor = 1u32.checked_shl(attempt.saturating_sub(1).min(31)).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// A random wait between zero and [`Backoff::ceiling`] ("full jitter"), so many deliveries
    /// failing together do not retry together; never shorter than the endpoint's `Retry-After`
    /// (itself capped).
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let ceiling = self.ceiling(attempt).as_millis() as u64;
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the operating system supplies random bytes");
        let jittered = Duration::from_millis(u64::from_le_bytes(bytes) % (ceiling + 1));
        jittered.max(retry_after.unwrap_or_default().min(self.cap))
    }
}

/// Settles one attempt: counts it, stores the error and status, moves the delivery to
/// `delivered`, back to `pending` with a later `next_attempt_at`, `failed`, or `dead` after
/// `max_attempts`, and appends `agent_notified` or `delivery_failed` to the case's timeline —
/// in one transaction. A delivery that is no longer pending (another worker settled it after a
/// lease ran out) is left as it is.
pub fn record_attempt(
    conn: &Connection,
    id: &str,
    attempt: &Attempt,
    max_attempts: u32,
    backoff: &Backoff,
) -> Result<Delivery, CasesError> {
    atomic(conn, |tx| {
        let current = get_delivery(tx, id)?;
        if current.state != DeliveryState::Pending {
            return Ok(current);
        }
        let attempts = current.attempts + 1;
        let now = clock::now();
        let (state, status, error, next) = match attempt {
            Attempt::Delivered { status } => (DeliveryState::Delivered, Some(*status), None, None),
            Attempt::Refused { status, error } => {
                (DeliveryState::Failed, Some(*status), Some(error.clone()), None)
            }
            Attempt::Retryable { status, error, retry_after } => {
                if attempts >= i64::from(max_attempts) {
                    (DeliveryState::Dead, *status, Some(error.clone()), None)
                } else {
                    let wait = backoff.delay(attempts as u32, *retry_after);
                    (DeliveryState::Pending, *status, Some(error.clone()), Some(clock::after(wait)))
                }
            }
        };
        let delivered_at = (state == DeliveryState::Delivered).then_some(now.as_str());
        tx.execute(
            "UPDATE deliveries SET state = ?2, attempts = ?3, last_status = ?4, last_error = ?5, \
             next_attempt_at = ?6, claimed_until = NULL, updated_at = ?7, delivered_at = ?8 WHERE id = ?1",
            params![id, state.as_str(), attempts, status, error, next, now, delivered_at],
        )?;
        let (kind, payload) = match &error {
            None => (
                EventKind::AgentNotified,
                json!({ "delivery_id": id, "attempt": attempts, "status": status }),
            ),
            Some(error) => (
                EventKind::DeliveryFailed,
                json!({ "delivery_id": id, "attempt": attempts, "status": status, "error": error,
                        "state": state.as_str(), "next_attempt_at": next }),
            ),
        };
        append_event(tx, &current.case_id, kind, Actor::System, None, &now, &payload)?;
        get_delivery(tx, id)
    })
}

/// A person's Retry: a `failed` or `dead` delivery becomes `pending`, due now, with a fresh
/// attempt budget (its history stays in the timeline). Anything else is `delivery_not_retryable`.
pub fn retry(conn: &Connection, id: &str) -> Result<Delivery, CasesError> {
    atomic(conn, |tx| {
        let current = get_delivery(tx, id)?;
        if !matches!(current.state, DeliveryState::Failed | DeliveryState::Dead) {
            return Err(CasesError::DeliveryNotRetryable { state: current.state });
        }
        let now = clock::now();
        tx.execute(
            "UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?2, claimed_until = NULL, \
             updated_at = ?2 WHERE id = ?1",
            params![id, now],
        )?;
        get_delivery(tx, id)
    })
}

/// Whether replies are reaching the agent, for the banner that tells the person their answer
/// is still waiting to go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum EndpointHealth {
    /// No endpoint was ever saved: replies wait in the outbox.
    NotConfigured,
    /// The endpoint is switched off: replies wait in the outbox.
    Disabled,
    /// The latest attempt failed.
    Unreachable,
    /// The latest attempt succeeded, or none was needed yet.
    Ok,
}

/// The outbox as the UI banner and Settings show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct OutboxStatus {
    pub health: EndpointHealth,
    /// Replies not yet taken by the agent.
    pub pending: i64,
    /// Deliveries that gave up (`failed` or `dead`) and wait for a Retry.
    pub stuck: i64,
    /// Since when the oldest pending reply waits.
    pub oldest_pending_since: Option<String>,
    /// The error of the latest failed attempt, when the endpoint is unreachable.
    pub last_error: Option<String>,
}

/// The outbox status: endpoint health, what waits, what gave up.
pub fn outbox_status(conn: &Connection) -> Result<OutboxStatus, CasesError> {
    let (pending, stuck, oldest): (i64, i64, Option<String>) = conn.query_row(
        "SELECT coalesce(sum(state = 'pending'), 0), coalesce(sum(state IN ('failed', 'dead')), 0), \
         min(CASE WHEN state = 'pending' THEN created_at END) FROM deliveries",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let latest: Option<(String, Option<String>)> = conn
        .query_row(
            "SELECT state, last_error FROM deliveries WHERE attempts > 0 ORDER BY updated_at DESC, rowid DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let endpoint = get_endpoint(conn)?;
    let (health, last_error) = match (&endpoint, latest) {
        (None, _) => (EndpointHealth::NotConfigured, None),
        (Some(e), _) if !e.enabled => (EndpointHealth::Disabled, None),
        (Some(_), Some((state, error))) if state != "delivered" => (EndpointHealth::Unreachable, error),
        _ => (EndpointHealth::Ok, None),
    };
    Ok(OutboxStatus { health, pending, stuck, oldest_pending_since: oldest, last_error })
}

/// Every delivery in one state, oldest first (for diagnostics and the crash test).
pub fn deliveries_in_state(conn: &Connection, state: DeliveryState) -> Result<Vec<Delivery>, CasesError> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE state = ?1 ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map([state.as_str()], delivery_from_row)?;
    rows.map(|r| r?).collect()
}
