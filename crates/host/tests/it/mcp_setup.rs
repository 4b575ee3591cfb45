//! Settings → Agents (MCP) tells an agent's host how to reach this Skillcase: a stdio command
//! that opens the same data directory as the window, and the Streamable HTTP URL of its API.

use skillcase_application::AppOptions;
use skillcase_host::Host;

async fn host(dir: &tempfile::TempDir, port: Option<u16>) -> Host {
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        ..AppOptions::new(dir.path().to_path_buf())
    };
    Host::start(options, port).await.unwrap()
}

#[tokio::test]
async fn the_stdio_command_names_a_data_directory_that_is_not_the_default_so_the_agent_shares_it() {
    let dir = tempfile::tempdir().unwrap();
    let host = host(&dir, Some(0)).await;
    let setup = host.mcp_setup().await;
    assert_eq!(setup.args, ["mcp"]);
    assert_eq!(setup.env.get("SKILLCASE_DATA_DIR").map(String::as_str), Some(dir.path().to_str().unwrap()));
    assert_eq!(setup.env.len(), 1);
    host.stop().await;
}

#[tokio::test]
async fn the_http_url_is_the_mcp_path_on_the_port_the_api_listens_on() {
    let dir = tempfile::tempdir().unwrap();
    let host = host(&dir, Some(0)).await;
    let port = host.api_port().await.unwrap();
    assert_eq!(host.mcp_setup().await.http_url, Some(format!("http://127.0.0.1:{port}/mcp")));
    host.stop().await;
}

#[tokio::test]
async fn there_is_no_http_url_while_the_api_does_not_listen() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = blocker.local_addr().unwrap().port();
    let host = host(&dir, Some(taken)).await;
    assert_eq!(host.api_port().await, None);
    assert_eq!(host.mcp_setup().await.http_url, None);
    host.stop().await;
}
