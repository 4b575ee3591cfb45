//! Every way a settings change can be refused, each with a stable code (`docs/error-codes.md`).
//! A refused change stored nothing.

use serde_json::json;

use skillcase_common::error::Coded;

/// Why a setting was not accepted or could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("the skills directory {path:?} cannot be used: {reason}")]
    InvalidSkillsDir { path: String, reason: String },
    #[error("{port} is not a usable API port: {reason}")]
    InvalidApiPort { port: u32, reason: String },
    #[error("port {port} on 127.0.0.1 is already in use; choose another one")]
    ApiPortInUse { port: u16 },
    #[error("cannot listen on 127.0.0.1:{port}: {reason}")]
    ApiPortUnavailable { port: u16, reason: String },
    #[error("the import limit {field} {reason}")]
    InvalidLimit { field: &'static str, reason: String },
    #[error("{value:?} is not a language Skillcase speaks; choose system, en or pt-BR")]
    InvalidLanguage { value: String },
    #[error("{value:?} is not a theme; choose system, light or dark")]
    InvalidTheme { value: String },
    #[error("the business calendar cannot be used: {reason}")]
    InvalidCalendar { field: &'static str, reason: String },
    #[error("the quiet-customer delay {field} {reason}")]
    InvalidQuietDelay { field: &'static str, reason: String },
    #[error("your {field} {reason}")]
    InvalidPerson { field: &'static str, reason: String },
    #[error("the response-time target {field} {reason}")]
    InvalidResponseTarget { field: &'static str, reason: String },
    #[error("the stored setting {key} is not readable ({reason}); save it again in Settings")]
    Corrupt { key: &'static str, reason: String },
    #[error(transparent)]
    Db(#[from] skillcase_store::DbError),
}

impl Coded for SettingsError {
    fn code(&self) -> &'static str {
        match self {
            SettingsError::InvalidSkillsDir { .. } => "invalid_skills_dir",
            SettingsError::InvalidApiPort { .. } => "invalid_api_port",
            SettingsError::ApiPortInUse { .. } => "api_port_in_use",
            SettingsError::ApiPortUnavailable { .. } => "api_port_unavailable",
            SettingsError::InvalidLimit { .. } => "invalid_limit",
            SettingsError::InvalidLanguage { .. } => "invalid_language",
            SettingsError::InvalidTheme { .. } => "invalid_theme",
            SettingsError::InvalidCalendar { .. } => "invalid_calendar",
            SettingsError::InvalidQuietDelay { .. } => "invalid_quiet_delay",
            SettingsError::InvalidPerson { .. } => "invalid_person",
            SettingsError::InvalidResponseTarget { .. } => "invalid_response_target",
            SettingsError::Corrupt { .. } => "settings_corrupt",
            SettingsError::Db(inner) => inner.code(),
        }
    }

    /// The field the UI shows the message next to.
    fn details(&self) -> Option<serde_json::Value> {
        let field = match self {
            SettingsError::InvalidSkillsDir { .. } => "skills_dir",
            SettingsError::InvalidApiPort { .. }
            | SettingsError::ApiPortInUse { .. }
            | SettingsError::ApiPortUnavailable { .. } => "api_port",
            SettingsError::InvalidLimit { field, .. } => field,
            SettingsError::InvalidLanguage { .. } => "language",
            SettingsError::InvalidTheme { .. } => "theme",
            SettingsError::InvalidCalendar { field, .. }
            | SettingsError::InvalidQuietDelay { field, .. }
            | SettingsError::InvalidPerson { field, .. } => field,
            SettingsError::InvalidResponseTarget { field, .. } => field,
            SettingsError::Corrupt { key, .. } => key,
            SettingsError::Db(_) => return None,
        };
        Some(json!({ "field": field }))
    }
}
