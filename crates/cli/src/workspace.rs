//! Opening the application for one CLI command: the data directory (`--data-dir` or the usual
//! one), an optional skills directory, no catalog, and nothing in the background — a command
//! never delivers a reply or watches a folder as a side effect.

use std::path::PathBuf;
use std::sync::OnceLock;

use skillcase_application::{paths, App, AppOptions};
use skillcase_common::ErrorBody;

/// The `--database` of this run, set once by `main` before any command opens the application.
static DATABASE: OnceLock<Option<String>> = OnceLock::new();

/// Remembers `--database` for every application this run opens.
pub fn use_database(database: Option<String>) {
    let _ = DATABASE.set(database);
}

/// This run's `--database`, if given.
pub fn database() -> Option<String> {
    DATABASE.get().cloned().flatten()
}

/// The options for `data_dir` with this run's `--database`.
pub fn options(data_dir: PathBuf) -> AppOptions {
    AppOptions { database: DATABASE.get().cloned().flatten(), ..AppOptions::new(data_dir) }
}

/// The application over `data_dir` (default: `$SKILLCASE_DATA_DIR` or the platform's), serving
/// `skills_dir` when given (else the saved setting).
pub async fn open(data_dir: Option<PathBuf>, skills_dir: Option<PathBuf>) -> anyhow::Result<App> {
    let data_dir = match data_dir {
        Some(dir) => dir,
        None => paths::data_dir()?,
    };
    let options = AppOptions { skills_dir, catalog_dir: None, background: false, ..options(data_dir) };
    Ok(App::start(options).await?)
}

/// [`open`], then waits until the library has read every skill folder.
pub async fn open_scanned(
    data_dir: Option<PathBuf>,
    skills_dir: Option<PathBuf>,
) -> Result<App, anyhow::Error> {
    let app = open(data_dir, skills_dir).await?;
    app.scanned().await.map_err(|e: ErrorBody| anyhow::anyhow!(e))?;
    Ok(app)
}
