//! The agent's case tools over the application: what a person keeps to themselves stays theirs.

use skillcase_application::{App, AppOptions};
use skillcase_cases::model::NewCase;

async fn app(dir: &tempfile::TempDir) -> App {
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().join("data"))
    };
    App::start(options).await.unwrap()
}

#[tokio::test]
async fn get_case_leaves_out_the_people_s_internal_notes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let app = app(&dir).await;
    let new: NewCase = serde_json::from_value(serde_json::json!({
        "conversation_id": "conv-1", "title": "Refund", "summary": "The lead wants a refund."
    }))
    .unwrap();
    let id = app.open_case(new).await.unwrap().case.id;
    app.add_case_note(id.clone(), "Manager approved the refund offline.".into()).await.unwrap();

    let arguments = serde_json::json!({ "case_id": id }).as_object().cloned();
    let result = skillcase_mcp::tools::call(&app, "get_case", arguments).await.unwrap();
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["case"]["id"], id.as_str());
    assert_eq!(structured["events"].as_array().unwrap().len(), 1, "{structured}");
    let whole = serde_json::to_string(&result).unwrap();
    assert!(!whole.contains("approved the refund offline"), "{whole}");
    assert!(!whole.contains("internal_note"), "{whole}");
}

#[tokio::test]
async fn open_case_stores_the_reason_and_refuses_one_not_in_the_list_with_invalid_reason() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let app = app(&dir).await;
    let open = |reason: &str| {
        serde_json::json!({ "conversation_id": "conv-1", "title": "Refund", "summary": "Wants a refund.", "reason": reason })
            .as_object()
            .cloned()
    };
    let refused = skillcase_mcp::tools::call(&app, "open_case", open("refund")).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    let error = refused.structured_content.unwrap();
    assert_eq!(error["code"], "invalid_reason");
    assert_eq!(error["details"]["allowed"].as_array().unwrap().len(), 6, "{error}");

    let opened = skillcase_mcp::tools::call(&app, "open_case", open("tool_failure")).await.unwrap();
    let structured = opened.structured_content.unwrap();
    assert_eq!(
        (structured["already_open"].clone(), structured["case"]["reason"].clone()),
        (false.into(), "tool_failure".into())
    );
}
