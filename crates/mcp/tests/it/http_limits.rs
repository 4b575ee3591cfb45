//! MCP over Streamable HTTP against clients that try to wear it out, on the real local API (the
//! `/mcp` endpoint mounted under its gate, as the host does) over loopback sockets: sessions,
//! session-less clients, subscriptions and notification streams are capped, idle sessions
//! expire, a tool call is cut at its deadline, and malformed or future-versioned requests are
//! answered as the protocol says. Caps are lowered through `McpLimits` so each attack is quick.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use skillcase_api::{serve, ApiConfig, ApiState, RunningServer};
use skillcase_application::mcp_clients::{MAX_LEASED, MAX_NAME_CHARS};
use skillcase_application::{App, AppOptions};
use skillcase_mcp::limits::McpLimits;
use skillcase_mcp::McpHttp;
use skillcase_testkit::http::{Reply, Req};

/// A local API with `/mcp` mounted, over a fresh data directory.
struct Live {
    port: u16,
    app: App,
    token: String,
    _server: RunningServer,
    _mcp: McpHttp,
    _dir: tempfile::TempDir,
}

async fn live(limits: McpLimits, config: ApiConfig) -> Live {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().to_path_buf())
    };
    let app = App::start(options).await.unwrap();
    let token = app.tokens().current().unwrap().as_str().to_string();
    let mcp = McpHttp::new(app.clone(), limits);
    let server =
        serve(ApiConfig { port: 0, ..config }, ApiState { app: app.clone() }, mcp.router()).await.unwrap();
    Live { port: server.port(), app, token, _server: server, _mcp: mcp, _dir: dir }
}

async fn with(limits: McpLimits) -> Live {
    live(limits, ApiConfig::default()).await
}

/// `POST /mcp` with the token and the headers every MCP client sends.
fn post(live: &Live, body: &Value) -> Req {
    Req::new(live.port, "POST", "/mcp")
        .header("Host", &format!("127.0.0.1:{}", live.port))
        .header("Accept", "application/json, text/event-stream")
        .bearer(&live.token)
        .json(body)
}

/// A 2026-07-28 request (no session: it names its client in `_meta`) and its headers.
fn session_less(live: &Live, method: &str, mut params: Value, client: &str) -> Req {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": client, "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let mut req = post(live, &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }))
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method);
    if let Some(name) = params.get("name").and_then(Value::as_str) {
        req = req.header("Mcp-Name", name);
    }
    req
}

fn initialize(version: &str, client: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": { "name": client, "version": "1" } } })
}

/// The JSON-RPC message of an answer, whether sent as JSON or as an event stream.
fn message(reply: &Reply) -> Value {
    let body = String::from_utf8_lossy(&reply.body);
    let data =
        body.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).find(|d| d.starts_with('{'));
    serde_json::from_str(data.unwrap_or(&body)).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Begins a session; its id.
async fn begin_session(live: &Live, client: &str) -> Reply {
    post(live, &initialize("2025-11-25", client)).send().await
}

/// The process's resident memory, in MB.
fn resident_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024
}

#[tokio::test]
async fn an_initialize_past_the_session_cap_is_503_mcp_too_many_sessions_and_a_closed_session_frees_its_place(
) {
    let live = with(McpLimits { max_sessions: 8, ..McpLimits::default() }).await;
    let before = resident_mb();
    let name = "n".repeat(200 * 1024);
    let mut sessions = Vec::new();
    let mut refused = 0;
    for _ in 0..200 {
        let reply = begin_session(&live, &name).await;
        match reply.status {
            200 => sessions.push(reply.header("mcp-session-id").unwrap().to_string()),
            503 => {
                assert_eq!(reply.code(), "mcp_too_many_sessions");
                assert_eq!(reply.header("retry-after"), Some("1"));
                refused += 1;
            }
            other => panic!("{other}: {}", String::from_utf8_lossy(&reply.body)),
        }
    }
    assert_eq!((sessions.len(), refused), (8, 192));
    assert!(resident_mb() < before + 128, "memory grew from {before} MB to {} MB", resident_mb());

    let ended = Req::new(live.port, "DELETE", "/mcp")
        .header("Host", &format!("127.0.0.1:{}", live.port))
        .header("Mcp-Session-Id", &sessions[0])
        .bearer(&live.token)
        .send()
        .await;
    assert_eq!(ended.status, 202);
    assert_eq!(begin_session(&live, "after").await.status, 200, "the ended session's place is free");
}

#[tokio::test]
async fn a_session_unused_for_the_idle_time_is_closed() {
    let live = with(McpLimits { session_idle: Duration::from_millis(300), ..McpLimits::default() }).await;
    let reply = begin_session(&live, "idle-client").await;
    let session = reply.header("mcp-session-id").unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let list = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" });
    let later = post(&live, &list).header("Mcp-Session-Id", &session).send().await;
    assert_eq!(later.status, 404, "{}", String::from_utf8_lossy(&later.body));
}

#[tokio::test]
async fn session_less_clients_are_kept_to_the_cap_with_their_names_cut() {
    let live = with(McpLimits::default()).await;
    let before = resident_mb();
    for n in 0..300 {
        let name = format!("{n}-{}", "c".repeat(200 * 1024));
        let reply = session_less(&live, "tools/list", json!({}), &name).send().await;
        assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    }
    let listed = live.app.mcp_clients();
    assert_eq!(listed.len(), MAX_LEASED);
    assert!(listed.iter().all(|c| c.name.chars().count() <= MAX_NAME_CHARS));
    assert!(resident_mb() < before + 128, "memory grew from {before} MB to {} MB", resident_mb());
}

/// Opens a `subscriptions/listen` stream on a socket of its own: the status of its answer, and
/// the socket (the stream stays open while it is held).
fn listen(live: &Live) -> (u16, std::net::TcpStream) {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "notifications": { "resourcesListChanged": true },
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { "name": "listener", "version": "1" },
            "io.modelcontextprotocol/clientCapabilities": {}
        } } })
    .to_string();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", live.port)).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        live.port,
        live.token,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut first = [0u8; 512];
    let read = stream.read(&mut first).unwrap();
    let answer = String::from_utf8_lossy(&first[..read]).to_string();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, stream)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_past_their_cap_are_503_mcp_too_many_streams_and_the_api_keeps_serving_everyone_else() {
    let config = ApiConfig { max_connections: 12, ..ApiConfig::default() };
    let live = live(McpLimits { max_streams: 4, ..McpLimits::default() }, config).await;
    let (mut open, mut refused) = (Vec::new(), 0);
    for _ in 0..12 {
        let live = &live;
        let (status, stream) = tokio::task::block_in_place(|| listen(live));
        match status {
            200 => open.push(stream),
            503 => refused += 1,
            other => panic!("a listen stream was answered {other}"),
        }
    }
    assert_eq!((open.len(), refused), (4, 8));
    let api = Req::new(live.port, "GET", "/v1/openapi.json")
        .header("Host", &format!("127.0.0.1:{}", live.port))
        .bearer(&live.token)
        .send()
        .await;
    assert_eq!(api.status, 200, "connections are left for the API");
    drop(open.pop());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, stream) = tokio::task::block_in_place(|| listen(&live));
        if status == 200 {
            open.push(stream);
            break;
        }
        assert!(Instant::now() < deadline, "a closed stream's place never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn subscribing_past_the_cap_is_refused_with_mcp_too_many_subscriptions() {
    let live = with(McpLimits { max_subscriptions: 3, ..McpLimits::default() }).await;
    let session = begin_session(&live, "subscriber").await.header("mcp-session-id").unwrap().to_string();
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    assert_eq!(post(&live, &initialized).header("Mcp-Session-Id", &session).send().await.status, 202);
    let subscribe = |n: usize, uri: String| {
        let body = json!({ "jsonrpc": "2.0", "id": n + 10, "method": "resources/subscribe", "params": { "uri": uri } });
        post(&live, &body).header("Mcp-Session-Id", &session).header("MCP-Protocol-Version", "2025-11-25")
    };
    for n in 0..3 {
        let answer = message(&subscribe(n, format!("skill://s-{n}/SKILL.md")).send().await);
        assert!(answer.get("error").is_none(), "{answer}");
    }
    let fourth = message(&subscribe(3, "skill://s-3/SKILL.md".into()).send().await);
    assert_eq!(fourth["error"]["data"]["code"], "mcp_too_many_subscriptions", "{fourth}");
    let long = message(&subscribe(4, format!("skill://{}/SKILL.md", "x".repeat(100_000))).send().await);
    assert_eq!(long["error"]["data"]["code"], "mcp_uri_too_long", "{long}");
}

#[tokio::test]
async fn a_tool_call_still_running_at_the_deadline_is_answered_request_timeout() {
    let live = with(McpLimits { call_timeout: Duration::from_millis(1), ..McpLimits::default() }).await;
    // Reading 9,000 characters of promises takes the detector far longer than a millisecond.
    let promises = "vou te ligar amanhã ".repeat(450);
    let arguments = json!({ "conversation_id": "c1", "turn_id": "t1", "message": promises });
    let call = json!({ "name": "check_message", "arguments": arguments });
    let reply = session_less(&live, "tools/call", call, "slow-client").send().await;
    let answer = message(&reply);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(answer["result"]["structuredContent"]["code"], "request_timeout", "{answer}");
}

#[tokio::test]
async fn a_body_that_is_not_json_is_400_parse_error() {
    let live = with(McpLimits::default()).await;
    let reply = post(&live, &json!({}))
        .raw_body("application/json", b"{\"jsonrpc\": \"2.0\", ".to_vec())
        .send()
        .await;
    assert_eq!(reply.status, 400, "{}", String::from_utf8_lossy(&reply.body));
    let answer = reply.json();
    assert_eq!(
        (answer["error"]["code"].clone(), answer["error"]["data"]["code"].clone()),
        (json!(-32700), json!("bad_request"))
    );
    let not_rpc = post(&live, &json!({ "hello": "world" })).send().await;
    assert_eq!((not_rpc.status, not_rpc.json()["error"]["code"].clone()), (400, json!(-32600)));
}

#[tokio::test]
async fn an_initialize_of_a_future_protocol_version_gets_a_session_at_the_latest_version_with_initialize() {
    let live = with(McpLimits::default()).await;
    let reply = post(&live, &initialize("2099-01-01", "from-the-future"))
        .header("MCP-Protocol-Version", "2099-01-01")
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    assert!(reply.header("mcp-session-id").is_some(), "a session was begun");
    assert_eq!(message(&reply)["result"]["protocolVersion"], "2025-11-25");
}
