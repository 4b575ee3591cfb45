//! Workspace settings (SPEC C1 *Settings*, B3, B4): the skills directory, the local API port,
//! the import policy and limits, the UI language and theme, the quiet-customer delays, who you are, the response-time targets. Each lives under its own key in the
//! `settings` table as JSON, has one module that owns its default and its validation, and is
//! refused with a stable code when bad ([`SettingsError`]). The agent endpoint keeps its own
//! table ([`skillcase_cases::endpoint`]); [`view`] gathers everything Settings shows.
//!
//! Nothing here restarts anything: the desktop shell and `skillcase serve` read these values
//! and restart the service when the skills directory or the port changes.

pub mod api_port;
pub mod appearance;
pub mod calendar;
pub mod error;
pub mod policy;
pub mod quiet;
pub mod response_targets;
pub mod skills_dir;
pub mod store;
pub mod view;
pub mod you;

use serde::{Deserialize, Serialize};
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

pub use api_port::{api_port, check_api_port, set_api_port, startup_api_port};
pub use appearance::{language, set_language, set_theme, theme, Language, Theme};
pub use calendar::{calendar, calendar_settings, national_holidays, set_calendar, NationalHolidays};
pub use error::SettingsError;
pub use policy::{checked_policy, policy, set_policy};
pub use quiet::{quiet_settings, set_quiet_settings, QuietSettings};
pub use response_targets::{response_targets, set_response_targets};
pub use skills_dir::{effective_skills_dir, set_skills_dir, skills_dir_setting};
pub use view::{ApiAccess, SettingsView};
pub use you::{set_you, you, CaseAlerts, YouSettings};

use skillcase_skill::policy::Policy;

/// Every workspace setting as saved (defaults where nothing was saved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct WorkspaceSettings {
    /// The chosen skills directory; `None` means the default.
    pub skills_dir: Option<String>,
    pub api_port: u16,
    pub policy: Policy,
    pub language: Language,
    pub theme: Theme,
    /// Where and when the business works: promises' due times are resolved in it.
    pub calendar: skillcase_guard::due::CalendarSettings,
    /// The reminder and the auto-close when the customer goes quiet.
    pub quiet: QuietSettings,
    /// The person at this desktop, for saved replies' `{{person.*}}` variables.
    pub you: YouSettings,
    /// How soon a case must get its first reply and be resolved, in business time.
    pub response_targets: skillcase_cases::sla::ResponseTargets,
}

/// Reads every workspace setting.
pub fn load(settings: &dyn SettingsRepository) -> Result<WorkspaceSettings, SettingsError> {
    Ok(WorkspaceSettings {
        skills_dir: skills_dir_setting(settings)?.map(|dir| dir.display().to_string()),
        api_port: api_port(settings)?,
        policy: policy(settings)?,
        language: language(settings)?,
        theme: theme(settings)?,
        calendar: calendar_settings(settings)?,
        quiet: quiet_settings(settings)?,
        you: you(settings)?,
        response_targets: response_targets(settings)?,
    })
}
