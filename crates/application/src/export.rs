//! Export a skill as a `.skill` package (a skill folder, or a library skill by name) and the
//! security scan of a library skill: the actions behind the skill view's *Export* button and its
//! *Security* section, and behind `skillcase export`.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use skillcase_common::ErrorBody;
use skillcase_skill::archive::pack::pack_dir;
use skillcase_skill::finding::Finding;
use skillcase_skill::load::package_from_dir;
use skillcase_skill::scan::{scan_package, ScanFinding};
use ts_rs::TS;

use crate::App;

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExportReport {
    /// The skill's name, which is also the zip's one top-level folder.
    pub name: String,
    /// The file written.
    pub path: String,
    /// How many files the package holds (junk and caches left out).
    pub files: u32,
    /// The package's size in bytes.
    #[ts(type = "number")]
    pub bytes: u64,
    /// The `claude` profile's warnings; an export with errors is refused (`export_refused`).
    pub warnings: Vec<Finding>,
}

impl App {
    /// Packs `target` — a skill folder when such a folder exists, else the live folder of the
    /// library skill of that name — into the `.skill` zip `output` (replaced whole, never half
    /// written), refused with the findings when it breaks Anthropic's upload rules.
    pub async fn export_skill(&self, target: String, output: PathBuf) -> Result<ExportReport, ErrorBody> {
        let dir = self.skill_folder(target).await?;
        self.blocking(move |_| {
            let packed = pack_dir(&dir)?;
            write_whole(&output, &packed.bytes).map_err(|e| {
                ErrorBody::new("export_failed", format!("writing {} failed: {e}", output.display()))
            })?;
            Ok(ExportReport {
                name: packed.name,
                path: output.display().to_string(),
                files: packed.files as u32,
                bytes: packed.bytes.len() as u64,
                warnings: packed.warnings,
            })
        })
        .await
    }

    /// The security scan of the live folder of the library skill `name`.
    pub async fn scan_skill(&self, name: String) -> Result<Vec<ScanFinding>, ErrorBody> {
        let dir = self.skill_folder(name).await?;
        self.blocking(move |_| Ok(scan_package(&package_from_dir(&dir)?))).await
    }

    /// `target` as a folder: itself when it is one, else the library skill of that name, once
    /// the first scan has listed it (start-up no longer waits for the scan, so a command run
    /// right after opening would otherwise not find a skill that is there).
    async fn skill_folder(&self, target: String) -> Result<PathBuf, ErrorBody> {
        let as_path = PathBuf::from(&target);
        if as_path.is_dir() {
            return Ok(as_path);
        }
        self.scanned().await?;
        let library = self.library()?;
        self.blocking(move |_| Ok(library.live_dir(&target)?)).await
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(parent)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
