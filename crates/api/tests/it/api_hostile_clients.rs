//! Clients that try to wear the local API out, over real loopback sockets: idle sockets, too many
//! sockets, slow uploads, resting keep-alive connections. Timeouts are
//! shortened through `ApiConfig` so each attack takes a second or so.

use crate::support;

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use skillcase_api::ApiConfig;
use support::Live;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn config() -> ApiConfig {
    ApiConfig { port: 0, ..ApiConfig::default() }
}

/// A keep-alive HTTP/1.1 client on one fresh connection.
async fn keep_alive(live: &Live) -> SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(("127.0.0.1", live.port)).await.unwrap();
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.unwrap();
    tokio::spawn(connection);
    sender
}

/// `GET /v1/openapi.json` on `sender`'s connection: its status, or the error if the connection
/// is gone.
async fn get_openapi(live: &Live, sender: &mut SendRequest<Full<Bytes>>) -> Result<u16, hyper::Error> {
    sender.ready().await?;
    let request = hyper::Request::get("/v1/openapi.json")
        .header("host", format!("127.0.0.1:{}", live.port))
        .header("authorization", format!("Bearer {}", live.token()))
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = sender.send_request(request).await?;
    let status = response.status().as_u16();
    response.into_body().collect().await?;
    Ok(status)
}

/// Whether the server closes `stream` (end of file or reset) within `within`, having sent nothing.
async fn closed_within(mut stream: TcpStream, within: Duration) -> bool {
    let mut byte = [0u8; 1];
    matches!(tokio::time::timeout(within, stream.read(&mut byte)).await, Ok(Ok(0) | Err(_)))
}

#[tokio::test]
async fn idle_sockets_that_send_nothing_are_closed_after_the_header_read_timeout() {
    let config =
        ApiConfig { header_read_timeout: Duration::from_millis(500), max_connections: 400, ..config() };
    let live = Live::start_with(config).await;
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(TcpStream::connect(("127.0.0.1", live.port)).await.unwrap());
    }
    let started = Instant::now();
    let closed = futures_all(idle.into_iter().map(|s| closed_within(s, Duration::from_secs(5)))).await;
    assert_eq!(closed.iter().filter(|c| **c).count(), 300, "every idle socket is closed by the server");
    assert!(started.elapsed() < Duration::from_secs(3), "closed after {:?}", started.elapsed());
    assert_eq!(live.request("GET", "/v1/openapi.json").send().await.status, 200);
}

#[tokio::test]
async fn a_connection_past_the_cap_is_answered_503_with_retry_after_while_those_within_it_are_served() {
    let live = Live::start_with(ApiConfig { max_connections: 4, ..config() }).await;
    let mut client = keep_alive(&live).await;
    assert_eq!(get_openapi(&live, &mut client).await.unwrap(), 200);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(("127.0.0.1", live.port)).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = live.request("GET", "/v1/openapi.json").send().await;
    assert_eq!((refused.status, refused.code()), (503, "too_many_connections".to_string()));
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.header("connection"), Some("close"));
    assert_eq!(
        get_openapi(&live, &mut client).await.unwrap(),
        200,
        "a connection within the cap still works"
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(live.request("GET", "/v1/openapi.json").send().await.status, 200, "freed capacity is reused");
}

/// Sends an authenticated `POST /v1/cases` head declaring 1,000 body bytes, then one byte every
/// 50 ms; returns the status the server answers with.
async fn dribbled_upload(live: &Live) -> u16 {
    let stream = TcpStream::connect(("127.0.0.1", live.port)).await.unwrap();
    let (mut reading, mut writing) = stream.into_split();
    let head = format!(
        "POST /v1/cases HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        live.port,
        live.token()
    );
    writing.write_all(head.as_bytes()).await.unwrap();
    let dribble = tokio::spawn(async move {
        for _ in 0..1000 {
            if writing.write_all(b" ").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    let mut answer = Vec::new();
    let _ = reading.read_to_end(&mut answer).await;
    dribble.abort();
    let answer = String::from_utf8_lossy(&answer);
    answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_uploads_are_cut_by_the_body_read_timeout_and_never_hold_a_request_slot() {
    let config = ApiConfig { max_concurrent: 4, body_read_timeout: Duration::from_secs(1), ..config() };
    let live = std::sync::Arc::new(Live::start_with(config).await);
    let uploads: Vec<_> = (0..40)
        .map(|_| {
            let live = std::sync::Arc::clone(&live);
            tokio::spawn(async move { dribbled_upload(&live).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    assert_eq!(live.request("GET", "/v1/openapi.json").send().await.status, 200);
    assert!(started.elapsed() < Duration::from_millis(500), "served in {:?}", started.elapsed());
    for upload in uploads {
        assert_eq!(upload.await.unwrap(), 408);
    }
}

#[tokio::test]
async fn a_keep_alive_connection_may_rest_longer_than_the_header_read_timeout() {
    let config = ApiConfig {
        header_read_timeout: Duration::from_millis(200),
        idle_timeout: Duration::from_secs(5),
        ..config()
    };
    let live = Live::start_with(config).await;
    let mut client = keep_alive(&live).await;
    assert_eq!(get_openapi(&live, &mut client).await.unwrap(), 200);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(get_openapi(&live, &mut client).await.unwrap(), 200);
}

#[tokio::test]
async fn a_keep_alive_connection_resting_past_the_idle_timeout_is_closed() {
    let config = ApiConfig { idle_timeout: Duration::from_millis(300), ..config() };
    let live = Live::start_with(config).await;
    let mut client = keep_alive(&live).await;
    assert_eq!(get_openapi(&live, &mut client).await.unwrap(), 200);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(get_openapi(&live, &mut client).await.is_err(), "the server closed the resting connection");
}

/// Runs every future at once and collects their outputs in order.
async fn futures_all<F: std::future::Future + Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output>
where
    F::Output: Send + 'static,
{
    let tasks: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::new();
    for task in tasks {
        outputs.push(task.await.unwrap());
    }
    outputs
}
