//! The background worker that relays replies from the outbox to the agent endpoint (SPEC B3).
//!
//! It claims one due delivery at a time, POSTs its stored body with Standard Webhooks headers,
//! and settles the attempt in the outbox ([`OutboxRepository::record_attempt`]). It sleeps until the
//! next delivery falls due, or until [`DeliveryWaker::wake`] says something changed (a person
//! replied; the application also wakes it on another process's writes). Killing it at any
//! moment loses nothing: an unsettled delivery stays `pending`, its lease runs out, and the next
//! worker sends it again under the same `webhook-id`.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use ts_rs::TS;

use super::clock;
use super::endpoint::EndpointSettings;
use super::error::CasesError;
use super::outbox::{Attempt, Backoff, Claimed};
use super::repository::OutboxRepository;
use super::signature;
use skillcase_common::events::{DomainEvent, EventBus};

/// Most characters of an endpoint's error answer kept in `last_error`.
const ERROR_BODY_CHARS: usize = 300;

/// How the worker paces itself. The request timeout and attempt limit are the endpoint's own
/// settings; these are the worker's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerOptions {
    /// The longest the worker sleeps without looking at the outbox. Long by default: the worker
    /// sleeps until the next delivery falls due, and the application wakes it on every change,
    /// another process's writes included; this only covers a clock that jumped.
    pub poll_interval: Duration,
    /// How much longer than the request timeout a claim lasts, so a slow attempt is never
    /// taken by a second worker while it still runs.
    pub lease_margin: Duration,
    pub backoff: Backoff,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            poll_interval: Duration::from_secs(300),
            lease_margin: Duration::from_secs(5),
            backoff: Backoff::default(),
        }
    }
}

/// Wakes the worker so a reply just written goes out now rather than at the next poll.
/// Cheap to clone; hand one to whatever writes replies.
#[derive(Debug, Clone, Default)]
pub struct DeliveryWaker(Arc<Notify>);

impl DeliveryWaker {
    /// Tells the worker to look at the outbox. A wake while it is busy is kept, not lost.
    pub fn wake(&self) {
        self.0.notify_one();
    }
}

/// A running delivery worker.
#[derive(Debug)]
pub struct DeliveryWorker {
    waker: DeliveryWaker,
    task: JoinHandle<()>,
}

impl DeliveryWorker {
    /// Starts the worker on the current tokio runtime over `outbox`. It reads the endpoint
    /// settings before every attempt, so saving Settings takes effect without a restart, and
    /// announces each settled attempt on `events` (`CaseChanged`), so the case on screen shows
    /// it. When `shutdown` completes the worker gives back any claim it holds and stops.
    pub fn spawn(
        outbox: Arc<dyn OutboxRepository>,
        options: WorkerOptions,
        events: EventBus,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<DeliveryWorker, CasesError> {
        let client = http_client()?;
        let waker = DeliveryWaker::default();
        let worker =
            Worker { outbox, client, options, waker: waker.clone(), events, in_flight: Mutex::new(None) };
        let task = tokio::spawn(worker.run(shutdown));
        Ok(DeliveryWorker { waker, task })
    }

    /// A handle that wakes this worker.
    pub fn waker(&self) -> DeliveryWaker {
        self.waker.clone()
    }

    /// Wakes the worker now.
    pub fn wake(&self) {
        self.waker.wake();
    }

    /// Waits until the worker has stopped (after its shutdown future completed).
    pub async fn join(self) {
        let _ = self.task.await;
    }

    /// Stops the worker at once, wherever it is, without giving back its claim: what a crash
    /// does. Used to prove that an interrupted delivery is sent again.
    pub fn abort(self) {
        self.task.abort();
    }
}

/// The outcome of [`test_endpoint`], shown next to Settings' Test button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PingOutcome {
    /// True on a 2xx answer.
    pub ok: bool,
    /// The HTTP status, when the endpoint answered at all.
    pub status: Option<u16>,
    pub error: Option<String>,
    #[ts(type = "number")]
    pub elapsed_ms: u64,
}

/// Sends a signed `{"type":"ping","id","created_at"}` event to `endpoint` (saved or not) and
/// reports what happened. Touches no delivery.
pub async fn test_endpoint(endpoint: &EndpointSettings) -> Result<PingOutcome, CasesError> {
    let key = signature::signing_key(&endpoint.secret)?;
    let client = http_client()?;
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::json!({ "type": "ping", "id": id, "created_at": clock::now() }).to_string();
    let started = Instant::now();
    let attempt = post(&client, endpoint, &key, &id, &body).await;
    let elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(match attempt {
        Attempt::Delivered { status } => {
            PingOutcome { ok: true, status: Some(status), error: None, elapsed_ms }
        }
        Attempt::Refused { status, error } => {
            PingOutcome { ok: false, status: Some(status), error: Some(error), elapsed_ms }
        }
        Attempt::Retryable { status, error, .. } => {
            PingOutcome { ok: false, status, error: Some(error), elapsed_ms }
        }
    })
}

/// The HTTP client: rustls with the ring provider, no redirects (a webhook answer of 3xx is a
/// refusal, not a hint), no proxy (the agent is normally on this machine, and a stray
/// `HTTP_PROXY` must not reroute loopback traffic), and no automatic retries (each attempt is
/// one request, counted).
pub fn http_client() -> Result<reqwest::Client, CasesError> {
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .retry(reqwest::retry::never())
        .no_proxy()
        .user_agent(concat!("Skillcase/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| CasesError::HttpClient(error_chain(&e)))
}

/// POSTs one signed message and classifies the answer. Never fails: every problem becomes an
/// [`Attempt`] to record.
pub async fn post(
    client: &reqwest::Client,
    endpoint: &EndpointSettings,
    key: &[u8],
    id: &str,
    body: &str,
) -> Attempt {
    let timestamp = clock::unix_seconds();
    let timeout = Duration::from_secs(endpoint.timeout_secs.into());
    let request = client
        .post(&endpoint.url)
        .timeout(timeout)
        .header("content-type", "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature::sign(key, id, timestamp, body.as_bytes()))
        .body(body.to_owned());
    let response = match request.send().await {
        Ok(response) => response,
        Err(e) => return network_failure(&e, endpoint.timeout_secs),
    };
    let status = response.status();
    let code = status.as_u16();
    if status.is_success() {
        return Attempt::Delivered { status: code };
    }
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let error = format!("the endpoint answered {status}{}", error_excerpt(response).await);
    if code == 429 || status.is_server_error() {
        Attempt::Retryable { status: Some(code), error, retry_after }
    } else {
        Attempt::Refused { status: code, error }
    }
}

fn network_failure(e: &reqwest::Error, timeout_secs: u32) -> Attempt {
    let error = if e.is_timeout() {
        format!("no answer within {timeout_secs} s")
    } else if e.is_connect() {
        format!("cannot connect: {}", error_chain(e))
    } else {
        error_chain(e)
    };
    Attempt::Retryable { status: None, error, retry_after: None }
}

/// The start of an error answer's body, to tell the person why the agent refused.
async fn error_excerpt(mut response: reqwest::Response) -> String {
    let mut bytes = Vec::new();
    while bytes.len() < ERROR_BODY_CHARS * 4 {
        match response.chunk().await {
            Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
            _ => break,
        }
    }
    let text: String = String::from_utf8_lossy(&bytes).trim().chars().take(ERROR_BODY_CHARS).collect();
    if text.is_empty() {
        String::new()
    } else {
        format!(": {text}")
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

struct Worker {
    outbox: Arc<dyn OutboxRepository>,
    client: reqwest::Client,
    options: WorkerOptions,
    waker: DeliveryWaker,
    events: EventBus,
    /// The delivery claimed and not yet settled, given back if shutdown interrupts it.
    in_flight: Mutex<Option<String>>,
}

impl Worker {
    async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) {
        tokio::pin!(shutdown);
        loop {
            let pause = tokio::select! {
                biased;
                _ = &mut shutdown => return self.give_back().await,
                pause = self.drain() => pause,
            };
            let pause = match pause {
                Ok(pause) => pause,
                Err(e) => {
                    eprintln!("skillcase delivery worker: {e}");
                    self.options.poll_interval
                }
            };
            tokio::select! {
                biased;
                _ = &mut shutdown => return,
                _ = self.waker.0.notified() => {}
                _ = tokio::time::sleep(pause) => {}
            }
        }
    }

    /// Sends every due delivery, one at a time, each to its agent's endpoint; returns how long
    /// to sleep afterwards.
    async fn drain(&self) -> Result<Duration, CasesError> {
        loop {
            let margin = self.options.lease_margin;
            let Some(claimed) = self.with_outbox(move |o| o.claim_next(margin)).await? else {
                return self.until_next_due().await;
            };
            self.set_in_flight(Some(claimed.id.clone()));
            let key = signature::signing_key(&claimed.endpoint.secret)?;
            let attempt = self.attempt(&claimed.endpoint, &key, &claimed).await;
            let (id, backoff, max) =
                (claimed.id.clone(), self.options.backoff, claimed.endpoint.max_attempts);
            self.with_outbox(move |o| o.record_attempt(&id, &attempt, max, &backoff)).await?;
            self.set_in_flight(None);
            self.events.publish(DomainEvent::CaseChanged { id: claimed.case_id });
        }
    }

    fn set_in_flight(&self, id: Option<String>) {
        *self.in_flight.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = id;
    }

    /// On shutdown, releases the interrupted claim so the next start sends it at once.
    async fn give_back(&self) {
        let held = self.in_flight.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some(id) = held {
            if let Err(e) = self.with_outbox(move |o| o.release(&id)).await {
                eprintln!("skillcase delivery worker: {e}");
            }
        }
    }

    async fn attempt(&self, endpoint: &EndpointSettings, key: &[u8], claimed: &Claimed) -> Attempt {
        post(&self.client, endpoint, key, &claimed.id, &claimed.body).await
    }

    async fn until_next_due(&self) -> Result<Duration, CasesError> {
        let next = self.with_outbox(|o| o.next_due_at()).await?;
        let wait = next.and_then(|at| clock::until(&at)).unwrap_or(self.options.poll_interval);
        Ok(wait.min(self.options.poll_interval))
    }

    /// Runs one outbox step on a blocking thread (the repositories block).
    async fn with_outbox<T: Send + 'static>(
        &self,
        work: impl FnOnce(&dyn OutboxRepository) -> Result<T, CasesError> + Send + 'static,
    ) -> Result<T, CasesError> {
        let outbox = Arc::clone(&self.outbox);
        tokio::task::spawn_blocking(move || work(outbox.as_ref()))
            .await
            .unwrap_or_else(|_| Err(CasesError::stopped()))
    }
}
