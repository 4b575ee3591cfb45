//! A running Skillcase with the servers that face the agent: the application ([`App`]) and the
//! local HTTP API that serves it, with MCP's Streamable HTTP endpoint (`/mcp`) mounted under the
//! API's gate. The desktop app and `skillcase serve` both run exactly this, so
//! the two can never drift: options are assembled in one place ([`AppOptions`]), the API starts
//! on the saved port (or its override), and moving it to another port starts the new listener
//! before the old one stops.

use std::collections::BTreeMap;

use skillcase_api::{serve, ApiConfig, ApiState, RunningServer};
use skillcase_application::info::{ApiStatus, AppInfo, McpSetup};
use skillcase_application::paths::{self, DATA_DIR_ENV};
use skillcase_application::settings::SettingsView;
use skillcase_application::{App, AppOptions};
use skillcase_common::ErrorBody;
use skillcase_mcp::{McpHttp, McpLimits};
use tokio::sync::Mutex;

/// The application and its local API. Share it by reference (the desktop keeps one in its state).
pub struct Host {
    app: App,
    api: Mutex<Api>,
}

/// The listener and what it says about itself.
struct Api {
    status: ApiStatus,
    server: Option<Listening>,
}

/// A listening API with its MCP endpoint, stopped together.
struct Listening {
    server: RunningServer,
    mcp: McpHttp,
}

impl Listening {
    async fn start(app: &App, port: u16) -> Result<Listening, ErrorBody> {
        let config = config(port);
        let mcp = McpHttp::new(app.clone(), mcp_limits(&config));
        let server = serve(config, ApiState { app: app.clone() }, mcp.router()).await?;
        Ok(Listening { server, mcp })
    }

    fn port(&self) -> u16 {
        self.server.port()
    }

    /// Ends the MCP streams first (a client's open notification stream would hold the graceful
    /// shutdown forever), then stops the server.
    async fn stop(self) {
        self.mcp.close();
        if let Err(err) = self.server.shutdown().await {
            eprintln!("skillcase: the local API stopped with an error: {err}");
        }
    }
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
        self.api.lock().await.server.as_ref().map(Listening::port)
    }

    /// How an agent's host connects over MCP (Settings → Agents (MCP)): the stdio command and,
    /// while the API listens, the Streamable HTTP URL. The clients connected right now are
    /// [`App::mcp_clients`], announced as `mcp-clients-changed`.
    pub async fn mcp_setup(&self) -> McpSetup {
        let http_url =
            self.api_port().await.map(|port| format!("http://127.0.0.1:{port}{}", skillcase_mcp::http::PATH));
        let beside_us = std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.join(format!("skillcase{}", std::env::consts::EXE_SUFFIX))))
            .filter(|cli| cli.is_file());
        let command = beside_us.map_or_else(|| "skillcase".to_string(), |cli| cli.display().to_string());
        let mut env = BTreeMap::new();
        // The host starts the command with its own environment, not this process's: any data
        // directory but the platform's default must be named, even one this process got from
        // `SKILLCASE_DATA_DIR` itself.
        if paths::default_data_dir().ok().as_deref() != Some(self.app.data_dir()) {
            env.insert(DATA_DIR_ENV.to_string(), self.app.data_dir().display().to_string());
        }
        McpSetup { command, args: vec!["mcp".to_string()], env, http_url }
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
        let current = api.server.as_ref().map(Listening::port);
        let port = self.app.check_api_port(port, current).await?;
        if current != Some(port) {
            let server = Listening::start(&self.app, port).await?;
            api.status = listening(&server);
            if let Some(old) = api.server.replace(server) {
                old.stop().await;
            }
        }
        drop(api);
        self.app.save_api_port(port).await
    }

    /// Stops the API (requests in flight get its shutdown grace, a few seconds, to finish), then
    /// the application's workers (a second at most): closing the window or stopping
    /// `skillcase serve` takes a few seconds at worst, whatever a request or a thread is stuck on.
    pub async fn stop(&self) {
        if let Some(server) = self.api.lock().await.server.take() {
            server.stop().await;
        }
        self.app.stop().await;
    }
}

async fn listen(app: &App, port: u16) -> Api {
    match Listening::start(app, port).await {
        Ok(server) => Api { status: listening(&server), server: Some(server) },
        Err(error) => Api { status: ApiStatus::Failed { error }, server: None },
    }
}

fn config(port: u16) -> ApiConfig {
    ApiConfig { port, ..ApiConfig::default() }
}

/// The MCP endpoint's limits under an API configured as `config`: a tool call is cut at the
/// API's request timeout, like any request, and notification streams may hold at most a quarter
/// of the API's connections, so the rest always serve other requests.
fn mcp_limits(config: &ApiConfig) -> McpLimits {
    McpLimits {
        max_streams: (config.max_connections / 4).max(1),
        call_timeout: config.request_timeout,
        ..McpLimits::default()
    }
}

fn listening(server: &Listening) -> ApiStatus {
    ApiStatus::Listening { url: format!("http://127.0.0.1:{}", server.port()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_streams_keep_three_quarters_of_the_connections_free_and_tool_calls_share_the_request_timeout() {
        let config = config(0);
        let limits = mcp_limits(&config);
        assert_eq!(limits.max_streams, config.max_connections / 4);
        assert!(config.max_connections - limits.max_streams >= 192, "{config:?}");
        assert_eq!(limits.call_timeout, config.request_timeout);
    }
}
