//! `skillcase.lock`: what Skillcase installed into one agent's skills folder, so a later sync or
//! verify knows which folders are its own (and leaves every other one alone) and what each file
//! should hold. Pretty JSON, keys sorted (skills by name, files by path), so it diffs well in a
//! repository; replaced whole through a temporary file and a rename, never half written.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use skillcase_common::durable::sync_dir;
use ts_rs::TS;

use super::error::InstallError;

/// The lock's file name inside a target folder.
pub const LOCK_FILE: &str = "skillcase.lock";
/// The layout this build writes and reads; a lock with a higher number is refused, not guessed at.
pub const LOCK_VERSION: u32 = 1;
/// A lock larger than this is not one Skillcase wrote.
const MAX_LOCK_BYTES: u64 = 16 * 1024 * 1024;

/// Every skill Skillcase installed into one folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// [`LOCK_VERSION`] of the build that wrote it.
    pub lock_version: u32,
    /// By skill name, which is also the installed folder's name.
    pub skills: BTreeMap<String, LockedSkill>,
}

impl Default for Lock {
    fn default() -> Self {
        Lock { lock_version: LOCK_VERSION, skills: BTreeMap::new() }
    }
}

/// One installed skill as it was copied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedSkill {
    /// The library's version id of what was copied; `null` for a skill copied from a folder.
    pub version: Option<i64>,
    /// Where it was copied from, so sync can copy it again.
    pub source: SkillSource,
    /// When it was last copied from its source (RFC 3339 UTC).
    pub installed_at: String,
    /// SHA-256 (lowercase hex) of every file, by path relative to the skill folder.
    pub files: BTreeMap<String, String>,
}

/// Where an installed skill came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum SkillSource {
    /// The live folder of a library skill, in the library of the data directory `data_dir`.
    Library { name: String, data_dir: String },
    /// A skill folder named by its absolute path.
    Folder { path: String },
}

/// The lock file of the target folder `dir`.
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_FILE)
}

/// The lock of `dir`, or `None` when it has none (nothing installed there yet).
pub fn read(dir: &Path) -> Result<Option<Lock>, InstallError> {
    let path = lock_path(dir);
    let corrupt = |reason: String| InstallError::LockCorrupt { path: path.display().to_string(), reason };
    let bytes = match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(corrupt(e.to_string())),
        Ok(meta) if !meta.is_file() => return Err(corrupt("not a regular file".into())),
        Ok(meta) if meta.len() > MAX_LOCK_BYTES => return Err(corrupt("larger than 16 MiB".into())),
        Ok(_) => std::fs::read(&path).map_err(|e| corrupt(e.to_string()))?,
    };
    let lock: Lock = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    if lock.lock_version > LOCK_VERSION {
        return Err(corrupt(format!(
            "written by a newer Skillcase (lock_version {}, this build reads {LOCK_VERSION})",
            lock.lock_version
        )));
    }
    Ok(Some(lock))
}

/// The lock as written: pretty JSON with a final newline.
pub fn to_text(lock: &Lock) -> String {
    let mut text = serde_json::to_string_pretty(lock).expect("a lock serialises");
    text.push('\n');
    text
}

/// Replaces the lock of `dir` whole: a temporary file beside it, fsynced, renamed over it.
pub fn write(dir: &Path, lock: &Lock) -> Result<(), InstallError> {
    let path = lock_path(dir);
    let write = || -> std::io::Result<()> {
        let mut file = tempfile::Builder::new().prefix(".skillcase-lock-").tempfile_in(dir)?;
        file.write_all(to_text(lock).as_bytes())?;
        readable_by_all(file.as_file())?;
        file.as_file().sync_all()?;
        file.persist(&path).map_err(|e| e.error)?;
        sync_dir(dir)
    };
    write().map_err(InstallError::io(&path))
}

/// 0644 like the copied files (a temporary file starts as 0600), so the lock can be read by
/// whoever reads the skills, and committed as is.
#[cfg(unix)]
fn readable_by_all(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn readable_by_all(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Lock {
        let mut lock = Lock::default();
        lock.skills.insert(
            "frete".into(),
            LockedSkill {
                version: Some(7),
                source: SkillSource::Library { name: "frete".into(), data_dir: "/data".into() },
                installed_at: "2026-05-01T10:00:00.000Z".into(),
                files: BTreeMap::from([
                    ("references/tabela.md".to_string(), "bb".repeat(32)),
                    ("SKILL.md".to_string(), "aa".repeat(32)),
                ]),
            },
        );
        lock.skills.insert(
            "boleto".into(),
            LockedSkill {
                version: None,
                source: SkillSource::Folder { path: "/src/boleto".into() },
                installed_at: "2026-05-01T10:00:01.000Z".into(),
                files: BTreeMap::from([("SKILL.md".to_string(), "cc".repeat(32))]),
            },
        );
        lock
    }

    #[test]
    fn a_written_lock_reads_back_equal() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &sample()).unwrap();
        assert_eq!(read(dir.path()).unwrap(), Some(sample()));
    }

    #[test]
    fn the_lock_is_pretty_json_with_skills_and_files_sorted() {
        let text = to_text(&sample());
        let expected = format!(
            r#"{{
  "lock_version": 1,
  "skills": {{
    "boleto": {{
      "version": null,
      "source": {{
        "kind": "folder",
        "path": "/src/boleto"
      }},
      "installed_at": "2026-05-01T10:00:01.000Z",
      "files": {{
        "SKILL.md": "{c}"
      }}
    }},
    "frete": {{
      "version": 7,
      "source": {{
        "kind": "library",
        "name": "frete",
        "data_dir": "/data"
      }},
      "installed_at": "2026-05-01T10:00:00.000Z",
      "files": {{
        "SKILL.md": "{a}",
        "references/tabela.md": "{b}"
      }}
    }}
  }}
}}
"#,
            a = "aa".repeat(32),
            b = "bb".repeat(32),
            c = "cc".repeat(32)
        );
        assert_eq!(text, expected);
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_is_readable_by_everyone_like_the_copied_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &sample()).unwrap();
        let mode = std::fs::metadata(lock_path(dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    #[test]
    fn a_folder_without_a_lock_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path()).unwrap(), None);
    }

    #[test]
    fn a_lock_that_is_not_json_is_refused_as_lock_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(lock_path(dir.path()), "skills = []\n").unwrap();
        let error = read(dir.path()).unwrap_err();
        assert!(matches!(error, InstallError::LockCorrupt { .. }), "{error}");
    }

    #[test]
    fn a_lock_from_a_newer_skillcase_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(lock_path(dir.path()), r#"{"lock_version": 2, "skills": {}}"#).unwrap();
        let error = read(dir.path()).unwrap_err().to_string();
        assert!(error.contains("written by a newer Skillcase (lock_version 2"), "{error}");
    }
}
