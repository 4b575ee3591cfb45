//! The `settings` table as typed values: one JSON document per key. Reading a key that was
//! never saved gives `None`, so every setting has its default in exactly one place (its module).

use rusqlite::{params, Connection, OptionalExtension};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::error::SettingsError;
use skillcase_common::clock;

/// The stored value of `key`, or `None` when it was never saved.
pub fn get<T: DeserializeOwned>(conn: &Connection, key: &'static str) -> Result<Option<T>, SettingsError> {
    let text: Option<String> =
        conn.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional()?;
    text.map(|text| {
        serde_json::from_str(&text).map_err(|e| SettingsError::Corrupt { key, reason: e.to_string() })
    })
    .transpose()
}

/// Saves `value` under `key`, replacing what was there.
pub fn put<T: Serialize>(conn: &Connection, key: &'static str, value: &T) -> Result<(), SettingsError> {
    let text =
        serde_json::to_string(value).map_err(|e| SettingsError::Corrupt { key, reason: e.to_string() })?;
    conn.execute(
        "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        params![key, text, clock::now()],
    )?;
    Ok(())
}

/// Forgets `key`, so its default applies again.
pub fn remove(conn: &Connection, key: &'static str) -> Result<(), SettingsError> {
    conn.execute("DELETE FROM settings WHERE key = ?1", [key])?;
    Ok(())
}
