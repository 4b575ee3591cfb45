//! What the application's tests share: an application over a temporary folder, and the case an
//! agent opens most often in them.
#![allow(dead_code)]

use skillcase_application::domain::cases::model::{Case, NewCase};
use skillcase_application::{person_name, App, AppOptions};

/// An application over `dir` with an empty skills directory and nothing in the background,
/// recording `person` as the person at this desktop.
pub async fn app_as(dir: &tempfile::TempDir, person: &str) -> App {
    std::fs::create_dir_all(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        person: person.into(),
        ..AppOptions::new(dir.path().join("data"))
    };
    App::start(options).await.unwrap()
}

/// The same, with the system user as the person.
pub async fn app(dir: &tempfile::TempDir) -> App {
    app_as(dir, &person_name()).await
}

/// A refund the agent hands over on `conversation`.
pub fn refund(conversation: &str) -> NewCase {
    serde_json::from_value(serde_json::json!({
        "conversation_id": conversation, "title": "Refund", "summary": "The lead wants a refund."
    }))
    .unwrap()
}

/// Opens [`refund`] on `conversation`; returns the case.
pub async fn a_case(app: &App, conversation: &str) -> Case {
    app.open_case(refund(conversation)).await.unwrap().case
}
