//! Comparing two versions of a skill file by file: a unified diff for text files (via the
//! `similar` crate, the Myers diff used by insta and cargo's own tooling), sizes and hashes for
//! binaries. Files are read from the blob store, so any two recorded versions can be compared.

use std::collections::BTreeMap;

use similar::{ChangeTag, TextDiff};

use super::types::{DiffHunk, DiffLine, DiffLineKind, FileChange, FileDiff, ManifestEntry};
use super::{Library, LibraryError};

/// Lines of context around each change.
const CONTEXT: usize = 3;

impl Library {
    /// Per-file differences from version `v1` to version `v2` of `name`, in path order.
    pub fn diff(&self, name: &str, v1: i64, v2: i64) -> Result<Vec<FileDiff>, LibraryError> {
        let old = self.manifest_of_version(name, v1)?;
        let new = self.manifest_of_version(name, v2)?;
        let mut paths: BTreeMap<&str, (Option<&ManifestEntry>, Option<&ManifestEntry>)> = BTreeMap::new();
        for entry in &old {
            paths.entry(&entry.path).or_default().0 = Some(entry);
        }
        for entry in &new {
            paths.entry(&entry.path).or_default().1 = Some(entry);
        }
        paths.into_iter().map(|(path, (a, b))| self.file_diff(path, a, b)).collect()
    }

    fn manifest_of_version(&self, name: &str, version: i64) -> Result<Vec<ManifestEntry>, LibraryError> {
        self.repo
            .version(version)?
            .filter(|v| v.name == name)
            .map(|v| v.manifest)
            .ok_or(LibraryError::VersionNotFound { name: name.to_string(), version })
    }

    fn file_diff(
        &self,
        path: &str,
        old: Option<&ManifestEntry>,
        new: Option<&ManifestEntry>,
    ) -> Result<FileDiff, LibraryError> {
        let change = match (old, new) {
            (Some(a), Some(b)) if a.sha256 == b.sha256 => FileChange::Unchanged,
            (Some(_), Some(_)) => FileChange::Modified,
            (None, _) => FileChange::Added,
            (_, None) => FileChange::Removed,
        };
        let texts = if change == FileChange::Unchanged {
            None
        } else {
            match (self.text_of(path, old)?, self.text_of(path, new)?) {
                (Some(a), Some(b)) => Some((a, b)),
                _ => None,
            }
        };
        let (unified, hunks) = match &texts {
            Some((a, b)) => (Some(unified(path, a, b)), hunks(a, b)),
            None => (None, Vec::new()),
        };
        let count = |kind| hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == kind).count() as u32;
        let (added, removed) = (count(DiffLineKind::Add), count(DiffLineKind::Del));
        Ok(FileDiff {
            path: path.to_string(),
            change,
            unified,
            hunks,
            added,
            removed,
            old_size: old.map(|e| e.size),
            new_size: new.map(|e| e.size),
            old_sha256: old.map(|e| e.sha256.clone()),
            new_sha256: new.map(|e| e.sha256.clone()),
        })
    }

    /// The file's text (empty for an absent side); `None` when it is not UTF-8 text.
    fn text_of(&self, path: &str, entry: Option<&ManifestEntry>) -> Result<Option<String>, LibraryError> {
        let Some(entry) = entry else {
            return Ok(Some(String::new()));
        };
        let bytes = self.blobs.get(&entry.sha256).map_err(|_| LibraryError::BlobMissing {
            path: path.to_string(),
            sha256: entry.sha256.clone(),
        })?;
        Ok(String::from_utf8(bytes).ok().filter(|t| !t.contains('\0')))
    }
}

/// The changes as hunks of numbered lines (the same hunks as [`unified`]).
fn hunks(old: &str, new: &str) -> Vec<DiffHunk> {
    let diff = TextDiff::from_lines(old, new);
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT);
    unified
        .iter_hunks()
        .map(|hunk| DiffHunk {
            header: hunk.header().to_string(),
            lines: hunk
                .iter_changes()
                .map(|change| DiffLine {
                    kind: match change.tag() {
                        ChangeTag::Equal => DiffLineKind::Context,
                        ChangeTag::Insert => DiffLineKind::Add,
                        ChangeTag::Delete => DiffLineKind::Del,
                    },
                    text: change.value().trim_end_matches(['\n', '\r']).to_string(),
                    old: change.old_index().map(|i| i as u32 + 1),
                    new: change.new_index().map(|i| i as u32 + 1),
                })
                .collect(),
        })
        .collect()
}

/// A unified diff with `a/path` and `b/path` headers.
/// The unified diff of one text file between two versions (`a/PATH`, `b/PATH` headers).
pub fn unified(path: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(CONTEXT)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: DiffLineKind, text: &str, old: Option<u32>, new: Option<u32>) -> DiffLine {
        DiffLine { kind, text: text.into(), old, new }
    }

    #[test]
    fn a_changed_line_is_one_hunk_of_numbered_lines_with_its_header() {
        let found = hunks("a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].header, "@@ -1,3 +1,3 @@");
        assert_eq!(
            found[0].lines,
            [
                line(DiffLineKind::Context, "a", Some(1), Some(1)),
                line(DiffLineKind::Del, "b", Some(2), None),
                line(DiffLineKind::Add, "B", None, Some(2)),
                line(DiffLineKind::Context, "c", Some(3), Some(3)),
            ]
        );
    }

    #[test]
    fn changes_far_apart_are_separate_hunks_and_equal_texts_have_none() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("2\n", "two\n").replace("19\n", "nineteen\n");
        assert_eq!(hunks(&old, &new).len(), 2);
        assert!(hunks(&old, &old).is_empty());
    }
}
