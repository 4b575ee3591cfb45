//! Settings changes (SPEC C1 *Settings*): each saves its value, applies it at once (the library
//! restarts on a new folder or policy, the delivery worker looks at a new endpoint) and announces
//! `settings-changed` with its section so the status line and Settings re-read.
//!
//! Moving the local API to another port is the one change that also needs the server that
//! listens: the host checks and saves the port here ([`App::check_api_port`],
//! [`App::save_api_port`]) and moves its own listener in between.

use skillcase_cases::agents::{AgentInput, AgentView};
use skillcase_cases::delivery::{test_endpoint, PingOutcome};
use skillcase_cases::endpoint::{EndpointInput, EndpointView};
use skillcase_cases::signature;
use skillcase_cases::sla::ResponseTargets;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use skillcase_guard::due::CalendarSettings;
use skillcase_skill::policy::Policy;

use crate::info::{ApiStatus, AppInfo};
use crate::settings::{self, view, SettingsView};
use crate::App;

impl App {
    /// Everything the Settings screen shows; `api` is the local API's state as its host knows it.
    pub async fn settings_view(&self, api: ApiStatus) -> Result<SettingsView, ErrorBody> {
        self.blocking(move |app| {
            let person = app.team.as_ref().and_then(|team| team.person.clone());
            view::read(app.settings.as_ref(), app.outbox.as_ref(), &app.tokens, &app.data_dir, api, person)
        })
        .await
    }

    /// The status-line facts.
    pub fn info(&self, api: Option<ApiStatus>) -> AppInfo {
        let library = &self.inner().library;
        let mut info = AppInfo::new(&library.skills_dir(), self.data_dir(), self.database_path())
            .with_skills_watch(library.watch_note());
        if let Some(team) = &self.inner().team {
            // The cases are what the status line's database is about: on a team, its server.
            info.database_path = team.cases.url().redacted();
        }
        match api {
            Some(api) => info.with_api(api),
            None => info,
        }
    }

    /// Saves the skills directory (`None` goes back to the default) and serves the folder in
    /// force from now on.
    pub async fn set_skills_dir(&self, path: Option<String>) -> Result<(), ErrorBody> {
        self.blocking(move |app| {
            settings::set_skills_dir(app.settings.as_ref(), path.as_deref())?;
            let dir = settings::effective_skills_dir(app.settings.as_ref(), &app.data_dir)?;
            app.library.restart(dir, app.library.policy())
        })
        .await?;
        self.settings_changed("skills_dir");
        Ok(())
    }

    /// Saves the import policy and re-validates every skill under it.
    pub async fn set_policy(&self, policy: Policy) -> Result<(), ErrorBody> {
        self.blocking(move |app| {
            let policy = settings::set_policy(app.settings.as_ref(), policy)?;
            app.library.restart(app.library.skills_dir(), policy)
        })
        .await?;
        self.settings_changed("policy");
        Ok(())
    }

    /// Saves the UI language (`system`, `en` or `pt-BR`).
    pub async fn set_language(&self, language: String) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(settings::set_language(app.settings.as_ref(), &language).map(drop)?))
            .await?;
        self.settings_changed("appearance");
        Ok(())
    }

    /// Whether the person reads Portuguese: the saved language, or for `system` the locale the
    /// process was started in. Messages written outside the window (desktop notifications) use it.
    pub async fn speaks_portuguese(&self) -> bool {
        let saved = self.blocking(|app| Ok(settings::language(app.settings.as_ref())?)).await;
        match saved.unwrap_or_default() {
            settings::Language::PtBr => true,
            settings::Language::En => false,
            settings::Language::System => settings::appearance::system_is_portuguese(),
        }
    }

    /// Saves the theme (`system`, `light` or `dark`).
    pub async fn set_theme(&self, theme: String) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(settings::set_theme(app.settings.as_ref(), &theme).map(drop)?)).await?;
        self.settings_changed("appearance");
        Ok(())
    }

    /// Saves the business calendar promises' due times are resolved in.
    pub async fn set_calendar(&self, value: CalendarSettings) -> Result<(), ErrorBody> {
        self.blocking(move |app| {
            crate::team::require_admin(app, "business calendar")?;
            settings::set_calendar(app.settings.as_ref(), value.clone())?;
            crate::team::share_case_setting(app, skillcase_cases::sla::CALENDAR_SETTING, &value)
        })
        .await?;
        self.settings_changed("calendar");
        Ok(())
    }

    /// Saves the quiet-customer delays; the next run of the job uses them.
    pub async fn set_quiet_settings(&self, value: settings::QuietSettings) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(settings::set_quiet_settings(app.settings.as_ref(), value).map(drop)?))
            .await?;
        self.settings_changed("quiet");
        Ok(())
    }

    /// Saves the name and e-mail of the person at this desktop (saved replies' `{{person.*}}`).
    pub async fn set_you(&self, value: settings::YouSettings) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(settings::set_you(app.settings.as_ref(), value).map(drop)?)).await?;
        self.settings_changed("you");
        Ok(())
    }

    /// Saves the response-time targets; cases opened from now on take them.
    pub async fn set_response_targets(&self, value: ResponseTargets) -> Result<(), ErrorBody> {
        self.blocking(move |app| {
            crate::team::require_admin(app, "response-time targets")?;
            let saved = settings::set_response_targets(app.settings.as_ref(), value)?;
            crate::team::share_case_setting(app, skillcase_cases::sla::TARGETS_SETTING, &saved)
        })
        .await?;
        self.settings_changed("response_targets");
        Ok(())
    }

    /// Saves the agent endpoint; the delivery worker tries waiting replies at once.
    pub async fn set_endpoint(&self, input: EndpointInput) -> Result<EndpointView, ErrorBody> {
        let view = self.blocking(move |app| Ok(app.outbox.set_endpoint(input)?)).await?;
        self.wake_delivery();
        self.settings_changed("endpoint");
        Ok(view)
    }

    /// The saved agent endpoint without its secret.
    pub async fn endpoint(&self) -> Result<Option<EndpointView>, ErrorBody> {
        self.blocking(|app| Ok(app.outbox.endpoint_view()?)).await
    }

    /// Sends a signed ping to the endpoint `input` describes (saved or not).
    pub async fn test_endpoint(&self, input: EndpointInput) -> Result<PingOutcome, ErrorBody> {
        let endpoint = self.blocking(move |app| Ok(app.outbox.checked_endpoint(&input)?)).await?;
        Ok(test_endpoint(&endpoint).await?)
    }

    /// Saves one agent's own endpoint and switches; its waiting replies go out at once.
    pub async fn set_agent(&self, input: AgentInput) -> Result<AgentView, ErrorBody> {
        let view = self.blocking(move |app| Ok(app.outbox.set_agent(input)?)).await?;
        self.wake_delivery();
        self.settings_changed("agents");
        Ok(view)
    }

    /// Forgets one agent's settings: its replies go to the default endpoint, every switch on.
    pub async fn remove_agent(&self, agent_id: String) -> Result<(), ErrorBody> {
        self.blocking(move |app| Ok(app.outbox.remove_agent(&agent_id)?)).await?;
        self.wake_delivery();
        self.settings_changed("agents");
        Ok(())
    }

    /// Every agent with settings or cases.
    pub async fn agents(&self) -> Result<Vec<AgentView>, ErrorBody> {
        self.blocking(|app| Ok(app.outbox.agents()?)).await
    }

    /// A fresh Standard Webhooks secret for the endpoint form.
    pub fn generate_secret(&self) -> String {
        signature::generate_secret()
    }

    /// Replaces the API token; the old one stops working at once.
    pub async fn rotate_token(&self) -> Result<(), ErrorBody> {
        self.blocking(|app| Ok(app.tokens.rotate().map(drop)?)).await?;
        self.settings_changed("api");
        Ok(())
    }

    /// The port the local API starts on: `$SKILLCASE_API_PORT` when set, else the setting.
    pub async fn startup_api_port(&self) -> Result<u16, ErrorBody> {
        self.blocking(|app| settings::startup_api_port(app.settings.as_ref())).await
    }

    /// The saved API port.
    pub async fn saved_api_port(&self) -> Result<u16, ErrorBody> {
        self.blocking(|app| Ok(settings::api_port(app.settings.as_ref())?)).await
    }

    /// Checks that `port` is usable for the API (`current` is the one it listens on now).
    pub async fn check_api_port(&self, port: u32, current: Option<u16>) -> Result<u16, ErrorBody> {
        self.blocking(move |_| Ok(settings::check_api_port(port, current)?)).await
    }

    /// Saves the port the API now listens on.
    pub async fn save_api_port(&self, port: u16) -> Result<(), ErrorBody> {
        self.blocking(move |app| {
            Ok(settings::set_api_port(app.settings.as_ref(), port.into(), Some(port)).map(drop)?)
        })
        .await?;
        self.settings_changed("api");
        Ok(())
    }

    fn settings_changed(&self, section: &str) {
        self.publish(DomainEvent::SettingsChanged { section: section.to_string() });
    }
}
