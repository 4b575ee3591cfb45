//! The three disclosure levels (SPEC A6): the exact text the agent receives.
//!
//! - Level 1, [`index`]: the list of visible skills that sits in the agent's prompt.
//! - Level 2, [`activation`]: one skill's body plus its references, when the agent reads it.
//! - Level 3, [`file`]: one support file of a skill.
//!
//! Every function here is pure over a [`Skill`] and, where file contents are needed, a `read`
//! callback (`path relative to the skill root -> bytes`), so the UI preview, the HTTP API and the
//! CLI produce the same bytes whether files come from the skills folder ([`dir_reader`]) or from
//! a stored version's blobs. Callers pass only *valid* skills (no error findings); these
//! functions do not re-validate. No rendered text ends with a newline; a CLI adds one.

mod activation;
mod file;
mod index;

pub use activation::{
    activation, activation_parts, activation_plan, Activation, ActivationPlan, Segment, SegmentKind,
};
pub use file::{check_path, file};
pub use index::{index, Index, IndexEntryInfo, IndexFormat, UnknownIndexFormat, DEFAULT_BUDGET};

use std::fmt::Display;
use std::path::PathBuf;

use crate::model::Skill;
use crate::skill_dir::{FileError, Reach, SkillDir};
use skillcase_common::error::Coded;

/// The API's code for a level-3 read of a skill not active in the conversation (SPEC A6). The
/// check needs conversation state, so it lives in the API; the code lives here with its siblings.
pub const SKILL_NOT_ACTIVE: &str = "skill_not_active";

/// Why a level-2 or level-3 read was refused. Each variant has a stable code (see [`Coded`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DisclosureError {
    #[error("the path is empty")]
    PathEmpty,
    #[error("`{path}` uses `\\`; paths use `/` between folders")]
    PathBackslash { path: String },
    #[error("`{path}` is absolute; give a path relative to the skill folder, like `references/a.md`")]
    PathNotRelative { path: String },
    #[error("`{path}` has an empty segment (`//` or a trailing `/`)")]
    PathEmptySegment { path: String },
    #[error("`{path}` has a `.` or `..` segment")]
    PathDotSegment { path: String },
    #[error("`{path}` is not inside a support folder (references/, assets/, templates/, scripts/)")]
    PathNotSupportFolder { path: String },
    #[error("`{path}` is an infrastructure file and is never offered to the agent")]
    FileIsInfrastructure { path: String },
    #[error("skill `{skill}` has no file `{path}`")]
    FileNotInSkill { skill: String, path: String },
    #[error("`{path}` is not a text file ({size} bytes); it cannot be shown as text")]
    FileNotText { path: String, size: u64, extension: String },
    #[error("`{path}` could not be read: {reason}")]
    FileUnreadable { path: String, reason: String },
}

impl Coded for DisclosureError {
    fn code(&self) -> &'static str {
        match self {
            DisclosureError::PathEmpty => "path_empty",
            DisclosureError::PathBackslash { .. } => "path_backslash",
            DisclosureError::PathNotRelative { .. } => "path_not_relative",
            DisclosureError::PathEmptySegment { .. } => "path_empty_segment",
            DisclosureError::PathDotSegment { .. } => "path_dot_segment",
            DisclosureError::PathNotSupportFolder { .. } => "path_not_support_folder",
            DisclosureError::FileIsInfrastructure { .. } => "file_is_infrastructure",
            DisclosureError::FileNotInSkill { .. } => "file_not_in_skill",
            DisclosureError::FileNotText { .. } => "file_not_text",
            DisclosureError::FileUnreadable { .. } => "file_unreadable",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        use serde_json::json;
        match self {
            DisclosureError::PathEmpty => None,
            DisclosureError::PathBackslash { path }
            | DisclosureError::PathNotRelative { path }
            | DisclosureError::PathEmptySegment { path }
            | DisclosureError::PathDotSegment { path }
            | DisclosureError::PathNotSupportFolder { path }
            | DisclosureError::FileIsInfrastructure { path } => Some(json!({ "path": path })),
            DisclosureError::FileNotInSkill { skill, path } => Some(json!({ "skill": skill, "path": path })),
            DisclosureError::FileNotText { path, size, extension } => {
                Some(json!({ "path": path, "size": size, "extension": extension }))
            }
            DisclosureError::FileUnreadable { path, reason } => {
                Some(json!({ "path": path, "reason": reason }))
            }
        }
    }
}

/// A `read` callback over the skill's folder on disk: `references/a.md` -> `<dir>/references/a.md`,
/// through [`SkillDir`]: the folder is opened without following it if it is a link, the file
/// relative to it without following a link at any segment and without blocking on a FIFO, then
/// checked on the opened descriptor (a regular file of at most `max_bytes`) and read no further
/// than that. So a link or a FIFO swapped in after the skill was validated can neither make the
/// agent read a file outside the skill nor hold a thread.
pub fn dir_reader(skill: &Skill, max_bytes: u64) -> impl Fn(&str) -> Result<Vec<u8>, FileError> {
    let dir: PathBuf = skill.dir.clone();
    move |path: &str| SkillDir::open(&dir, Reach::Listed)?.read(path, max_bytes)
}

/// Reads `path` and returns it as text: valid UTF-8 without NUL bytes, a leading BOM dropped.
/// Anything else is `file_not_text`, with the size and extension in the details.
fn read_text<E: Display>(
    path: &str,
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<String, DisclosureError> {
    let bytes = read(path)
        .map_err(|e| DisclosureError::FileUnreadable { path: path.to_string(), reason: e.to_string() })?;
    let not_text = || DisclosureError::FileNotText {
        path: path.to_string(),
        size: bytes.len() as u64,
        extension: crate::files::extension(path),
    };
    if bytes.contains(&0) {
        return Err(not_text());
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| not_text())?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text).to_string())
}

/// Python's `html.escape(s, quote=True)`: `&`, `<`, `>`, `"` and `'` become entities, nothing else
/// changes. Used for every value the agent reads inside markup, so a description cannot open or
/// close a tag.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// [`escape`], appending to `out` (the index renders thousands of values into one buffer).
/// Most values hold no character to escape, so two vectorised scans find the first one (or
/// none) before the byte loop starts.
pub fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let markup = memchr::memchr3(b'&', b'<', b'>', bytes);
    let quote = memchr::memchr2(b'"', b'\'', bytes);
    let Some(first) = markup.into_iter().chain(quote).min() else {
        out.push_str(text);
        return;
    };
    let mut plain_from = 0;
    for (at, byte) in bytes.iter().enumerate().skip(first) {
        let entity = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#x27;",
            _ => continue,
        };
        out.push_str(&text[plain_from..at]);
        out.push_str(entity);
        plain_from = at + 1;
    }
    out.push_str(&text[plain_from..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::ErrorBody;

    #[test]
    fn escape_matches_python_html_escape_with_quotes() {
        assert_eq!(escape(r#"a < b > c & "d" 'e'"#), "a &lt; b &gt; c &amp; &quot;d&quot; &#x27;e&#x27;");
        assert_eq!(escape("&amp;"), "&amp;amp;");
        assert_eq!(escape("çãõ / \\ `x`"), "çãõ / \\ `x`");
    }

    #[test]
    fn escape_finds_the_first_special_character_wherever_it_is() {
        assert_eq!(escape("no special characters at all"), "no special characters at all");
        assert_eq!(escape("a quote ' before markup &"), "a quote &#x27; before markup &amp;");
        assert_eq!(escape("markup > before a quote \""), "markup &gt; before a quote &quot;");
        assert_eq!(escape("&"), "&amp;");
        assert_eq!(escape("ends with <"), "ends with &lt;");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn errors_cross_the_boundary_with_code_and_details() {
        let err =
            DisclosureError::FileNotText { path: "assets/a.png".into(), size: 4, extension: "png".into() };
        let body = ErrorBody::from(err);
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"code":"file_not_text","message":"`assets/a.png` is not a text file (4 bytes); it cannot be shown as text","details":{"extension":"png","path":"assets/a.png","size":4}}"#
        );
    }
}
