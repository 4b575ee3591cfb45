//! Faster hands in the inbox through the application: Send & next finds the next case waiting
//! on the person, and bulk actions change several cases at once, announcing each.

use crate::support;

use skillcase_application::domain::cases::model::{CaseStatus, HumanAction};
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::App;
use support::{a_case, app};

async fn opened(app: &App, conversation: &str) -> String {
    a_case(app, conversation).await.id
}

#[tokio::test]
async fn the_next_case_is_the_one_waiting_longest_other_than_the_one_just_answered() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let first = opened(&app, "conv-1").await;
    let second = opened(&app, "conv-2").await;
    opened(&app, "conv-3").await;
    assert_eq!(app.next_case_waiting_on_you(Some(first.clone())).await.unwrap(), Some(second.clone()));
    app.reply_to_case(second.clone(), HumanAction::Resolved, "Refunded.".into()).await.unwrap();
    assert_eq!(app.next_case_waiting_on_you(Some(second)).await.unwrap(), Some(first.clone()));
    assert_eq!(app.next_case_waiting_on_you(None).await.unwrap(), Some(first));
}

#[tokio::test]
async fn there_is_no_next_case_when_nothing_else_waits_on_the_person() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let only = opened(&app, "conv-1").await;
    app.reply_to_case(only.clone(), HumanAction::NeedLeadInfo, "Which card?".into()).await.unwrap();
    assert_eq!(app.next_case_waiting_on_you(Some(only)).await.unwrap(), None);
}

#[tokio::test]
async fn cancelling_several_cases_closes_each_by_the_person_and_announces_each() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let ids = vec![opened(&app, "conv-1").await, opened(&app, "conv-2").await];
    let mut events = app.events().subscribe();
    let cancelled = app.cancel_cases(ids.clone(), "Spam".into()).await.unwrap();
    assert!(cancelled.iter().all(|c| c.status == CaseStatus::Cancelled));
    for id in ids {
        assert_eq!(events.recv().await.unwrap(), DomainEvent::CaseChanged { id: id.clone() });
        let last = app.get_case(id).await.unwrap().events.pop().unwrap();
        assert_eq!(last.actor_name.as_deref(), Some(app.person()));
    }
}

#[tokio::test]
async fn marking_several_read_clears_the_unread_badge_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(&dir).await;
    let ids = vec![opened(&app, "conv-1").await, opened(&app, "conv-2").await];
    opened(&app, "conv-3").await;
    app.mark_cases_read(ids.clone(), true).await.unwrap();
    assert_eq!(app.case_counts().await.unwrap().unread, 1);
    app.mark_cases_read(ids, false).await.unwrap();
    assert_eq!(app.case_counts().await.unwrap().unread, 3);
}
