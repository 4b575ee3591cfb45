//! Load on a live local API: drives `POST /v1/guard/before-send` and `POST /v1/cases` at a fixed
//! rate each, over keep-alive loopback connections, for a bounded time, and reports throughput
//! and latency percentiles. Run it through `bench/api-load.sh`, which starts `skillcase serve`.
//!
//! Latency is measured from each request's *scheduled* start, not from when a connection was
//! free, so a server that falls behind shows it in the percentiles (no coordinated omission).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::sync::Semaphore;

/// Drive the local agent API at a fixed rate and report latency.
#[derive(Debug, Parser)]
struct Args {
    /// The server's port on 127.0.0.1.
    #[arg(long)]
    port: u16,
    /// The bearer token.
    #[arg(long)]
    token: String,
    /// Requests per second for each scenario.
    #[arg(long, default_value_t = 100.0)]
    rate: f64,
    /// Seconds to run (at most 120).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=120))]
    duration: u64,
    /// Requests in flight per scenario at most; more wait (and their wait counts as latency).
    #[arg(long, default_value_t = 64)]
    max_in_flight: usize,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

/// One kind of request and how its n-th body looks.
struct Scenario {
    name: &'static str,
    path: &'static str,
    body: fn(u64) -> String,
    ok: &'static [u16],
}

const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "before-send",
        path: "/v1/guard/before-send",
        body: |n| {
            let message = if n % 2 == 0 {
                "Seu pedido sai amanhã, vou te mandar o código de rastreio."
            } else {
                "Vou verificar com a equipe e te retorno mais tarde."
            };
            serde_json::json!({ "conversation_id": format!("load-guard-{n}"), "turn_id": "t1", "message": message })
                .to_string()
        },
        ok: &[200],
    },
    Scenario {
        name: "open-case",
        path: "/v1/cases",
        body: |n| {
            serde_json::json!({
                "conversation_id": format!("load-case-{n}-{}", std::process::id()),
                "title": "Refund above the agent's limit",
                "summary": "The lead asks for a refund of R$ 900 for order 5521.",
                "lead": { "name": "Ana", "channel": "whatsapp" },
            })
            .to_string()
        },
        ok: &[200, 201],
    },
];

#[derive(Default)]
struct Outcome {
    latencies: Vec<Duration>,
    failures: Vec<String>,
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let runs: Vec<_> = SCENARIOS
        .iter()
        .map(|scenario| {
            let (port, token) = (args.port, args.token.clone());
            let (rate, duration, cap) = (args.rate, Duration::from_secs(args.duration), args.max_in_flight);
            tokio::spawn(async move { (scenario, drive(scenario, port, token, rate, duration, cap).await) })
        })
        .collect();
    println!(
        "{:<12} {:>7} {:>6} {:>6} {:>6} {:>11} {:>9} {:>9} {:>9} {:>9}",
        "scenario", "rate/s", "sent", "ok", "failed", "throughput", "p50 ms", "p90 ms", "p99 ms", "max ms"
    );
    for run in runs {
        let (scenario, (outcome, elapsed)) = run.await.expect("a scenario task panicked");
        report(scenario, args.rate, &outcome, elapsed);
    }
}

async fn drive(
    scenario: &'static Scenario,
    port: u16,
    token: String,
    rate: f64,
    duration: Duration,
    max_in_flight: usize,
) -> (Outcome, Duration) {
    let idle: Arc<Mutex<Vec<SendRequest<Full<Bytes>>>>> = Arc::default();
    let outcome: Arc<Mutex<Outcome>> = Arc::default();
    let in_flight = Arc::new(Semaphore::new(max_in_flight));
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for n in 0u64.. {
        let scheduled = ticker.tick().await.into_std();
        if scheduled.duration_since(start) >= duration {
            break;
        }
        let (idle, outcome, in_flight, token) =
            (Arc::clone(&idle), Arc::clone(&outcome), Arc::clone(&in_flight), token.clone());
        tasks.push(tokio::spawn(async move {
            let _slot = in_flight.acquire().await.expect("never closed");
            let result = once(scenario, port, &token, n, &idle).await;
            let mut outcome = outcome.lock().unwrap();
            match result {
                Ok(()) => outcome.latencies.push(scheduled.elapsed()),
                Err(e) => outcome.failures.push(e),
            }
        }));
    }
    for task in tasks {
        task.await.expect("a request task panicked");
    }
    let elapsed = start.elapsed();
    let outcome = std::mem::take(&mut *outcome.lock().unwrap());
    (outcome, elapsed)
}

async fn once(
    scenario: &Scenario,
    port: u16,
    token: &str,
    n: u64,
    idle: &Mutex<Vec<SendRequest<Full<Bytes>>>>,
) -> Result<(), String> {
    let reused = idle.lock().unwrap().pop();
    let mut sender = match reused {
        Some(sender) => sender,
        None => connect(port).await?,
    };
    sender.ready().await.map_err(|e| e.to_string())?;
    let request = hyper::Request::post(scenario.path)
        .header("host", format!("127.0.0.1:{port}"))
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from((scenario.body)(n))))
        .expect("a well-formed request");
    let response = sender.send_request(request).await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    idle.lock().unwrap().push(sender);
    if scenario.ok.contains(&status) {
        Ok(())
    } else {
        Err(format!("{status} {}", String::from_utf8_lossy(&body)))
    }
}

async fn connect(port: u16) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

fn report(scenario: &Scenario, rate: f64, outcome: &Outcome, elapsed: Duration) {
    let mut sorted = outcome.latencies.clone();
    sorted.sort();
    let at = |q: f64| -> f64 {
        if sorted.is_empty() {
            return f64::NAN;
        }
        let index = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
        sorted[index].as_secs_f64() * 1000.0
    };
    let sent = sorted.len() + outcome.failures.len();
    println!(
        "{:<12} {:>7.0} {:>6} {:>6} {:>6} {:>9.1}/s {:>9.2} {:>9.2} {:>9.2} {:>9.2}",
        scenario.name,
        rate,
        sent,
        sorted.len(),
        outcome.failures.len(),
        sorted.len() as f64 / elapsed.as_secs_f64(),
        at(0.50),
        at(0.90),
        at(0.99),
        at(1.0),
    );
    if let Some(first) = outcome.failures.first() {
        println!("  first failure of {}: {first}", scenario.name);
    }
}
