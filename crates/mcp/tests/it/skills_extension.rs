//! The Skills extension's methods over a real library (SEP-2640 as Skillcase serves it): what is
//! listed, what is answered by URI, the manifest's digests, and directory reads.

use std::sync::Arc;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use skillcase_application::{App, AppOptions};
use skillcase_mcp::catalog::Catalog;
use skillcase_mcp::error::ProtocolError;
use skillcase_mcp::extension;
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
