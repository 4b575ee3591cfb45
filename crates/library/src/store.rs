//! The library's SQL: versions (immutable rows), the live pointer per skill, and reads of both.
//! Functions take a connection or transaction; the caller decides the transaction boundaries
//! (each library write is one `BEGIN IMMEDIATE` transaction, committed after the folder is in place).

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::types::{ManifestEntry, VersionInfo, VersionSource};
use crate::versions::{Content, StoredValidation};

/// A stored version with its manifest and validation.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionRow {
    pub id: i64,
    pub name: String,
    pub content_hash: String,
    pub manifest: Vec<ManifestEntry>,
    pub validation: StoredValidation,
    pub source: VersionSource,
    pub forked_from: Option<i64>,
    pub created_at: String,
}

impl VersionRow {
    /// The row as the UI sees it.
    pub fn info(&self, live: bool) -> VersionInfo {
        VersionInfo {
            id: self.id,
            name: self.name.clone(),
            content_hash: self.content_hash.clone(),
            source: self.source,
            forked_from: self.forked_from,
            created_at: self.created_at.clone(),
            validity: self.validation.validity(),
            files: self.manifest.len() as u32,
            bytes: self.manifest.iter().map(|m| m.size).sum(),
            live,
        }
    }
}

/// A `skills` row: where the live folder is and which version it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRow {
    pub origin: String,
    pub live_version_id: Option<i64>,
    pub fingerprint: Option<String>,
    pub updated_at: String,
}

const VERSION_COLUMNS: &str = "id, name, content_hash, manifest, validation, source, forked_from, created_at";

fn version_from(row: &Row<'_>) -> rusqlite::Result<VersionRow> {
    let manifest: String = row.get(3)?;
    let validation: String = row.get(4)?;
    let source: String = row.get(5)?;
    Ok(VersionRow {
        id: row.get(0)?,
        name: row.get(1)?,
        content_hash: row.get(2)?,
        manifest: serde_json::from_str(&manifest).unwrap_or_default(),
        validation: serde_json::from_str(&validation).unwrap_or_default(),
        source: VersionSource::parse(&source),
        forked_from: row.get(6)?,
        created_at: row.get(7)?,
    })
}

/// The id of `name`'s version with this content, if recorded.
pub fn find_version(conn: &Connection, name: &str, hash: &str) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT id FROM skill_versions WHERE name = ?1 AND content_hash = ?2",
        params![name, hash],
        |r| r.get(0),
    )
    .optional()
}

/// Records a new version and returns its id.
pub fn insert_version(
    conn: &Connection,
    name: &str,
    content: &Content,
    source: VersionSource,
    forked_from: Option<i64>,
    now: &str,
) -> rusqlite::Result<i64> {
    let json = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string());
    conn.execute(
        "INSERT INTO skill_versions
            (name, content_hash, manifest, frontmatter, config, validation, source, forked_from, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            name,
            content.hash,
            serde_json::to_string(&content.manifest).expect("a manifest serialises"),
            json(&content.frontmatter),
            json(&content.config),
            serde_json::to_string(&content.validation).expect("findings serialise"),
            source.as_str(),
            forked_from,
            now,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The version `id`, if recorded.
pub fn version(conn: &Connection, id: i64) -> rusqlite::Result<Option<VersionRow>> {
    conn.query_row(&format!("SELECT {VERSION_COLUMNS} FROM skill_versions WHERE id = ?1"), [id], version_from)
        .optional()
}

/// Every version of `name`, newest first.
pub fn versions(conn: &Connection, name: &str) -> rusqlite::Result<Vec<VersionRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {VERSION_COLUMNS} FROM skill_versions WHERE name = ?1 ORDER BY id DESC"
    ))?;
    let rows = stmt.query_map([name], version_from)?;
    rows.collect()
}

/// Every `skills` row, by name.
pub fn skill_rows(conn: &Connection) -> rusqlite::Result<HashMap<String, SkillRow>> {
    let mut stmt =
        conn.prepare("SELECT name, origin, live_version_id, fingerprint, updated_at FROM skills")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            SkillRow {
                origin: r.get(1)?,
                live_version_id: r.get(2)?,
                fingerprint: r.get(3)?,
                updated_at: r.get(4)?,
            },
        ))
    })?;
    rows.collect()
}

/// The `skills` row of `name`, if any.
pub fn skill_row(conn: &Connection, name: &str) -> rusqlite::Result<Option<SkillRow>> {
    conn.query_row(
        "SELECT origin, live_version_id, fingerprint, updated_at FROM skills WHERE name = ?1",
        [name],
        |r| {
            Ok(SkillRow {
                origin: r.get(0)?,
                live_version_id: r.get(1)?,
                fingerprint: r.get(2)?,
                updated_at: r.get(3)?,
            })
        },
    )
    .optional()
}

/// Validation results of the live versions, by id (the scan reads them for unchanged folders).
pub fn validations(conn: &Connection) -> rusqlite::Result<HashMap<i64, StoredValidation>> {
    let mut stmt = conn.prepare(
        "SELECT v.id, v.validation FROM skill_versions v JOIN skills s ON s.live_version_id = v.id",
    )?;
    let rows = stmt.query_map([], |r| {
        let text: String = r.get(1)?;
        Ok((r.get::<_, i64>(0)?, serde_json::from_str(&text).unwrap_or_default()))
    })?;
    rows.collect()
}

/// Sets where `name`'s live folder is and which version it holds.
pub fn set_live(
    conn: &Connection,
    name: &str,
    origin: &str,
    version_id: Option<i64>,
    fingerprint: Option<&str>,
    now: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO skills (name, origin, live_version_id, fingerprint, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (name) DO UPDATE SET
            origin = excluded.origin,
            live_version_id = excluded.live_version_id,
            fingerprint = excluded.fingerprint,
            updated_at = CASE WHEN skills.live_version_id IS excluded.live_version_id
                              THEN skills.updated_at ELSE excluded.updated_at END",
        params![name, origin, version_id, fingerprint, now],
    )?;
    Ok(())
}

/// Forgets `name`'s pointer (its versions stay, so a skill created again keeps its history).
pub fn remove_skill(conn: &Connection, name: &str) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM skills WHERE name = ?1", [name])?;
    Ok(())
}

/// Every manifest ever recorded (the blob collector keeps what any of them names).
pub fn all_manifests(conn: &Connection) -> rusqlite::Result<Vec<Vec<ManifestEntry>>> {
    let mut stmt = conn.prepare("SELECT manifest FROM skill_versions")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.map(|text| text.map(|t| serde_json::from_str(&t).unwrap_or_default())).collect()
}
