//! `skillcase serve` and `skillcase token` as a script would use them.

mod support;

use std::process::Command;

use skillcase_testkit::http::Req;
use support::process::ServeProcess;

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
