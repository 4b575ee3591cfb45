//! What the Settings screen shows in one read: the saved settings, the values in force (which
//! environment overrides may change), the agent endpoint and each agent's without their secrets, and how to reach
//! the local API (URL, token, a curl line to try it).

use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{load, skills_dir, WorkspaceSettings};
use crate::info::ApiStatus;
use crate::token::TokenStore;
use skillcase_cases::agents::AgentView;
use skillcase_cases::endpoint::EndpointView;
use skillcase_cases::OutboxRepository;
use skillcase_common::ErrorBody;
use skillcase_store::settings::SettingsRepository;

/// Everything the Settings screen shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SettingsView {
    pub workspace: WorkspaceSettings,
    /// The skills directory in force (the setting, an environment override or the default).
    pub skills_dir: String,
    /// True when `$SKILLCASE_SKILLS_DIR` overrides the setting.
    pub skills_dir_from_env: bool,
    /// The agent endpoint, once configured.
    pub endpoint: Option<EndpointView>,
    /// Every agent with settings or cases: its own endpoint and switches.
    pub agents: Vec<AgentView>,
    pub api: ApiAccess,
    /// Who this desktop's login is on a team database with roles: a member sees the team's
    /// endpoint, agents and case settings but may not change them. `None`: every setting is this
    /// desktop's to change (the embedded inbox, or a team's owner).
    pub team_person: Option<skillcase_team::people::Person>,
}

/// How the agent reaches the local API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ApiAccess {
    pub status: ApiStatus,
    /// Where the API listens, or would listen once it can start.
    pub url: String,
    /// The bearer token every request needs.
    pub token: String,
    /// A command line that tries the API with this token.
    pub curl: String,
}

impl ApiAccess {
    /// The access facts for `status`, falling back to `port` for the URL when the API is down.
    pub fn new(status: ApiStatus, port: u16, token: &str) -> Self {
        let url = match &status {
            ApiStatus::Listening { url } => url.clone(),
            ApiStatus::Failed { .. } => format!("http://127.0.0.1:{port}"),
        };
        let curl = curl_line(&url, token);
        ApiAccess { status, url, token: token.to_string(), curl }
    }
}

/// `curl -H "Authorization: Bearer <token>" <url>/v1/skills/index`: the first call an agent makes.
pub fn curl_line(url: &str, token: &str) -> String {
    format!("curl -H \"Authorization: Bearer {token}\" {url}/v1/skills/index")
}

/// Reads the whole Settings view for the data directory `data_dir`, whose API is in `status`.
pub fn read(
    settings: &dyn SettingsRepository,
    outbox: &dyn OutboxRepository,
    tokens: &TokenStore,
    data_dir: &Path,
    status: ApiStatus,
    team_person: Option<skillcase_team::people::Person>,
) -> Result<SettingsView, ErrorBody> {
    let workspace = load(settings)?;
    let skills_dir = skills_dir::effective_skills_dir(settings, data_dir)?.display().to_string();
    let token = tokens.current()?;
    let api = ApiAccess::new(status, workspace.api_port, token.as_str());
    Ok(SettingsView {
        workspace,
        skills_dir,
        skills_dir_from_env: skills_dir::skills_dir_from_env(),
        endpoint: outbox.endpoint_view()?,
        agents: outbox.agents()?,
        api,
        team_person,
    })
}
