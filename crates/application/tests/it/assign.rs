//! Assignment through the application: the person at this desktop is the name saved in
//! Settings → You (the system user until then); Take gives them the case, Mine shows their
//! cases, every event they write carries that name, and each change is announced.

use crate::support;

use skillcase_application::alerts::CaseAlert;
use skillcase_application::domain::cases::model::{EventKind, HumanAction};
use skillcase_application::domain::cases::store::{CaseFilter, CaseTab, CaseView};
use skillcase_application::domain::cases::CasesRepository;
use skillcase_application::domain::cases_sqlite::SqliteCases;
use skillcase_application::domain::common::events::DomainEvent;
use skillcase_application::settings::{CaseAlerts, YouSettings};
use skillcase_application::App;
use skillcase_store::Database;
use support::app_as;

async fn a_case(app: &App, conversation: &str) -> String {
    support::a_case(app, conversation).await.id
}

async fn named(app: &App, name: &str) {
    app.set_you(YouSettings { name: name.into(), ..Default::default() }).await.unwrap();
}

#[tokio::test]
async fn the_person_is_the_system_user_until_a_name_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    assert_eq!(app.me().await.unwrap(), "ana-desktop");
    named(&app, "Ana Souza").await;
    assert_eq!(app.me().await.unwrap(), "Ana Souza");
}

#[tokio::test]
async fn take_gives_the_case_to_the_person_and_announces_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    named(&app, "Ana Souza").await;
    let id = a_case(&app, "conv-1").await;
    let mut events = app.events().subscribe();
    let case = app.take_case(id.clone()).await.unwrap();
    assert_eq!(case.assignee.as_deref(), Some("Ana Souza"));
    assert_eq!(events.recv().await.unwrap(), DomainEvent::CaseChanged { id });
}

#[tokio::test]
async fn mine_lists_the_cases_assigned_to_the_person_at_this_desktop() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    named(&app, "Ana Souza").await;
    let mine = a_case(&app, "conv-1").await;
    let bruno = a_case(&app, "conv-2").await;
    app.take_case(mine.clone()).await.unwrap();
    app.assign_cases(vec![bruno], Some("Bruno".into())).await.unwrap();
    let filter =
        CaseFilter { tab: Some(CaseTab::WaitingOnYou), view: Some(CaseView::Mine), ..CaseFilter::default() };
    let page = app.list_cases(filter).await.unwrap();
    assert_eq!(page.items.iter().map(|i| i.case.id.clone()).collect::<Vec<_>>(), vec![mine]);
}

#[tokio::test]
async fn a_reply_is_recorded_under_the_saved_name() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    named(&app, "Ana Souza").await;
    let id = a_case(&app, "conv-1").await;
    let case = app.reply_to_case(id, HumanAction::Resolved, "Refunded.".into()).await.unwrap();
    let reply = case.events.iter().find(|e| e.kind == EventKind::HumanReplied).unwrap();
    assert_eq!(reply.actor_name.as_deref(), Some("Ana Souza"));
}

async fn alerted_for(app: &App, alerts: CaseAlerts) {
    let you = YouSettings { name: "Ana Souza".into(), alerts: Some(alerts), ..Default::default() };
    app.set_you(you).await.unwrap();
}

#[tokio::test]
async fn a_person_who_wants_every_case_is_alerted_to_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    let id = a_case(&app, "conv-1").await;
    let alert = app.case_alert(&DomainEvent::CaseOpened { id }).await;
    assert!(matches!(alert, Some(CaseAlert::Opened(_))), "{alert:?}");
}

#[tokio::test]
async fn a_person_who_wants_only_their_cases_is_not_alerted_to_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    alerted_for(&app, CaseAlerts::Mine).await;
    let id = a_case(&app, "conv-1").await;
    assert_eq!(app.case_alert(&DomainEvent::CaseOpened { id }).await, None);
}

#[tokio::test]
async fn a_person_who_wants_only_their_cases_is_alerted_when_someone_assigns_them_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    alerted_for(&app, CaseAlerts::Mine).await;
    let id = a_case(&app, "conv-1").await;
    // Bruno, on another desktop of the same inbox, gives Ana the case.
    let bruno = SqliteCases::new(Database::open(app.database_path()).unwrap());
    bruno.assign(std::slice::from_ref(&id), Some("Ana Souza"), "Bruno Lima").unwrap();
    let alert = app.case_alert(&DomainEvent::CaseChanged { id: id.clone() }).await;
    assert!(matches!(alert, Some(CaseAlert::AssignedToYou { ref case, .. }) if case.id == id), "{alert:?}");
}

#[tokio::test]
async fn taking_a_case_oneself_raises_no_alert() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_as(&dir, "ana-desktop").await;
    alerted_for(&app, CaseAlerts::Mine).await;
    let id = a_case(&app, "conv-1").await;
    app.take_case(id.clone()).await.unwrap();
    assert_eq!(app.case_alert(&DomainEvent::CaseChanged { id }).await, None);
}
