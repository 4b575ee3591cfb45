//! Finding skill folders and telling whether they changed, without reading their contents.
//!
//! [`skill_folders`] lists the skill folders of a skills directory (the one rule set of
//! `skillcase_skill::discover`); [`fingerprint`]
//! hashes each file's path, size and modification time, so a start-up scan recognises an
//! unchanged folder with a walk of `stat` calls.

use std::fs;
use std::path::Path;

use sha2::{Digest, Sha256};

use skillcase_skill::files::is_junk;
use skillcase_skill::load::{MAX_DEPTH, MAX_FILES};

pub use skillcase_skill::discover::{has_skill_md, skill_folders, SkillFolder, MAX_SKILLS};

/// A hash of every non-junk file's relative path, size and modification time (nanoseconds), in
/// path order; `None` when the folder cannot be walked. Equal fingerprints mean the scan can
/// trust the version recorded for the folder without reading it.
pub fn fingerprint(dir: &Path) -> Option<String> {
    let mut entries = Vec::new();
    walk(dir, "", 0, &mut entries).ok()?;
    entries.sort();
    let mut hasher = Sha256::new();
    for line in entries {
        hasher.update(line.as_bytes());
        hasher.update(b"\n");
    }
    Some(format!("{:x}", hasher.finalize()))
}

fn walk(abs: &Path, rel: &str, depth: usize, out: &mut Vec<String>) -> std::io::Result<()> {
    if depth > MAX_DEPTH || out.len() > MAX_FILES {
        return Err(std::io::Error::other("too deep or too many files"));
    }
    for entry in fs::read_dir(abs)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
        if is_junk(&path) {
            continue;
        }
        let meta = entry.metadata()?;
        if meta.is_dir() {
            walk(&entry.path(), &path, depth + 1, out)?;
        } else {
            let modified = meta.modified().ok().and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok());
            let nanos = modified.map_or(0, |d| d.as_nanos());
            out.push(format!("{path}\0{}\0{nanos}\0{}", meta.len(), meta.file_type().is_symlink()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_folders_with_skill_md_are_listed_and_special_folders_are_skipped() {
        let tmp = tempfile::tempdir().unwrap();
        for dir in ["b-skill", "a-skill", ".git", "node_modules", ".skillcase-staging-x", "no-skill-md"] {
            fs::create_dir_all(tmp.path().join(dir)).unwrap();
        }
        for dir in ["b-skill", "a-skill", ".git", "node_modules", ".skillcase-staging-x"] {
            fs::write(tmp.path().join(dir).join("SKILL.md"), "---\n---\n").unwrap();
        }
        fs::write(tmp.path().join("README.md"), "not a skill").unwrap();
        let names: Vec<String> = skill_folders(tmp.path()).unwrap().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["a-skill", "b-skill"]);
    }

    #[test]
    fn a_fingerprint_changes_when_a_file_is_added_or_resized() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("SKILL.md"), "one").unwrap();
        let first = fingerprint(tmp.path()).unwrap();
        assert_eq!(fingerprint(tmp.path()).unwrap(), first);
        fs::write(tmp.path().join("SKILL.md"), "longer").unwrap();
        let resized = fingerprint(tmp.path()).unwrap();
        fs::create_dir(tmp.path().join("references")).unwrap();
        fs::write(tmp.path().join("references/a.md"), "a").unwrap();
        let added = fingerprint(tmp.path()).unwrap();
        assert!(first != resized && resized != added);
    }
}
