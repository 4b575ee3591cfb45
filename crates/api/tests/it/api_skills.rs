//! The skills endpoints over real loopback sockets (SPEC A6–A7, B4).

use crate::support;

use serde_json::json;
use support::Live;

const SKILL_MD: &str = "---
name: shipping-policy
description: Prazos e custos de frete. Use quando o cliente perguntar sobre entrega.
---
# Frete

Consulte a tabela de prazos antes de responder.
";

const CONFIG: &str = "matcher:
  any_keywords: [frete, entrega]
  probe_keywords: [envio]
references:
  required: [references/prazos.md]
";

/// A server whose skills directory holds `shipping-policy`.
async fn with_skill() -> Live {
    let live = Live::start().await;
    live.write_skill(
        "shipping-policy",
        &[
            ("SKILL.md", SKILL_MD),
            ("skill.config.yaml", CONFIG),
            ("references/prazos.md", "Sudeste: 3 dias úteis.\n"),
        ],
    );
    live
}

#[tokio::test]
async fn the_index_lists_the_valid_skills_in_both_formats() {
    let live = with_skill().await;
    let skillcase = live.request("GET", "/v1/skills/index").send().await;
    assert_eq!(skillcase.status, 200);
    let text = skillcase.json()["text"].as_str().unwrap().to_string();
    assert!(text.contains(r#"<skill name="shipping-policy" type="prompt">"#), "{text}");
    let agentskills = live.request("GET", "/v1/skills/index?format=agentskills").send().await.json();
    assert!(agentskills["text"].as_str().unwrap().contains("<name>\nshipping-policy\n</name>"));
    let unknown = live.request("GET", "/v1/skills/index?format=yaml").send().await;
    assert_eq!((unknown.status, unknown.code()), (400, "unknown_index_format".to_string()));
}

#[tokio::test]
async fn matching_is_accent_insensitive_and_separates_hard_from_probe() {
    let live = with_skill().await;
    let hard = live
        .request("POST", "/v1/skills/match")
        .json(&json!({ "conversation_id": "c1", "message": "Qual o prazo de ENTREGA?" }))
        .send()
        .await
        .json();
    assert_eq!(hard["hard"][0]["name"], "shipping-policy");
    assert_eq!(hard["probe"], json!([]));
    let probe = live
        .request("POST", "/v1/skills/match")
        .json(&json!({ "conversation_id": "c2", "message": "e o envio?" }))
        .send()
        .await
        .json();
    assert_eq!(probe["hard"], json!([]));
    assert_eq!(probe["probe"][0]["trigger"], "probe");
}

#[tokio::test]
async fn level_two_returns_the_body_and_the_required_references() {
    let live = with_skill().await;
    let reply = live.request("GET", "/v1/skills/shipping-policy").send().await;
    assert_eq!(reply.status, 200);
    let text = reply.json()["text"].as_str().unwrap().to_string();
    assert!(text.starts_with("# Frete"), "{text}");
    assert!(
        text.contains("<skill_required_references>") && text.contains("- references/prazos.md"),
        "{text}"
    );
}

#[tokio::test]
async fn an_unknown_skill_is_404() {
    let live = with_skill().await;
    let reply = live.request("GET", "/v1/skills/nope").send().await;
    assert_eq!((reply.status, reply.code()), (404, "skill_not_found".to_string()));
}

#[tokio::test]
async fn level_three_needs_the_skill_active_in_the_conversation() {
    let live = with_skill().await;
    let path = "/v1/skills/shipping-policy/files/references/prazos.md?conversation_id=c1";
    let refused = live.request("GET", path).send().await;
    assert_eq!((refused.status, refused.code()), (403, "skill_not_active".to_string()));
    live.request("POST", "/v1/skills/match")
        .json(&json!({ "conversation_id": "c1", "message": "quanto custa o frete?" }))
        .send()
        .await;
    let allowed = live.request("GET", path).send().await;
    assert_eq!(allowed.status, 200);
    assert_eq!(allowed.json()["text"], "Sudeste: 3 dias úteis.\n");
    let elsewhere = live.request("GET", &path.replace("c1", "c2")).send().await;
    assert_eq!(elsewhere.status, 403, "activation is per conversation");
}

#[tokio::test]
async fn a_level_two_read_for_a_conversation_activates_the_skill_there() {
    let live = with_skill().await;
    live.request("GET", "/v1/skills/shipping-policy?conversation_id=c3&task=prazo").send().await;
    let reply = live
        .request("GET", "/v1/skills/shipping-policy/files/references/prazos.md?conversation_id=c3")
        .send()
        .await;
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn level_three_refuses_paths_outside_the_support_folders() {
    let live = with_skill().await;
    live.request("GET", "/v1/skills/shipping-policy?conversation_id=c4").send().await;
    for (path, code) in [
        ("skill.config.yaml", "path_not_support_folder"),
        ("references/../SKILL.md", "path_dot_segment"),
        ("references/missing.md", "file_not_in_skill"),
    ] {
        let reply = live
            .request("GET", &format!("/v1/skills/shipping-policy/files/{path}?conversation_id=c4"))
            .send()
            .await;
        assert_eq!(reply.code(), code, "{path}");
    }
}

#[tokio::test]
async fn level_two_serves_the_stored_version_until_the_library_records_the_folder_invalid() {
    let live = with_skill().await;
    let folder = live.dir.path().join("skills/shipping-policy");
    std::fs::write(folder.join("SKILL.md"), "---\nname: shipping-policy\n---\nOUTRA TABELA\n").unwrap();
    let stored = live.request("GET", "/v1/skills/shipping-policy").send().await;
    assert_eq!(stored.status, 200);
    let text = stored.json()["text"].as_str().unwrap().to_string();
    assert!(text.starts_with("# Frete") && !text.contains("OUTRA"), "{text}");

    live.state
        .app
        .library()
        .unwrap()
        .sync_skill("shipping-policy", skillcase_library::Source::Watch)
        .unwrap();
    let refused = live.request("GET", "/v1/skills/shipping-policy").send().await;
    assert_eq!((refused.status, refused.code()), (409, "skill_invalid".to_string()));
}
