//! Importing an untrusted `.zip` into the library (SPEC A8): the archive is inspected and
//! validated in memory (`archive::inspect`), then written like any other change — staged beside
//! the skills directory, swapped into `<skills>/<name>/`, recorded as an `import` version.
//! A refusal writes nothing and comes back as a report with the findings. A package the security
//! scan finds anything critical in is refused too (`import_security_refused`), unless the
//! workspace policy allows it: a download-and-run line or an instruction hidden from the reviewer
//! must never arrive by drag and drop.

use std::path::Path;

use super::folder_zip::Packed;
use super::types::{ImportReport, ImportedFile};
use super::versions::content_hash;
use super::{is_plain_name, Library, LibraryError, Source, PROFILE};
use skillcase_skill::archive::{self, ArchiveError};
use skillcase_skill::files::kind_of;
use skillcase_skill::finding::Finding;
use skillcase_skill::package::Package;
use skillcase_skill::scan::{scan_package, ScanFinding};
use skillcase_skill::validate::{validate_package, Validated};

/// The refusal code of an import the security scan found something critical in.
pub const SECURITY_REFUSED: &str = "import_security_refused";

impl Library {
    /// Imports what `path` names: a skill folder (packed and checked exactly like a zip) or a
    /// `.zip`/`.skill` package. The one import every front end runs.
    pub fn import_path(&self, path: &Path, dry_run: bool) -> Result<ImportReport, LibraryError> {
        if path.is_dir() {
            return self.import_folder(path, dry_run);
        }
        self.import_zip_file(path, dry_run)
    }

    /// Imports the skill folder at `path` (see [`Library::import_zip`]): reading stops one file
    /// past the limits and never opens a link, a FIFO or a file over the per-file limit, so a huge
    /// or hostile folder dropped by mistake costs little and is refused with the zip's codes.
    pub fn import_folder(&self, path: &Path, dry_run: bool) -> Result<ImportReport, LibraryError> {
        match super::folder_zip::zip_folder(path, &self.policy.limits)
            .map_err(|source| ArchiveError::Read { source })?
        {
            Packed::Zip(bytes) => self.import_zip(&bytes, dry_run),
            Packed::Refused(findings) => {
                Ok(ImportReport { dry_run, ..refused(None, "import_refused", findings) })
            }
        }
    }

    /// Imports the zip at `path` (see [`Library::import_zip`]). The file is read through
    /// [`archive::read_package`], so a FIFO or device named like a zip is refused without holding
    /// the thread, and one over the archive size limit is refused unread.
    pub fn import_zip_file(&self, path: &Path, dry_run: bool) -> Result<ImportReport, LibraryError> {
        match archive::read_package(path, &self.policy.limits) {
            Ok(bytes) => self.import_zip(&bytes, dry_run),
            Err(ArchiveError::Refused { findings }) => {
                Ok(ImportReport { dry_run, ..refused(None, "import_refused", findings) })
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Imports a zip held in memory. With `dry_run` every check runs and nothing is written.
    /// Refusals (unsafe archive, invalid skill) return `Ok` with `refused` set and the findings;
    /// `Err` is kept for failures of the disk or the database.
    pub fn import_zip(&self, bytes: &[u8], dry_run: bool) -> Result<ImportReport, LibraryError> {
        self.import_reader(std::io::Cursor::new(bytes), dry_run)
    }

    fn import_reader(&self, reader: impl std::io::Read, dry_run: bool) -> Result<ImportReport, LibraryError> {
        self.write_import(self.check_import(reader)?, dry_run)
    }

    /// Every check of an import, run once: the archive's, validation, the security scan and the
    /// name. A caller that must look at the result before writing (a catalog install compares
    /// the declared name) writes it with [`Library::write_import`] instead of importing twice.
    pub(crate) fn check_import(&self, reader: impl std::io::Read) -> Result<Checked, LibraryError> {
        let pkg = match archive::inspect(reader, &self.policy) {
            Ok(pkg) => pkg,
            Err(ArchiveError::Refused { findings }) => {
                return Ok(Checked::Refused(refused(None, "import_refused", findings)))
            }
            Err(other) => return Err(other.into()),
        };
        let validated = validate_package(&pkg, PROFILE, &self.policy);
        let name = match &validated.skill {
            Some(skill) if validated.is_valid() => skill.name.clone(),
            skill => {
                let name = skill.as_ref().map(|s| s.name.clone());
                return Ok(Checked::Refused(refused(name, "import_refused", validated.findings)));
            }
        };
        if let Some(critical) = self.critical_findings(&pkg) {
            return Ok(Checked::Refused(refused(Some(name), SECURITY_REFUSED, critical)));
        }
        if !is_plain_name(&name) {
            let message = format!("`{name}` cannot be a folder name");
            let finding = Finding::error("name_invalid_chars", "SKILL.md", message)
                .hint("Use only lower-case letters, digits and hyphens: `my-skill`.");
            return Ok(Checked::Refused(refused(Some(name), "skill_name_invalid", vec![finding])));
        }
        Ok(Checked::Ready(Ready { name, pkg, validated: Box::new(validated) }))
    }

    /// Writes an import [`Library::check_import`] passed (with `dry_run`, only reports what it
    /// would do); a refused one comes back as its report.
    pub(crate) fn write_import(&self, checked: Checked, dry_run: bool) -> Result<ImportReport, LibraryError> {
        let Ready { name, pkg, validated } = match checked {
            Checked::Refused(report) => return Ok(ImportReport { dry_run, ..report }),
            Checked::Ready(ready) => ready,
        };
        let _writing = self.write_lock();
        let replaced = self.read_state().local.contains_key(&name);
        let mut report = ImportReport {
            name: Some(name.clone()),
            installed: false,
            dry_run,
            replaced,
            version: None,
            unchanged: false,
            files: files_of(&pkg),
            findings: validated.findings.clone(),
            refused: None,
            trigger_changes: self.trigger_changes(&name, &pkg, &validated),
        };
        let hash = content_hash(&super::versions::manifest_of(&pkg));
        report.unchanged = self.repo.find_version(&name, &hash)?.is_some();
        if dry_run {
            return Ok(report);
        }
        report.version = Some(self.write_folder(&name, &pkg, *validated, Source::Import)?);
        report.installed = true;
        Ok(report)
    }
}

/// What the checks of an import found: the report of a refusal, or a package ready to write.
pub(crate) enum Checked {
    Refused(ImportReport),
    Ready(Ready),
}

/// A package every check passed: its name, files and validation.
pub(crate) struct Ready {
    name: String,
    pkg: Package,
    validated: Box<Validated>,
}

impl Checked {
    /// The skill's declared name, when its SKILL.md was read.
    pub(crate) fn name(&self) -> Option<&str> {
        match self {
            Checked::Refused(report) => report.name.as_deref(),
            Checked::Ready(ready) => Some(&ready.name),
        }
    }
}

impl Library {
    /// The security scan's critical findings in `pkg`, unless the policy allows them.
    fn critical_findings(&self, pkg: &Package) -> Option<Vec<Finding>> {
        if self.policy.allow_critical_findings {
            return None;
        }
        let critical: Vec<Finding> =
            scan_package(pkg).iter().filter(|f| f.is_critical()).map(ScanFinding::to_finding).collect();
        (!critical.is_empty()).then_some(critical)
    }
}

fn files_of(pkg: &Package) -> Vec<ImportedFile> {
    pkg.files
        .iter()
        .map(|f| ImportedFile {
            path: f.path.clone(),
            kind: kind_of(&f.path),
            size: f.bytes.len() as u64,
            short_hash: f.sha256[..12].to_string(),
        })
        .collect()
}

fn refused(name: Option<String>, code: &str, mut findings: Vec<Finding>) -> ImportReport {
    findings.sort_by_key(|f| !f.is_error());
    ImportReport {
        name,
        installed: false,
        dry_run: false,
        replaced: false,
        version: None,
        unchanged: false,
        files: Vec::new(),
        findings,
        refused: Some(code.to_string()),
        trigger_changes: Vec::new(),
    }
}
