//! Streamable HTTP at `/mcp` is under the local API's gate (SPEC B4, D3): the same token, Host and
//! Origin rules and body limit as every other endpoint, and an open notification stream never
//! keeps `skillcase serve` from stopping.

use crate::support;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use skillcase_testkit::http::Req;
use support::process::ServeProcess;

/// A 2026-07-28 request: it carries its protocol version and client in `_meta`.
fn request(method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "gate-test", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params })
}

fn to_mcp(serve: &ServeProcess) -> Req {
    Req::new(serve.port, "POST", "/mcp")
        .header("Host", &format!("127.0.0.1:{}", serve.port))
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/list")
        .json(&request("tools/list", json!({})))
}

#[tokio::test]
async fn mcp_with_the_token_is_answered() {
    let serve = ServeProcess::start(&[]);
    let reply = to_mcp(&serve).bearer(&serve.token()).send().await;
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    assert!(String::from_utf8_lossy(&reply.body).contains("read_skill"));
}

#[tokio::test]
async fn mcp_without_the_token_is_401_unauthorized() {
    let serve = ServeProcess::start(&[]);
    let reply = to_mcp(&serve).send().await;
    assert_eq!((reply.status, reply.code()), (401, "unauthorized".to_string()));
}

#[tokio::test]
async fn mcp_from_a_web_page_is_403_origin_not_allowed_even_with_the_token() {
    let serve = ServeProcess::start(&[]);
    let reply = to_mcp(&serve).bearer(&serve.token()).header("Origin", "http://127.0.0.1:1234").send().await;
    assert_eq!((reply.status, reply.code()), (403, "origin_not_allowed".to_string()));
    assert!(reply.cors_headers().is_empty());
}

#[tokio::test]
async fn mcp_under_another_host_name_is_403_host_not_allowed() {
    let serve = ServeProcess::start(&[]);
    let reply = to_mcp(&serve).bearer(&serve.token()).header("Host", "rebound.example:7878").send().await;
    assert_eq!((reply.status, reply.code()), (403, "host_not_allowed".to_string()));
}

#[tokio::test]
async fn an_mcp_body_over_256_kb_is_413_body_too_large() {
    let serve = ServeProcess::start(&[]);
    let huge = request(
        "tools/call",
        json!({ "name": "match_skills", "arguments": { "conversation_id": "c", "message": "x".repeat(300 * 1024) } }),
    );
    let reply = to_mcp(&serve).bearer(&serve.token()).json(&huge).send().await;
    assert_eq!((reply.status, reply.code()), (413, "body_too_large".to_string()));
}

#[test]
fn serve_stops_within_seconds_while_an_mcp_notification_stream_is_open() {
    let serve = ServeProcess::start(&[]);
    let body = request("subscriptions/listen", json!({ "notifications": { "resourcesListChanged": true } }))
        .to_string();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", serve.port)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        serve.port,
        serve.token(),
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut first = [0u8; 512];
    let read = stream.read(&mut first).unwrap();
    let answer = String::from_utf8_lossy(&first[..read]).to_string();
    assert!(answer.starts_with("HTTP/1.1 200"), "the stream is open: {answer}");
    let asked = Instant::now();
    assert!(serve.terminate().success());
    assert!(asked.elapsed() < Duration::from_secs(5), "stopped in {:?}", asked.elapsed());
}
