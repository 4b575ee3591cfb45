//! The Settings screen: read everything at once, save one group at a time, test the agent
//! endpoint, rotate the API token. Each save applies at once and announces `settings-changed`;
//! every command answers with the view as it now stands.

use crate::ipc::ipc;
use skillcase_application::domain::cases::agents::AgentInput;
use skillcase_application::domain::cases::delivery::PingOutcome;
use skillcase_application::domain::cases::endpoint::EndpointInput;
use skillcase_application::domain::cases::sla::ResponseTargets;
use skillcase_application::domain::guard::due::CalendarSettings;
use skillcase_application::domain::skill::policy::Policy;
use skillcase_application::settings::{NationalHolidays, QuietSettings, SettingsView, YouSettings};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// Everything Settings shows.
    fn settings_get(state: State<'_, AppState>) -> SettingsView {
        Ok(state.host().settings_view().await?)
    }

    /// Saves the skills directory (`None`: back to the default) and serves it at once.
    fn settings_set_skills_dir(state: State<'_, AppState>, path: Option<String>) -> SettingsView {
        state.app().set_skills_dir(path).await?;
        settings_get(state).await
    }

    /// Moves the local API to `port` (the old port keeps serving if the new one cannot be bound).
    fn settings_set_api_port(state: State<'_, AppState>, port: u32) -> SettingsView {
        state.host().set_api_port(port).await?;
        settings_get(state).await
    }

    /// Saves the import policy and re-validates every skill under it.
    fn settings_set_policy(state: State<'_, AppState>, policy: Policy) -> SettingsView {
        state.app().set_policy(policy).await?;
        settings_get(state).await
    }

    /// Saves the UI language.
    fn settings_set_language(state: State<'_, AppState>, language: String) -> SettingsView {
        state.app().set_language(language).await?;
        settings_get(state).await
    }

    /// Saves the theme.
    fn settings_set_theme(state: State<'_, AppState>, theme: String) -> SettingsView {
        state.app().set_theme(theme).await?;
        settings_get(state).await
    }

    /// Saves the business calendar promises' due times are resolved in.
    fn settings_set_calendar(state: State<'_, AppState>, calendar: CalendarSettings) -> SettingsView {
        state.app().set_calendar(calendar).await?;
        settings_get(state).await
    }

    /// The national holidays a calendar in this zone (`None`: the system's) and country (`None`:
    /// the zone's) starts with, named, for Settings to show before they are saved.
    fn settings_national_holidays(
        _state: State<'_, AppState>,
        time_zone: Option<String>,
        country: Option<String>,
    ) -> NationalHolidays {
        Ok(skillcase_application::settings::national_holidays(time_zone.as_deref(), country.as_deref())?)
    }

    /// Saves the quiet-customer reminder and auto-close delays.
    fn settings_set_quiet(state: State<'_, AppState>, quiet: QuietSettings) -> SettingsView {
        state.app().set_quiet_settings(quiet).await?;
        settings_get(state).await
    }

    /// Saves the name and e-mail of the person at this desktop (saved replies' `{{person.*}}`).
    fn settings_set_you(state: State<'_, AppState>, you: YouSettings) -> SettingsView {
        state.app().set_you(you).await?;
        settings_get(state).await
    }

    /// Saves the response-time targets (first reply, resolution) new cases are opened under.
    fn settings_set_response_targets(state: State<'_, AppState>, targets: ResponseTargets) -> SettingsView {
        state.app().set_response_targets(targets).await?;
        settings_get(state).await
    }

    /// Saves the agent endpoint; waiting replies go out at once.
    fn settings_set_endpoint(state: State<'_, AppState>, input: EndpointInput) -> SettingsView {
        state.app().set_endpoint(input).await?;
        settings_get(state).await
    }

    /// Saves one agent's own endpoint and switches.
    fn settings_set_agent(state: State<'_, AppState>, input: AgentInput) -> SettingsView {
        state.app().set_agent(input).await?;
        settings_get(state).await
    }

    /// Forgets one agent's settings.
    fn settings_remove_agent(state: State<'_, AppState>, agent_id: String) -> SettingsView {
        state.app().remove_agent(agent_id).await?;
        settings_get(state).await
    }

    /// Sends a signed ping to the endpoint in the form (saved or not).
    fn settings_test_endpoint(state: State<'_, AppState>, input: EndpointInput) -> PingOutcome {
        Ok(state.app().test_endpoint(input).await?)
    }

    /// A fresh webhook secret for the endpoint form.
    fn settings_generate_secret(state: State<'_, AppState>) -> String {
        Ok(state.app().generate_secret())
    }

    /// Replaces the API token; the old one stops working at once.
    fn settings_rotate_token(state: State<'_, AppState>) -> SettingsView {
        state.app().rotate_token().await?;
        settings_get(state).await
    }
}
