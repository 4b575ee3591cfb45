//! Several agents, one inbox (SPEC D5). Each case carries the id of the agent that opened it;
//! per agent a person can give it its own endpoint (URL and signing secret), stop it opening
//! cases, or switch the guardrail off for it. An agent without settings has every switch on and
//! its replies go to the default endpoint, so one agent needs no configuration at all.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::clock;
use super::endpoint::{checked_url, get_endpoint, without_credentials, EndpointSettings};
use super::endpoint::{DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT_SECS};
use super::error::CasesError;
use super::signature;
use crate::args;
use crate::sql::{Row, Sql};

/// The longest agent id accepted.
pub const MAX_AGENT_ID_CHARS: usize = 128;

/// One agent as Settings shows it: its switches, its own endpoint without the secret, and how
/// many cases it opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentView {
    pub agent_id: String,
    /// Its own endpoint, credentials masked; `None` when its replies go to the default endpoint.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub cases_enabled: bool,
    pub guardrail_enabled: bool,
    /// Whether a person saved settings for it (an agent only seen on cases has none).
    pub configured: bool,
    #[ts(type = "number")]
    pub cases: i64,
}

/// What Settings saves for one agent. `url` empty or missing: replies go to the default
/// endpoint. A missing `secret` keeps the stored one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentInput {
    pub agent_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub secret: Option<String>,
    pub cases_enabled: bool,
    pub guardrail_enabled: bool,
}

/// The switches of one agent, as open-case and before-send consult them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSwitches {
    pub cases_enabled: bool,
    pub guardrail_enabled: bool,
}

impl Default for AgentSwitches {
    fn default() -> Self {
        AgentSwitches { cases_enabled: true, guardrail_enabled: true }
    }
}

/// The switches of `agent_id` (every switch on for an agent without settings, or no id).
pub fn switches(sql: &mut dyn Sql, agent_id: Option<&str>) -> Result<AgentSwitches, CasesError> {
    let Some(agent_id) = agent_id else { return Ok(AgentSwitches::default()) };
    let row = sql.query_opt(
        "SELECT cases_enabled, guardrail_enabled FROM agents WHERE agent_id = $1",
        args![agent_id],
    )?;
    Ok(match row {
        Some(row) => AgentSwitches { cases_enabled: row.bool(0)?, guardrail_enabled: row.bool(1)? },
        None => AgentSwitches::default(),
    })
}

/// Every agent Settings knows: those with settings and those seen on a case, by id.
pub fn list_agents(sql: &mut dyn Sql) -> Result<Vec<AgentView>, CasesError> {
    let rows = sql.query(
        "WITH ids AS (SELECT agent_id FROM agents UNION SELECT DISTINCT agent_id FROM cases \
         WHERE agent_id IS NOT NULL) \
         SELECT ids.agent_id, a.url, coalesce(a.cases_enabled, true), coalesce(a.guardrail_enabled, true), \
         a.agent_id IS NOT NULL, (SELECT count(*) FROM cases c WHERE c.agent_id = ids.agent_id) \
         FROM ids LEFT JOIN agents a ON a.agent_id = ids.agent_id ORDER BY ids.agent_id",
        &[],
    )?;
    rows.iter().map(agent_from_row).collect()
}

fn agent_from_row(row: &Row) -> Result<AgentView, CasesError> {
    Ok(AgentView {
        agent_id: row.text(0)?,
        url: row.opt_text(1)?.map(|url| without_credentials(&url)),
        cases_enabled: row.bool(2)?,
        guardrail_enabled: row.bool(3)?,
        configured: row.bool(4)?,
        cases: row.int(5)?,
    })
}

/// Validates and stores one agent's settings: the id (`invalid_agent_id`), the URL as the default
/// endpoint's is checked, and a secret with any URL (`invalid_endpoint_setting`). Nothing is
/// stored when any of them is wrong.
pub fn set_agent(sql: &mut dyn Sql, input: &AgentInput) -> Result<AgentView, CasesError> {
    let agent_id = checked_agent_id(&input.agent_id)?;
    let url = match input.url.as_deref().map(str::trim).filter(|url| !url.is_empty()) {
        Some(url) => Some(checked_url(url)?),
        None => None,
    };
    let secret = match (&url, input.secret.as_deref().map(str::trim).filter(|s| !s.is_empty())) {
        (None, _) => None,
        (Some(_), Some(secret)) => {
            signature::signing_key(secret)?;
            Some(secret.to_string())
        }
        (Some(_), None) => {
            Some(stored_secret(sql, &agent_id)?.ok_or(CasesError::InvalidEndpointSetting {
                field: "secret",
                reason: "is required when the agent has its own endpoint".into(),
            })?)
        }
    };
    sql.execute(
        "INSERT INTO agents (agent_id, url, secret, cases_enabled, guardrail_enabled, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (agent_id) DO UPDATE SET url = excluded.url, \
         secret = excluded.secret, cases_enabled = excluded.cases_enabled, \
         guardrail_enabled = excluded.guardrail_enabled, updated_at = excluded.updated_at",
        args![&agent_id, &url, &secret, input.cases_enabled, input.guardrail_enabled, clock::now().as_str()],
    )?;
    list_agents(sql)?
        .into_iter()
        .find(|agent| agent.agent_id == agent_id)
        .ok_or(CasesError::AgentNotFound { agent_id })
}

/// Forgets one agent's settings: its replies go to the default endpoint again, every switch on.
/// Its cases keep its id.
pub fn remove_agent(sql: &mut dyn Sql, agent_id: &str) -> Result<(), CasesError> {
    if sql.execute("DELETE FROM agents WHERE agent_id = $1", args![agent_id])? == 0 {
        return Err(CasesError::AgentNotFound { agent_id: agent_id.to_string() });
    }
    Ok(())
}

/// Where a delivery of a case opened by `agent_id` goes: the agent's own endpoint (with the
/// default endpoint's timeout and attempt limit, or the defaults), else the default endpoint if
/// it is switched on. `None`: it waits in the outbox.
pub fn route(sql: &mut dyn Sql, agent_id: Option<&str>) -> Result<Option<EndpointSettings>, CasesError> {
    let default = get_endpoint(sql)?;
    let own = match agent_id {
        Some(id) => sql
            .query_opt("SELECT url, secret FROM agents WHERE agent_id = $1 AND url IS NOT NULL", args![id])?
            .map(|row| Ok::<_, CasesError>((row.text(0)?, row.text(1)?)))
            .transpose()?,
        None => None,
    };
    Ok(match own {
        Some((url, secret)) => Some(EndpointSettings {
            url,
            secret,
            timeout_secs: default.as_ref().map_or(DEFAULT_TIMEOUT_SECS, |d| d.timeout_secs),
            max_attempts: default.as_ref().map_or(DEFAULT_MAX_ATTEMPTS, |d| d.max_attempts),
            enabled: true,
        }),
        None => default.filter(|d| d.enabled),
    })
}

fn stored_secret(sql: &mut dyn Sql, agent_id: &str) -> Result<Option<String>, CasesError> {
    match sql.query_opt("SELECT secret FROM agents WHERE agent_id = $1", args![agent_id])? {
        Some(row) => row.opt_text(0),
        None => Ok(None),
    }
}

/// An agent id as stored: trimmed, not empty, at most [`MAX_AGENT_ID_CHARS`], no control
/// characters.
pub fn checked_agent_id(raw: &str) -> Result<String, CasesError> {
    let id = raw.trim();
    let reason = if id.is_empty() {
        Some("must not be blank".to_string())
    } else if id.chars().count() > MAX_AGENT_ID_CHARS {
        Some(format!("is longer than {MAX_AGENT_ID_CHARS} characters"))
    } else if id.chars().any(char::is_control) {
        Some("must not hold control characters".to_string())
    } else {
        None
    };
    match reason {
        Some(reason) => Err(CasesError::InvalidAgentId { agent_id: raw.to_string(), reason }),
        None => Ok(id.to_string()),
    }
}
