//! Drift: how an installed skill folder differs from what its lock says was copied. Files are
//! read the way every skill folder is read (`package_from`: OS junk and caches ignored, no
//! link followed, the folder itself opened through the target folder's handle), so a `.DS_Store` a file browser drops in is not drift, while an edited,
//! added or deleted file is.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillcase_skill::load::{package_from, LoadError};
use skillcase_skill::package::Package;
use skillcase_skill::skill_dir::{FileError, OpenDir};
use ts_rs::TS;

/// File digests by path relative to the skill folder: SHA-256, lowercase hex.
pub type Digests = BTreeMap<String, String>;

/// How one file differs from the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DriftKind {
    /// The file is there with other content.
    Modified,
    /// The file is there and the lock does not list it.
    Added,
    /// The lock lists the file and it is gone (or the whole folder is).
    Missing,
    /// The installed folder cannot be read as a skill folder (a symbolic link or a device in
    /// it); `path` says where when known.
    Unreadable,
    /// A linked install's link is gone, is a folder now, or points elsewhere than the lock says
    /// (`path` is `(link)`).
    Link,
}

/// One file that drifted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct FileDrift {
    /// Relative to the skill folder, `/`-separated.
    pub path: String,
    pub kind: DriftKind,
}

/// The digests of a package's files.
pub fn digests(pkg: &Package) -> Digests {
    pkg.files.iter().map(|f| (f.path.clone(), f.sha256.clone())).collect()
}

/// What differs between the `expected` digests and the ones `found`, sorted by path.
pub fn compare(expected: &Digests, found: &Digests) -> Vec<FileDrift> {
    let mut drift = Vec::new();
    for (path, sha) in expected {
        match found.get(path) {
            None => drift.push(FileDrift { path: path.clone(), kind: DriftKind::Missing }),
            Some(other) if other != sha => {
                drift.push(FileDrift { path: path.clone(), kind: DriftKind::Modified })
            }
            Some(_) => {}
        }
    }
    for path in found.keys().filter(|p| !expected.contains_key(*p)) {
        drift.push(FileDrift { path: path.clone(), kind: DriftKind::Added });
    }
    drift.sort_by(|a, b| a.path.cmp(&b.path));
    drift
}

/// How the installed folder `name` of the held `target` differs from `expected`: every file
/// missing when the folder is gone, one `unreadable` entry when it cannot be read as a skill
/// folder (a link in its place among them).
pub fn drift_of(target: &OpenDir, name: &str, expected: &Digests) -> Vec<FileDrift> {
    match target.skill_dir(name).map_err(LoadError::File).and_then(package_from) {
        Ok(pkg) => compare(expected, &digests(&pkg)),
        Err(LoadError::File(FileError::NotFound(_))) if target.kind_of(name).is_none() => {
            compare(expected, &Digests::new())
        }
        Err(error) => {
            vec![FileDrift { path: error.to_finding().file, kind: DriftKind::Unreadable }]
        }
    }
}

/// How the linked install `name` of the held `target` differs from its lock: nothing when the
/// entry is a link pointing exactly at `link`, else one [`DriftKind::Link`]. The link is read,
/// never followed (the copy it leads to is checked in its own folder).
pub fn drift_of_link(target: &OpenDir, name: &str, link: &str) -> Vec<FileDrift> {
    let intact = matches!(target.kind_of(name), Some(skillcase_skill::skill_dir::Kind::Symlink))
        && target.read_link(name).is_ok_and(|found| found == link);
    if intact {
        Vec::new()
    } else {
        vec![FileDrift { path: "(link)".to_string(), kind: DriftKind::Link }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_skill::load::package_from_dir;

    fn held(dir: &std::path::Path) -> OpenDir {
        OpenDir::open_named(dir).unwrap()
    }

    fn digests_of(pairs: &[(&str, &str)]) -> Digests {
        pairs.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect()
    }

    #[test]
    fn an_edited_file_is_modified_a_new_one_added_and_a_deleted_one_missing() {
        let expected = digests_of(&[("SKILL.md", "a1"), ("references/old.md", "b1"), ("scripts/x.sh", "c1")]);
        let found = digests_of(&[("SKILL.md", "a2"), ("references/new.md", "d1"), ("scripts/x.sh", "c1")]);
        assert_eq!(
            compare(&expected, &found),
            [
                FileDrift { path: "SKILL.md".into(), kind: DriftKind::Modified },
                FileDrift { path: "references/new.md".into(), kind: DriftKind::Added },
                FileDrift { path: "references/old.md".into(), kind: DriftKind::Missing },
            ]
        );
    }

    #[test]
    fn the_same_digests_are_no_drift() {
        let same = digests_of(&[("SKILL.md", "a1")]);
        assert_eq!(compare(&same, &same), []);
    }

    #[test]
    fn a_folder_that_is_gone_has_every_file_missing() {
        let root = tempfile::tempdir().unwrap();
        let expected = digests_of(&[("SKILL.md", "a1"), ("assets/x.txt", "b1")]);
        let kinds: Vec<DriftKind> =
            drift_of(&held(root.path()), "frete", &expected).into_iter().map(|d| d.kind).collect();
        assert_eq!(kinds, [DriftKind::Missing, DriftKind::Missing]);
    }

    #[test]
    fn os_junk_dropped_into_an_installed_folder_is_not_drift() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("frete");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), "x").unwrap();
        std::fs::write(dir.join(".DS_Store"), "junk").unwrap();
        let expected = digests(&package_from_dir(&dir).unwrap());
        assert_eq!(expected.keys().collect::<Vec<_>>(), ["SKILL.md"]);
        assert_eq!(drift_of(&held(root.path()), "frete", &expected), []);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_inside_an_installed_folder_makes_it_unreadable() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("frete");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd")).unwrap();
        let drift = drift_of(&held(root.path()), "frete", &digests_of(&[("SKILL.md", "a1")]));
        assert_eq!(drift.iter().map(|d| d.kind).collect::<Vec<_>>(), [DriftKind::Unreadable]);
    }

    #[cfg(unix)]
    #[test]
    fn an_installed_folder_that_is_a_link_is_unreadable_and_never_followed() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("frete")).unwrap();
        let expected = digests(&package_from_dir(outside.path()).unwrap());
        let drift = drift_of(&held(root.path()), "frete", &expected);
        assert_eq!(drift.iter().map(|d| d.kind).collect::<Vec<_>>(), [DriftKind::Unreadable]);
    }
}
