//! A live API server in a temporary data directory; requests to it are written by hand with the
//! test kit's raw HTTP client.

#![allow(dead_code)]

use skillcase_api::{serve, ApiConfig, ApiState, RunningServer};
use skillcase_application::{App, AppOptions};
use skillcase_library::Source;
use skillcase_testkit::http::Req;

/// A running server over a fresh data directory.
pub struct Live {
    pub port: u16,
    pub state: ApiState,
    pub server: RunningServer,
    pub dir: tempfile::TempDir,
}

impl Live {
    /// Starts a server on a free port with the default limits.
    pub async fn start() -> Live {
        Live::start_with(ApiConfig { port: 0, ..ApiConfig::default() }).await
    }

    /// Starts a server on a free port with `config` (its port is ignored).
    pub async fn start_with(config: ApiConfig) -> Live {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("skills")).unwrap();
        let app = App::start(AppOptions {
            skills_dir: Some(dir.path().join("skills")),
            catalog_dir: None,
            background: false,
            ..AppOptions::new(dir.path().to_path_buf())
        })
        .await
        .unwrap();
        app.scanned().await.unwrap();
        let state = ApiState { app };
        let server =
            serve(ApiConfig { port: 0, ..config }, state.clone(), axum::Router::new()).await.unwrap();
        Live { port: server.port(), state, server, dir }
    }

    /// Writes `files` (path relative to the skill folder, text) as skill `name` in the skills
    /// directory, and tells the library, as the watcher would.
    pub fn write_skill(&self, name: &str, files: &[(&str, &str)]) {
        for (path, text) in files {
            let target = self.dir.path().join("skills").join(name).join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, text).unwrap();
        }
        self.state.app.library().unwrap().sync_skill(name, Source::Watch).unwrap();
    }

    /// The token in force.
    pub fn token(&self) -> String {
        self.state.app.tokens().current().unwrap().as_str().to_string()
    }

    /// A request to this server with the right host and token, to be adjusted by the test.
    pub fn request(&self, method: &str, path: &str) -> Req {
        Req::new(self.port, method, path)
            .header("Host", &format!("127.0.0.1:{}", self.port))
            .bearer(&self.token())
    }
}
