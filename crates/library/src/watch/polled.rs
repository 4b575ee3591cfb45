//! The part of the skills directory the OS does not watch, re-checked by periodic rescans.
//!
//! For each unwatched folder ([`super::tree::Tree::unwatched`]) the worker keeps a fingerprint of
//! what is under it (paths, sizes and times, from `stat` calls through the readers' walk, never a
//! read of content) and, every [`super::WatchOptions::rescan_unwatched`], compares it with a new
//! one: a skill whose fingerprint changed is touched as if the OS had reported the change. An
//! unwatched skills directory itself is fingerprinted skill by skill, so a new skill appears too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::filter::{is_ignored_folder, skill_of};
use crate::scan::fingerprint;

/// What was last seen under one unwatched folder: per skill folder, its fingerprint.
type Seen = BTreeMap<String, Option<String>>;

/// Fingerprints of the unwatched folders, as of the last rescan.
#[derive(Debug, Default)]
pub(crate) struct Polled {
    seen: BTreeMap<PathBuf, Seen>,
}

impl Polled {
    /// Rescans the unwatched folders `unwatched` under `root` and returns the skills whose
    /// content changed since the last rescan (every skill under a folder seen for the first time
    /// is not reported: its state is the one the consumer read). Folders no longer unwatched are
    /// forgotten.
    pub(crate) fn rescan<'a>(
        &mut self,
        root: &Path,
        unwatched: impl Iterator<Item = &'a PathBuf>,
        max_depth: usize,
    ) -> BTreeSet<String> {
        let mut changed = BTreeSet::new();
        let mut next = BTreeMap::new();
        for dir in unwatched {
            let now = look(root, dir, max_depth);
            if let Some(before) = self.seen.get(dir) {
                let names: BTreeSet<&String> = before.keys().chain(now.keys()).collect();
                changed.extend(names.into_iter().filter(|n| before.get(*n) != now.get(*n)).cloned());
            }
            next.insert(dir.clone(), now);
        }
        self.seen = next;
        changed
    }

    /// Forgets everything (the directory went away).
    pub(crate) fn clear(&mut self) {
        self.seen.clear();
    }
}

/// The fingerprints under `dir`: of its skill when it lies inside one, of every skill folder
/// when it is the skills directory itself.
fn look(root: &Path, dir: &Path, max_depth: usize) -> Seen {
    if dir == root {
        let Ok(entries) = std::fs::read_dir(root) else { return Seen::new() };
        return entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| !is_ignored_folder(name))
            .map(|name| {
                let print = fingerprint(&root.join(&name));
                (name, print)
            })
            .collect();
    }
    match skill_of(root, dir, max_depth) {
        Some(skill) => Seen::from([(skill, fingerprint(dir))]),
        None => Seen::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_under_an_unwatched_folder_names_its_skill_on_the_next_rescan() {
        let root = tempfile::tempdir().unwrap();
        let private = root.path().join("frete/private");
        std::fs::create_dir_all(&private).unwrap();
        let mut polled = Polled::default();
        assert!(polled.rescan(root.path(), [&private].into_iter(), 8).is_empty());
        assert!(polled.rescan(root.path(), [&private].into_iter(), 8).is_empty());
        std::fs::write(private.join("notes.md"), "new").unwrap();
        assert_eq!(
            polled.rescan(root.path(), [&private].into_iter(), 8),
            BTreeSet::from(["frete".to_string()])
        );
    }

    #[test]
    fn an_unwatched_skills_directory_reports_a_new_skill_folder() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("frete")).unwrap();
        let top = root.path().to_path_buf();
        let mut polled = Polled::default();
        polled.rescan(root.path(), [&top].into_iter(), 8);
        std::fs::create_dir_all(root.path().join("novo")).unwrap();
        std::fs::write(root.path().join("novo/SKILL.md"), "x").unwrap();
        assert_eq!(polled.rescan(root.path(), [&top].into_iter(), 8), BTreeSet::from(["novo".to_string()]));
    }
}
