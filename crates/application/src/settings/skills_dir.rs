//! The skills directory setting: the folder Skillcase watches and serves (SPEC A9). A folder is
//! accepted only when it can be used right now (absolute, existing, a directory, readable), so a
//! typo never silently leaves the library empty.

use std::path::{Path, PathBuf};

use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;
use super::store;
use crate::paths;

const KEY: &str = "skills_dir";

/// The chosen skills directory, or `None` when none was chosen (the default applies).
pub fn skills_dir_setting(settings: &dyn SettingsRepository) -> Result<Option<PathBuf>, SettingsError> {
    store::get::<String>(settings, KEY).map(|dir| dir.map(PathBuf::from))
}

/// The skills directory in force: `$SKILLCASE_SKILLS_DIR`, else the saved setting, else the
/// development or data-directory default ([`paths::skills_dir`]).
pub fn effective_skills_dir(
    settings: &dyn SettingsRepository,
    data_dir: &Path,
) -> Result<PathBuf, SettingsError> {
    Ok(paths::skills_dir(skills_dir_setting(settings)?, data_dir))
}

/// True when `$SKILLCASE_SKILLS_DIR` overrides the setting (Settings says so next to the field).
pub fn skills_dir_from_env() -> bool {
    std::env::var_os(paths::SKILLS_DIR_ENV).is_some_and(|v| !v.is_empty())
}

/// Validates and saves the skills directory (stored canonical), or forgets it with `None` so
/// the default applies again. Refused with `invalid_skills_dir` when the path is blank,
/// relative, missing, not a directory or unreadable.
pub fn set_skills_dir(
    settings: &dyn SettingsRepository,
    path: Option<&str>,
) -> Result<Option<PathBuf>, SettingsError> {
    let Some(path) = path else {
        store::remove(settings, KEY)?;
        return Ok(None);
    };
    let dir = usable_dir(path)?;
    store::put(settings, KEY, &dir.display().to_string())?;
    Ok(Some(dir))
}

/// The canonical form of `raw` when it names a readable directory.
pub fn usable_dir(raw: &str) -> Result<PathBuf, SettingsError> {
    let refuse = |reason: String| SettingsError::InvalidSkillsDir { path: raw.to_string(), reason };
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(refuse("no folder was given".into()));
    }
    let path = Path::new(trimmed);
    if !path.is_absolute() {
        return Err(refuse("the path must be absolute (start at the root of a drive)".into()));
    }
    let canonical = std::fs::canonicalize(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => refuse("the folder does not exist".into()),
        _ => refuse(format!("it cannot be opened ({e})")),
    })?;
    if !canonical.is_dir() {
        return Err(refuse("it is a file, not a folder".into()));
    }
    std::fs::read_dir(&canonical).map_err(|e| refuse(format!("it cannot be read ({e})")))?;
    Ok(canonical)
}
