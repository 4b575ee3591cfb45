//! Fork on install: a pulled remote skill is copied into the skills directory as a local skill
//! through the one import pipeline — packed from its stored blobs into a zip and imported, so the
//! same validation, limits and security-scan policy apply as to any import — and the fork is
//! recorded: the catalog's URL and the upstream version and digest it was copied from
//! (`remote_forks`). Installing the same upstream skill again updates the copy (the previous
//! content stays a version, so rollback brings it back); any other local skill of that name is
//! never replaced.

use std::io::Write;

use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use super::error::RemoteError;
use super::store::ForkRow;
use super::types::RemoteInstall;
use crate::{check_name, Library, LibraryError};

impl Library {
    /// Installs the skill `name` of remote catalog `catalog` as a local fork (see the module).
    pub fn install_remote(&self, catalog: i64, name: &str) -> Result<RemoteInstall, LibraryError> {
        check_name(name)?;
        let row = self.catalog_row(catalog)?;
        let skill = self
            .remote
            .pulled(Some(catalog))?
            .into_iter()
            .find(|s| s.name == name)
            .ok_or_else(|| RemoteError::SkillNotFound { catalog, name: name.to_string() })?;
        if skill.removed_at.is_some() {
            return Err(RemoteError::SkillRemoved { catalog, name: name.to_string() }.into());
        }
        let previous = self.remote.forks()?.into_iter().find(|f| f.name == name);
        let exists = self.read_state().local.contains_key(name);
        let same_upstream =
            previous.as_ref().is_some_and(|f| f.catalog_id == Some(catalog) && f.upstream_name == skill.name);
        if exists && !same_upstream {
            return Err(LibraryError::AlreadyExists { name: name.to_string() });
        }
        let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for file in &skill.manifest {
            let bytes = self.stored_file(file)?;
            zip.start_file(format!("{name}/{}", file.path), SimpleFileOptions::default())
                .map_err(|e| LibraryError::Io { path: file.path.clone(), source: e.into() })?;
            zip.write_all(&bytes).map_err(LibraryError::io(std::path::Path::new(&file.path)))?;
        }
        let packed = zip
            .finish()
            .map_err(|e| LibraryError::Io { path: name.to_string(), source: e.into() })?
            .into_inner();
        let refused = |report: crate::ImportReport| -> LibraryError {
            let code = match report.refused.as_deref() {
                Some(crate::import::SECURITY_REFUSED) => crate::import::SECURITY_REFUSED,
                Some("skill_name_invalid") => "skill_name_invalid",
                _ => "import_refused",
            };
            RemoteError::InstallRefused { catalog, name: name.to_string(), code, findings: report.findings }
                .into()
        };
        // One pass of the import's checks (the security scan among them), then the write.
        let checked = self.check_import(std::io::Cursor::new(&packed))?;
        if let Some(declared) = checked.name().filter(|d| *d != name) {
            return Err(RemoteError::NameMismatch {
                catalog,
                name: name.to_string(),
                declared: declared.to_string(),
            }
            .into());
        }
        let report = self.write_import(checked, false)?;
        let Some(version) = report.version.clone().filter(|_| report.refused.is_none()) else {
            return Err(refused(report));
        };
        self.remote.record_fork(ForkRow {
            name: name.to_string(),
            catalog_id: Some(catalog),
            catalog_url: row.url.clone(),
            upstream_name: skill.name.clone(),
            upstream_version: skill.version.clone(),
            upstream_digest: skill.digest.clone(),
            version_id: Some(version.id),
            installed_at: crate::now(),
        })?;
        Ok(RemoteInstall {
            catalog,
            catalog_url: row.url,
            name: name.to_string(),
            upstream_version: skill.version,
            upstream_digest: skill.digest,
            version,
            replaced: exists,
        })
    }
}
