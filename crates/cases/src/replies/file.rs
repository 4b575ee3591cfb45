//! The saved-replies JSON file (`docs/saved-replies.md`): what Export writes and Import reads.
//!
//! ```json
//! { "format": "skillcase-saved-replies", "version": 1,
//!   "replies": [ { "title": "…", "body": "…", "action": "resolved", "language": "en" } ] }
//! ```
//!
//! Import is all or nothing: the whole file is read and every entry checked before anything is
//! stored, and a refusal (`invalid_saved_replies_file`) names the entry (counting from 1) and
//! what is wrong with it.

use serde::{Deserialize, Serialize};

use super::super::error::CasesError;
use super::{SavedReply, SavedReplyInput};

/// The `format` every file carries.
pub const FORMAT: &str = "skillcase-saved-replies";
/// The `version` this build writes and reads.
pub const VERSION: u32 = 1;
/// The most entries one file may hold.
pub const MAX_ENTRIES: usize = 5_000;
/// The largest file read, in bytes.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Serialize, Deserialize)]
struct Document<T> {
    format: String,
    version: u32,
    replies: Vec<T>,
}

/// The file for `replies`, pretty-printed, ids and times left out (they belong to one desktop).
pub fn export(replies: &[SavedReply]) -> String {
    let entries = replies
        .iter()
        .map(|r| SavedReplyInput {
            title: r.title.clone(),
            body: r.body.clone(),
            action: r.action,
            language: r.language,
        })
        .collect();
    let document = Document { format: FORMAT.into(), version: VERSION, replies: entries };
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

/// Every entry of the file, each checked like a save from Settings; the first problem refuses
/// the whole file.
pub fn parse(text: &str) -> Result<Vec<SavedReplyInput>, CasesError> {
    let bad = |entry: Option<usize>, reason: String| CasesError::InvalidSavedRepliesFile { entry, reason };
    let document: Document<serde_json::Value> =
        serde_json::from_str(text).map_err(|e| bad(None, format!("it is not a saved-replies file ({e})")))?;
    if document.format != FORMAT {
        return Err(bad(None, format!("its format is {:?}, not {FORMAT:?}", document.format)));
    }
    if document.version != VERSION {
        return Err(bad(
            None,
            format!("its version is {}; this build reads version {VERSION}", document.version),
        ));
    }
    if document.replies.len() > MAX_ENTRIES {
        return Err(bad(
            None,
            format!("it holds {} replies; at most {MAX_ENTRIES} are accepted", document.replies.len()),
        ));
    }
    let mut titles = std::collections::HashSet::new();
    document
        .replies
        .into_iter()
        .enumerate()
        .map(|(at, value)| {
            let entry = Some(at + 1);
            let input: SavedReplyInput =
                serde_json::from_value(value).map_err(|e| bad(entry, e.to_string()))?;
            let input = input.checked().map_err(|e| bad(entry, e.to_string()))?;
            if !titles.insert(input.title.to_lowercase()) {
                return Err(bad(entry, format!("the title {:?} appears twice in the file", input.title)));
            }
            Ok(input)
        })
        .collect()
}
