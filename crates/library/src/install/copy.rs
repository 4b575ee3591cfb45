//! Putting a copy of a skill into a target folder without ever leaving a half-written one: the
//! files are written into a hidden staging folder inside the target folder itself (so the last
//! step is a rename on one file system), fsynced, then swapped into place in one atomic exchange
//! (`archive::install_in`). Every step goes through the target folder's handle, never a path,
//! so no link in or swapped into the target redirects a write. A copy that fails midway drops
//! its staging folder and leaves the previous version of the skill exactly as it was.

use skillcase_skill::package::Package;
use skillcase_skill::skill_dir::OpenDir;

use super::error::InstallError;
use crate::archive;

/// Writes `pkg` as the folder `name` of the held target folder, replacing what was there in one
/// step. Exec bits are kept, so the agent can run the skill's scripts.
pub fn place(target: &OpenDir, name: &str, pkg: &Package) -> Result<(), InstallError> {
    let staged = archive::stage_keeping_exec_bits(pkg, target)?;
    archive::install_in(staged, target, name)?;
    Ok(())
}

/// Puts the link `name` → `link` into the held target folder in one step, replacing what was
/// there (a copy, another link) without following it: the link is made under a hidden name, then
/// swapped into place (or, where there is no atomic swap, the old entry is removed first).
pub fn place_link(target: &OpenDir, name: &str, link: &str) -> Result<(), InstallError> {
    let failed = InstallError::io(target.path());
    let temporary = target.symlink_unique(link, ".skillcase-link-").map_err(failed)?;
    let swapped = match target.kind_of(name) {
        None => target.rename(&temporary, target, name),
        Some(_) => match target.exchange(&temporary, target, name) {
            Ok(()) => target.remove_tree(&temporary),
            Err(_) => target.remove_tree(name).and_then(|()| target.rename(&temporary, target, name)),
        },
    };
    swapped.and_then(|()| target.sync()).map_err(|e| {
        let _ = target.remove_file(&temporary);
        InstallError::io(target.path())(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_skill::package::PackageFile;
    use std::path::Path;

    fn held(dir: &Path) -> OpenDir {
        OpenDir::open_named(dir).unwrap()
    }

    fn package(files: &[(&str, &str)]) -> Package {
        Package {
            folder_name: Some("frete".into()),
            files: files.iter().map(|(p, t)| PackageFile::new(*p, t.as_bytes().to_vec(), None)).collect(),
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_copy_replaces_the_previous_folder_whole() {
        let target = tempfile::tempdir().unwrap();
        place(&held(target.path()), "frete", &package(&[("SKILL.md", "v1"), ("references/old.md", "old")]))
            .unwrap();
        place(&held(target.path()), "frete", &package(&[("SKILL.md", "v2")])).unwrap();
        let dir = target.path().join("frete");
        assert_eq!(std::fs::read_to_string(dir.join("SKILL.md")).unwrap(), "v2");
        assert!(!dir.join("references").exists());
        assert_eq!(entries(target.path()), ["frete"]);
    }

    #[test]
    fn a_copy_that_fails_midway_leaves_the_previous_version_intact_and_no_staging_folder() {
        let target = tempfile::tempdir().unwrap();
        place(&held(target.path()), "frete", &package(&[("SKILL.md", "v1")])).unwrap();
        // The second file's path cannot be written, so staging stops after writing SKILL.md.
        let broken = package(&[("SKILL.md", "v2"), ("zz/../escape.md", "x")]);
        let error = place(&held(target.path()), "frete", &broken).unwrap_err();
        assert!(matches!(error, InstallError::Write(_)), "{error}");
        assert_eq!(std::fs::read_to_string(target.path().join("frete/SKILL.md")).unwrap(), "v1");
        assert_eq!(entries(target.path()), ["frete"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_script_keeps_its_exec_bit_in_the_copy() {
        use std::os::unix::fs::PermissionsExt;
        let target = tempfile::tempdir().unwrap();
        let mut pkg = package(&[("SKILL.md", "x")]);
        pkg.files.push(PackageFile::new("scripts/calc.sh", b"#!/bin/sh\n".to_vec(), Some(0o755)));
        place(&held(target.path()), "frete", &pkg).unwrap();
        let mode =
            |p: &str| std::fs::metadata(target.path().join("frete").join(p)).unwrap().permissions().mode();
        assert_eq!(mode("scripts/calc.sh") & 0o777, 0o755);
        assert_eq!(mode("SKILL.md") & 0o777, 0o644);
    }
}

#[cfg(all(test, unix))]
mod hostile {
    use super::*;
    use skillcase_skill::package::PackageFile;

    /// Whatever name the staging folder gets, a link planted at each name a file or folder of the
    /// package will take — were the writer to follow it — leads outside.
    #[test]
    fn a_copy_never_writes_through_a_link_planted_in_the_target() {
        let target = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), target.path().join("frete")).unwrap();
        let pkg = Package {
            folder_name: Some("frete".into()),
            files: vec![PackageFile::new("SKILL.md", b"new".to_vec(), None)],
        };
        place(&OpenDir::open_named(target.path()).unwrap(), "frete", &pkg).unwrap();
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "nothing written outside");
        assert!(std::fs::symlink_metadata(target.path().join("frete")).unwrap().is_dir());
        assert_eq!(std::fs::read_to_string(target.path().join("frete/SKILL.md")).unwrap(), "new");
    }
}
