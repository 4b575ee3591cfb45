//! What the app holds while it runs: the host — the application with its local API — that every
//! command calls into.

use skillcase_application::domain::common::ErrorBody;
use skillcase_application::team::is_team_problem;
use skillcase_application::{paths, App, AppOptions};
use skillcase_host::Host;

/// Shared by every command through `tauri::State`.
pub struct AppState {
    host: Host,
}

impl AppState {
    /// Starts the application over the data directory (honouring `SKILLCASE_DATA_DIR` /
    /// `SKILLCASE_SKILLS_DIR` and the saved settings) before the window: a database written by a
    /// newer Skillcase is refused here. An API that cannot listen (port in use) does not stop the
    /// window: the status line says why.
    /// A team database that cannot be opened does not stop the window either: this desktop's
    /// own inbox opens and Settings → Team inbox says why.
    pub fn start() -> Result<Self, ErrorBody> {
        let options = AppOptions::new(paths::data_dir()?);
        let host = match tauri::async_runtime::block_on(Host::start(options.clone(), None)) {
            Err(err) if is_team_problem(&err) => {
                eprintln!("skillcase: the team inbox is not available, opening this desktop's own: {err}");
                let options = AppOptions { team_unavailable: Some(err), ..options };
                tauri::async_runtime::block_on(Host::start(options, None))?
            }
            started => started?,
        };
        Ok(AppState { host })
    }

    /// The application every command calls.
    pub fn app(&self) -> &App {
        self.host.app()
    }

    /// The application with its local API (status, port moves).
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// Stops the API and the workers when the app exits (requests in flight get a few seconds
    /// to finish, a delivery in flight is handed back to the outbox). Bounded: nothing stuck keeps
    /// the window's process alive for more than a few seconds ([`Host::stop`]).
    pub fn shutdown(&self) {
        tauri::async_runtime::block_on(self.host.stop());
    }
}
