//! The transactional outbox: the exact message a reply becomes (SPEC B3), and every change to a
//! delivery's row — written with the reply, claimed by a worker, settled by an attempt, or put
//! back by a person's Retry.
//!
//! A claim is a lease (`claimed_until`), not a state: if the process dies mid-request the
//! delivery is still `pending`, and once the lease runs out any worker sends it again under the
//! same id, which the agent uses to drop the repeat.

use std::time::Duration;

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
use super::rows::{append_event, delivery_from_row, events_for_case, get_delivery, DELIVERY_COLUMNS};
use crate::args;
use crate::reply_body::{self, Stored};
use crate::sql::{Row, Sql};

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
    sql: &mut dyn Sql,
    case: &Case,
    action: HumanAction,
    text: &str,
    event_seq: i64,
    now: &str,
) -> Result<Delivery, CasesError> {
    let id = uuid::Uuid::new_v4().to_string();
    let promises = promises_of(&events_for_case(sql, &case.id)?);
    let body = crate::sql::json(&ReplyPayload::new(&id, now, case, action, text, promises));
    insert(sql, &id, &case.id, event_seq, action.into(), &body, now)
}

/// Writes one delivery, due now, under `id` (which the body carries too): the one way into the
/// outbox for every message type, so each is signed, retried and resumed the same way.
pub(crate) fn insert(
    sql: &mut dyn Sql,
    id: &str,
    case_id: &str,
    event_seq: i64,
    action: DeliveryAction,
    body: &str,
    now: &str,
) -> Result<Delivery, CasesError> {
    sql.execute(
        "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, \
         updated_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6, $6)",
        args![id, case_id, event_seq, action.as_str(), body, now],
    )?;
    get_delivery(sql, id)
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

/// The deliveries (`d`, joined to their case `c`) that have somewhere to go: those of an agent
/// with its own endpoint, and every other one while the default endpoint is on (`$1`).
const ROUTABLE: &str =
    "($1 OR EXISTS (SELECT 1 FROM agents a WHERE a.agent_id = c.agent_id AND a.url IS NOT NULL))";

/// Takes the routable pending delivery due the longest that no worker holds, leasing it for its
/// endpoint's timeout plus `lease_margin`. On the team database, rows another instance is
/// claiming at this moment are passed by, and one it claimed is skipped until its lease ends.
pub fn claim_next(sql: &mut dyn Sql, lease_margin: Duration) -> Result<Option<Claimed>, CasesError> {
    let now = clock::now();
    let lock = match sql.dialect() {
        crate::sql::Dialect::Sqlite => "",
        crate::sql::Dialect::Postgres => " FOR UPDATE OF d SKIP LOCKED",
    };
    let query = format!(
        "SELECT d.id, d.case_id, d.body, c.agent_id, d.event_seq, d.action \
         FROM deliveries d JOIN cases c ON c.id = d.case_id \
         WHERE d.state = 'pending' AND d.next_attempt_at <= $2 \
         AND (d.claimed_until IS NULL OR d.claimed_until <= $2) AND {ROUTABLE} \
         ORDER BY d.next_attempt_at, d.created_at LIMIT 1{lock}"
    );
    let default_on = default_on(sql)?;
    loop {
        let Some(row) = sql.query_opt(&query, args![default_on, now.as_str()])? else { return Ok(None) };
        let (id, case_id, body) = (row.text(0)?, row.text(1)?, row.text(2)?);
        let action = row.text(5)?;
        let stored =
            Stored { id: &id, case_id: &case_id, event_seq: row.int(4)?, action: &action, body: &body };
        if !reply_body::matches_its_reply(sql, &stored)? {
            refuse_unsigned(sql, &id, &case_id, &now)?;
            continue;
        }
        let agent_id = row.opt_text(3)?;
        let Some(endpoint) = agents::route(sql, agent_id.as_deref())? else { return Ok(None) };
        let lease = Duration::from_secs(endpoint.timeout_secs.into()) + lease_margin;
        sql.execute(
            "UPDATE deliveries SET claimed_until = $2 WHERE id = $1",
            args![&id, clock::after(lease).as_str()],
        )?;
        return Ok(Some(Claimed { id, case_id, body, endpoint }));
    }
}

/// Fails a delivery whose body its reply does not make, without an attempt, and says so on the
/// case's timeline: a person sees it and can answer again; nothing was signed.
fn refuse_unsigned(sql: &mut dyn Sql, id: &str, case_id: &str, now: &str) -> Result<(), CasesError> {
    sql.execute(
        "UPDATE deliveries SET state = 'failed', last_error = $2, claimed_until = NULL, updated_at = $3 \
         WHERE id = $1",
        args![id, reply_body::FORGED, now],
    )?;
    let payload = json!({ "delivery_id": id, "attempt": 0, "status": null, "error": reply_body::FORGED,
                          "state": DeliveryState::Failed.as_str(), "next_attempt_at": null });
    append_event(sql, case_id, EventKind::DeliveryFailed, Actor::System, None, now, &payload)?;
    Ok(())
}

/// When the next routable pending delivery falls due (or its lease ends), so an idle worker
/// knows how long it may sleep; one with nowhere to go must not wake it.
pub fn next_due_at(sql: &mut dyn Sql) -> Result<Option<String>, CasesError> {
    let greatest = sql.dialect().greatest();
    let query = format!(
        "SELECT min({greatest}(d.next_attempt_at, coalesce(d.claimed_until, ''))) FROM deliveries d \
         JOIN cases c ON c.id = d.case_id WHERE d.state = 'pending' AND {ROUTABLE}"
    );
    let default_on = default_on(sql)?;
    sql.query_one(&query, args![default_on])?.opt_text(0)
}

/// Whether the default endpoint exists and is switched on.
fn default_on(sql: &mut dyn Sql) -> Result<bool, CasesError> {
    Ok(get_endpoint(sql)?.is_some_and(|endpoint| endpoint.enabled))
}

/// Gives a claimed delivery back untouched (the worker is shutting down before it could try),
/// so any worker may take it at once.
pub fn release(sql: &mut dyn Sql, id: &str) -> Result<(), CasesError> {
    sql.execute("UPDATE deliveries SET claimed_until = NULL WHERE id = $1 AND state = 'pending'", args![id])?;
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
/// `max_attempts`, and appends `agent_notified` or `delivery_failed` to the case's timeline. The
/// delivery's row is locked first, so two workers settling it (the first one's lease having run
/// out) take turns; one no longer pending is left as it is.
pub fn record_attempt(
    sql: &mut dyn Sql,
    id: &str,
    attempt: &Attempt,
    max_attempts: u32,
    backoff: &Backoff,
) -> Result<Delivery, CasesError> {
    let current = lock_delivery(sql, id)?;
    if current.state != DeliveryState::Pending {
        return Ok(current);
    }
    let attempts = current.attempts + 1;
    let now = clock::now();
    let settled = Settled::of(attempt, attempts, max_attempts, backoff);
    let delivered_at = (settled.state == DeliveryState::Delivered).then_some(now.as_str());
    sql.execute(
        "UPDATE deliveries SET state = $2, attempts = $3, last_status = $4, last_error = $5, \
         next_attempt_at = $6, claimed_until = NULL, updated_at = $7, delivered_at = $8 WHERE id = $1",
        args![
            id,
            settled.state.as_str(),
            attempts,
            settled.status.map(i64::from),
            &settled.error,
            &settled.next,
            now.as_str(),
            delivered_at,
        ],
    )?;
    let (kind, payload) = settled.event(id, attempts);
    append_event(sql, &current.case_id, kind, Actor::System, None, &now, &payload)?;
    get_delivery(sql, id)
}

/// Where one attempt leaves its delivery.
struct Settled {
    state: DeliveryState,
    status: Option<u16>,
    error: Option<String>,
    next: Option<String>,
}

impl Settled {
    /// The outcome of `attempt`, the `attempts`-th: retryable failures wait a backoff, unless the
    /// budget is spent.
    fn of(attempt: &Attempt, attempts: i64, max_attempts: u32, backoff: &Backoff) -> Settled {
        let (state, status, error, next) = match attempt {
            Attempt::Delivered { status } => (DeliveryState::Delivered, Some(*status), None, None),
            Attempt::Refused { status, error } => (DeliveryState::Failed, Some(*status), Some(error), None),
            Attempt::Retryable { status, error, .. } if attempts >= i64::from(max_attempts) => {
                (DeliveryState::Dead, *status, Some(error), None)
            }
            Attempt::Retryable { status, error, retry_after } => {
                let nth = u32::try_from(attempts).unwrap_or(u32::MAX);
                let wait = backoff.delay(nth, *retry_after);
                (DeliveryState::Pending, *status, Some(error), Some(clock::after(wait)))
            }
        };
        Settled { state, status, error: error.cloned(), next }
    }

    /// The timeline event the attempt adds: `agent_notified`, or `delivery_failed` with why.
    fn event(&self, id: &str, attempts: i64) -> (EventKind, serde_json::Value) {
        let status = self.status;
        match &self.error {
            None => (
                EventKind::AgentNotified,
                json!({ "delivery_id": id, "attempt": attempts, "status": status }),
            ),
            Some(error) => (
                EventKind::DeliveryFailed,
                json!({ "delivery_id": id, "attempt": attempts, "status": status, "error": error,
                        "state": self.state.as_str(), "next_attempt_at": self.next }),
            ),
        }
    }
}

/// A person's Retry: a `failed` or `dead` delivery becomes `pending`, due now, with a fresh
/// attempt budget, under the same id (its history stays in the timeline). Anything else is
/// `delivery_not_retryable`.
pub fn retry(sql: &mut dyn Sql, id: &str) -> Result<Delivery, CasesError> {
    let current = lock_delivery(sql, id)?;
    if !matches!(current.state, DeliveryState::Failed | DeliveryState::Dead) {
        return Err(CasesError::DeliveryNotRetryable { state: current.state });
    }
    sql.execute(
        "UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $2, claimed_until = NULL, \
         updated_at = $2 WHERE id = $1",
        args![id, clock::now().as_str()],
    )?;
    get_delivery(sql, id)
}

/// The delivery, its row locked until the transaction ends; `delivery_not_found` if there is none.
fn lock_delivery(sql: &mut dyn Sql, id: &str) -> Result<Delivery, CasesError> {
    let lock = sql.dialect().for_update();
    let row =
        sql.query_opt(&format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = $1{lock}"), args![id])?;
    delivery_from_row(&row.ok_or_else(|| CasesError::DeliveryNotFound { id: id.to_string() })?)
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

/// The outbox as the banner shows it: endpoint health, what waits, what gave up.
pub fn outbox_status(sql: &mut dyn Sql) -> Result<OutboxStatus, CasesError> {
    let counts = sql.query_one(
        "SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state IN ('failed', 'dead')), \
         min(created_at) FILTER (WHERE state = 'pending') FROM deliveries",
        &[],
    )?;
    let latest = sql.query_opt(
        "SELECT state, last_error FROM deliveries WHERE attempts > 0 \
         ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT 1",
        &[],
    )?;
    let (health, last_error) = health(get_endpoint(sql)?.as_ref(), latest.as_ref())?;
    Ok(OutboxStatus {
        health,
        pending: counts.int(0)?,
        stuck: counts.int(1)?,
        oldest_pending_since: counts.opt_text(2)?,
        last_error,
    })
}

/// Why replies wait, from the endpoint and the latest attempt (`state, last_error`): the error
/// is only told when the endpoint is on and that attempt failed.
fn health(
    endpoint: Option<&EndpointSettings>,
    latest: Option<&Row>,
) -> Result<(EndpointHealth, Option<String>), CasesError> {
    Ok(match (endpoint, latest) {
        (None, _) => (EndpointHealth::NotConfigured, None),
        (Some(e), _) if !e.enabled => (EndpointHealth::Disabled, None),
        (Some(_), Some(row)) if row.text(0)? != DeliveryState::Delivered.as_str() => {
            (EndpointHealth::Unreachable, row.opt_text(1)?)
        }
        _ => (EndpointHealth::Ok, None),
    })
}

/// Every delivery in one state, oldest first (for diagnostics and the crash tests).
pub fn deliveries_in_state(sql: &mut dyn Sql, state: DeliveryState) -> Result<Vec<Delivery>, CasesError> {
    let query = format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE state = $1 ORDER BY created_at, id");
    sql.query(&query, args![state.as_str()])?.iter().map(delivery_from_row).collect()
}
