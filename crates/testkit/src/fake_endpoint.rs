//! A fake agent endpoint on 127.0.0.1 for the delivery tests: a real HTTP/1.1 server (hyper)
//! that answers each request as scripted — 200, any status, 429 with `Retry-After`, hang past
//! the client's timeout, or close the connection without answering — and can be taken down and
//! brought back on the same port. It checks every Standard Webhooks signature and records what
//! it received.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio::task::JoinSet;

/// How the endpoint answers one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// 200 with `{"ok":true}`.
    Ok,
    /// This status with a short text body.
    Status(u16),
    /// 429 with `Retry-After: <seconds>`.
    TooMany { retry_after_secs: u64 },
    /// Waits this long, then answers 200.
    Slow(Duration),
    /// Never answers (the client's timeout must fire).
    Hang,
    /// Reads the request, then closes the connection without a response.
    Close,
}

/// One request as the endpoint saw it.
#[derive(Debug, Clone)]
pub struct Received {
    pub webhook_id: String,
    pub timestamp: i64,
    pub signature_ok: bool,
    pub content_type: String,
    pub body: String,
    pub answer: Answer,
    /// When it arrived.
    pub at: Instant,
}

#[derive(Default)]
struct Shared {
    script: Mutex<VecDeque<Answer>>,
    otherwise: Mutex<Option<Answer>>,
    received: Mutex<Vec<Received>>,
    arrived: Notify,
    key: Vec<u8>,
}

/// A running (or stopped) fake endpoint.
pub struct FakeEndpoint {
    addr: SocketAddr,
    shared: Arc<Shared>,
    server: Option<JoinSet<()>>,
}

impl FakeEndpoint {
    /// Starts on a free loopback port, verifying signatures against `secret`, answering 200
    /// unless told otherwise.
    pub async fn start(secret: &str) -> FakeEndpoint {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let shared = Arc::new(Shared { key: signing_key(secret), ..Shared::default() });
        let addr = listener.local_addr().unwrap();
        let mut endpoint = FakeEndpoint { addr, shared, server: None };
        endpoint.serve(listener);
        endpoint
    }

    /// The URL to configure as the agent endpoint.
    pub fn url(&self) -> String {
        format!("http://{}/hooks/skillcase", self.addr)
    }

    /// Answers the next requests in this order, then falls back to the default.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.shared.script.lock().unwrap().extend(answers);
    }

    /// Sets the answer used once the script is exhausted.
    pub fn otherwise(&self, answer: Answer) {
        *self.shared.otherwise.lock().unwrap() = Some(answer);
    }

    /// Everything received so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// The webhook ids this endpoint accepted with 200, in order (repeats included).
    pub fn accepted_ids(&self) -> Vec<String> {
        self.received()
            .into_iter()
            .filter(|r| matches!(r.answer, Answer::Ok | Answer::Slow(_)))
            .map(|r| r.webhook_id)
            .collect()
    }

    /// Waits until at least `count` requests have arrived, failing the test after `limit`.
    pub async fn wait_for_requests(&self, count: usize, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let arrived = self.shared.arrived.notified();
            if self.received().len() >= count {
                return;
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                panic!("expected {count} requests within {limit:?}, got {:?}", self.received());
            }
        }
    }

    /// Takes the endpoint down: stops listening and drops every open connection.
    pub async fn stop(&mut self) {
        if let Some(mut server) = self.server.take() {
            server.abort_all();
            while server.join_next().await.is_some() {}
        }
    }

    /// Brings a stopped endpoint back on the same port.
    pub async fn restart(&mut self) {
        let listener = TcpListener::bind(self.addr).await.unwrap();
        self.serve(listener);
    }

    fn serve(&mut self, listener: TcpListener) {
        let mut server = JoinSet::new();
        let shared = Arc::clone(&self.shared);
        server.spawn(async move {
            let mut connections = JoinSet::new();
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let shared = Arc::clone(&shared);
                connections.spawn(async move {
                    let service = hyper::service::service_fn(move |req| answer(Arc::clone(&shared), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        self.server = Some(server);
    }
}

async fn answer(
    shared: Arc<Shared>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::io::Error> {
    let header =
        |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let (webhook_id, timestamp, sig, content_type) = (
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
        header("content-type"),
    );
    let body = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let timestamp: i64 = timestamp.parse().unwrap_or(-1);
    let signature_ok = verify(&shared.key, &webhook_id, timestamp, &body, &sig);
    let next = shared.script.lock().unwrap().pop_front();
    let chosen = next.or_else(|| shared.otherwise.lock().unwrap().clone()).unwrap_or(Answer::Ok);
    shared.received.lock().unwrap().push(Received {
        webhook_id,
        timestamp,
        signature_ok,
        content_type,
        body: String::from_utf8_lossy(&body).into_owned(),
        answer: chosen.clone(),
        at: Instant::now(),
    });
    shared.arrived.notify_waiters();
    let respond = |status: u16, text: &str| {
        Response::builder().status(status).body(Full::new(Bytes::from(text.to_string()))).unwrap()
    };
    match chosen {
        Answer::Ok => Ok(respond(200, r#"{"ok":true}"#)),
        Answer::Status(status) => Ok(respond(status, &format!("scripted {status}"))),
        Answer::TooMany { retry_after_secs } => {
            let mut response = respond(429, "slow down");
            response.headers_mut().insert("retry-after", retry_after_secs.into());
            Ok(response)
        }
        Answer::Slow(pause) => {
            tokio::time::sleep(pause).await;
            Ok(respond(200, r#"{"ok":true}"#))
        }
        Answer::Hang => {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Ok(respond(200, "too late"))
        }
        Answer::Close => Err(std::io::Error::other("closing without an answer")),
    }
}

/// The key an agent derives from its secret, as the Standard Webhooks libraries do: the bytes
/// after `whsec_` decoded from base64, else the secret's own bytes. Written here from the
/// standard, not borrowed from Skillcase, so the endpoint checks signatures as a stranger would.
fn signing_key(secret: &str) -> Vec<u8> {
    use base64::Engine;
    match secret.strip_prefix("whsec_") {
        Some(encoded) => {
            base64::engine::general_purpose::STANDARD.decode(encoded).expect("a whsec_ secret is base64")
        }
        None => secret.as_bytes().to_vec(),
    }
}

/// True when a `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` entry of the header matches.
fn verify(key: &[u8], id: &str, timestamp: i64, body: &[u8], header: &str) -> bool {
    use base64::Engine;
    use hmac::Mac;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    let expected = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    header.split_whitespace().any(|sig| sig.strip_prefix("v1,") == Some(expected.as_str()))
}
