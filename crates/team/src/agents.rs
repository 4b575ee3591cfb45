//! Several agents on one team inbox: each agent's own endpoint and switches, and where its
//! deliveries go.

use postgres::{GenericClient, Transaction};
use skillcase_cases::agents::{AgentInput, AgentSwitches, AgentView};

use crate::error::TeamError;

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

pub fn list_agents(c: &mut impl GenericClient) -> Result<Vec<AgentView>, TeamError> {
    todo!()
}

pub fn set_agent(tx: &mut Transaction<'_>, input: &AgentInput) -> Result<AgentView, TeamError> {
    todo!()
}

pub fn remove_agent(tx: &mut Transaction<'_>, agent_id: &str) -> Result<(), TeamError> {
    todo!()
}
