//! A person's internal note through the application: saved on the timeline, announced, never
//! relayed to the agent, and the case keeps its status.

use crate::support;

use skillcase_application::domain::cases::model::{CaseStatus, EventKind};
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::App;
use support::app;

async fn a_case(app: &App) -> String {
    support::a_case(app, "conv-1").await.id
}

#[tokio::test]
async fn a_note_is_saved_by_the_person_announced_and_relayed_to_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let id = a_case(&app).await;
    let mut events = app.events().subscribe();
    let case = app.add_case_note(id.clone(), "Manager approved by phone.".into()).await.unwrap();
    let note = case.events.last().unwrap();
    assert_eq!(note.kind, EventKind::InternalNote);
    assert_eq!(note.actor_name.as_deref(), Some(app.person()));
    assert_eq!(case.case.status, CaseStatus::AwaitingHuman);
    assert!(case.deliveries.is_empty());
    assert_eq!(events.recv().await.unwrap(), DomainEvent::CaseChanged { id: id.clone() });
    assert_eq!(app.outbox_status().await.unwrap().pending, 0);
}

#[tokio::test]
async fn the_agent_s_view_of_the_case_has_no_note() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let id = a_case(&app).await;
    app.add_case_note(id.clone(), "Manager approved by phone.".into()).await.unwrap();
    let seen = app.get_case_for_agent(id.clone()).await.unwrap();
    assert!(seen.events.iter().all(|e| e.kind != EventKind::InternalNote));
    assert_eq!(app.get_case(id).await.unwrap().events.len(), seen.events.len() + 1);
}

#[tokio::test]
async fn an_empty_note_is_refused_with_text_required() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let id = a_case(&app).await;
    let err = app.add_case_note(id, " ".into()).await.unwrap_err();
    assert_eq!(err.code, "text_required");
}
