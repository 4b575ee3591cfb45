//! Response-time targets through the application: saved from Settings (a bad one refused with
//! its stable code), taken by the cases opened after, and each target that falls due announced
//! once on the event bus.

use skillcase_application::domain::cases::model::{CaseSource, Lead, NewCase};
use skillcase_application::domain::cases::reason::HandoverReason;
use skillcase_application::domain::cases::sla::ResponseTargets;
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::{App, AppOptions};

fn refund_case(conversation: &str) -> NewCase {
    NewCase {
        conversation_id: conversation.into(),
        lead: Lead::default(),
        agent_id: None,
        title: "Estorno".into(),
        summary: "Cliente pede estorno de uma cobrança em dobro.".into(),
        blocker: None,
        context: vec![],
        source: CaseSource::Agent,
        reason: HandoverReason::PolicyRestriction,
    }
}

async fn app_in(dir: &tempfile::TempDir) -> (App, AppOptions) {
    std::fs::create_dir_all(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().to_path_buf())
    };
    (App::start(options.clone()).await.unwrap(), options)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_zero_minute_target_is_refused_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _) = app_in(&dir).await;
    let refused = ResponseTargets { first_reply_minutes: Some(0), resolution_minutes: Some(60) };
    let err = app.set_response_targets(refused).await.unwrap_err();
    assert_eq!(err.code, "invalid_response_target");
    let case = app.open_case(refund_case("c1")).await.unwrap().case;
    assert_eq!((case.sla.first_reply, case.sla.resolution), (None, None));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_target_that_falls_due_is_announced_once() {
    let dir = tempfile::tempdir().unwrap();
    let (app, options) = app_in(&dir).await;
    let mut events = options.events.subscribe();
    let targets = ResponseTargets { first_reply_minutes: Some(30), resolution_minutes: None };
    app.set_response_targets(targets).await.unwrap();
    let case = app.open_case(refund_case("c1")).await.unwrap().case;
    assert_eq!(case.sla.first_reply.as_ref().map(|c| c.target_minutes), Some(30));

    let far_ahead = "2999-01-01T00:00:00.000Z".to_string();
    assert_eq!(app.announce_overdue_targets_at(far_ahead.clone()).await.unwrap().len(), 1);
    assert!(app.announce_overdue_targets_at(far_ahead).await.unwrap().is_empty());
    let mut announced = vec![];
    while let Ok(event) = events.try_recv() {
        if let DomainEvent::SlaOverdue { id, target, .. } = event {
            announced.push((id, target));
        }
    }
    assert_eq!(announced, vec![(case.id, "first_reply".to_string())]);
    app.stop().await;
}
