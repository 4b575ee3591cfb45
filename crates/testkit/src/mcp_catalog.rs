//! A fake MCP catalog on 127.0.0.1 for the remote-catalog tests: a real HTTP/1.1 server (hyper)
//! on a thread and runtime of its own, speaking JSON-RPC over Streamable HTTP. It answers
//! `initialize` declaring the Skills extension, accepts notifications, and answers every other
//! request (`skills/list`, `resources/read`) with what the test's function says — a result, a
//! malformed body, a late answer, or a body that never ends. It records each method called and the
//! `Authorization` header it came with, and counts the bytes of the endless bodies it managed to
//! send, so a test can tell a client that stopped reading from one that kept buffering.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::{Bytes, Frame, Incoming};
use hyper::{Request, Response};
use serde_json::{json, Value};
use tokio::sync::oneshot;

/// How the catalog answers one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A JSON-RPC answer carrying this `result` (the request's id filled in).
    Result(Value),
    /// This text as the JSON body, as is (a malformed answer).
    Raw(String),
    /// A JSON answer that starts like a page of skills and never ends.
    Endless,
    /// An event stream whose events never answer the request, and never end.
    EndlessEvents,
    /// Waits this long, then answers.
    After(Duration, Box<Reply>),
}

type Answerer = dyn Fn(&str, &Value) -> Reply + Send + Sync;

struct Shared {
    answer: Mutex<Arc<Answerer>>,
    calls: Mutex<Vec<(String, Option<String>)>>,
    endless_sent: Arc<AtomicU64>,
}

/// A running fake catalog; stopped when dropped.
pub struct FakeMcpCatalog {
    pub port: u16,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
}

impl FakeMcpCatalog {
    /// Starts on a free port, answering requests other than `initialize` and notifications with
    /// `answer(method, params)`.
    pub fn start(answer: impl Fn(&str, &Value) -> Reply + Send + Sync + 'static) -> FakeMcpCatalog {
        let shared = Arc::new(Shared {
            answer: Mutex::new(Arc::new(answer)),
            calls: Mutex::new(Vec::new()),
            endless_sent: Arc::new(AtomicU64::new(0)),
        });
        let (port, stop) = crate::loopback::serve(Arc::clone(&shared), respond);
        FakeMcpCatalog { port, shared, stop: Some(stop) }
    }

    /// `http://127.0.0.1:<port>/mcp`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Answers with `answer` from now on.
    pub fn answer_with(&self, answer: impl Fn(&str, &Value) -> Reply + Send + Sync + 'static) {
        *self.shared.answer.lock().unwrap() = Arc::new(answer);
    }

    /// Every JSON-RPC method called so far, in order (notifications included).
    pub fn methods(&self) -> Vec<String> {
        self.shared.calls.lock().unwrap().iter().map(|(method, _)| method.clone()).collect()
    }

    /// How many times `method` was called so far.
    pub fn count(&self, method: &str) -> usize {
        self.shared.calls.lock().unwrap().iter().filter(|(m, _)| m == method).count()
    }

    /// The `Authorization` header of every request so far.
    pub fn authorizations(&self) -> Vec<Option<String>> {
        self.shared.calls.lock().unwrap().iter().map(|(_, auth)| auth.clone()).collect()
    }

    /// The bytes of endless bodies sent so far (what the clients read, plus what the sockets
    /// buffered).
    pub fn endless_bytes_sent(&self) -> u64 {
        self.shared.endless_sent.load(Ordering::Relaxed)
    }
}

impl Drop for FakeMcpCatalog {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn respond(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let auth = req.headers().get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string);
    let bytes = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let message: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let method = message["method"].as_str().unwrap_or_default().to_string();
    shared.calls.lock().unwrap().push((method.clone(), auth));
    let Some(id) = message.get("id").cloned() else {
        return Ok(with_status(202, Body::full(Bytes::new()), "application/json"));
    };
    let reply = if method == "initialize" {
        Reply::Result(json!({
            "protocolVersion": "2025-06-18",
            "capabilities": { "extensions": { "io.modelcontextprotocol/skills": {} } },
            "serverInfo": { "name": "fake-catalog", "version": "1" },
        }))
    } else {
        let answer = Arc::clone(&*shared.answer.lock().unwrap());
        answer(&method, &message["params"])
    };
    Ok(reply_with(reply, id, &shared.endless_sent).await)
}

async fn reply_with(mut reply: Reply, id: Value, sent: &Arc<AtomicU64>) -> Response<Body> {
    while let Reply::After(wait, then) = reply {
        tokio::time::sleep(wait).await;
        reply = *then;
    }
    match reply {
        Reply::Result(result) => {
            let body = json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string();
            with_status(200, Body::full(Bytes::from(body)), "application/json")
        }
        Reply::Raw(text) => with_status(200, Body::full(Bytes::from(text)), "application/json"),
        Reply::Endless => {
            let head = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"skills":["#);
            let filler = r#"{"uri":"skill://filler/SKILL.md","resources":[]},"#.repeat(1024);
            with_status(200, Body::endless(head, filler, Arc::clone(sent)), "application/json")
        }
        Reply::EndlessEvents => {
            let event = format!(
                "event: message\ndata: {}\n\n",
                json!({ "jsonrpc": "2.0", "method": "notifications/message", "params": { "data": "x".repeat(4096) } })
            );
            with_status(
                200,
                Body::endless(String::new(), event.repeat(16), Arc::clone(sent)),
                "text/event-stream",
            )
        }
        Reply::After(..) => unreachable!("unwrapped above"),
    }
}

fn with_status(code: u16, body: Body, content_type: &'static str) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = hyper::StatusCode::from_u16(code).unwrap();
    response.headers_mut().insert("content-type", hyper::header::HeaderValue::from_static(content_type));
    response
}

/// A body sent whole, or one that repeats its filler for as long as the client reads.
struct Body {
    head: Option<Bytes>,
    filler: Option<Bytes>,
    sent: Option<Arc<AtomicU64>>,
}

impl Body {
    fn full(bytes: Bytes) -> Body {
        Body { head: Some(bytes), filler: None, sent: None }
    }

    fn endless(head: String, filler: String, sent: Arc<AtomicU64>) -> Body {
        let head = Some(Bytes::from(head)).filter(|h| !h.is_empty());
        Body { head, filler: Some(Bytes::from(filler)), sent: Some(sent) }
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let next = self.head.take().or_else(|| self.filler.clone());
        if let (Some(chunk), Some(sent)) = (&next, &self.sent) {
            sent.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
        Poll::Ready(next.map(|chunk| Ok(Frame::data(chunk))))
    }
}
