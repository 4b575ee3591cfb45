//! Safe edits from the app (SPEC A9): create, edit (full text), patch (replace a unique
//! substring), delete, and adding or removing a support file. Every change is applied to an
//! in-memory copy of the folder and validated *before* anything touches the disk: a change that
//! adds an error (a patch that breaks the frontmatter, say) is refused and nothing is written.
//! Errors the skill already had do not block a change, so a broken skill can be fixed one step at
//! a time. Each accepted change records an `edit` version.

use std::collections::BTreeSet;

use super::types::VersionInfo;
use super::{check_name, Library, LibraryError, Source, PROFILE};
use skillcase_skill::config::CONFIG_FILE;
use skillcase_skill::files::is_support_path;
use skillcase_skill::finding::Finding;
use skillcase_skill::load::{package_from, LoadError};
use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::triggers::CASES_FILE;
use skillcase_skill::validate::{validate_package, Validated};

impl Library {
    /// Creates a new local skill `name` whose SKILL.md has `description` and `body`.
    pub fn create(&self, name: &str, description: &str, body: &str) -> Result<VersionInfo, LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        if self.read_state().live(name).is_some() {
            return Err(LibraryError::AlreadyExists { name: name.to_string() });
        }
        let text = format!("---\nname: {name}\ndescription: {}\n---\n{body}", yaml_scalar(description));
        let pkg =
            Package { folder_name: Some(name.to_string()), files: vec![file("SKILL.md", text.into_bytes())] };
        let validated = validate_package(&pkg, PROFILE, &self.policy);
        if !validated.is_valid() {
            return Err(LibraryError::Refused { findings: validated.findings });
        }
        self.write_folder(name, &pkg, validated, Source::Edit)
    }

    /// Replaces the whole text of `path` (SKILL.md, skill.config.yaml or a support file).
    pub fn edit(&self, name: &str, path: &str, text: &str) -> Result<VersionInfo, LibraryError> {
        check_editable_path(path)?;
        self.change(name, |pkg| {
            set_file(pkg, path, text.as_bytes().to_vec());
            Ok(())
        })
    }

    /// Replaces the one occurrence of `find` in `path` with `replace`. Zero or several
    /// occurrences are errors that say which (`patch_no_match`, `patch_ambiguous` with the count).
    pub fn patch(
        &self,
        name: &str,
        path: &str,
        find: &str,
        replace: &str,
    ) -> Result<VersionInfo, LibraryError> {
        check_editable_path(path)?;
        self.change(name, |pkg| {
            let current = pkg.file(path).ok_or_else(|| LibraryError::FileNotFound {
                name: name.to_string(),
                path: path.to_string(),
            })?;
            let text = std::str::from_utf8(&current.bytes)
                .map_err(|_| LibraryError::NotText { path: path.to_string() })?;
            let count = if find.is_empty() { 0 } else { text.matches(find).count() };
            match count {
                0 => Err(LibraryError::PatchNoMatch { path: path.to_string() }),
                1 => {
                    let patched = text.replacen(find, replace, 1);
                    set_file(pkg, path, patched.into_bytes());
                    Ok(())
                }
                count => Err(LibraryError::PatchManyMatches { path: path.to_string(), count }),
            }
        })
    }

    /// Writes (creates or replaces) the support file `relpath` with `bytes`.
    pub fn write_file(&self, name: &str, relpath: &str, bytes: &[u8]) -> Result<VersionInfo, LibraryError> {
        check_support_path(relpath)?;
        self.change(name, |pkg| {
            set_file(pkg, relpath, bytes.to_vec());
            Ok(())
        })
    }

    /// Removes the support file `relpath`.
    pub fn remove_file(&self, name: &str, relpath: &str) -> Result<VersionInfo, LibraryError> {
        check_support_path(relpath)?;
        self.change(name, |pkg| {
            let before = pkg.files.len();
            pkg.files.retain(|f| f.path != relpath);
            if pkg.files.len() == before {
                return Err(LibraryError::FileNotFound { name: name.to_string(), path: relpath.to_string() });
            }
            Ok(())
        })
    }

    /// Deletes the local skill `name` (a catalog skill of that name comes back).
    pub fn delete(&self, name: &str) -> Result<(), LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        self.local_dir(name)?;
        self.remove_folder(name)
    }

    /// Every finding the skill would have if `path` held `text` — the editor's live validation.
    /// Nothing is written.
    pub fn preview_edit(&self, name: &str, path: &str, text: &str) -> Result<Vec<Finding>, LibraryError> {
        check_editable_path(path)?;
        let (entry, _) = self.live_entry(name)?;
        let mut pkg = read_package(&entry.dir)?;
        set_file(&mut pkg, path, text.as_bytes().to_vec());
        Ok(validate_package(&pkg, PROFILE, &self.policy).findings)
    }

    /// Applies `apply` to a copy of the local folder, validates, and writes it only when it adds
    /// no error.
    fn change(
        &self,
        name: &str,
        apply: impl FnOnce(&mut Package) -> Result<(), LibraryError>,
    ) -> Result<VersionInfo, LibraryError> {
        check_name(name)?;
        let _writing = self.write_lock();
        let dir = self.local_dir(name)?;
        let mut pkg = read_package(&dir)?;
        let before = validate_package(&pkg, PROFILE, &self.policy);
        apply(&mut pkg)?;
        let after = validate_package(&pkg, PROFILE, &self.policy);
        let added = added_errors(&before, &after);
        if !added.is_empty() || after.skill.is_none() {
            let findings = if added.is_empty() { after.findings } else { added };
            return Err(LibraryError::Refused { findings });
        }
        self.write_folder(name, &pkg, after, Source::Edit)
    }

    /// The local folder of `name`; catalog skills are read-only.
    fn local_dir(&self, name: &str) -> Result<std::path::PathBuf, LibraryError> {
        let state = self.read_state();
        match (state.local.get(name), state.catalog.contains_key(name)) {
            (Some(entry), _) => Ok(entry.dir.clone()),
            (None, true) => Err(LibraryError::ReadOnly { name: name.to_string() }),
            (None, false) => Err(LibraryError::NotFound { name: name.to_string() }),
        }
    }
}

pub(super) fn read_package(dir: &std::path::Path) -> Result<Package, LibraryError> {
    super::sync::listed(dir)
        .map_err(LoadError::from)
        .and_then(package_from)
        .map_err(|e| LibraryError::Refused { findings: vec![e.to_finding()] })
}

/// The error findings of `after` that `before` did not have (same code on the same file).
fn added_errors(before: &Validated, after: &Validated) -> Vec<Finding> {
    let known: BTreeSet<(&str, &str)> =
        before.findings.iter().filter(|f| f.is_error()).map(|f| (f.code.as_str(), f.file.as_str())).collect();
    after
        .findings
        .iter()
        .filter(|f| f.is_error() && !known.contains(&(f.code.as_str(), f.file.as_str())))
        .cloned()
        .collect()
}

fn file(path: &str, bytes: Vec<u8>) -> PackageFile {
    PackageFile::new(path, bytes, None)
}

/// Replaces or adds `path`, keeping the files sorted.
pub(super) fn set_file(pkg: &mut Package, path: &str, bytes: Vec<u8>) {
    pkg.files.retain(|f| f.path != path);
    pkg.files.push(file(path, bytes));
    pkg.files.sort_by(|a, b| a.path.cmp(&b.path));
}

/// SKILL.md, skill.config.yaml, or a support path.
fn check_editable_path(path: &str) -> Result<(), LibraryError> {
    if path == "SKILL.md" || path == CONFIG_FILE || path == CASES_FILE {
        return Ok(());
    }
    check_support_path(path)
}

/// A support path (`references/…`, `assets/…`, `templates/…`, `scripts/…`) of plain segments.
fn check_support_path(path: &str) -> Result<(), LibraryError> {
    let plain = |seg: &str| {
        !seg.is_empty()
            && seg != "."
            && seg != ".."
            && !seg.starts_with('.')
            && !seg.contains(['\\', ':', '\0'])
    };
    if is_support_path(path) && path.split('/').all(plain) {
        Ok(())
    } else {
        Err(LibraryError::BadPath { path: path.to_string() })
    }
}

/// `text` as a YAML scalar on one line: plain when that is unambiguous, else single-quoted.
fn yaml_scalar(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let special = line.is_empty()
        || line.contains(": ")
        || line.contains(" #")
        || line.ends_with(':')
        || line.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c));
    if special {
        format!("'{}'", line.replace('\'', "''"))
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_paths_must_be_plain_and_inside_a_support_folder() {
        assert!(check_support_path("references/tabela.md").is_ok());
        for bad in ["SKILL.md", "references/../SKILL.md", "references/.hidden", "other/a.md", "references/"] {
            assert!(check_support_path(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn descriptions_are_quoted_only_when_yaml_needs_it() {
        assert_eq!(yaml_scalar("Calcula o frete"), "Calcula o frete");
        assert_eq!(yaml_scalar("Frete: prazo e valor"), "'Frete: prazo e valor'");
        assert_eq!(yaml_scalar("it's #1"), "'it''s #1'");
        assert_eq!(yaml_scalar("it's fine"), "it's fine");
        assert_eq!(yaml_scalar("'quoted'"), "'''quoted'''");
    }
}
