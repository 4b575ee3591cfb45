//! When the customer goes quiet (SPEC D5): the reminder after the first delay, the auto-close
//! after the second, each once per wait, on real SQLite files with the job's `now` chosen by the
//! test.

mod support;

use std::time::Duration;

use rusqlite::Connection;
use serde_json::Value;
use skillcase_cases::model::{Actor, CaseStatus, DeliveryAction, EventKind, HumanAction};
use skillcase_cases::notes::add_note;
use skillcase_cases::quiet::{self, QuietDelays, CLOSED_INSTRUCTION, REMINDER_INSTRUCTION};
use skillcase_cases::store::{deliveries_for_case, find_case, get_case};
use skillcase_cases::transition::{cancel, open_case, provide_update, remind_quiet, reply};
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use support::{cases_at, new_db, refund_case};

const HOUR: Duration = Duration::from_secs(3600);

/// A reminder after 24 h on the customer, the close 48 h after the reminder.
fn delays() -> QuietDelays {
    QuietDelays { remind_after: Some(24 * HOUR), close_after: Some(48 * HOUR) }
}

/// A case whose person asked the customer for the card, its wait backdated to `since`.
fn waiting_since(conn: &Connection, conversation: &str, since: &str) -> String {
    let id = open_case(conn, refund_case(conversation)).unwrap().case.id;
    reply(conn, &id, HumanAction::NeedLeadInfo, "Which card was charged twice?", "Ana").unwrap();
    conn.execute("UPDATE cases SET waiting_since = ?2 WHERE id = ?1", [&id, since]).unwrap();
    id
}

fn kinds(conn: &Connection, id: &str) -> Vec<EventKind> {
    get_case(conn, id).unwrap().events.into_iter().map(|e| e.kind).collect()
}

fn bodies(conn: &Connection, id: &str, action: DeliveryAction) -> Vec<Value> {
    let ids: Vec<String> = deliveries_for_case(conn, id)
        .unwrap()
        .into_iter()
        .filter(|d| d.action == action)
        .map(|d| d.id)
        .collect();
    ids.iter()
        .map(|d| {
            let body: String =
                conn.query_row("SELECT body FROM deliveries WHERE id = ?1", [d], |r| r.get(0)).unwrap();
            serde_json::from_str(&body).unwrap()
        })
        .collect()
}

#[test]
fn a_case_quiet_past_the_first_delay_gets_a_reminder_event_and_a_case_reminder_delivery() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    let run = quiet::follow_up(&conn, "2026-11-02T08:00:00.000Z", &delays()).unwrap();
    assert_eq!(run.reminded, vec![id.clone()]);
    assert!(run.closed.is_empty());
    let case = get_case(&conn, &id).unwrap();
    assert_eq!(case.case.status, CaseStatus::AwaitingLead);
    let event = case.events.last().unwrap();
    assert_eq!(
        (event.kind, event.actor, event.at.as_str()),
        (EventKind::ReminderSent, Actor::System, "2026-11-02T08:00:00.000Z")
    );
    let body = &bodies(&conn, &id, DeliveryAction::Reminder)[0];
    let delivery = case.deliveries.iter().find(|d| d.action == DeliveryAction::Reminder).unwrap();
    assert_eq!(delivery.event_seq, event.seq);
    assert_eq!(body["type"], "case.reminder");
    assert_eq!(body["id"], delivery.id.as_str());
    assert_eq!(body["case"]["number"], case.case.number);
    assert_eq!(body["case"]["status"], "awaiting_lead");
    assert_eq!(body["asked"], "Which card was charged twice?");
    assert_eq!(body["waiting_since"], "2026-11-01T08:00:00.000Z");
    assert_eq!(body["instruction"], REMINDER_INSTRUCTION);
}

#[test]
fn a_case_not_yet_past_the_first_delay_is_left_alone() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    let before = kinds(&conn, &id);
    let run = quiet::follow_up(&conn, "2026-11-02T07:59:59.000Z", &delays()).unwrap();
    assert!(run.reminded.is_empty());
    assert_eq!(kinds(&conn, &id), before);
}

#[test]
fn a_case_is_reminded_once_per_wait_however_often_the_job_runs() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    for now in ["2026-11-02T08:00:00.000Z", "2026-11-02T09:00:00.000Z", "2026-11-03T08:00:00.000Z"] {
        quiet::follow_up(&conn, now, &delays()).unwrap();
    }
    let reminders = kinds(&conn, &id).into_iter().filter(|k| *k == EventKind::ReminderSent).count();
    assert_eq!(reminders, 1);
    assert_eq!(bodies(&conn, &id, DeliveryAction::Reminder).len(), 1);
}

#[test]
fn two_runs_racing_on_two_connections_remind_each_case_once() {
    let (_dir, path, conn) = new_db();
    let ids: Vec<String> =
        (0..20).map(|i| waiting_since(&conn, &format!("conv-{i}"), "2026-11-01T08:00:00.000Z")).collect();
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let cases = cases_at(&path);
            std::thread::spawn(move || cases.follow_up_quiet("2026-11-02T08:00:00.000Z", &delays()).unwrap())
        })
        .collect();
    let reminded: usize = runs.into_iter().map(|run| run.join().unwrap().reminded.len()).sum();
    assert_eq!(reminded, 20);
    for id in &ids {
        assert_eq!(bodies(&conn, id, DeliveryAction::Reminder).len(), 1, "case {id}");
    }
}

#[test]
fn after_the_second_delay_the_case_closes_as_lead_unresponsive_and_the_agent_is_told() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    quiet::follow_up(&conn, "2026-11-02T08:00:00.000Z", &delays()).unwrap();
    let early = quiet::follow_up(&conn, "2026-11-04T07:59:00.000Z", &delays()).unwrap();
    assert!(early.closed.is_empty());
    let run = quiet::follow_up(&conn, "2026-11-04T08:00:00.000Z", &delays()).unwrap();
    assert_eq!(run.closed, vec![id.clone()]);
    let case = get_case(&conn, &id).unwrap();
    assert_eq!(case.case.status, CaseStatus::Cancelled);
    assert_eq!(case.case.closed_at.as_deref(), Some("2026-11-04T08:00:00.000Z"));
    assert_eq!(case.case.waiting_since, None);
    let tail: Vec<_> = case.events.iter().rev().take(2).rev().collect();
    assert_eq!((tail[0].kind, tail[0].actor), (EventKind::LeadUnresponsive, Actor::System));
    assert_eq!(tail[0].payload["auto_closed"], true);
    assert_eq!((tail[1].kind, tail[1].actor), (EventKind::Cancelled, Actor::System));
    let body = &bodies(&conn, &id, DeliveryAction::LeadUnresponsive)[0];
    assert_eq!(body["type"], "case.closed");
    assert_eq!(body["reason"], "lead_unresponsive");
    assert_eq!(body["case"]["status"], "cancelled");
    assert_eq!(body["instruction"], CLOSED_INSTRUCTION);
}

#[test]
fn an_internal_note_after_the_reminder_keeps_the_case_from_closing_by_itself() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    quiet::follow_up(&conn, "2026-11-02T08:00:00.000Z", &delays()).unwrap();
    add_note(&conn, &id, "Called her; she answers on Monday.", "Ana").unwrap();
    let run = quiet::follow_up(&conn, "2030-01-01T00:00:00.000Z", &delays()).unwrap();
    assert!(run.closed.is_empty());
    assert_eq!(find_case(&conn, &id).unwrap().status, CaseStatus::AwaitingLead);
}

#[test]
fn the_agent_handing_back_the_answer_resets_the_wait_so_the_next_wait_gets_its_own_reminder() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    quiet::follow_up(&conn, "2026-11-02T08:00:00.000Z", &delays()).unwrap();
    provide_update(&conn, &id, "The Visa ending 4242.").unwrap();
    let run = quiet::follow_up(&conn, "2030-01-01T00:00:00.000Z", &delays()).unwrap();
    assert_eq!((run.reminded.len(), run.closed.len()), (0, 0));
    assert_eq!(find_case(&conn, &id).unwrap().status, CaseStatus::AwaitingHuman);
    reply(&conn, &id, HumanAction::NeedLeadInfo, "And the date of the second charge?", "Ana").unwrap();
    conn.execute("UPDATE cases SET waiting_since = '2026-11-05T08:00:00.000Z' WHERE id = ?1", [&id]).unwrap();
    let again = quiet::follow_up(&conn, "2026-11-06T08:00:00.000Z", &delays()).unwrap();
    assert_eq!(again.reminded, vec![id.clone()]);
    let asked: Vec<Value> =
        bodies(&conn, &id, DeliveryAction::Reminder).into_iter().map(|b| b["asked"].clone()).collect();
    assert_eq!(
        asked,
        vec![Value::from("Which card was charged twice?"), "And the date of the second charge?".into()]
    );
}

#[test]
fn with_reminders_off_the_case_closes_the_second_delay_after_the_wait_began_without_a_reminder() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    let off = QuietDelays { remind_after: None, close_after: Some(48 * HOUR) };
    let run = quiet::follow_up(&conn, "2026-11-03T08:00:00.000Z", &off).unwrap();
    assert_eq!((run.reminded.len(), run.closed), (0, vec![id.clone()]));
    assert!(!kinds(&conn, &id).contains(&EventKind::ReminderSent));
}

#[test]
fn with_closing_off_a_reminded_case_waits_on_the_customer_for_ever() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    let off = QuietDelays { remind_after: Some(24 * HOUR), close_after: None };
    quiet::follow_up(&conn, "2026-11-02T08:00:00.000Z", &off).unwrap();
    quiet::follow_up(&conn, "2030-01-01T00:00:00.000Z", &off).unwrap();
    assert_eq!(find_case(&conn, &id).unwrap().status, CaseStatus::AwaitingLead);
}

#[test]
fn cases_waiting_on_a_person_or_closed_are_never_reminded_nor_closed() {
    let (_dir, _path, conn) = new_db();
    let on_you = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let gone = waiting_since(&conn, "conv-2", "2026-11-01T08:00:00.000Z");
    cancel(&conn, &gone, Actor::Human, Some("Ana"), Some("duplicate")).unwrap();
    let before = (kinds(&conn, &on_you), kinds(&conn, &gone));
    let run = quiet::follow_up(&conn, "2030-01-01T00:00:00.000Z", &delays()).unwrap();
    assert_eq!((run.reminded.len(), run.closed.len()), (0, 0));
    assert_eq!((kinds(&conn, &on_you), kinds(&conn, &gone)), before);
}

#[test]
fn reminding_a_closed_case_is_an_invalid_transition_that_changes_nothing() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    cancel(&conn, &id, Actor::Agent, None, None).unwrap();
    let before = serde_json::to_string(&get_case(&conn, &id).unwrap()).unwrap();
    let err = remind_quiet(&conn, &id, "2030-01-01T00:00:00.000Z", "2029-12-31T00:00:00.000Z").unwrap_err();
    assert_eq!(err.code(), "invalid_transition");
    assert_eq!(serde_json::to_string(&get_case(&conn, &id).unwrap()).unwrap(), before);
}

#[test]
fn the_plan_shows_when_the_reminder_goes_and_when_the_case_closes() {
    let (_dir, _path, conn) = new_db();
    let id = waiting_since(&conn, "conv-1", "2026-11-01T08:00:00.000Z");
    let plan = quiet::plan(&get_case(&conn, &id).unwrap(), &delays()).unwrap();
    assert_eq!(plan.remind_at.as_deref(), Some("2026-11-02T08:00:00.000Z"));
    assert_eq!(plan.close_at.as_deref(), Some("2026-11-04T08:00:00.000Z"));
    assert_eq!((plan.reminded_at, plan.held), (None, false));
    quiet::follow_up(&conn, "2026-11-02T09:30:00.000Z", &delays()).unwrap();
    let plan = quiet::plan(&get_case(&conn, &id).unwrap(), &delays()).unwrap();
    assert_eq!(plan.reminded_at.as_deref(), Some("2026-11-02T09:30:00.000Z"));
    assert_eq!((plan.remind_at, plan.close_at.as_deref()), (None, Some("2026-11-04T09:30:00.000Z")));
    add_note(&conn, &id, "I'll phone her.", "Ana").unwrap();
    let plan = quiet::plan(&get_case(&conn, &id).unwrap(), &delays()).unwrap();
    assert_eq!((plan.close_at, plan.held), (None, true));
}
