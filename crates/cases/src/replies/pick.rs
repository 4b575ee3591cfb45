//! What the reply box's picker offers while the person types `#query`: the saved replies for the
//! chosen answer (and those for all answers) in the UI language (and those for both), whose
//! title or body holds every word of the query, compared without case or accents.
//!
//! Replies whose title starts with the query come first, then those whose title holds it, then
//! the rest, each group by title; at most [`LIMIT`] are offered.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use unicode_normalization::char::{decompose_canonical, is_combining_mark};

use super::super::model::HumanAction;
use super::{ReplyLanguage, SavedReply};

/// How many saved replies the picker shows at most.
pub const LIMIT: usize = 30;

/// What the picker asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PickFilter {
    /// The answer being written; `None` offers replies for every answer.
    pub action: Option<HumanAction>,
    /// The UI language.
    pub language: ReplyLanguage,
    /// What follows the `#`, as typed.
    pub query: String,
}

/// `text` in lower case without accents, as titles, bodies and queries are compared.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        decompose_canonical(ch, |part| {
            if !is_combining_mark(part) {
                out.extend(part.to_lowercase());
            }
        });
    }
    out
}

/// The text a saved reply is searched by: its title and body, folded.
pub fn search_text(title: &str, body: &str) -> String {
    fold(&format!("{title}\n{body}"))
}

/// Whether a saved reply limited to `action` and `language` is offered under `filter`.
pub fn offered(action: Option<HumanAction>, language: Option<ReplyLanguage>, filter: &PickFilter) -> bool {
    let action_fits = action.is_none() || filter.action.is_none() || action == filter.action;
    action_fits && language.is_none_or(|l| l == filter.language)
}

/// The replies `filter` offers among `candidates` (each with its [`search_text`]), best first.
pub fn pick<'a>(
    candidates: impl IntoIterator<Item = (&'a SavedReply, &'a str)>,
    filter: &PickFilter,
) -> Vec<&'a SavedReply> {
    let query = fold(filter.query.trim());
    let words: Vec<&str> = query.split_whitespace().collect();
    let mut found: Vec<(u8, String, &SavedReply)> = candidates
        .into_iter()
        .filter(|(reply, _)| offered(reply.action, reply.language, filter))
        .filter(|(_, text)| words.iter().all(|w| text.contains(w)))
        .map(|(reply, _)| {
            let title = fold(&reply.title);
            let rank = if title.starts_with(&query) {
                0
            } else if title.contains(&query) {
                1
            } else {
                2
            };
            (rank, title, reply)
        })
        .collect();
    found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    found.into_iter().take(LIMIT).map(|(_, _, reply)| reply).collect()
}
