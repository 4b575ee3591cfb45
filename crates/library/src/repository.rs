//! What the library keeps in the database, as one trait: immutable versions, the live pointer of
//! each skill, and activations. [`SqliteLibrary`] is its implementation on the embedded database
//! (skills stay on each desktop, so SQLite is the only backend); the library itself never sees a
//! connection. Each method that changes something is one atomic step.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{params, Connection, OptionalExtension};
use skillcase_store::{atomic, Database};

use crate::error::LibraryError;
use crate::store::{self, SkillRow, VersionRow};
use crate::types::{ManifestEntry, VersionSource};
use crate::versions::{Content, StoredValidation};
use skillcase_skill::matcher::Trigger;

/// Content to record as a version of a skill (unless that content is recorded already).
#[derive(Debug, Clone)]
pub struct NewVersion {
    pub name: String,
    pub content: Content,
    pub source: VersionSource,
    /// The catalog version a local copy differs from, if it shadows one.
    pub forked_from: Option<i64>,
}

/// Where a skill's live pointer goes.
#[derive(Debug, Clone)]
pub enum Pointer {
    /// A local folder holding `version` (the index of a [`NewVersion`] in the same step) or, when
    /// the folder is unreadable, no version.
    Local { name: String, version: Option<usize>, fingerprint: Option<String> },
    /// The catalog's version of the skill.
    Catalog { name: String, version: Option<i64> },
    /// The skill has no local folder any more: back to the catalog's version when there is one
    /// (`Some`), else the pointer goes (its versions stay).
    Elsewhere { name: String, catalog_version: Option<Option<i64>> },
}

/// One activation to record (SPEC A7).
#[derive(Debug, Clone)]
pub struct Activation {
    pub skill: String,
    pub version: Option<i64>,
    pub trigger: &'static str,
}

/// One recorded activation, as the activity log shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[ts(export)]
pub struct LoggedActivation {
    /// RFC 3339 UTC.
    pub at: String,
    pub trigger: Trigger,
    pub conversation_id: String,
    /// The customer message; None for activations recorded before messages were kept.
    pub message: Option<String>,
}

/// The library's storage.
pub trait LibraryRepository: Send + Sync + std::fmt::Debug {
    /// Every `skills` row, by name.
    fn skill_rows(&self) -> Result<HashMap<String, SkillRow>, LibraryError>;
    /// The `skills` row of `name`.
    fn skill_row(&self, name: &str) -> Result<Option<SkillRow>, LibraryError>;
    /// The validations of the live versions, by version id.
    fn validations(&self) -> Result<HashMap<i64, StoredValidation>, LibraryError>;
    /// One version.
    fn version(&self, id: i64) -> Result<Option<VersionRow>, LibraryError>;
    /// Every version of `name`, newest first.
    fn versions(&self, name: &str) -> Result<Vec<VersionRow>, LibraryError>;
    /// The id of `name`'s version with this content hash, if recorded.
    fn find_version(&self, name: &str, hash: &str) -> Result<Option<i64>, LibraryError>;
    /// Every manifest ever recorded.
    fn all_manifests(&self) -> Result<Vec<Vec<ManifestEntry>>, LibraryError>;
    /// Records `versions` (reusing recorded content) and moves `pointers`, in one step. Returns,
    /// for each new version, its id and whether it was recorded just now.
    fn commit(
        &self,
        versions: Vec<NewVersion>,
        pointers: Vec<Pointer>,
    ) -> Result<Vec<(i64, bool)>, LibraryError>;
    /// In one step, if `name`'s pointer is a local folder, moves it as [`Pointer::Elsewhere`];
    /// returns whether it was local.
    fn forget_local(&self, name: &str, catalog_version: Option<Option<i64>>) -> Result<bool, LibraryError>;
    /// Records a matched message's activations (with the message) and makes `active` skills
    /// active in the conversation.
    fn record_match(
        &self,
        conversation_id: &str,
        message: &str,
        activations: Vec<Activation>,
        active: Vec<String>,
    ) -> Result<(), LibraryError>;
    /// The latest `limit` activations of `name`, newest first.
    fn recent_activations(&self, name: &str, limit: u32) -> Result<Vec<LoggedActivation>, LibraryError>;
    /// Makes `name` active in `conversation_id`.
    fn activate(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError>;
    /// Whether `name` is active in `conversation_id`.
    fn is_active(&self, conversation_id: &str, name: &str) -> Result<bool, LibraryError>;
    /// Activations of `name` per UTC day (`YYYY-MM-DD`) from `first_day`: `(hard, probe)`.
    fn activity(&self, name: &str, first_day: &str) -> Result<HashMap<String, (u32, u32)>, LibraryError>;
}

/// The library's tables in the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteLibrary {
    pub(crate) db: Arc<Database>,
}

impl SqliteLibrary {
    pub fn new(db: Arc<Database>) -> Self {
        SqliteLibrary { db }
    }
}

impl LibraryRepository for SqliteLibrary {
    fn skill_rows(&self) -> Result<HashMap<String, SkillRow>, LibraryError> {
        self.db.read(|c| Ok(store::skill_rows(c)?))
    }

    fn skill_row(&self, name: &str) -> Result<Option<SkillRow>, LibraryError> {
        self.db.read(|c| Ok(store::skill_row(c, name)?))
    }

    fn validations(&self) -> Result<HashMap<i64, StoredValidation>, LibraryError> {
        self.db.read(|c| Ok(store::validations(c)?))
    }

    fn version(&self, id: i64) -> Result<Option<VersionRow>, LibraryError> {
        self.db.read(|c| Ok(store::version(c, id)?))
    }

    fn versions(&self, name: &str) -> Result<Vec<VersionRow>, LibraryError> {
        self.db.read(|c| Ok(store::versions(c, name)?))
    }

    fn find_version(&self, name: &str, hash: &str) -> Result<Option<i64>, LibraryError> {
        self.db.read(|c| Ok(store::find_version(c, name, hash)?))
    }

    fn all_manifests(&self) -> Result<Vec<Vec<ManifestEntry>>, LibraryError> {
        self.db.read(|c| Ok(store::all_manifests(c)?))
    }

    fn commit(
        &self,
        versions: Vec<NewVersion>,
        pointers: Vec<Pointer>,
    ) -> Result<Vec<(i64, bool)>, LibraryError> {
        self.db.write(move |c| atomic(c, |c| commit(c, &versions, &pointers)))
    }

    fn forget_local(&self, name: &str, catalog_version: Option<Option<i64>>) -> Result<bool, LibraryError> {
        let name = name.to_owned();
        self.db.write(move |c| {
            atomic(c, |c| {
                let was_local = c
                    .query_row("SELECT origin = 'local' FROM skills WHERE name = ?1", [&name], |r| {
                        r.get::<_, bool>(0)
                    })
                    .optional()?
                    .unwrap_or(false);
                if was_local {
                    point_elsewhere(c, &name, catalog_version, &crate::now())?;
                }
                Ok(was_local)
            })
        })
    }

    fn record_match(
        &self,
        conversation_id: &str,
        message: &str,
        activations: Vec<Activation>,
        active: Vec<String>,
    ) -> Result<(), LibraryError> {
        let (conversation_id, message) = (conversation_id.to_owned(), message.to_owned());
        self.db.write(move |c| {
            atomic(c, |c| {
                let stamp = crate::now();
                for a in &activations {
                    c.execute(
                        "INSERT INTO activations (skill, version_id, trigger, conversation_id, at, message)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![a.skill, a.version, a.trigger, conversation_id, stamp, message],
                    )?;
                }
                for name in &active {
                    activate(c, &conversation_id, name, &stamp)?;
                }
                Ok(())
            })
        })
    }

    fn activate(&self, conversation_id: &str, name: &str) -> Result<(), LibraryError> {
        let (conversation_id, name) = (conversation_id.to_owned(), name.to_owned());
        self.db.write(move |c| Ok(activate(c, &conversation_id, &name, &crate::now())?))
    }

    fn is_active(&self, conversation_id: &str, name: &str) -> Result<bool, LibraryError> {
        self.db.read(|c| {
            let found: Option<i64> = c
                .query_row(
                    "SELECT 1 FROM active_skills WHERE conversation_id = ?1 AND skill = ?2",
                    params![conversation_id, name],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(found.is_some())
        })
    }

    fn recent_activations(&self, name: &str, limit: u32) -> Result<Vec<LoggedActivation>, LibraryError> {
        self.db.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT at, trigger, conversation_id, message FROM activations
                 WHERE skill = ?1 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = stmt
                .query_map(params![name, limit], |r| {
                    let trigger: String = r.get(1)?;
                    Ok(LoggedActivation {
                        at: r.get(0)?,
                        trigger: if trigger == "hard" { Trigger::Hard } else { Trigger::Probe },
                        conversation_id: r.get(2)?,
                        message: r.get(3)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    fn activity(&self, name: &str, first_day: &str) -> Result<HashMap<String, (u32, u32)>, LibraryError> {
        self.db.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT substr(at, 1, 10) AS day,
                        sum(trigger = 'hard'), sum(trigger = 'probe')
                 FROM activations WHERE skill = ?1 AND at >= ?2
                 GROUP BY day",
            )?;
            let counted = stmt
                .query_map(params![name, first_day], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?
                .collect::<Result<_, _>>()?;
            Ok(counted)
        })
    }
}

fn commit(
    c: &Connection,
    versions: &[NewVersion],
    pointers: &[Pointer],
) -> Result<Vec<(i64, bool)>, LibraryError> {
    let stamp = crate::now();
    let mut ids = Vec::with_capacity(versions.len());
    for v in versions {
        let found = store::find_version(c, &v.name, &v.content.hash)?;
        ids.push(match found {
            Some(id) => (id, false),
            None => (store::insert_version(c, &v.name, &v.content, v.source, v.forked_from, &stamp)?, true),
        });
    }
    for pointer in pointers {
        match pointer {
            Pointer::Local { name, version, fingerprint } => {
                let id = version.map(|i| ids[i].0);
                store::set_live(c, name, "local", id, fingerprint.as_deref(), &stamp)?;
            }
            Pointer::Catalog { name, version } => {
                store::set_live(c, name, "catalog", *version, None, &stamp)?
            }
            Pointer::Elsewhere { name, catalog_version } => {
                point_elsewhere(c, name, *catalog_version, &stamp)?
            }
        }
    }
    Ok(ids)
}

/// `name` has no local folder any more: point it at the catalog's version or drop its row.
fn point_elsewhere(
    c: &Connection,
    name: &str,
    catalog_version: Option<Option<i64>>,
    stamp: &str,
) -> rusqlite::Result<()> {
    match catalog_version {
        Some(version) => store::set_live(c, name, "catalog", version, None, stamp),
        None => store::remove_skill(c, name),
    }
}

fn activate(c: &Connection, conversation_id: &str, name: &str, stamp: &str) -> rusqlite::Result<()> {
    c.execute(
        "INSERT OR IGNORE INTO active_skills (conversation_id, skill, since) VALUES (?1, ?2, ?3)",
        params![conversation_id, name, stamp],
    )?;
    Ok(())
}
