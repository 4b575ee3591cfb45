//! The team outbox (SPEC B3) across instances: a delivery is claimed with `FOR UPDATE SKIP
//! LOCKED` and a lease, so one instance at a time sends it under its one `webhook-id`, and a
//! crashed instance's lease runs out for another to resume it.

use std::time::Duration;

use postgres::{GenericClient, Transaction};
use skillcase_cases::model::{Delivery, DeliveryState};
use skillcase_cases::outbox::{Attempt, Backoff, Claimed, OutboxStatus};

use crate::error::TeamError;

pub fn claim_next(tx: &mut Transaction<'_>, lease_margin: Duration) -> Result<Option<Claimed>, TeamError> {
    todo!()
}

pub fn next_due_at(c: &mut impl GenericClient) -> Result<Option<String>, TeamError> {
    todo!()
}

pub fn release(tx: &mut Transaction<'_>, id: &str) -> Result<(), TeamError> {
    todo!()
}

pub fn record_attempt(
    tx: &mut Transaction<'_>,
    id: &str,
    attempt: &Attempt,
    max_attempts: u32,
    backoff: &Backoff,
) -> Result<Delivery, TeamError> {
    todo!()
}

pub fn retry(tx: &mut Transaction<'_>, id: &str) -> Result<Delivery, TeamError> {
    todo!()
}

pub fn status(c: &mut impl GenericClient) -> Result<OutboxStatus, TeamError> {
    todo!()
}

pub fn deliveries_in_state(
    c: &mut impl GenericClient,
    state: DeliveryState,
) -> Result<Vec<Delivery>, TeamError> {
    todo!()
}
