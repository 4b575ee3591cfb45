//! A live API server in a temporary data directory; requests to it are written by hand with the
//! test kit's raw HTTP client.

#![allow(dead_code)]

use std::sync::Arc;

use skillcase_api::connections::Connections;
use skillcase_api::{serve, ApiConfig, ApiState, RunningServer};
use skillcase_application::token::TokenStore;
use skillcase_library::{Library, LibraryOptions, Source};
use skillcase_store::db;
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
        let db = Connections::open(&dir.path().join(db::DATABASE_FILE)).unwrap();
        let tokens = Arc::new(TokenStore::open(dir.path()).unwrap());
        std::fs::create_dir(dir.path().join("skills")).unwrap();
        let options = LibraryOptions::in_data_dir(dir.path(), dir.path().join("skills"), None);
        let skills = Arc::new(Library::open(options).unwrap());
        skills.scan().unwrap();
        let state = ApiState { db, tokens, skills, events: Default::default() };
        let server = serve(ApiConfig { port: 0, ..config }, state.clone()).await.unwrap();
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
        self.state.skills.sync_skill(name, Source::Watch).unwrap();
    }

    /// The token in force.
    pub fn token(&self) -> String {
        self.state.tokens.current().unwrap().as_str().to_string()
    }

    /// A request to this server with the right host and token, to be adjusted by the test.
    pub fn request(&self, method: &str, path: &str) -> Req {
        Req::new(self.port, method, path)
            .header("Host", &format!("127.0.0.1:{}", self.port))
            .bearer(&self.token())
    }
}
