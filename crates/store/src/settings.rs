//! The `settings` table: one JSON document per key. What a key means, its default and its
//! validation belong to the application's settings; this is only where the text is kept.

use std::sync::Arc;

use rusqlite::{params, OptionalExtension};

use crate::{Database, DbError};

/// Where workspace settings are kept, as raw JSON text per key.
pub trait SettingsRepository: Send + Sync + std::fmt::Debug {
    /// The stored JSON of `key`, or `None` when it was never saved.
    fn get(&self, key: &str) -> Result<Option<String>, DbError>;
    /// Saves `json` under `key`, replacing what was there.
    fn put(&self, key: &str, json: &str) -> Result<(), DbError>;
    /// Forgets `key`, so its default applies again.
    fn remove(&self, key: &str) -> Result<(), DbError>;
}

/// The settings table of the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteSettings {
    db: Arc<Database>,
}

impl SqliteSettings {
    pub fn new(db: Arc<Database>) -> Self {
        SqliteSettings { db }
    }
}

impl SettingsRepository for SqliteSettings {
    fn get(&self, key: &str) -> Result<Option<String>, DbError> {
        self.db.read(|c| {
            Ok(c.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional()?)
        })
    }

    fn put(&self, key: &str, json: &str) -> Result<(), DbError> {
        let (key, json) = (key.to_owned(), json.to_owned());
        self.db.write(move |c| {
            c.execute(
                "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                params![key, json, skillcase_common::clock::now()],
            )?;
            Ok(())
        })
    }

    fn remove(&self, key: &str) -> Result<(), DbError> {
        let key = key.to_owned();
        self.db.write(move |c| {
            c.execute("DELETE FROM settings WHERE key = ?1", [key])?;
            Ok(())
        })
    }
}
