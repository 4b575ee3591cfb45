//! Saved replies through the application: the picker renders them for the case and the person
//! at this desktop (Settings → You), and the JSON file round-trips and is imported all or nothing.

use serde_json::json;
use skillcase_application::domain::cases::model::{HumanAction, NewCase};
use skillcase_application::domain::cases::replies::pick::PickFilter;
use skillcase_application::domain::cases::replies::{ReplyLanguage, SavedReplyInput};
use skillcase_application::info::ApiStatus;
use skillcase_application::settings::YouSettings;
use skillcase_application::{App, AppOptions};

async fn app(dir: &tempfile::TempDir) -> App {
    std::fs::create_dir_all(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        person: "ana.desktop".into(),
        ..AppOptions::new(dir.path().join("data"))
    };
    App::start(options).await.unwrap()
}

async fn a_case(app: &App) -> (String, i64) {
    let new: NewCase = serde_json::from_value(json!({
        "conversation_id": "conv-1", "title": "Refund", "summary": "The lead wants a refund.",
        "lead": { "name": "Maria Souza" }
    }))
    .unwrap();
    let case = app.open_case(new).await.unwrap().case;
    (case.id, case.number)
}

fn reply(title: &str, body: &str) -> SavedReplyInput {
    SavedReplyInput { title: title.into(), body: body.into(), action: None, language: None }
}

fn any(query: &str) -> PickFilter {
    PickFilter { action: Some(HumanAction::Resolved), language: ReplyLanguage::En, query: query.into() }
}

#[tokio::test]
async fn the_picker_renders_the_reply_with_the_case_and_your_name_from_settings() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let (id, number) = a_case(&app).await;
    app.set_you(YouSettings {
        name: "Ana Lima".into(),
        email: "ana@example.com".into(),
        ..Default::default()
    })
    .await
    .unwrap();
    app.create_saved_reply(reply(
        "Refund done",
        "Hi {{lead.name}}, case {{case.number}} is done. {{person.name}}",
    ))
    .await
    .unwrap();
    let picked = app.pick_saved_replies(id, any("refund")).await.unwrap();
    assert_eq!(picked[0].text, format!("Hi Maria Souza, case {number} is done. Ana Lima"));
}

#[tokio::test]
async fn without_a_saved_name_person_name_is_the_name_replies_are_recorded_under() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let (id, _) = a_case(&app).await;
    app.create_saved_reply(reply("Sign", "— {{person.name}}")).await.unwrap();
    assert_eq!(app.pick_saved_replies(id, any("")).await.unwrap()[0].text, "— ana.desktop");
}

#[tokio::test]
async fn an_e_mail_without_an_at_sign_is_refused_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let err = app
        .set_you(YouSettings { name: "Ana".into(), email: "ana.example.com".into(), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!((err.code.as_str(), err.details), ("invalid_person", Some(json!({ "field": "email" }))));
    let view = app.settings_view(ApiStatus::Listening { url: "http://127.0.0.1:1".into() }).await.unwrap();
    assert_eq!(view.workspace.you, YouSettings::default());
}

#[tokio::test]
async fn an_exported_file_imports_into_another_desktop() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (first, second) = (app(&one).await, app(&two).await);
    first.create_saved_reply(reply("Thanks", "Thank you, {{lead.name}}!")).await.unwrap();
    let path = one.path().join("replies.json").display().to_string();
    assert_eq!(first.export_saved_replies(path.clone()).await.unwrap(), 1);
    let outcome = second.import_saved_replies(path).await.unwrap();
    assert_eq!((outcome.added, outcome.replaced), (1, 0));
    assert_eq!(second.saved_replies().await.unwrap()[0].body, "Thank you, {{lead.name}}!");
}

#[tokio::test]
async fn a_file_with_one_bad_entry_imports_nothing_and_names_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    app.create_saved_reply(reply("Thanks", "Old")).await.unwrap();
    let path = dir.path().join("bad.json");
    let file = json!({ "format": "skillcase-saved-replies", "version": 1, "replies": [
        { "title": "Thanks", "body": "New" }, { "title": "", "body": "No title" } ] });
    std::fs::write(&path, file.to_string()).unwrap();
    let err = app.import_saved_replies(path.display().to_string()).await.unwrap_err();
    assert_eq!((err.code.as_str(), err.details), ("invalid_saved_replies_file", Some(json!({ "entry": 2 }))));
    let kept = app.saved_replies().await.unwrap();
    assert_eq!((kept.len(), kept[0].body.as_str()), (1, "Old"));
}

#[tokio::test]
async fn a_file_that_is_not_json_is_refused_as_a_whole() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "just some notes").unwrap();
    let err = app.import_saved_replies(path.display().to_string()).await.unwrap_err();
    assert_eq!(
        (err.code.as_str(), err.details),
        ("invalid_saved_replies_file", Some(json!({ "entry": null })))
    );
}

/// A FIFO named like the file to import: read by path after a size check (0 bytes), it would hold
/// the import until some writer came. Opened without waiting and checked on its descriptor, it is
/// refused at once.
#[cfg(unix)]
#[tokio::test]
async fn importing_a_fifo_named_like_a_replies_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let path = dir.path().join("replies.json");
    skillcase_testkit::hostile::make_fifo(&path);
    let import = app.import_saved_replies(path.display().to_string());
    let Ok(answer) = tokio::time::timeout(std::time::Duration::from_secs(10), import).await else {
        // Let the blocked read end so the test can report instead of hanging.
        let _ = std::fs::OpenOptions::new().write(true).open(&path);
        panic!("importing a FIFO held the import");
    };
    let err = answer.unwrap_err();
    assert_eq!(err.code, "invalid_saved_replies_file");
    assert!(err.message.contains("FIFO"), "{}", err.message);
}
