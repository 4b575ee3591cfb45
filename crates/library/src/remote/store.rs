//! The remote catalogs' storage (migration 17): subscriptions, what each pull found, and the
//! forks made on install, as one trait ([`RemoteRepository`]) implemented on the embedded
//! database beside the library's own tables.

use rusqlite::{params, Connection, OptionalExtension, Row};
use skillcase_store::atomic;

use super::error::RemoteError;
use super::types::CatalogKind;
use crate::error::LibraryError;
use crate::repository::SqliteLibrary;
use crate::types::ManifestEntry;

/// A `remote_catalogs` row with how many skills its last pull found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogRow {
    pub id: i64,
    pub url: String,
    pub kind: CatalogKind,
    /// The name of the file holding the catalog's bearer token, when it needs one (the token
    /// itself is never in the database: `skillcase_store::secrets`).
    pub token_ref: Option<String>,
    pub added_at: String,
    pub pulled_at: Option<String>,
    pub last_error: Option<String>,
    pub skills: u32,
}

/// A `remote_skills` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulledRow {
    pub catalog_id: i64,
    pub name: String,
    pub version: Option<String>,
    pub description: String,
    pub manifest: Vec<ManifestEntry>,
    pub digest: String,
    pub pulled_at: String,
    pub removed_at: Option<String>,
    pub revoked: bool,
}

/// A `remote_forks` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkRow {
    pub name: String,
    pub catalog_id: Option<i64>,
    pub catalog_url: String,
    pub upstream_name: String,
    pub upstream_version: Option<String>,
    pub upstream_digest: String,
    pub version_id: Option<i64>,
    pub installed_at: String,
}

/// What one pull changes, written in one step.
#[derive(Debug, Clone, Default)]
pub struct PullWrite {
    /// Skills listed now (inserted or replaced; `removed_at` cleared).
    pub present: Vec<PulledRow>,
    /// Skills gone or revoked: `(name, revoked)`; their rows stay with `removed_at` set.
    pub removed: Vec<(String, bool)>,
}

/// The remote catalogs' storage.
pub trait RemoteRepository: Send + Sync + std::fmt::Debug {
    /// Adds a subscription (with the reference of its token's file); `catalog_exists` when the URL
    /// is subscribed already.
    fn insert_catalog(
        &self,
        url: &str,
        kind: CatalogKind,
        token_ref: Option<&str>,
    ) -> Result<i64, LibraryError>;
    /// Removes a subscription and what its pulls found; false when there was none.
    fn delete_catalog(&self, id: i64) -> Result<bool, LibraryError>;
    /// Every subscription, oldest first.
    fn catalogs(&self) -> Result<Vec<CatalogRow>, LibraryError>;
    /// One subscription.
    fn catalog(&self, id: i64) -> Result<Option<CatalogRow>, LibraryError>;
    /// What the last pulls found, of one catalog or all, by catalog and name.
    fn pulled(&self, catalog: Option<i64>) -> Result<Vec<PulledRow>, LibraryError>;
    /// Records a successful pull of `catalog` in one step.
    fn record_pull(&self, catalog: i64, write: PullWrite) -> Result<(), LibraryError>;
    /// Notes why the last pull of `catalog` failed.
    fn record_pull_error(&self, catalog: i64, error: String) -> Result<(), LibraryError>;
    /// Every fork made on install.
    fn forks(&self) -> Result<Vec<ForkRow>, LibraryError>;
    /// Records (or replaces) the fork of local skill `row.name`.
    fn record_fork(&self, row: ForkRow) -> Result<(), LibraryError>;
    /// Every pulled manifest (the blob collector keeps what they name).
    fn pulled_manifests(&self) -> Result<Vec<Vec<ManifestEntry>>, LibraryError>;
}

const CATALOG_COLUMNS: &str = "c.id, c.url, c.kind, c.token_ref, c.added_at, c.pulled_at, c.last_error,
    (SELECT count(*) FROM remote_skills s WHERE s.catalog_id = c.id AND s.removed_at IS NULL)";

fn catalog_from(row: &Row<'_>) -> rusqlite::Result<CatalogRow> {
    let kind: String = row.get(2)?;
    Ok(CatalogRow {
        id: row.get(0)?,
        url: row.get(1)?,
        kind: CatalogKind::parse(&kind).unwrap_or(CatalogKind::Index),
        token_ref: row.get(3)?,
        added_at: row.get(4)?,
        pulled_at: row.get(5)?,
        last_error: row.get(6)?,
        skills: row.get(7)?,
    })
}

const PULLED_COLUMNS: &str =
    "catalog_id, name, version, description, manifest, digest, pulled_at, removed_at, revoked";

fn pulled_from(row: &Row<'_>) -> rusqlite::Result<PulledRow> {
    let manifest: String = row.get(4)?;
    Ok(PulledRow {
        catalog_id: row.get(0)?,
        name: row.get(1)?,
        version: row.get(2)?,
        description: row.get(3)?,
        manifest: serde_json::from_str(&manifest).unwrap_or_default(),
        digest: row.get(5)?,
        pulled_at: row.get(6)?,
        removed_at: row.get(7)?,
        revoked: row.get(8)?,
    })
}

fn upsert_pulled(c: &Connection, row: &PulledRow) -> rusqlite::Result<()> {
    c.execute(
        "INSERT INTO remote_skills (catalog_id, name, version, description, manifest, digest, pulled_at, removed_at, revoked)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, 0)
         ON CONFLICT (catalog_id, name) DO UPDATE SET
            version = excluded.version, description = excluded.description,
            manifest = excluded.manifest, digest = excluded.digest,
            pulled_at = excluded.pulled_at, removed_at = NULL, revoked = 0",
        params![
            row.catalog_id,
            row.name,
            row.version,
            row.description,
            serde_json::to_string(&row.manifest).expect("a manifest serialises"),
            row.digest,
            row.pulled_at,
        ],
    )?;
    Ok(())
}

impl RemoteRepository for SqliteLibrary {
    fn insert_catalog(
        &self,
        url: &str,
        kind: CatalogKind,
        token_ref: Option<&str>,
    ) -> Result<i64, LibraryError> {
        let (url, token_ref) = (url.to_string(), token_ref.map(str::to_string));
        self.db.write(move |c| {
            atomic(c, |c| {
                let existing: Option<i64> = c
                    .query_row("SELECT id FROM remote_catalogs WHERE url = ?1", [&url], |r| r.get(0))
                    .optional()?;
                if let Some(id) = existing {
                    return Err(RemoteError::Exists { url: url.clone(), id }.into());
                }
                c.execute(
                    "INSERT INTO remote_catalogs (url, kind, token_ref, added_at) VALUES (?1, ?2, ?3, ?4)",
                    params![url, kind.as_str(), token_ref, crate::now()],
                )?;
                Ok(c.last_insert_rowid())
            })
        })
    }

    fn delete_catalog(&self, id: i64) -> Result<bool, LibraryError> {
        self.db.write(move |c| Ok(c.execute("DELETE FROM remote_catalogs WHERE id = ?1", [id])? > 0))
    }

    fn catalogs(&self) -> Result<Vec<CatalogRow>, LibraryError> {
        self.db.read(|c| {
            let mut stmt =
                c.prepare(&format!("SELECT {CATALOG_COLUMNS} FROM remote_catalogs c ORDER BY c.id"))?;
            let rows = stmt.query_map([], catalog_from)?.collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    fn catalog(&self, id: i64) -> Result<Option<CatalogRow>, LibraryError> {
        self.db.read(|c| {
            Ok(c.query_row(
                &format!("SELECT {CATALOG_COLUMNS} FROM remote_catalogs c WHERE c.id = ?1"),
                [id],
                catalog_from,
            )
            .optional()?)
        })
    }

    fn pulled(&self, catalog: Option<i64>) -> Result<Vec<PulledRow>, LibraryError> {
        self.db.read(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {PULLED_COLUMNS} FROM remote_skills WHERE ?1 IS NULL OR catalog_id = ?1
                 ORDER BY catalog_id, name"
            ))?;
            let rows = stmt.query_map([catalog], pulled_from)?.collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    fn record_pull(&self, catalog: i64, write: PullWrite) -> Result<(), LibraryError> {
        self.db.write(move |c| {
            atomic(c, |c| {
                let stamp = crate::now();
                for row in &write.present {
                    upsert_pulled(c, row)?;
                }
                for (name, revoked) in &write.removed {
                    c.execute(
                        "UPDATE remote_skills SET removed_at = coalesce(removed_at, ?3), revoked = ?4
                         WHERE catalog_id = ?1 AND name = ?2",
                        params![catalog, name, stamp, revoked],
                    )?;
                }
                c.execute(
                    "UPDATE remote_catalogs SET pulled_at = ?2, last_error = NULL WHERE id = ?1",
                    params![catalog, stamp],
                )?;
                Ok(())
            })
        })
    }

    fn record_pull_error(&self, catalog: i64, error: String) -> Result<(), LibraryError> {
        self.db.write(move |c| {
            c.execute("UPDATE remote_catalogs SET last_error = ?2 WHERE id = ?1", params![catalog, error])?;
            Ok(())
        })
    }

    fn forks(&self) -> Result<Vec<ForkRow>, LibraryError> {
        self.db.read(|c| {
            let mut stmt = c.prepare(
                "SELECT name, catalog_id, catalog_url, upstream_name, upstream_version, upstream_digest,
                        version_id, installed_at
                 FROM remote_forks ORDER BY name",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(ForkRow {
                        name: r.get(0)?,
                        catalog_id: r.get(1)?,
                        catalog_url: r.get(2)?,
                        upstream_name: r.get(3)?,
                        upstream_version: r.get(4)?,
                        upstream_digest: r.get(5)?,
                        version_id: r.get(6)?,
                        installed_at: r.get(7)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
    }

    fn record_fork(&self, row: ForkRow) -> Result<(), LibraryError> {
        self.db.write(move |c| {
            c.execute(
                "INSERT OR REPLACE INTO remote_forks
                    (name, catalog_id, catalog_url, upstream_name, upstream_version, upstream_digest, version_id, installed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    row.name,
                    row.catalog_id,
                    row.catalog_url,
                    row.upstream_name,
                    row.upstream_version,
                    row.upstream_digest,
                    row.version_id,
                    row.installed_at,
                ],
            )?;
            Ok(())
        })
    }

    fn pulled_manifests(&self) -> Result<Vec<Vec<ManifestEntry>>, LibraryError> {
        self.db.read(|c| {
            let mut stmt = c.prepare("SELECT manifest FROM remote_skills")?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
            rows.map(|text| Ok(text.map(|t| serde_json::from_str(&t).unwrap_or_default())?)).collect()
        })
    }
}
