//! Level 3 — what `read_skill_file(name, path)` returns (SPEC A6): one support file's text.
//!
//! The path is checked in this order, the first failed rule giving the error:
//! `path_empty`, `path_backslash`, `path_not_relative` (leading `/` or a drive letter like
//! `C:`), `path_empty_segment`, `path_dot_segment`, `path_not_support_folder`,
//! `file_is_infrastructure` (for example `scripts/.env`: stored, never offered to the agent),
//! `file_not_in_skill` (the manifest is matched exactly, case-sensitively). Then the file is read:
//! `file_unreadable` when the reader fails, `file_not_text` when the bytes are not UTF-8 text or
//! contain NUL (details carry `size` and `extension`). The text is returned verbatim except for
//! a leading UTF-8 byte-order mark, which is dropped.

use std::fmt::Display;

use super::{read_text, DisclosureError};
use crate::files::{is_infrastructure, is_support_path};
use crate::model::Skill;

/// Checks `path` against the level-3 rules and the skill's manifest, without reading it.
pub fn check_path(skill: &Skill, path: &str) -> Result<(), DisclosureError> {
    let owned = || path.to_string();
    if path.is_empty() {
        return Err(DisclosureError::PathEmpty);
    }
    if path.contains('\\') {
        return Err(DisclosureError::PathBackslash { path: owned() });
    }
    if path.starts_with('/') || has_drive_letter(path) {
        return Err(DisclosureError::PathNotRelative { path: owned() });
    }
    let segments: Vec<&str> = path.split('/').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(DisclosureError::PathEmptySegment { path: owned() });
    }
    if segments.iter().any(|s| *s == "." || *s == "..") {
        return Err(DisclosureError::PathDotSegment { path: owned() });
    }
    if !is_support_path(path) {
        return Err(DisclosureError::PathNotSupportFolder { path: owned() });
    }
    if is_infrastructure(path) {
        return Err(DisclosureError::FileIsInfrastructure { path: owned() });
    }
    if !skill.files.iter().any(|f| f.path == path) {
        return Err(DisclosureError::FileNotInSkill { skill: skill.name.clone(), path: owned() });
    }
    Ok(())
}

fn has_drive_letter(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// Renders level 3: the text of the support file `path` of `skill`, read through `read`.
pub fn file<E: Display>(
    skill: &Skill,
    path: &str,
    read: &dyn Fn(&str) -> Result<Vec<u8>, E>,
) -> Result<String, DisclosureError> {
    check_path(skill, path)?;
    read_text(path, read)
}
