//! A running Skillcase with the servers that face the agent: the application ([`App`]) and the
//! local HTTP API that serves it. The desktop app and `skillcase serve` both run exactly this, so
//! the two can never drift: options are assembled in one place ([`AppOptions`]), the API starts
//! on the saved port (or its override), and moving it to another port starts the new listener
//! before the old one stops.

use skillcase_api::{serve, ApiConfig, ApiState, RunningServer};
use skillcase_application::info::{ApiStatus, AppInfo};
use skillcase_application::settings::SettingsView;
use skillcase_application::{App, AppOptions};
use skillcase_common::ErrorBody;
use tokio::sync::Mutex;

/// The application and its local API. Share it by reference (the desktop keeps one in its state).
pub struct Host {
    app: App,
    api: Mutex<Api>,
}

/// The listener and what it says about itself.
struct Api {
    status: ApiStatus,
    server: Option<RunningServer>,
}

impl Host {
    /// Starts the application, then the local API on `port` (0 picks a free one), or on the
    /// saved port when `port` is `None`. An API that cannot listen does not stop the application:
    /// [`Host::api_status`] says why (the window shows it; `skillcase serve` exits with it).
    pub async fn start(options: AppOptions, port: Option<u16>) -> Result<Host, ErrorBody> {
        let app = App::start(options).await?;
        let port = match port {
            Some(port) => Ok(port),
            None => app.startup_api_port().await,
        };
        let api = match port {
            Ok(port) => listen(&app, port).await,
            Err(error) => Api { status: ApiStatus::Failed { error }, server: None },
        };
        Ok(Host { app, api: Mutex::new(api) })
    }

    /// The application every front end calls.
    pub fn app(&self) -> &App {
        &self.app
    }

    /// Whether the local API is up, and where.
    pub async fn api_status(&self) -> ApiStatus {
        self.api.lock().await.status.clone()
    }

    /// The port the API listens on, if it listens.
    pub async fn api_port(&self) -> Option<u16> {
        self.api.lock().await.server.as_ref().map(RunningServer::port)
    }

    /// The status-line facts.
    pub async fn info(&self) -> AppInfo {
        self.app.info(Some(self.api_status().await))
    }

    /// Everything the Settings screen shows.
    pub async fn settings_view(&self) -> Result<SettingsView, ErrorBody> {
        self.app.settings_view(self.api_status().await).await
    }

    /// Moves the API to `port`: the port is checked, the new listener starts first (so when it
    /// cannot bind, the error is returned and the old one keeps serving untouched), then the old
    /// one stops and the port is saved.
    pub async fn set_api_port(&self, port: u32) -> Result<(), ErrorBody> {
        let mut api = self.api.lock().await;
        let current = api.server.as_ref().map(RunningServer::port);
        let port = self.app.check_api_port(port, current).await?;
        if current != Some(port) {
            let server = serve(config(port), ApiState { app: self.app.clone() }).await?;
            api.status = listening(&server);
            if let Some(old) = api.server.replace(server) {
                shut(old).await;
            }
        }
        drop(api);
        self.app.save_api_port(port).await
    }

    /// Stops the API (requests in flight finish), then the application's workers.
    pub async fn stop(&self) {
        if let Some(server) = self.api.lock().await.server.take() {
            shut(server).await;
        }
        self.app.stop().await;
    }
}

async fn listen(app: &App, port: u16) -> Api {
    match serve(config(port), ApiState { app: app.clone() }).await {
        Ok(server) => Api { status: listening(&server), server: Some(server) },
        Err(error) => Api { status: ApiStatus::Failed { error: error.into() }, server: None },
    }
}

fn config(port: u16) -> ApiConfig {
    ApiConfig { port, ..ApiConfig::default() }
}

fn listening(server: &RunningServer) -> ApiStatus {
    ApiStatus::Listening { url: format!("http://127.0.0.1:{}", server.port()) }
}

async fn shut(server: RunningServer) {
    if let Err(err) = server.shutdown().await {
        eprintln!("skillcase: the local API stopped with an error: {err}");
    }
}
