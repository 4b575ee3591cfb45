//! Finding skill folders and telling whether they changed, without reading their contents.
//!
//! [`skill_folders`] lists the skill folders of a skills directory (the one rule set of
//! `skillcase_skill::discover`); [`fingerprint`]
//! hashes each file's path, size and modification time, so a start-up scan recognises an
//! unchanged folder with a walk of `stat` calls. The walk is the readers' own
//! (`skillcase_skill::skill_dir::walk`): each folder opened relative to its parent without
//! following a link, each entry sized by a `stat` that follows nothing and opens nothing.

use std::path::Path;

use sha2::{Digest, Sha256};

use skillcase_skill::load::{LoadError, MAX_FILES};
use skillcase_skill::skill_dir::{walk, Kind, Reach, SkillDir};

pub use skillcase_skill::discover::{has_skill_md, skill_folders, SkillFolder, MAX_SKILLS};

/// A hash of every non-junk file's relative path, size and modification time (nanoseconds), in
/// path order; `None` when the folder cannot be walked (missing, a link, unreadable, too deep or
/// too large). Equal fingerprints mean the scan can trust the version recorded for the folder
/// without reading it.
pub fn fingerprint(dir: &Path) -> Option<String> {
    let folder = SkillDir::open(dir, Reach::Listed).ok()?;
    let mut entries = Vec::new();
    walk::walk(folder, &mut |visit| {
        let stat = visit.stat()?;
        let modified = stat.modified.and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok());
        let nanos = modified.map_or(0, |d| d.as_nanos());
        let link = stat.kind == Kind::Symlink;
        entries.push(format!("{}\0{}\0{nanos}\0{link}", visit.path, stat.size));
        if entries.len() > MAX_FILES {
            return Err(LoadError::TooManyFiles);
        }
        Ok(())
    })
    .ok()?;
    entries.sort();
    let mut hasher = Sha256::new();
    for line in entries {
        hasher.update(line.as_bytes());
        hasher.update(b"\n");
    }
    Some(format!("{:x}", hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

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
