//! How the window looks and speaks: the UI language and the colour theme. Both default to
//! following the system, which is what a person expects before they have chosen anything.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

use super::error::SettingsError;
use super::store;

const LANGUAGE_KEY: &str = "language";
const THEME_KEY: &str = "theme";

/// The UI language. `System` follows the system locale (Portuguese for any `pt*`, else English).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub enum Language {
    #[default]
    #[serde(rename = "system")]
    System,
    #[serde(rename = "en")]
    En,
    #[serde(rename = "pt-BR")]
    PtBr,
}

impl FromStr for Language {
    type Err = SettingsError;

    /// Parses the wire name (`system`, `en`, `pt-BR`); anything else is `invalid_language`.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "system" => Ok(Language::System),
            "en" => Ok(Language::En),
            "pt-BR" => Ok(Language::PtBr),
            _ => Err(SettingsError::InvalidLanguage { value: value.to_string() }),
        }
    }
}

/// Whether the process locale (`LC_ALL`, `LC_MESSAGES`, then `LANG`, as POSIX orders them) is
/// Portuguese; the window decides the same from the webview's language.
pub fn system_is_portuguese() -> bool {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .is_some_and(|value| value.to_ascii_lowercase().starts_with("pt"))
}

/// The colour theme. `System` follows the system's light/dark preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

impl FromStr for Theme {
    type Err = SettingsError;

    /// Parses the wire name (`system`, `light`, `dark`); anything else is `invalid_theme`.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "system" => Ok(Theme::System),
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            _ => Err(SettingsError::InvalidTheme { value: value.to_string() }),
        }
    }
}

/// The saved language, `System` until one is chosen.
pub fn language(settings: &dyn SettingsRepository) -> Result<Language, SettingsError> {
    Ok(store::get(settings, LANGUAGE_KEY)?.unwrap_or_default())
}

/// Saves the language given by its wire name.
pub fn set_language(settings: &dyn SettingsRepository, value: &str) -> Result<Language, SettingsError> {
    let language = value.parse()?;
    store::put(settings, LANGUAGE_KEY, &language)?;
    Ok(language)
}

/// The saved theme, `System` until one is chosen.
pub fn theme(settings: &dyn SettingsRepository) -> Result<Theme, SettingsError> {
    Ok(store::get(settings, THEME_KEY)?.unwrap_or_default())
}

/// Saves the theme given by its wire name.
pub fn set_theme(settings: &dyn SettingsRepository, value: &str) -> Result<Theme, SettingsError> {
    let theme = value.parse()?;
    store::put(settings, THEME_KEY, &theme)?;
    Ok(theme)
}
