//! The `saved_replies` table: each function one statement or one transaction on a connection,
//! called by [`crate::sqlite::SqliteCases`] on the single writer or the read pool.

use rusqlite::{params, Connection, OptionalExtension, Row};
use skillcase_store::atomic;

use super::super::clock;
use super::super::error::CasesError;
use super::super::model::HumanAction;
use super::pick::{self, PickFilter};
use super::{ImportOutcome, ReplyLanguage, SavedReply, SavedReplyInput};

const COLUMNS: &str = "id, title, body, action, language, updated_at";

/// Every saved reply, by title (without case).
pub fn list(conn: &Connection) -> Result<Vec<SavedReply>, CasesError> {
    let mut stmt = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM saved_replies ORDER BY title COLLATE NOCASE, id"))?;
    let rows = stmt.query_map([], |r| Ok(from_row(r)))?;
    rows.map(|row| row?).collect()
}

/// One saved reply; `saved_reply_not_found` when there is none with `id`.
pub fn get(conn: &Connection, id: &str) -> Result<SavedReply, CasesError> {
    conn.query_row(&format!("SELECT {COLUMNS} FROM saved_replies WHERE id = ?1"), [id], |r| Ok(from_row(r)))
        .optional()?
        .ok_or_else(|| CasesError::SavedReplyNotFound { id: id.to_string() })?
}

/// Checks and stores a new saved reply.
pub fn create(conn: &Connection, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
    let input = input.checked()?;
    let id = uuid::Uuid::new_v4().to_string();
    insert(conn, &id, &input, &clock::now())?;
    get(conn, &id)
}

/// Checks and replaces the saved reply `id`.
pub fn update(conn: &Connection, id: &str, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
    let input = input.checked()?;
    let changed = conn.execute(
        "UPDATE saved_replies SET title = ?2, body = ?3, action = ?4, language = ?5, search_text = ?6, \
         updated_at = ?7 WHERE id = ?1",
        params![
            id,
            input.title,
            input.body,
            input.action.map(HumanAction::as_str),
            input.language.map(ReplyLanguage::as_str),
            pick::search_text(&input.title, &input.body),
            clock::now(),
        ],
    )?;
    if changed == 0 {
        return Err(CasesError::SavedReplyNotFound { id: id.to_string() });
    }
    get(conn, id)
}

/// Deletes the saved reply `id`.
pub fn delete(conn: &Connection, id: &str) -> Result<(), CasesError> {
    if conn.execute("DELETE FROM saved_replies WHERE id = ?1", [id])? == 0 {
        return Err(CasesError::SavedReplyNotFound { id: id.to_string() });
    }
    Ok(())
}

/// The saved replies the picker offers under `filter`, best first. Action and language are
/// filtered by SQL, the folded words against the stored `search_text`.
pub fn pick(conn: &Connection, filter: &PickFilter) -> Result<Vec<SavedReply>, CasesError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, search_text FROM saved_replies \
         WHERE (action IS NULL OR ?1 IS NULL OR action = ?1) AND (language IS NULL OR language = ?2)"
    ))?;
    let rows = stmt
        .query_map(params![filter.action.map(HumanAction::as_str), filter.language.as_str()], |r| {
            Ok((from_row(r), r.get::<_, String>(6)?))
        })?;
    let mut candidates = Vec::new();
    for row in rows {
        let (reply, text) = row?;
        candidates.push((reply?, text));
    }
    let picked = pick::pick(candidates.iter().map(|(r, t)| (r, t.as_str())), filter);
    Ok(picked.into_iter().cloned().collect())
}

/// Stores the checked `entries` in one transaction: an entry whose title is already saved
/// (without case) replaces that reply, the others are added.
pub fn import(conn: &Connection, entries: Vec<SavedReplyInput>) -> Result<ImportOutcome, CasesError> {
    atomic(conn, |tx| {
        let now = clock::now();
        let mut outcome = ImportOutcome { added: 0, replaced: 0 };
        for input in entries {
            let input = input.checked()?;
            let existing: Option<String> = tx
                .query_row(
                    "SELECT id FROM saved_replies WHERE title = ?1 COLLATE NOCASE ORDER BY id LIMIT 1",
                    [&input.title],
                    |r| r.get(0),
                )
                .optional()?;
            match existing {
                Some(id) => {
                    tx.execute("DELETE FROM saved_replies WHERE id = ?1", [&id])?;
                    insert(tx, &id, &input, &now)?;
                    outcome.replaced += 1;
                }
                None => {
                    insert(tx, &uuid::Uuid::new_v4().to_string(), &input, &now)?;
                    outcome.added += 1;
                }
            }
        }
        Ok(outcome)
    })
}

fn insert(conn: &Connection, id: &str, input: &SavedReplyInput, now: &str) -> Result<(), CasesError> {
    conn.execute(
        "INSERT INTO saved_replies (id, title, body, action, language, search_text, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            input.title,
            input.body,
            input.action.map(HumanAction::as_str),
            input.language.map(ReplyLanguage::as_str),
            pick::search_text(&input.title, &input.body),
            now,
        ],
    )?;
    Ok(())
}

/// A row, or `db_corrupt` when its action or language is not one this build knows.
fn from_row(r: &Row<'_>) -> Result<SavedReply, CasesError> {
    let action: Option<String> = r.get(3)?;
    let language: Option<String> = r.get(4)?;
    Ok(SavedReply {
        id: r.get(0)?,
        title: r.get(1)?,
        body: r.get(2)?,
        action: action
            .map(|a| {
                HumanAction::parse(&a).ok_or(CasesError::Corrupt { what: "saved reply action", value: a })
            })
            .transpose()?,
        language: language
            .map(|l| {
                ReplyLanguage::parse(&l).ok_or(CasesError::Corrupt { what: "saved reply language", value: l })
            })
            .transpose()?,
        updated_at: r.get(5)?,
    })
}
