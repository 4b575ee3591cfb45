//! A static file server on 127.0.0.1 for the remote-catalog tests: a real HTTP/1.1 server
//! (hyper) on a thread and runtime of its own, so sync and async tests alike can use it, serving
//! files from memory that the test can change between requests, and recording every request
//! (`GET /cat/index.json`) so a test can count what a client fetched.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use tokio::sync::oneshot;

#[derive(Default)]
struct Shared {
    files: Mutex<HashMap<String, Vec<u8>>>,
    requests: Mutex<Vec<String>>,
}

/// A running file server; stopped when dropped.
pub struct FileServer {
    pub port: u16,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
}

impl FileServer {
    /// Starts an empty server on a free port.
    pub fn start() -> FileServer {
        let shared = Arc::new(Shared::default());
        let (port, stop) = crate::loopback::serve(Arc::clone(&shared), answer);
        FileServer { port, shared, stop: Some(stop) }
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Serves `bytes` at `path` (as requested: percent-encoded, starting with `/`).
    pub fn put(&self, path: &str, bytes: impl Into<Vec<u8>>) {
        self.shared.files.lock().unwrap().insert(path.to_string(), bytes.into());
    }

    /// Stops serving `path` (404 from now on).
    pub fn remove(&self, path: &str) {
        self.shared.files.lock().unwrap().remove(path);
    }

    /// Every request so far, as `METHOD /path`, in arrival order.
    pub fn requests(&self) -> Vec<String> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// The requests so far, forgetting them.
    pub fn take_requests(&self) -> Vec<String> {
        std::mem::take(&mut *self.shared.requests.lock().unwrap())
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn answer(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_string();
    shared.requests.lock().unwrap().push(format!("{} {path}", req.method()));
    let found = shared.files.lock().unwrap().get(&path).cloned();
    let response = match (req.method() == hyper::Method::GET, found) {
        (true, Some(bytes)) => Response::new(Full::new(Bytes::from(bytes))),
        (true, None) => status(404, "not found"),
        (false, _) => status(405, "method not allowed"),
    };
    Ok(response)
}

fn status(code: u16, text: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *response.status_mut() = hyper::StatusCode::from_u16(code).unwrap();
    response
}
