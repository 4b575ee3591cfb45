//! The application knows which MCP clients are connected right now (for Settings → Agents
//! (MCP)): a client is listed with the name and version its `initialize` gave from the moment it
//! connects until it goes away, and each change is announced on the bus.

use std::time::Duration;

use rmcp::model::{ClientCapabilities, ClientInfo, Implementation};
use rmcp::ServiceExt;
use skillcase_application::mcp_clients::McpTransport;
use skillcase_application::{App, AppOptions};
use skillcase_common::events::DomainEvent;
use skillcase_mcp::catalog::Catalog;
use skillcase_mcp::limits::McpLimits;
use skillcase_mcp::SkillcaseMcp;

async fn app(dir: &tempfile::TempDir) -> App {
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().join("data"))
    };
    App::start(options).await.unwrap()
}

/// Waits (at most 5 s) until `done` holds for the app's client list.
async fn until(app: &App, done: impl Fn(usize) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !done(app.mcp_clients().len()) {
        assert!(tokio::time::Instant::now() < deadline, "the client list never changed as expected");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_client_is_listed_with_its_name_and_version_while_connected_and_each_change_is_announced() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let mut events = app.events().subscribe();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server =
        SkillcaseMcp::new(app.clone(), Catalog::new(app.clone()), McpTransport::Stdio, McpLimits::default());
    let serving = tokio::spawn(async move { server.serve(server_io).await.unwrap().waiting().await });
    let info = ClientInfo::new(ClientCapabilities::default(), Implementation::new("claude-code", "2.1.7"));
    let client = info.serve(client_io).await.unwrap();

    until(&app, |n| n == 1).await;
    let listed = app.mcp_clients();
    assert_eq!((listed[0].name.as_str(), listed[0].version.as_str()), ("claude-code", "2.1.7"));
    assert_eq!(listed[0].transport, McpTransport::Stdio);
    assert_eq!(events.recv().await.unwrap(), DomainEvent::McpClientsChanged);

    client.cancel().await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(5), serving).await;
    until(&app, |n| n == 0).await;
    assert_eq!(events.recv().await.unwrap(), DomainEvent::McpClientsChanged);
}
