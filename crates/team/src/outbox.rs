//! The team outbox (SPEC B3) across instances: a delivery is claimed with `FOR UPDATE SKIP
//! LOCKED` and a lease, so one instance at a time sends it under its one `webhook-id`, and a
//! crashed instance's lease runs out for another to resume it.
//!
//! The lease is the claiming instance's clock plus the endpoint's timeout and the worker's
//! margin, compared with the next claimer's clock, as every other case time is. A delivery's row
//! is the only row these functions lock; the transitions only ever insert deliveries, so the two
//! never wait on each other in opposite orders.

use std::time::Duration;

use postgres::{GenericClient, Row, Transaction};
use serde_json::json;
use skillcase_cases::clock;
use skillcase_cases::endpoint::EndpointSettings;
use skillcase_cases::model::{Actor, Delivery, DeliveryState, EventKind};
use skillcase_cases::outbox::{Attempt, Backoff, Claimed, EndpointHealth, OutboxStatus};
use skillcase_cases::CasesError;

use crate::agents::route;
use crate::endpoint::get_endpoint;
use crate::error::TeamError;
use crate::rows::{append_event, delivery_from_row, get_delivery, DELIVERY_COLUMNS};

/// The deliveries (`d`, joined to their case `c`) that have somewhere to go: those of an agent
/// with its own endpoint, and every other one while the default endpoint is on (`$1`).
const ROUTABLE: &str =
    "($1 OR EXISTS (SELECT 1 FROM agents a WHERE a.agent_id = c.agent_id AND a.url IS NOT NULL))";

/// Takes the routable pending delivery due the longest that no instance holds, leasing it for its
/// endpoint's timeout plus `lease_margin`. Rows another instance is claiming at this moment are
/// passed by (`SKIP LOCKED`), and one it claimed is skipped until its lease ends.
pub fn claim_next(tx: &mut Transaction<'_>, lease_margin: Duration) -> Result<Option<Claimed>, TeamError> {
    let now = clock::now();
    let sql = format!(
        "SELECT d.id, d.case_id, d.body, c.agent_id FROM deliveries d JOIN cases c ON c.id = d.case_id \
         WHERE d.state = 'pending' AND d.next_attempt_at <= $2 \
         AND (d.claimed_until IS NULL OR d.claimed_until <= $2) AND {ROUTABLE} \
         ORDER BY d.next_attempt_at, d.created_at LIMIT 1 FOR UPDATE OF d SKIP LOCKED"
    );
    let default_on = default_on(tx)?;
    let Some(row) = tx.query_opt(&sql, &[&default_on, &now])? else { return Ok(None) };
    let agent_id: Option<String> = row.try_get(3)?;
    let Some(endpoint) = route(tx, agent_id.as_deref())? else { return Ok(None) };
    let id: String = row.try_get(0)?;
    let lease = Duration::from_secs(endpoint.timeout_secs.into()) + lease_margin;
    tx.execute("UPDATE deliveries SET claimed_until = $2 WHERE id = $1", &[&id, &clock::after(lease)])?;
    Ok(Some(Claimed { id, case_id: row.try_get(1)?, body: row.try_get(2)?, endpoint }))
}

/// When the next routable pending delivery falls due (or its lease ends), so an idle worker
/// knows how long it may sleep; one with nowhere to go must not wake it.
pub fn next_due_at(c: &mut impl GenericClient) -> Result<Option<String>, TeamError> {
    let sql = format!(
        "SELECT min(greatest(d.next_attempt_at, d.claimed_until)) FROM deliveries d \
         JOIN cases c ON c.id = d.case_id WHERE d.state = 'pending' AND {ROUTABLE}"
    );
    let default_on = default_on(c)?;
    Ok(c.query_one(&sql, &[&default_on])?.try_get(0)?)
}

/// Whether the default endpoint exists and is switched on.
fn default_on(c: &mut impl GenericClient) -> Result<bool, TeamError> {
    Ok(get_endpoint(c)?.is_some_and(|endpoint| endpoint.enabled))
}

/// Gives a claimed delivery back untouched (the worker is shutting down before it could try),
/// so any instance may take it at once.
pub fn release(tx: &mut Transaction<'_>, id: &str) -> Result<(), TeamError> {
    tx.execute("UPDATE deliveries SET claimed_until = NULL WHERE id = $1 AND state = 'pending'", &[&id])?;
    Ok(())
}

/// Settles one attempt as the embedded outbox does: counts it, stores the error and status,
/// moves the delivery to `delivered`, back to `pending` with a later `next_attempt_at`, `failed`,
/// or `dead` after `max_attempts`, and appends `agent_notified` or `delivery_failed` to the
/// case's timeline. The delivery's row is locked first, so two instances settling it (the first
/// one's lease having run out) take turns; one no longer pending is left as it is.
pub fn record_attempt(
    tx: &mut Transaction<'_>,
    id: &str,
    attempt: &Attempt,
    max_attempts: u32,
    backoff: &Backoff,
) -> Result<Delivery, TeamError> {
    let current = lock_delivery(tx, id)?;
    if current.state != DeliveryState::Pending {
        return Ok(current);
    }
    let attempts = current.attempts + 1;
    let now = clock::now();
    let settled = Settled::of(attempt, attempts, max_attempts, backoff);
    let delivered_at = (settled.state == DeliveryState::Delivered).then_some(now.as_str());
    tx.execute(
        "UPDATE deliveries SET state = $2, attempts = $3, last_status = $4, last_error = $5, \
         next_attempt_at = $6, claimed_until = NULL, updated_at = $7, delivered_at = $8 WHERE id = $1",
        &[
            &id,
            &settled.state.as_str(),
            &attempts,
            &settled.status.map(i64::from),
            &settled.error,
            &settled.next,
            &now,
            &delivered_at,
        ],
    )?;
    let (kind, payload) = settled.event(id, attempts);
    append_event(tx, &current.case_id, kind, Actor::System, None, &now, &payload)?;
    get_delivery(tx, id)
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
pub fn retry(tx: &mut Transaction<'_>, id: &str) -> Result<Delivery, TeamError> {
    let current = lock_delivery(tx, id)?;
    if !matches!(current.state, DeliveryState::Failed | DeliveryState::Dead) {
        return Err(CasesError::DeliveryNotRetryable { state: current.state }.into());
    }
    tx.execute(
        "UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $2, claimed_until = NULL, \
         updated_at = $2 WHERE id = $1",
        &[&id, &clock::now()],
    )?;
    get_delivery(tx, id)
}

/// The delivery, its row locked until the transaction ends; `delivery_not_found` if there is none.
fn lock_delivery(tx: &mut Transaction<'_>, id: &str) -> Result<Delivery, TeamError> {
    let row =
        tx.query_opt(&format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = $1 FOR UPDATE"), &[&id])?;
    delivery_from_row(&row.ok_or_else(|| CasesError::DeliveryNotFound { id: id.to_string() })?)
}

/// The outbox as the banner shows it: endpoint health, what waits, what gave up.
pub fn status(c: &mut impl GenericClient) -> Result<OutboxStatus, TeamError> {
    let counts = c.query_one(
        "SELECT count(*) FILTER (WHERE state = 'pending'), count(*) FILTER (WHERE state IN ('failed', 'dead')), \
         min(created_at) FILTER (WHERE state = 'pending') FROM deliveries",
        &[],
    )?;
    let latest = c.query_opt(
        "SELECT state, last_error FROM deliveries WHERE attempts > 0 \
         ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT 1",
        &[],
    )?;
    let (health, last_error) = health(get_endpoint(c)?.as_ref(), latest.as_ref())?;
    Ok(OutboxStatus {
        health,
        pending: counts.try_get(0)?,
        stuck: counts.try_get(1)?,
        oldest_pending_since: counts.try_get(2)?,
        last_error,
    })
}

/// Why replies wait, from the endpoint and the latest attempt (`state, last_error`): the error
/// is only told when the endpoint is on and that attempt failed.
fn health(
    endpoint: Option<&EndpointSettings>,
    latest: Option<&Row>,
) -> Result<(EndpointHealth, Option<String>), TeamError> {
    Ok(match (endpoint, latest) {
        (None, _) => (EndpointHealth::NotConfigured, None),
        (Some(e), _) if !e.enabled => (EndpointHealth::Disabled, None),
        (Some(_), Some(row)) if row.try_get::<_, &str>(0)? != DeliveryState::Delivered.as_str() => {
            (EndpointHealth::Unreachable, row.try_get(1)?)
        }
        _ => (EndpointHealth::Ok, None),
    })
}

/// Every delivery in one state, oldest first (for diagnostics and the crash test).
pub fn deliveries_in_state(
    c: &mut impl GenericClient,
    state: DeliveryState,
) -> Result<Vec<Delivery>, TeamError> {
    let sql = format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE state = $1 ORDER BY created_at, id");
    c.query(&sql, &[&state.as_str()])?.iter().map(delivery_from_row).collect()
}
