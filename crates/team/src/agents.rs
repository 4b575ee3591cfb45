//! Several agents on one team inbox (SPEC D5): each agent's own endpoint and switches, and where
//! its deliveries go. The checks are the cases domain's own ([`checked_agent_id`],
//! [`checked_url`], the signing rule); only the reads and writes are written here.

use postgres::{GenericClient, Row, Transaction};
use skillcase_cases::agents::{checked_agent_id, AgentInput, AgentSwitches, AgentView};
use skillcase_cases::endpoint::{checked_url, without_credentials, EndpointSettings};
use skillcase_cases::endpoint::{DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_SECS};
use skillcase_cases::{clock, CasesError};

use crate::endpoint::{get_endpoint, usable_secret};
use crate::error::TeamError;

/// Every agent Settings knows, those with settings and those only seen on a case, as
/// [`agent_from_row`] reads them; the caller adds its `WHERE` and `ORDER BY`.
const AGENTS: &str = "WITH ids AS (SELECT agent_id FROM agents UNION \
     SELECT agent_id FROM cases WHERE agent_id IS NOT NULL) \
     SELECT ids.agent_id, a.url, coalesce(a.cases_enabled, true), coalesce(a.guardrail_enabled, true), \
     a.agent_id IS NOT NULL, (SELECT count(*) FROM cases c WHERE c.agent_id = ids.agent_id) \
     FROM ids LEFT JOIN agents a ON a.agent_id = ids.agent_id";

/// The switches of `agent_id` (every switch on for an agent without settings, or no id).
pub fn switches(c: &mut impl GenericClient, agent_id: Option<&str>) -> Result<AgentSwitches, TeamError> {
    let Some(agent_id) = agent_id else { return Ok(AgentSwitches::default()) };
    let row =
        c.query_opt("SELECT cases_enabled, guardrail_enabled FROM agents WHERE agent_id = $1", &[&agent_id])?;
    Ok(match row {
        Some(row) => AgentSwitches { cases_enabled: row.try_get(0)?, guardrail_enabled: row.try_get(1)? },
        None => AgentSwitches::default(),
    })
}

/// Every agent with settings or cases, by id in byte order (as the embedded database sorts them),
/// for Settings.
pub fn list_agents(c: &mut impl GenericClient) -> Result<Vec<AgentView>, TeamError> {
    let rows = c.query(&format!("{AGENTS} ORDER BY ids.agent_id COLLATE \"C\""), &[])?;
    rows.iter().map(agent_from_row).collect()
}

/// Checks and stores one agent's endpoint and switches for the whole team: the id
/// (`invalid_agent_id`), then the URL as the default endpoint's, then a secret with any URL
/// (`invalid_endpoint_setting`; a missing one keeps the stored one). Nothing is stored when a
/// field is wrong.
pub fn set_agent(tx: &mut Transaction<'_>, input: &AgentInput) -> Result<AgentView, TeamError> {
    let agent_id = checked_agent_id(&input.agent_id)?;
    let (url, secret) = own_endpoint(tx, &agent_id, input)?.unzip();
    tx.execute(
        "INSERT INTO agents (agent_id, url, secret, cases_enabled, guardrail_enabled, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (agent_id) DO UPDATE SET url = excluded.url, \
         secret = excluded.secret, cases_enabled = excluded.cases_enabled, \
         guardrail_enabled = excluded.guardrail_enabled, updated_at = excluded.updated_at",
        &[&agent_id, &url, &secret, &input.cases_enabled, &input.guardrail_enabled, &clock::now()],
    )?;
    let row = tx.query_opt(&format!("{AGENTS} WHERE ids.agent_id = $1"), &[&agent_id])?;
    agent_from_row(&row.ok_or(CasesError::AgentNotFound { agent_id })?)
}

/// Forgets one agent's settings: its replies go to the default endpoint again, every switch on.
/// Its cases keep its id; `agent_not_found` if it had no settings.
pub fn remove_agent(tx: &mut Transaction<'_>, agent_id: &str) -> Result<(), TeamError> {
    if tx.execute("DELETE FROM agents WHERE agent_id = $1", &[&agent_id])? == 0 {
        return Err(CasesError::AgentNotFound { agent_id: agent_id.to_string() }.into());
    }
    Ok(())
}

/// Where a delivery of a case opened by `agent_id` goes: the agent's own endpoint (with the
/// default endpoint's timeout and attempt limit, or the defaults), else the default endpoint if
/// it is switched on. `None`: it waits in the outbox.
pub fn route(
    c: &mut impl GenericClient,
    agent_id: Option<&str>,
) -> Result<Option<EndpointSettings>, TeamError> {
    let default = get_endpoint(c)?;
    let own = match agent_id {
        Some(id) => {
            c.query_opt("SELECT url, secret FROM agents WHERE agent_id = $1 AND url IS NOT NULL", &[&id])?
        }
        None => None,
    };
    let Some(own) = own else { return Ok(default.filter(|d| d.enabled)) };
    Ok(Some(EndpointSettings {
        url: own.try_get(0)?,
        secret: own.try_get(1)?,
        timeout_secs: default.as_ref().map_or(DEFAULT_TIMEOUT_SECS, |d| d.timeout_secs),
        max_attempts: default.as_ref().map_or(DEFAULT_MAX_ATTEMPTS, |d| d.max_attempts),
        enabled: true,
    }))
}

/// The agent's own endpoint as `input` sets it: none for a missing or empty URL, else the
/// checked URL with the secret given, or the stored one when none is.
fn own_endpoint(
    tx: &mut Transaction<'_>,
    agent_id: &str,
    input: &AgentInput,
) -> Result<Option<(String, String)>, TeamError> {
    let Some(url) = input.url.as_deref().map(str::trim).filter(|url| !url.is_empty()) else {
        return Ok(None);
    };
    let url = checked_url(url)?;
    let secret = match input.secret.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(secret) => usable_secret(secret)?,
        None => stored_secret(tx, agent_id)?.ok_or(CasesError::InvalidEndpointSetting {
            field: "secret",
            reason: "is required when the agent has its own endpoint".into(),
        })?,
    };
    Ok(Some((url, secret)))
}

/// The agent's saved secret, its row locked so another instance's save waits for this one.
fn stored_secret(tx: &mut Transaction<'_>, agent_id: &str) -> Result<Option<String>, TeamError> {
    let row = tx.query_opt("SELECT secret FROM agents WHERE agent_id = $1 FOR UPDATE", &[&agent_id])?;
    Ok(row.map(|row| row.try_get(0)).transpose()?.flatten())
}

/// A row selected with [`AGENTS`]; its URL shown with any credentials masked.
fn agent_from_row(row: &Row) -> Result<AgentView, TeamError> {
    let url: Option<String> = row.try_get(1)?;
    Ok(AgentView {
        agent_id: row.try_get(0)?,
        url: url.map(|url| without_credentials(&url)),
        cases_enabled: row.try_get(2)?,
        guardrail_enabled: row.try_get(3)?,
        configured: row.try_get(4)?,
        cases: row.try_get(5)?,
    })
}
