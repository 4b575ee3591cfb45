//! The stdio transport: one JSON-RPC message per line each way, read through a bounded reader.
//!
//! rmcp's own line transport keeps reading until it finds a line break, so one line without one
//! grows its buffer without end (a 100 MB line cost 1.28 GB). Here a line longer than
//! [`MAX_LINE_BYTES`] stops being kept the moment it passes the cap: the rest of it is read and
//! dropped up to its line break, and the client is answered a JSON-RPC error
//! (`-32600`, `data.code` `mcp_line_too_long`, no `id` since none could be read). Memory per
//! connection stays at the cap plus the reader's buffer, whatever the client sends.
//!
//! Like rmcp's, a line that is not JSON, or a notification that is not one this server knows,
//! is ignored (answering it could start an error storm with a peer that echoes); a request with
//! an id that is not a message is answered `-32600`.

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{ErrorData, RequestId};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::error::LimitError;
use crate::limits::MAX_LINE_BYTES;

/// A server transport over a reader and a writer (standard input and output).
pub struct Lines<R, W> {
    read: BufReader<R>,
    /// The line read so far; kept across calls, since [`Transport::receive`] may be cancelled
    /// between two reads.
    line: Vec<u8>,
    /// True while the rest of a line past the cap is being dropped.
    skipping: bool,
    write: Arc<Mutex<W>>,
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport reading messages from `read` and writing them to `write`.
    pub fn new(read: R, write: W) -> Self {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            write: Arc::new(Mutex::new(write)),
        }
    }

    /// The next whole line within the cap, its line break removed; `None` at the end of input.
    /// An over-long line is answered as the module says and skipped.
    async fn next_line(&mut self) -> Option<Vec<u8>> {
        loop {
            let available = match self.read.fill_buf().await {
                Ok([]) | Err(_) => return None,
                Ok(available) => available,
            };
            let (taken, ends) = match memchr(available) {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            if !self.skipping {
                // Room for the message and its line break (`\r\n` at most); checked exactly below.
                if self.line.len() + taken > MAX_LINE_BYTES + 2 {
                    self.skipping = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(&available[..taken]);
                }
            }
            self.read.consume(taken);
            if !ends {
                continue;
            }
            if std::mem::take(&mut self.skipping) {
                if send(&self.write, refusal(LimitError::LineTooLong { max: MAX_LINE_BYTES })).await.is_err()
                {
                    return None;
                }
                continue;
            }
            let mut line = std::mem::take(&mut self.line);
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > MAX_LINE_BYTES {
                if send(&self.write, refusal(LimitError::LineTooLong { max: MAX_LINE_BYTES })).await.is_err()
                {
                    return None;
                }
                continue;
            }
            return Some(line);
        }
    }
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'\n')
}

/// A JSON-RPC error without an id.
fn refusal(refused: LimitError) -> TxJsonRpcMessage<RoleServer> {
    TxJsonRpcMessage::<RoleServer>::error(ErrorData::from(refused), None)
}

async fn send<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut write = write.lock().await;
    write.write_all(&bytes).await?;
    write.flush().await
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        async move { send(&write, item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = self.next_line().await?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let line = line.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(&line);
            let error = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
                Ok(message) => return Some(message),
                Err(error) => error,
            };
            // A request (it has an id) that is JSON but no message is answered; a notification
            // never is, and neither is a line that is not JSON.
            let Some(id) =
                serde_json::from_slice::<serde_json::Value>(line).ok().and_then(|v| v.get("id").cloned())
            else {
                continue;
            };
            let answer = TxJsonRpcMessage::<RoleServer>::error(
                LimitError::NotJsonRpc(error.to_string()).into(),
                serde_json::from_value::<RequestId>(id).ok(),
            );
            if send(&self.write, answer).await.is_err() {
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.shutdown().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// Feeds `input` to a transport and returns what it received and what it wrote back.
    async fn run(input: Vec<u8>) -> (Vec<RxJsonRpcMessage<RoleServer>>, String) {
        let (mut client, server_out) = tokio::io::duplex(1 << 20);
        let mut lines = Lines::new(std::io::Cursor::new(input), server_out);
        let mut received = Vec::new();
        while let Some(message) = lines.receive().await {
            received.push(message);
        }
        drop(lines);
        let mut written = String::new();
        client.read_to_string(&mut written).await.unwrap();
        (received, written)
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;

    #[tokio::test]
    async fn a_line_over_the_cap_is_answered_mcp_line_too_long_and_the_next_one_is_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.push(b'\n');
        input.extend_from_slice(PING.as_bytes());
        input.push(b'\n');
        let (received, written) = run(input).await;
        assert_eq!(received.len(), 1, "the ping after it");
        let answer: serde_json::Value = serde_json::from_str(written.trim()).unwrap();
        assert_eq!(answer["error"]["code"], -32600);
        assert_eq!(answer["error"]["data"]["code"], "mcp_line_too_long");
    }

    #[tokio::test]
    async fn a_line_one_byte_over_the_cap_is_refused_and_one_exactly_at_it_is_read() {
        let over = format!("{PING}{}\n", " ".repeat(MAX_LINE_BYTES + 1 - PING.len()));
        let (received, written) = run(over.into_bytes()).await;
        assert_eq!(received.len(), 0);
        assert!(written.contains("mcp_line_too_long"), "{written}");
        let at = format!("{PING}{}\r\n", " ".repeat(MAX_LINE_BYTES - PING.len()));
        let (received, written) = run(at.into_bytes()).await;
        assert_eq!((received.len(), written.as_str()), (1, ""));
    }

    #[tokio::test]
    async fn a_request_that_is_not_a_message_is_answered_invalid_request_and_garbage_is_ignored() {
        let input = format!("not json\n{{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":1}}\n{PING}\n");
        let (received, written) = run(input.into_bytes()).await;
        assert_eq!(received.len(), 1);
        let answer: serde_json::Value = serde_json::from_str(written.trim()).unwrap();
        assert_eq!(answer["id"], 3);
        assert_eq!(answer["error"]["code"], -32600);
        assert_eq!(answer["error"]["data"]["code"], "bad_request");
    }
}
