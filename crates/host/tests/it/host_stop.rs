//! Stopping a running Skillcase — what closing the window does — takes a few seconds at worst,
//! whatever a client of its local API is doing.

use std::time::{Duration, Instant};

use skillcase_application::AppOptions;
use skillcase_host::Host;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

async fn host(dir: &tempfile::TempDir) -> Host {
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        ..AppOptions::new(dir.path().to_path_buf())
    };
    Host::start(options, Some(0)).await.unwrap()
}

#[tokio::test]
async fn stop_returns_within_seconds_while_a_client_is_still_sending_its_upload() {
    let dir = tempfile::tempdir().unwrap();
    let host = host(&dir).await;
    let port = host.api_port().await.unwrap();
    let token = host.app().tokens().current().unwrap().as_str().to_string();
    let mut upload = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let head = format!(
        "POST /v1/cases HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
    );
    upload.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    host.stop().await;
    assert!(started.elapsed() < Duration::from_secs(5), "stopped after {:?}", started.elapsed());
}

#[tokio::test]
async fn stop_is_quick_when_nothing_is_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let host = host(&dir).await;
    let idle = TcpStream::connect(("127.0.0.1", host.api_port().await.unwrap())).await.unwrap();
    let started = Instant::now();
    host.stop().await;
    assert!(started.elapsed() < Duration::from_secs(1), "stopped after {:?}", started.elapsed());
    drop(idle);
}
