//! The Skills extension's methods over a real library (SEP-2640 as Skillcase serves it): what is
//! listed, what is answered by URI, the manifest's digests, and directory reads; and that it
//! serves the same stored version as the `read_skill` tools.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientInfo, Implementation, ReadResourceRequestParams,
    ResourceContents,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ClientCacheConfig, ServiceExt};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use skillcase_application::domain::library::Source;
use skillcase_application::mcp_clients::McpTransport;
use skillcase_application::{App, AppOptions};
use skillcase_mcp::catalog::Catalog;
use skillcase_mcp::error::ProtocolError;
use skillcase_mcp::limits::McpLimits;
use skillcase_mcp::{extension, SkillcaseMcp};
use skillcase_testkit::skills::{skill_md, write_simple, write_skill};

struct Served {
    catalog: Arc<Catalog>,
    _dir: tempfile::TempDir,
}

/// A library with `frete` (a reference), `interno` (hidden), `quebrada` (no description) and
/// `extra` skills named `a-000`...
async fn served(extra: usize) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let skills = dir.path().join("skills");
    write_skill(
        &skills,
        "frete",
        &[
            ("SKILL.md", &skill_md("frete", "Prazos de entrega.")),
            ("references/prazos.md", "Sudeste: 3 dias.\n"),
        ],
    );
    write_skill(
        &skills,
        "interno",
        &[
            ("SKILL.md", &skill_md("interno", "Só por nome.")),
            ("skill.config.yaml", "disable-model-invocation: true\n"),
        ],
    );
    write_skill(&skills, "quebrada", &[("SKILL.md", "---\nname: quebrada\n---\nSem descrição.\n")]);
    for n in 0..extra {
        write_simple(&skills, &format!("a-{n:03}"), "Uma habilidade de enchimento.");
    }
    let options = AppOptions {
        skills_dir: Some(skills),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().join("data"))
    };
    let app = App::start(options).await.unwrap();
    app.scanned().await.unwrap();
    Served { catalog: Catalog::new(app), _dir: dir }
}

async fn call(served: &Served, method: &str, params: Value) -> Result<Value, ProtocolError> {
    extension::answer(&served.catalog, method, Some(params)).await
}

fn names(page: &Value) -> Vec<String> {
    page["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["frontmatter"]["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_listing_leaves_out_hidden_and_broken_skills() {
    let served = served(0).await;
    let page = call(&served, "skills/list", json!({})).await.unwrap();
    assert_eq!(names(&page), ["frete"]);
    assert_eq!(
        (page["resultType"].clone(), page["cacheScope"].clone()),
        (json!("complete"), json!("private"))
    );
    assert!(page["ttlMs"].as_u64().unwrap() > 0 && page.get("nextCursor").is_none());
}

#[tokio::test]
async fn the_listing_pages_by_name_and_the_cursor_continues_after_the_last_entry() {
    let served = served(250).await;
    let first = call(&served, "skills/list", json!({})).await.unwrap();
    assert_eq!(names(&first).len(), 200);
    let next = first["nextCursor"].as_str().unwrap();
    let second = call(&served, "skills/list", json!({ "cursor": next })).await.unwrap();
    assert_eq!(names(&second).len(), 51);
    assert_eq!(names(&second).last().unwrap(), "frete");
    assert!(second.get("nextCursor").is_none());
}

#[tokio::test]
async fn a_hidden_skill_is_answered_by_its_uri() {
    let served = served(0).await;
    let got = call(&served, "skills/get", json!({ "uri": "skill://interno/SKILL.md" })).await.unwrap();
    assert_eq!(got["skill"]["frontmatter"], json!({ "name": "interno", "description": "Só por nome." }));
}

#[tokio::test]
async fn a_broken_an_unknown_or_a_non_skill_md_uri_is_unknown_skill() {
    let served = served(0).await;
    for uri in [
        "skill://quebrada/SKILL.md",
        "skill://nenhuma/SKILL.md",
        "skill://frete/references/prazos.md",
        "https://x/SKILL.md",
    ] {
        let refused = call(&served, "skills/get", json!({ "uri": uri })).await.unwrap_err();
        assert!(matches!(refused, ProtocolError::UnknownSkill { .. }), "{uri}: {refused}");
    }
}

#[tokio::test]
async fn each_manifest_digest_is_the_sha256_of_the_file_and_its_size_its_length() {
    let served = served(0).await;
    let got = call(&served, "skills/get", json!({ "uri": "skill://frete/SKILL.md" })).await.unwrap();
    let prazos = got["skill"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == "skill://frete/references/prazos.md")
        .unwrap();
    let bytes = b"Sudeste: 3 dias.\n";
    assert_eq!(prazos["digest"], format!("sha256:{:x}", Sha256::digest(bytes)));
    assert_eq!(prazos["size"], bytes.len());
}

#[tokio::test]
async fn a_directory_read_lists_direct_children_with_folders_as_directories() {
    let served = served(0).await;
    let root = call(&served, "resources/directory/read", json!({ "uri": "skill://frete" })).await.unwrap();
    assert_eq!(
        root["resources"],
        json!([
            { "uri": "skill://frete/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown" },
            { "uri": "skill://frete/references", "name": "references", "mimeType": "inode/directory" }
        ])
    );
    let refused = call(&served, "resources/directory/read", json!({ "uri": "skill://frete/SKILL.md" }))
        .await
        .unwrap_err();
    assert!(matches!(refused, ProtocolError::NotADirectory { .. }));
}

/// `frete` as first recorded: a body, and one required reference.
const FRETE_MD: &str =
    "---\nname: frete\ndescription: Prazos de entrega.\n---\n# Frete\n\nConsulte a tabela antes de responder.\n";
const PRAZOS: &str = "Sudeste: 3 dias.\n";

/// A client (rmcp's) connected over an in-memory pipe to a server of `app`, as over stdio. Its
/// response cache is off, so each read asks the server (a caching client would be told of the
/// change by `notifications/resources/updated` and ask again).
async fn connect(app: &App) -> RunningService<RoleClient, ClientInfo> {
    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    let server =
        SkillcaseMcp::new(app.clone(), Catalog::new(app.clone()), McpTransport::Stdio, McpLimits::default());
    tokio::spawn(async move { server.serve(server_io).await.unwrap().waiting().await });
    let info = ClientInfo::new(ClientCapabilities::default(), Implementation::new("level-two-test", "1"));
    let client = info.serve(client_io).await.unwrap();
    client.peer().set_response_cache_config(ClientCacheConfig::disabled()).await;
    client
}

/// `tool(arguments)` over the client: its structured content, and whether it is a tool error.
async fn tool(
    client: &RunningService<RoleClient, ClientInfo>,
    name: &'static str,
    arguments: Value,
) -> (Value, bool) {
    let params = CallToolRequestParams::new(name).with_arguments(arguments.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.unwrap();
    (result.structured_content.unwrap(), result.is_error == Some(true))
}

/// `resources/read` of `uri` over the client: the text, or the JSON-RPC error's stable code.
async fn resource(client: &RunningService<RoleClient, ClientInfo>, uri: &str) -> Result<String, String> {
    match client.read_resource(ReadResourceRequestParams::new(uri)).await {
        Ok(read) => match &read.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => Ok(text.clone()),
            other => panic!("{uri} is text, got {other:?}"),
        },
        Err(ServiceError::McpError(error)) => Err(error.data.unwrap()["code"].as_str().unwrap().to_string()),
        Err(other) => panic!("{uri}: {other}"),
    }
}

#[tokio::test]
async fn read_skill_and_resources_read_give_the_same_stored_version_while_the_folder_is_invalid_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let skills = dir.path().join("skills");
    write_skill(
        &skills,
        "frete",
        &[
            ("SKILL.md", FRETE_MD),
            ("skill.config.yaml", "references:\n  required: [references/prazos.md]\n"),
            ("references/prazos.md", PRAZOS),
        ],
    );
    let options = AppOptions {
        skills_dir: Some(skills.clone()),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().join("data"))
    };
    let app = App::start(options).await.unwrap();
    app.scanned().await.unwrap();
    let client = connect(&app).await;

    // On disk the skill is now invalid (no description) with another table; the library has not
    // recorded it yet, as while the watcher settles.
    std::fs::write(skills.join("frete/SKILL.md"), "---\nname: frete\n---\nOUTRA TABELA\n").unwrap();
    std::fs::write(skills.join("frete/references/prazos.md"), "Sudeste: 30 dias.\n").unwrap();

    let (level2, refused) =
        tool(&client, "read_skill", json!({ "name": "frete", "conversation_id": "c1" })).await;
    assert!(!refused, "{level2}");
    let skill_md = resource(&client, "skill://frete/SKILL.md").await.unwrap();
    assert_eq!(skill_md, FRETE_MD, "the Skills extension serves the stored version");
    let body = skill_md.rsplit_once("---\n").unwrap().1.trim_end();
    let text = level2["text"].as_str().unwrap();
    assert!(text.starts_with(body) && !text.contains("OUTRA"), "read_skill serves the same version: {text}");
    let (level3, refused) = tool(
        &client,
        "read_skill_file",
        json!({ "name": "frete", "path": "references/prazos.md", "conversation_id": "c1" }),
    )
    .await;
    assert!(!refused, "{level3}");
    let prazos = resource(&client, "skill://frete/references/prazos.md").await.unwrap();
    assert_eq!((level3["text"].as_str().unwrap(), prazos.as_str()), (PRAZOS, PRAZOS));

    // The library records the folder as it is on disk: both refuse it alike.
    app.library().unwrap().sync_skill("frete", Source::Watch).unwrap();
    let (level2, refused) =
        tool(&client, "read_skill", json!({ "name": "frete", "conversation_id": "c1" })).await;
    assert!(refused);
    assert_eq!(level2["code"], "skill_invalid");
    let (level3, refused) = tool(
        &client,
        "read_skill_file",
        json!({ "name": "frete", "path": "references/prazos.md", "conversation_id": "c1" }),
    )
    .await;
    assert!(refused);
    assert_eq!(level3["code"], "skill_invalid");
    for uri in ["skill://frete/SKILL.md", "skill://frete/references/prazos.md"] {
        assert_eq!(resource(&client, uri).await, Err("resource_not_found".to_string()), "{uri}");
    }
}
