//! What people taught the guardrail (SPEC B5): their marks on the agent's messages ("not a
//! promise", "this promised a follow-up"), the guardrail's veto log they mark from, and the model
//! a retrain with the marks adopted. Each function is one statement, or the steps of one
//! transaction, over [`Sql`], so the desktop's database and a team's share one history of marks.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::args;
use crate::clock;
use crate::error::CasesError;
use crate::sql::{Row, Sql};
use skillcase_guard::retrain::Report;
use skillcase_guard::MAX_MESSAGE_CHARS;

/// Where the person saw the message they marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardMarkSource")]
pub enum MarkSource {
    /// The guardrail's veto log: a message it stopped.
    Veto,
    /// A case's conversation: a message the agent sent.
    Conversation,
}

impl MarkSource {
    fn as_str(self) -> &'static str {
        match self {
            MarkSource::Veto => "veto",
            MarkSource::Conversation => "conversation",
        }
    }

    fn parse(s: &str) -> Result<MarkSource, CasesError> {
        match s {
            "veto" => Ok(MarkSource::Veto),
            "conversation" => Ok(MarkSource::Conversation),
            other => Err(CasesError::Corrupt { what: "guard mark source", value: other.to_string() }),
        }
    }
}

/// A mark to store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "NewGuardMark")]
pub struct NewMark {
    /// The message as the agent wrote it.
    pub text: String,
    /// True: "this promised a follow-up"; false: "not a promise".
    pub promise: bool,
    pub source: MarkSource,
    /// The conversation the message belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub conversation_id: Option<String>,
}

/// A stored mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardMark")]
pub struct Mark {
    #[ts(type = "number")]
    pub id: i64,
    pub text: String,
    pub promise: bool,
    pub source: MarkSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub conversation_id: Option<String>,
    /// Who marked it.
    pub marked_by: String,
    pub marked_at: String,
}

/// One turn the guardrail vetoed, as the veto log shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardVetoEntry")]
pub struct VetoEntry {
    pub conversation_id: String,
    pub turn_id: String,
    /// Vetoes in the turn (the second opens a case).
    #[ts(type = "number")]
    pub vetoes: i64,
    pub last_at: String,
    /// The sentence that made the promise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub evidence: Option<String>,
    /// The whole message last vetoed (none for vetoes recorded before the log kept messages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// The case the guardrail opened for the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub auto_case_id: Option<String>,
    /// The person's verdict on the message, when they marked it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub marked: Option<bool>,
}

/// The model a retrain adopted, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct AdoptedModel {
    pub model: skillcase_guard::model::Model,
    pub report: Report,
    pub adopted_by: String,
    pub adopted_at: String,
}

/// The longest veto log the window asks for at once.
pub const MAX_VETOES: i64 = 500;

const MARK_COLUMNS: &str = "id, text, promise, source, conversation_id, marked_by, marked_at";

/// Stores a person's mark. A message marked again keeps only its newest mark.
pub fn add_mark(sql: &mut dyn Sql, new: &NewMark, by: &str) -> Result<Mark, CasesError> {
    let text = checked_text(&new.text)?;
    sql.execute("DELETE FROM guard_marks WHERE text = $1", args![text])?;
    let row = sql.query_one(
        &format!(
            "INSERT INTO guard_marks (text, promise, source, conversation_id, marked_by, marked_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {MARK_COLUMNS}"
        ),
        args![
            text,
            new.promise,
            new.source.as_str(),
            new.conversation_id.as_deref(),
            by,
            clock::now().as_str()
        ],
    )?;
    mark_of(&row)
}

/// Removes the mark `id` (`guard_mark_not_found` when there is none).
pub fn remove_mark(sql: &mut dyn Sql, id: i64) -> Result<(), CasesError> {
    if sql.execute("DELETE FROM guard_marks WHERE id = $1", args![id])? == 0 {
        return Err(CasesError::GuardMarkNotFound { id });
    }
    Ok(())
}

/// Every mark, oldest first: the order a retrain reads them in, so it is deterministic.
pub fn marks(sql: &mut dyn Sql) -> Result<Vec<Mark>, CasesError> {
    sql.query(&format!("SELECT {MARK_COLUMNS} FROM guard_marks ORDER BY id"), &[])?
        .iter()
        .map(mark_of)
        .collect()
}

/// The newest `limit` vetoed turns (at most [`MAX_VETOES`]), newest first, with the person's
/// mark on each message.
pub fn vetoes(sql: &mut dyn Sql, limit: i64) -> Result<Vec<VetoEntry>, CasesError> {
    let rows = sql.query(
        "SELECT v.conversation_id, v.turn_id, v.vetoes, v.last_at, v.last_evidence, v.last_message, \
         v.auto_case_id, (SELECT m.promise FROM guard_marks m WHERE m.text = v.last_message) \
         FROM guard_vetoes v ORDER BY v.last_at DESC, v.conversation_id, v.turn_id LIMIT $1",
        args![limit.clamp(1, MAX_VETOES)],
    )?;
    rows.iter()
        .map(|row| {
            Ok(VetoEntry {
                conversation_id: row.text(0)?,
                turn_id: row.text(1)?,
                vetoes: row.int(2)?,
                last_at: row.text(3)?,
                evidence: row.opt_text(4)?,
                message: row.opt_text(5)?,
                auto_case_id: row.opt_text(6)?,
                marked: row.opt_bool(7)?,
            })
        })
        .collect()
}

/// The model a retrain adopted, if one did.
pub fn adopted_model(sql: &mut dyn Sql) -> Result<Option<AdoptedModel>, CasesError> {
    let Some(row) = sql.query_opt("SELECT model, report, adopted_by, adopted_at FROM guard_model", &[])?
    else {
        return Ok(None);
    };
    let corrupt = |what: &'static str, value: String| CasesError::Corrupt { what, value };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(row.text(0)?)
        .map_err(|e| corrupt("guard model", e.to_string()))?;
    let model = skillcase_guard::model::Model::from_bytes(&bytes).map_err(|e| corrupt("guard model", e))?;
    let report =
        serde_json::from_str(&row.text(1)?).map_err(|e| corrupt("guard retrain report", e.to_string()))?;
    Ok(Some(AdoptedModel { model, report, adopted_by: row.text(2)?, adopted_at: row.text(3)? }))
}

/// When the adopted model was adopted (`None`: the shipped model is in use): what an instance
/// compares to know whether its copy of the model is the workspace's.
pub fn adopted_at(sql: &mut dyn Sql) -> Result<Option<String>, CasesError> {
    sql.query_opt("SELECT adopted_at FROM guard_model", &[])?.map(|row| row.text(0)).transpose()
}

/// Makes `model` the workspace's guardrail model, with the report that adopted it.
pub fn adopt_model(
    sql: &mut dyn Sql,
    model: &skillcase_guard::model::Model,
    report: &Report,
    by: &str,
) -> Result<String, CasesError> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(model.to_bytes());
    let at = clock::now();
    sql.execute("DELETE FROM guard_model", &[])?;
    sql.execute(
        "INSERT INTO guard_model (id, model, report, adopted_by, adopted_at) VALUES (1, $1, $2, $3, $4)",
        args![&encoded, &crate::sql::json(report), by, at.as_str()],
    )?;
    Ok(at)
}

/// Goes back to the shipped model.
pub fn forget_model(sql: &mut dyn Sql) -> Result<(), CasesError> {
    sql.execute("DELETE FROM guard_model", &[])?;
    Ok(())
}

fn checked_text(text: &str) -> Result<&str, CasesError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(CasesError::TextRequired { field: "text" });
    }
    let chars = text.chars().count();
    if chars > MAX_MESSAGE_CHARS {
        return Err(CasesError::InvalidInput {
            field: "text",
            reason: format!(
                "is {chars} characters long; the guardrail reads messages of at most {MAX_MESSAGE_CHARS}"
            ),
        });
    }
    Ok(text)
}

fn mark_of(row: &Row) -> Result<Mark, CasesError> {
    Ok(Mark {
        id: row.int(0)?,
        text: row.text(1)?,
        promise: row.bool(2)?,
        source: MarkSource::parse(&row.text(3)?)?,
        conversation_id: row.opt_text(4)?,
        marked_by: row.text(5)?,
        marked_at: row.text(6)?,
    })
}
