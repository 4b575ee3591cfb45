//! The `saved_replies` table: each function one statement, or the steps of one transaction, over
//! [`Sql`]. Saved replies live in the desktop's own database.

use super::super::clock;
use super::super::error::CasesError;
use super::super::model::HumanAction;
use super::pick::{self, PickFilter};
use super::{ImportOutcome, ReplyLanguage, SavedReply, SavedReplyInput};
use crate::args;
use crate::sql::{Row, Sql};

const COLUMNS: &str = "id, title, body, action, language, updated_at";

/// Every saved reply, by title (without case).
pub fn list(sql: &mut dyn Sql) -> Result<Vec<SavedReply>, CasesError> {
    let query = format!("SELECT {COLUMNS} FROM saved_replies ORDER BY lower(title), id");
    sql.query(&query, &[])?.iter().map(from_row).collect()
}

/// One saved reply; `saved_reply_not_found` when there is none with `id`.
pub fn get(sql: &mut dyn Sql, id: &str) -> Result<SavedReply, CasesError> {
    let row = sql.query_opt(&format!("SELECT {COLUMNS} FROM saved_replies WHERE id = $1"), args![id])?;
    from_row(&row.ok_or_else(|| CasesError::SavedReplyNotFound { id: id.to_string() })?)
}

/// Checks and stores a new saved reply.
pub fn create(sql: &mut dyn Sql, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
    let input = input.checked()?;
    let id = uuid::Uuid::new_v4().to_string();
    insert(sql, &id, &input, &clock::now())?;
    get(sql, &id)
}

/// Checks and replaces the saved reply `id`.
pub fn update(sql: &mut dyn Sql, id: &str, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
    let input = input.checked()?;
    let search_text = pick::search_text(&input.title, &input.body);
    let changed = sql.execute(
        "UPDATE saved_replies SET title = $2, body = $3, action = $4, language = $5, search_text = $6, \
         updated_at = $7 WHERE id = $1",
        args![
            id,
            &input.title,
            &input.body,
            input.action.map(HumanAction::as_str),
            input.language.map(ReplyLanguage::as_str),
            &search_text,
            clock::now().as_str(),
        ],
    )?;
    if changed == 0 {
        return Err(CasesError::SavedReplyNotFound { id: id.to_string() });
    }
    get(sql, id)
}

/// Deletes the saved reply `id`.
pub fn delete(sql: &mut dyn Sql, id: &str) -> Result<(), CasesError> {
    if sql.execute("DELETE FROM saved_replies WHERE id = $1", args![id])? == 0 {
        return Err(CasesError::SavedReplyNotFound { id: id.to_string() });
    }
    Ok(())
}

/// The saved replies the picker offers under `filter`, best first. Action and language are
/// filtered by SQL, the folded words against the stored `search_text`.
pub fn pick(sql: &mut dyn Sql, filter: &PickFilter) -> Result<Vec<SavedReply>, CasesError> {
    let query = format!(
        "SELECT {COLUMNS}, search_text FROM saved_replies \
         WHERE (action IS NULL OR $1 IS NULL OR action = $1) AND (language IS NULL OR language = $2)"
    );
    let rows = sql.query(&query, args![filter.action.map(HumanAction::as_str), filter.language.as_str()])?;
    let candidates =
        rows.iter().map(|row| Ok((from_row(row)?, row.text(6)?))).collect::<Result<Vec<_>, CasesError>>()?;
    let picked = pick::pick(candidates.iter().map(|(r, t)| (r, t.as_str())), filter);
    Ok(picked.into_iter().cloned().collect())
}

/// Stores the checked `entries` in the caller's transaction: an entry whose title is already
/// saved (without case) replaces that reply, the others are added.
pub fn import(sql: &mut dyn Sql, entries: Vec<SavedReplyInput>) -> Result<ImportOutcome, CasesError> {
    let now = clock::now();
    let mut outcome = ImportOutcome { added: 0, replaced: 0 };
    for input in entries {
        let input = input.checked()?;
        let existing = sql.query_opt(
            "SELECT id FROM saved_replies WHERE lower(title) = lower($1) ORDER BY id LIMIT 1",
            args![&input.title],
        )?;
        match existing {
            Some(row) => {
                let id = row.text(0)?;
                sql.execute("DELETE FROM saved_replies WHERE id = $1", args![&id])?;
                insert(sql, &id, &input, &now)?;
                outcome.replaced += 1;
            }
            None => {
                insert(sql, &uuid::Uuid::new_v4().to_string(), &input, &now)?;
                outcome.added += 1;
            }
        }
    }
    Ok(outcome)
}

fn insert(sql: &mut dyn Sql, id: &str, input: &SavedReplyInput, now: &str) -> Result<(), CasesError> {
    let search_text = pick::search_text(&input.title, &input.body);
    sql.execute(
        "INSERT INTO saved_replies (id, title, body, action, language, search_text, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        args![
            id,
            &input.title,
            &input.body,
            input.action.map(HumanAction::as_str),
            input.language.map(ReplyLanguage::as_str),
            &search_text,
            now,
        ],
    )?;
    Ok(())
}

/// A row, or `db_corrupt` when its action or language is not one this build knows.
fn from_row(r: &Row) -> Result<SavedReply, CasesError> {
    Ok(SavedReply {
        id: r.text(0)?,
        title: r.text(1)?,
        body: r.text(2)?,
        action: r
            .opt_text(3)?
            .map(|a| {
                HumanAction::parse(&a).ok_or(CasesError::Corrupt { what: "saved reply action", value: a })
            })
            .transpose()?,
        language: r
            .opt_text(4)?
            .map(|l| {
                ReplyLanguage::parse(&l).ok_or(CasesError::Corrupt { what: "saved reply language", value: l })
            })
            .transpose()?,
        updated_at: r.text(5)?,
    })
}
