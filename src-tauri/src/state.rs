//! What the app holds while it runs: where its state lives.

use std::path::PathBuf;

use skillcase_core::{db, info::AppInfo, paths, ErrorBody};

/// Shared by every command through `tauri::State`.
pub struct AppState {
    pub data_dir: PathBuf,
    pub skills_dir: PathBuf,
    pub database_path: PathBuf,
}

impl AppState {
    /// Resolves the directories (honouring `SKILLCASE_DATA_DIR` / `SKILLCASE_SKILLS_DIR`) and opens
    /// the database once, so migrations run (or a too-new database is refused) before the window.
    pub fn from_env() -> Result<Self, ErrorBody> {
        let data_dir = paths::data_dir()?;
        let database_path = data_dir.join(db::DATABASE_FILE);
        db::open(&database_path)?;
        let skills_dir = paths::skills_dir(None, &data_dir);
        Ok(Self { data_dir, skills_dir, database_path })
    }

    /// The status-line facts.
    pub fn info(&self) -> AppInfo {
        AppInfo::new(&self.skills_dir, &self.data_dir, &self.database_path)
    }
}
