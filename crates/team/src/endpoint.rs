//! The team's default agent endpoint: one row, its secret never shown back. The checks are the
//! cases domain's own ([`checked_url`], [`in_range`], [`signature::signing_key`]); only the
//! reads and the upsert are written here.

use postgres::{GenericClient, Row, Transaction};
use skillcase_cases::endpoint::{
    checked_url, in_range, without_credentials, EndpointInput, EndpointSettings, EndpointView,
    DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_SECS, MAX_ATTEMPTS_RANGE, TIMEOUT_RANGE,
};
use skillcase_cases::{clock, signature, CasesError};

use crate::error::TeamError;

/// The columns [`view_from_row`] reads: everything but the secret, which is only said to exist.
const VIEW_COLUMNS: &str = "url, secret <> '', timeout_secs, max_attempts, enabled, updated_at";

/// The stored endpoint, secret included, for the delivery worker; `None` until someone
/// configures it.
pub fn get_endpoint(c: &mut impl GenericClient) -> Result<Option<EndpointSettings>, TeamError> {
    let row = c.query_opt(
        "SELECT url, secret, timeout_secs, max_attempts, enabled FROM agent_endpoint WHERE id = 1",
        &[],
    )?;
    row.map(|row| {
        Ok(EndpointSettings {
            url: row.try_get(0)?,
            secret: row.try_get(1)?,
            timeout_secs: setting(&row, 2, "endpoint timeout")?,
            max_attempts: setting(&row, 3, "endpoint attempt limit")?,
            enabled: row.try_get(4)?,
        })
    })
    .transpose()
}

/// The stored endpoint as Settings shows it: credentials in the URL masked, no secret.
pub fn endpoint_view(c: &mut impl GenericClient) -> Result<Option<EndpointView>, TeamError> {
    let row = c.query_opt(&format!("SELECT {VIEW_COLUMNS} FROM agent_endpoint WHERE id = 1"), &[])?;
    row.as_ref().map(view_from_row).transpose()
}

/// Checks `input` as [`checked_endpoint`] does and stores it for the whole team; nothing is
/// stored when a field is wrong. Returns what Settings shows.
pub fn set_endpoint(tx: &mut Transaction<'_>, input: &EndpointInput) -> Result<EndpointView, TeamError> {
    let endpoint = checked_endpoint(tx, input)?;
    let row = tx.query_one(
        &format!(
            "INSERT INTO agent_endpoint (id, url, secret, timeout_secs, max_attempts, enabled, updated_at) \
             VALUES (1, $1, $2, $3, $4, $5, $6) \
             ON CONFLICT (id) DO UPDATE SET url = excluded.url, secret = excluded.secret, \
             timeout_secs = excluded.timeout_secs, max_attempts = excluded.max_attempts, \
             enabled = excluded.enabled, updated_at = excluded.updated_at RETURNING {VIEW_COLUMNS}"
        ),
        &[
            &endpoint.url,
            &endpoint.secret,
            &i64::from(endpoint.timeout_secs),
            &i64::from(endpoint.max_attempts),
            &endpoint.enabled,
            &clock::now(),
        ],
    )?;
    view_from_row(&row)
}

/// The endpoint `input` describes, checked in the embedded database's order (URL, timeout,
/// attempt limit, secret) but not stored: what Settings' Test button pings before saving. A
/// missing secret is the stored one.
pub fn checked_endpoint(
    c: &mut impl GenericClient,
    input: &EndpointInput,
) -> Result<EndpointSettings, TeamError> {
    let url = checked_url(&input.url)?;
    let timeout = input.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS);
    let timeout_secs = in_range("timeout_secs", timeout, TIMEOUT_RANGE)?;
    let attempts = input.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS);
    let max_attempts = in_range("max_attempts", attempts, MAX_ATTEMPTS_RANGE)?;
    let secret = match input.secret.as_deref().map(str::trim) {
        Some(secret) => usable_secret(secret)?,
        None => stored_secret(c)?,
    };
    Ok(EndpointSettings { url, secret, timeout_secs, max_attempts, enabled: input.enabled })
}

/// `secret` if it can sign (the cases domain's rule), for the default endpoint and an agent's own.
pub(crate) fn usable_secret(secret: &str) -> Result<String, TeamError> {
    signature::signing_key(secret)?;
    Ok(secret.to_string())
}

/// The secret already saved, which a save without one keeps.
fn stored_secret(c: &mut impl GenericClient) -> Result<String, TeamError> {
    match c.query_opt("SELECT secret FROM agent_endpoint WHERE id = 1", &[])? {
        Some(row) => Ok(row.try_get(0)?),
        None => Err(CasesError::InvalidEndpointSetting {
            field: "secret",
            reason: "is required the first time the endpoint is configured".into(),
        }
        .into()),
    }
}

/// A row selected with [`VIEW_COLUMNS`].
fn view_from_row(row: &Row) -> Result<EndpointView, TeamError> {
    let url: String = row.try_get(0)?;
    Ok(EndpointView {
        url: without_credentials(&url),
        has_secret: row.try_get(1)?,
        timeout_secs: setting(row, 2, "endpoint timeout")?,
        max_attempts: setting(row, 3, "endpoint attempt limit")?,
        enabled: row.try_get(4)?,
        updated_at: row.try_get(5)?,
    })
}

/// A BIGINT column holding one of the endpoint's `u32` numbers; `db_corrupt` if it does not fit.
fn setting(row: &Row, column: usize, what: &'static str) -> Result<u32, TeamError> {
    let value: i64 = row.try_get(column)?;
    u32::try_from(value).map_err(|_| CasesError::Corrupt { what, value: value.to_string() }.into())
}
