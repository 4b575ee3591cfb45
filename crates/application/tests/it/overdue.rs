//! A promise that falls due while its case is still open is announced on the event bus once, by
//! the application's own background watch (what the window's inbox and notification react to).

use std::time::Duration;

use skillcase_application::domain::cases::model::{CaseSource, Lead, NewCase};
use skillcase_application::domain::cases::promises::NewPromise;
use skillcase_application::domain::cases::reason::HandoverReason;
use skillcase_application::domain::cases::CasesRepository;
use skillcase_application::domain::cases_sqlite::SqliteCases;
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::{App, AppOptions};
use skillcase_store::Database;

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
        reason: HandoverReason::PolicyRestriction,
    }
}

fn promise_due_an_hour_ago() -> NewPromise {
    NewPromise {
        quote: "Vou verificar com a equipe financeira e te retorno ainda hoje.".into(),
        actor: Some("a equipe financeira".into()),
        action: Some("te retorno".into()),
        due_text: Some("ainda hoje".into()),
        due_at: Some("2020-01-01T11:00:00.000Z".into()),
        turn_id: "t1".into(),
        spans: vec![],
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_overdue_promise_is_announced_once_by_the_background_watch() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        overdue_poll: Duration::from_millis(20),
        ..AppOptions::new(dir.path().to_path_buf())
    };
    let mut events = options.events.subscribe();
    let app = App::start(options).await.unwrap();
    let case = app.open_case(refund_case()).await.unwrap().case;
    let writer = SqliteCases::new(Database::open(app.database_path()).unwrap());
    writer.record_promise(&case.id, &promise_due_an_hour_ago()).unwrap();

    let mut announced = vec![];
    let watch_for = tokio::time::sleep(Duration::from_millis(400));
    tokio::pin!(watch_for);
    loop {
        tokio::select! {
            event = events.recv() => if let Ok(DomainEvent::PromiseOverdue { id, number, quote }) = event {
                announced.push((id, number, quote));
            },
            _ = &mut watch_for => break,
        }
    }
    app.stop().await;
    assert_eq!(
        announced,
        vec![(
            case.id,
            case.number,
            "Vou verificar com a equipe financeira e te retorno ainda hoje.".to_string()
        )]
    );
}

/// The first `PromiseOverdue` announced within `within`, if any.
async fn first_overdue(
    events: &mut tokio::sync::broadcast::Receiver<DomainEvent>,
    within: Duration,
) -> Option<String> {
    tokio::time::timeout(within, async {
        loop {
            if let Ok(DomainEvent::PromiseOverdue { quote, .. }) = events.recv().await {
                return quote;
            }
        }
    })
    .await
    .ok()
}

/// An app whose watch would otherwise sleep an hour between looks, with one case open on which
/// another connection to its database (another process, as far as the app can tell) records
/// `promise`; returns the app and its events from before the case opened.
async fn promise_written_elsewhere(
    dir: &std::path::Path,
    promise: NewPromise,
) -> (App, tokio::sync::broadcast::Receiver<DomainEvent>) {
    std::fs::create_dir_all(dir.join("skills")).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        overdue_poll: Duration::from_secs(3600),
        ..AppOptions::new(dir.to_path_buf())
    };
    let events = options.events.subscribe();
    let app = App::start(options).await.unwrap();
    let case = app.open_case(refund_case()).await.unwrap().case;
    let elsewhere = SqliteCases::new(Database::open(app.database_path()).unwrap());
    elsewhere.record_promise(&case.id, &promise).unwrap();
    (app, events)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_promise_another_process_writes_overdue_is_announced_without_waiting_for_a_poll() {
    let dir = tempfile::tempdir().unwrap();
    let (app, mut events) = promise_written_elsewhere(dir.path(), promise_due_an_hour_ago()).await;

    let announced = first_overdue(&mut events, Duration::from_secs(10)).await;
    app.stop().await;
    assert_eq!(announced.as_deref(), Some("Vou verificar com a equipe financeira e te retorno ainda hoje."));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_promise_still_ahead_is_announced_when_it_falls_due_not_before() {
    let dir = tempfile::tempdir().unwrap();
    let due_in_two_seconds = NewPromise {
        due_at: Some(skillcase_application::domain::common::clock::after(Duration::from_secs(2))),
        ..promise_due_an_hour_ago()
    };
    let (app, mut events) = promise_written_elsewhere(dir.path(), due_in_two_seconds).await;

    let early = first_overdue(&mut events, Duration::from_millis(1500)).await;
    let on_time = first_overdue(&mut events, Duration::from_secs(10)).await;
    app.stop().await;
    assert_eq!(early, None, "announced before it fell due");
    assert!(on_time.is_some(), "not announced when it fell due");
}
