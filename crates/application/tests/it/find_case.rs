//! `App::find_case`: a person names a case by its number (`1042`, `#1042`) or its id, and an
//! unknown one is `case_not_found` saying which number or id was looked for.

use crate::support;

use skillcase_application::App;
use support::{a_case, app};

async fn open(app: &App, conversation: &str) -> (String, i64) {
    let case = a_case(app, conversation).await;
    (case.id, case.number)
}

#[tokio::test]
async fn a_case_is_found_by_its_number_with_or_without_the_hash() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    open(&app, "conv-1").await;
    let (id, number) = open(&app, "conv-2").await;
    assert_eq!(app.find_case(number.to_string()).await.unwrap().id, id);
    assert_eq!(app.find_case(format!("#{number}")).await.unwrap().id, id);
}

#[tokio::test]
async fn a_case_is_found_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let (id, number) = open(&app, "conv-1").await;
    assert_eq!(app.find_case(id.clone()).await.unwrap().number, number);
}

#[tokio::test]
async fn an_unknown_number_is_case_not_found_naming_the_number() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    open(&app, "conv-1").await;
    let err = app.find_case("#9999".into()).await.unwrap_err();
    assert_eq!(err.code, "case_not_found");
    assert_eq!(err.message, "no case #9999");
    assert_eq!(err.details, Some(serde_json::json!({ "number": 9999 })));
}

#[tokio::test]
async fn an_unknown_id_is_case_not_found_naming_the_id() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let err = app.find_case("no-such-case".into()).await.unwrap_err();
    assert_eq!(err.code, "case_not_found");
    assert_eq!(err.details, Some(serde_json::json!({ "id": "no-such-case" })));
}
