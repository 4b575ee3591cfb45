//! The answer to a connection beyond the cap: `503` with `Retry-After` and the API's error body,
//! written at once without waiting for the request (a socket that never sends one costs nothing
//! more), then closed.

use std::sync::LazyLock;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::error::ApiError;

/// Seconds a refused client is asked to wait before it tries again.
pub const RETRY_AFTER_SECS: u32 = 1;
/// The longest a refusal keeps its socket: writing, then reading what the client sent so that
/// closing does not reset the connection before the client has read the answer.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

static ANSWER: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let body = ApiError::new(
        "too_many_connections",
        "the local API is serving as many connections as it allows; retry shortly",
    )
    .to_json();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: {RETRY_AFTER_SECS}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    [head.into_bytes(), body].concat()
});

/// Answers `stream` with the refusal and closes it.
pub async fn too_many_connections(mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(&ANSWER).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 2048];
        while stream.read(&mut sink).await? > 0 {}
        std::io::Result::Ok(())
    })
    .await;
}
