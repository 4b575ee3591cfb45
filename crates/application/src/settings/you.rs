//! You (issue 28): the name and e-mail of the person at this desktop, which saved replies fill
//! in as `{{person.name}}` and `{{person.email}}`. Both empty until saved; an empty name falls
//! back to the name replies are recorded under (the system user).

use serde::{Deserialize, Serialize};
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

use super::error::SettingsError;
use super::store;

const KEY: &str = "you";

/// The longest name or e-mail accepted, in characters.
pub const MAX_CHARS: usize = 200;

/// The person at this desktop, as typed in Settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct YouSettings {
    pub name: String,
    pub email: String,
}

/// The saved name and e-mail, both empty until saved.
pub fn you(settings: &dyn SettingsRepository) -> Result<YouSettings, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or_default())
}

/// Trims, checks and saves the name and e-mail: an e-mail without an `@` between two parts, or a
/// value too long, is refused (`invalid_person`) and nothing is saved.
pub fn set_you(settings: &dyn SettingsRepository, value: YouSettings) -> Result<YouSettings, SettingsError> {
    let value = YouSettings { name: value.name.trim().to_string(), email: value.email.trim().to_string() };
    for (field, text) in [("name", &value.name), ("email", &value.email)] {
        if text.chars().count() > MAX_CHARS {
            return Err(SettingsError::InvalidPerson {
                field,
                reason: format!("must be at most {MAX_CHARS} characters"),
            });
        }
    }
    if !value.email.is_empty() && !looks_like_email(&value.email) {
        return Err(SettingsError::InvalidPerson {
            field: "email",
            reason: "must look like name@example.com".into(),
        });
    }
    store::put(settings, KEY, &value)?;
    Ok(value)
}

fn looks_like_email(text: &str) -> bool {
    match text.split_once('@') {
        Some((user, domain)) => !user.is_empty() && !domain.is_empty() && !text.contains(char::is_whitespace),
        None => false,
    }
}
