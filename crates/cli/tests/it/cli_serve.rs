//! `skillcase serve` and `skillcase token` as a script would use them.

use crate::support;

use std::io::Write;
use std::process::Command;
use std::time::Duration;

use skillcase_testkit::http::Req;
use support::process::ServeProcess;

/// How soon after SIGTERM `skillcase serve` must be gone, whatever it is busy with: the API's
/// shutdown grace (3 s), the workers' (1 s) and the blocking pool's (1 s), and some slack.
const STOPS_WITHIN: Duration = Duration::from_secs(7);

#[tokio::test]
async fn serve_prints_its_port_and_answers_with_the_token_it_created() {
    let serve = ServeProcess::start(&[]);
    let reply = Req::new(serve.port, "GET", "/v1/openapi.json")
        .header("Host", &format!("127.0.0.1:{}", serve.port))
        .bearer(&serve.token())
        .send()
        .await;
    assert_eq!(reply.status, 200);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(serve.data_dir.path().join("api-token")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn serve_stops_cleanly_on_sigterm() {
    let serve = ServeProcess::start(&[]);
    let port = serve.port;
    let status = serve.terminate();
    assert!(status.success(), "{status:?}");
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());
}

/// A request whose handler is stuck in a blocking call. The skills directory's own files can no
/// longer hold a reader (they are opened `O_NONBLOCK`, so a lease makes the open fail at once), so
/// the test holds a write lease on the *stored* copy of the skill's `SKILL.md` in the blob store,
/// which MCP's `resources/read` serves: the server's `open` of it waits for the kernel to break the
/// lease (45 s by default, far longer than the test), on a thread of the blocking pool.
#[test]
#[cfg(target_os = "linux")]
fn serve_exits_within_seconds_of_sigterm_while_a_request_is_stuck_in_a_blocking_open() {
    use sha2::Digest;
    use std::os::fd::AsRawFd;
    let skills = tempfile::tempdir().unwrap();
    let md = skillcase_testkit::skills::skill_md("leased", "A skill whose stored file cannot be opened yet.");
    skillcase_testkit::skills::write_skill(skills.path(), "leased", &[("SKILL.md", &md)]);
    let serve = ServeProcess::start(&["--skills-dir", skills.path().to_str().unwrap()]);
    let sha = format!("{:x}", sha2::Sha256::digest(md.as_bytes()));
    let blob = serve.data_dir.path().join("blobs").join(&sha[..2]).join(&sha);
    let held = std::fs::File::open(&blob).expect("the scan stored SKILL.md");
    // The lease holder is told of each open by SIGIO, whose default action would end this test.
    unsafe {
        libc::signal(libc::SIGIO, libc::SIG_IGN);
        assert_eq!(libc::fcntl(held.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK), 0, "a write lease");
    }
    let mut stuck = std::net::TcpStream::connect(("127.0.0.1", serve.port)).unwrap();
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "resources/read",
        "params": {
            "uri": "skill://leased/SKILL.md",
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "stuck", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    })
    .to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: resources/read\r\n\
         Mcp-Name: skill://leased/SKILL.md\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        serve.port,
        serve.token(),
        body.len()
    );
    stuck.write_all(head.as_bytes()).unwrap();
    stuck.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    let mut byte = [0u8; 1];
    let answered = std::io::Read::read(&mut stuck, &mut byte);
    assert!(
        answered.is_err(),
        "the request must still be stuck for this test to mean anything (blob reads no longer block on a lease?)"
    );
    let status = serve.terminate_within(STOPS_WITHIN);
    assert!(status.success(), "{status:?}");
    drop(held);
}

#[tokio::test]
async fn serve_exits_within_seconds_of_sigterm_while_a_client_is_still_sending_its_upload() {
    let serve = ServeProcess::start(&[]);
    let mut upload = tokio::net::TcpStream::connect(("127.0.0.1", serve.port)).await.unwrap();
    let head = format!(
        "POST /v1/cases HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
        serve.port,
        serve.token()
    );
    tokio::io::AsyncWriteExt::write_all(&mut upload, head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let status = tokio::task::spawn_blocking(move || serve.terminate_within(STOPS_WITHIN)).await.unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn serve_on_a_port_in_use_fails_with_a_clear_error() {
    let taken = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let data_dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["serve", "--port", &port])
        .env("SKILLCASE_DATA_DIR", data_dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{stderr}");
}

#[test]
fn token_prints_the_same_token_until_rotated() {
    let data_dir = tempfile::tempdir().unwrap();
    let token = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_skillcase"))
            .arg("token")
            .args(args)
            .env("SKILLCASE_DATA_DIR", data_dir.path())
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let first = token(&[]);
    assert_eq!(first.len(), 65, "64 hex characters and a newline: {first:?}");
    assert_eq!(token(&[]), first);
    let rotated = token(&["--rotate"]);
    assert_ne!(rotated, first);
    assert_eq!(token(&[]), rotated);
}

#[tokio::test]
async fn a_token_rotated_from_the_cli_is_refused_by_a_running_server_at_once() {
    let serve = ServeProcess::start(&[]);
    let old = serve.token();
    let status = Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["token", "--rotate"])
        .env("SKILLCASE_DATA_DIR", serve.data_dir.path())
        .output()
        .unwrap();
    assert!(status.status.success());
    let request = |token: String| {
        Req::new(serve.port, "GET", "/v1/openapi.json")
            .header("Host", &format!("127.0.0.1:{}", serve.port))
            .bearer(&token)
    };
    assert_eq!(request(old).send().await.status, 401);
    assert_eq!(request(serve.token()).send().await.status, 200);
}
