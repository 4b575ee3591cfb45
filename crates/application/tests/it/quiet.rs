//! Quiet customers through the application: the delays saved in Settings drive the job, each
//! change is announced and reaches the agent endpoint, and the case view carries the plan.

use std::time::Duration;

use skillcase_application::domain::cases::model::{
    CaseSource, CaseStatus, DeliveryAction, EventKind, HumanAction, Lead, NewCase,
};
use skillcase_application::domain::cases::reason::HandoverReason;
use skillcase_application::domain::cases::store::CaseWithTimeline;
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::settings::QuietSettings;
use skillcase_application::{App, AppOptions};

fn refund_case() -> NewCase {
    NewCase {
        conversation_id: "conv-1".into(),
        lead: Lead::default(),
        agent_id: None,
        title: "Estorno".into(),
        summary: "Cliente pede estorno de uma cobrança em dobro.".into(),
        blocker: None,
        context: vec![],
        source: CaseSource::Agent,
        reason: HandoverReason::CustomerRequest,
    }
}

/// A one-shot application (no background job) over a fresh data directory.
async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().to_path_buf())
    };
    let app = App::start(options).await.unwrap();
    (dir, app)
}

/// A case the person asked the customer about, its wait backdated to 2026-11-01 08:00 UTC.
async fn waiting_case(app: &App) -> CaseWithTimeline {
    let id = app.open_case(refund_case()).await.unwrap().case.id;
    app.reply_to_case(id.clone(), HumanAction::NeedLeadInfo, "Qual cartão foi cobrado?".into())
        .await
        .unwrap();
    let conn = skillcase_store::db::open(app.database_path()).unwrap();
    conn.execute("UPDATE cases SET waiting_since = '2026-11-01T08:00:00.000Z' WHERE id = ?1", [&id]).unwrap();
    app.get_case(id).await.unwrap()
}

fn on(remind_minutes: u32, close_minutes: u32) -> QuietSettings {
    QuietSettings {
        remind: true,
        remind_after_minutes: remind_minutes,
        close: true,
        close_after_minutes: close_minutes,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_the_defaults_the_job_does_nothing() {
    let (_dir, app) = app().await;
    let case = waiting_case(&app).await;
    let run = app.follow_up_quiet_customers_at("2030-01-01T00:00:00.000Z".into()).await.unwrap();
    assert_eq!((run.reminded.len(), run.closed.len()), (0, 0));
    let after = app.get_case(case.case.id).await.unwrap();
    assert_eq!(after.events.len(), case.events.len());
    assert_eq!(after.quiet.unwrap().close_at, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_saved_delays_remind_then_close_and_each_change_is_announced() {
    let (_dir, app) = app().await;
    app.set_quiet_settings(on(60, 120)).await.unwrap();
    let case = waiting_case(&app).await;
    let plan = case.quiet.clone().unwrap();
    assert_eq!(plan.remind_at.as_deref(), Some("2026-11-01T09:00:00.000Z"));
    assert_eq!(plan.close_at.as_deref(), Some("2026-11-01T11:00:00.000Z"));
    let mut events = app.events().subscribe();

    let run = app.follow_up_quiet_customers_at("2026-11-01T09:00:00.000Z".into()).await.unwrap();
    assert_eq!(run.reminded, vec![case.case.id.clone()]);
    assert!(matches!(events.try_recv(), Ok(DomainEvent::CaseChanged { id }) if id == case.case.id));
    let reminded = app.get_case(case.case.id.clone()).await.unwrap();
    assert_eq!(reminded.events.last().unwrap().kind, EventKind::ReminderSent);
    assert!(reminded.deliveries.iter().any(|d| d.action == DeliveryAction::Reminder));

    let run = app.follow_up_quiet_customers_at("2026-11-01T11:00:00.000Z".into()).await.unwrap();
    assert_eq!(run.closed, vec![case.case.id.clone()]);
    let closed = app.get_case(case.case.id).await.unwrap();
    assert_eq!(closed.case.status, CaseStatus::Cancelled);
    assert_eq!(closed.quiet, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_delay_of_zero_minutes_is_refused_and_nothing_is_saved() {
    let (_dir, app) = app().await;
    let err = app.set_quiet_settings(on(0, 120)).await.unwrap_err();
    assert_eq!(err.code, "invalid_quiet_delay");
    assert_eq!(err.details, Some(serde_json::json!({ "field": "remind_after_minutes" })));
    let run = app.follow_up_quiet_customers_at("2030-01-01T00:00:00.000Z".into()).await.unwrap();
    assert_eq!(run.reminded.len(), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_background_job_reminds_a_quiet_case_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        quiet_poll: Duration::from_millis(20),
        ..AppOptions::new(dir.path().to_path_buf())
    };
    let app = App::start(options).await.unwrap();
    app.set_quiet_settings(on(60, 120)).await.unwrap();
    let case = waiting_case(&app).await;
    let mut kinds = vec![];
    for _ in 0..100 {
        kinds =
            app.get_case(case.case.id.clone()).await.unwrap().events.into_iter().map(|e| e.kind).collect();
        if kinds.contains(&EventKind::ReminderSent) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    app.stop().await;
    assert_eq!(kinds.iter().filter(|k| **k == EventKind::ReminderSent).count(), 1, "{kinds:?}");
}
