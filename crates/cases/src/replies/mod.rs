//! Saved replies: texts a person writes once and inserts into a reply with `#`, with
//! variables (`{{lead.name}}`, `{{case.number}}`, `{{person.name}}`, …) filled from the case.
//!
//! - [`template`]: the variables, the save-time check and the one rendering function.
//! - [`pick`]: which saved replies the picker offers for a typed query, action and language.
//! - [`file`]: the JSON file Settings imports and exports (`docs/saved-replies.md`).
//! - [`store`]: the `saved_replies` table (migration 12).
//!
//! A saved reply is limited to one of the three answers or offered for all of them, and to one
//! UI language or offered in both.

pub mod file;
pub mod pick;
pub mod store;
pub mod template;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::error::CasesError;
use super::model::HumanAction;

/// The longest title accepted, in characters.
pub const MAX_TITLE_CHARS: usize = 120;
/// The longest body accepted, in characters.
pub const MAX_BODY_CHARS: usize = 10_000;

/// The UI language a saved reply is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export)]
pub enum ReplyLanguage {
    #[serde(rename = "en")]
    En,
    #[serde(rename = "pt-BR")]
    PtBr,
}

impl ReplyLanguage {
    /// The name stored in the database and in the JSON file.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplyLanguage::En => "en",
            ReplyLanguage::PtBr => "pt-BR",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<ReplyLanguage> {
        [ReplyLanguage::En, ReplyLanguage::PtBr].into_iter().find(|l| l.as_str() == name)
    }
}

/// A saved reply as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SavedReply {
    pub id: String,
    pub title: String,
    /// The text with its `{{variables}}`, as written.
    pub body: String,
    /// The one answer it is offered for; `None`: all three.
    pub action: Option<HumanAction>,
    /// The one UI language it is offered in; `None`: both.
    pub language: Option<ReplyLanguage>,
    pub updated_at: String,
}

/// What a person types into Settings to add or change a saved reply (and one entry of the file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SavedReplyInput {
    pub title: String,
    pub body: String,
    #[serde(default)]
    pub action: Option<HumanAction>,
    #[serde(default)]
    pub language: Option<ReplyLanguage>,
}

impl SavedReplyInput {
    /// The input with title and body trimmed, checked: `invalid_saved_reply` naming the field
    /// for a blank or too long title or body, `unknown_variable` naming the first variable the
    /// body uses that Skillcase does not know.
    pub fn checked(self) -> Result<SavedReplyInput, CasesError> {
        let title = self.title.trim().to_string();
        let body = self.body.trim().to_string();
        for (field, text, max) in [("title", &title, MAX_TITLE_CHARS), ("body", &body, MAX_BODY_CHARS)] {
            if text.is_empty() {
                return Err(CasesError::InvalidSavedReply { field, reason: "must not be blank".into() });
            }
            if text.chars().count() > max {
                return Err(CasesError::InvalidSavedReply {
                    field,
                    reason: format!("must be at most {max} characters"),
                });
            }
        }
        template::check(&body)?;
        Ok(SavedReplyInput { title, body, ..self })
    }
}

/// One saved reply the picker offers: its text already rendered for the case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PickedReply {
    pub id: String,
    pub title: String,
    /// The body with every variable filled from the case and the person.
    pub text: String,
    pub action: Option<HumanAction>,
    pub language: Option<ReplyLanguage>,
}

/// What an import did: how many saved replies it added and how many (same title) it replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImportOutcome {
    pub added: u32,
    pub replaced: u32,
}

/// Where saved replies live: one implementation per backend, like the cases repository.
pub trait SavedRepliesRepository: Send + Sync {
    /// Every saved reply, by title.
    fn list(&self) -> Result<Vec<SavedReply>, CasesError>;
    /// Checks and stores a new saved reply.
    fn create(&self, input: SavedReplyInput) -> Result<SavedReply, CasesError>;
    /// Checks and replaces one; `saved_reply_not_found` when there is no such id.
    fn update(&self, id: &str, input: SavedReplyInput) -> Result<SavedReply, CasesError>;
    /// Deletes one; `saved_reply_not_found` when there is no such id.
    fn delete(&self, id: &str) -> Result<(), CasesError>;
    /// The saved replies for the picker: action and language first, then the folded query.
    fn pick(&self, filter: &pick::PickFilter) -> Result<Vec<SavedReply>, CasesError>;
    /// Stores every entry (already checked) in one transaction: a title already saved is
    /// replaced, the others added.
    fn import(&self, entries: Vec<SavedReplyInput>) -> Result<ImportOutcome, CasesError>;
}
