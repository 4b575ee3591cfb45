//! Settings as typed values over the [`SettingsRepository`]: one JSON document per key. Reading a
//! key that was never saved gives `None`, so every setting has its default in exactly one place
//! (its module).

use serde::de::DeserializeOwned;
use serde::Serialize;
use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;

/// The stored value of `key`, or `None` when it was never saved.
pub fn get<T: DeserializeOwned>(
    settings: &dyn SettingsRepository,
    key: &'static str,
) -> Result<Option<T>, SettingsError> {
    settings
        .get(key)?
        .map(|text| {
            serde_json::from_str(&text).map_err(|e| SettingsError::Corrupt { key, reason: e.to_string() })
        })
        .transpose()
}

/// Saves `value` under `key`, replacing what was there.
pub fn put<T: Serialize>(
    settings: &dyn SettingsRepository,
    key: &'static str,
    value: &T,
) -> Result<(), SettingsError> {
    let text =
        serde_json::to_string(value).map_err(|e| SettingsError::Corrupt { key, reason: e.to_string() })?;
    Ok(settings.put(key, &text)?)
}

/// Forgets `key`, so its default applies again.
pub fn remove(settings: &dyn SettingsRepository, key: &'static str) -> Result<(), SettingsError> {
    Ok(settings.remove(key)?)
}
