//! When the customer goes quiet (SPEC D5) on the team database: the reminder after the first
//! delay and the auto-close after the second, each once per wait — also when two instances run
//! the job at the same moment — with the job's `now` chosen by the test.

mod support;

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use serde_json::Value;
use skillcase_cases::model::{Actor, CaseStatus, DeliveryAction, EventKind, HumanAction};
use skillcase_cases::quiet::{QuietDelays, QuietRun, CLOSED_INSTRUCTION, REMINDER_INSTRUCTION};
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use skillcase_team::{rows, transition, PgCases};
use support::{another_instance, psql, refund_case, team};

const HOUR: Duration = Duration::from_secs(3600);

/// A reminder after 24 h on the customer, the close 48 h after the reminder.
fn delays() -> QuietDelays {
    QuietDelays { remind_after: Some(24 * HOUR), close_after: Some(48 * HOUR) }
}

/// A case whose person asked the customer for the card, its wait backdated to `since`.
fn waiting_since(team: &PgCases, conversation: &str, since: &str) -> String {
    let id = team.open_case(refund_case(conversation)).unwrap().case.id;
    team.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged twice?", "Ana").unwrap();
    psql(team.url(), &format!("UPDATE cases SET waiting_since = '{since}' WHERE id = '{id}'"));
    id
}

fn run(team: &PgCases, now: &str, delays: &QuietDelays) -> QuietRun {
    team.follow_up_quiet(now, delays).unwrap()
}

fn status(team: &PgCases, id: &str) -> CaseStatus {
    team.pg().read(|c| rows::find_case(c, id)).unwrap().status
}

fn kinds(team: &PgCases, id: &str) -> Vec<EventKind> {
    team.pg().read(|c| rows::events_for_case(c, id)).unwrap().into_iter().map(|e| e.kind).collect()
}

fn reminders(team: &PgCases, id: &str) -> usize {
    kinds(team, id).into_iter().filter(|k| *k == EventKind::ReminderSent).count()
}

/// The bodies of the case's deliveries of `action`, oldest first.
fn bodies(team: &PgCases, id: &str, action: DeliveryAction) -> Vec<Value> {
    let sql = format!(
        "SELECT body FROM deliveries WHERE case_id = '{id}' AND action = '{}' ORDER BY created_at, id",
        action.as_str()
    );
    psql(team.url(), &sql).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn a_case_quiet_past_the_first_delay_gets_a_reminder_event_and_a_case_reminder_delivery() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    let done = run(&team, "2026-11-02T08:00:00.000Z", &delays());
    assert_eq!((done.reminded, done.closed), (vec![id.clone()], vec![]));
    assert_eq!(status(&team, &id), CaseStatus::AwaitingLead);
    let event = team.pg().read(|c| rows::events_for_case(c, &id)).unwrap().pop().unwrap();
    assert_eq!(
        (event.kind, event.actor, event.at.as_str()),
        (EventKind::ReminderSent, Actor::System, "2026-11-02T08:00:00.000Z")
    );
    let deliveries = team.pg().read(|c| rows::deliveries_for_case(c, &id)).unwrap();
    let delivery = deliveries.iter().find(|d| d.action == DeliveryAction::Reminder).unwrap();
    assert_eq!(delivery.event_seq, event.seq);
    let body = &bodies(&team, &id, DeliveryAction::Reminder)[0];
    assert_eq!(body["type"], "case.reminder");
    assert_eq!(body["id"], delivery.id.as_str());
    assert_eq!(
        (body["case"]["number"].as_i64(), body["case"]["status"].as_str()),
        (Some(1001), Some("awaiting_lead"))
    );
    assert_eq!(body["asked"], "Which card was charged twice?");
    assert_eq!(body["waiting_since"], "2026-11-01T08:00:00.000Z");
    assert_eq!(body["instruction"], REMINDER_INSTRUCTION);
}

#[test]
fn a_case_not_yet_past_the_first_delay_is_left_alone() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    let before = kinds(&team, &id);
    let done = run(&team, "2026-11-02T07:59:59.000Z", &delays());
    assert!(done.reminded.is_empty());
    assert_eq!(kinds(&team, &id), before);
}

#[test]
fn a_case_is_reminded_once_per_wait_however_often_the_job_runs() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    for now in ["2026-11-02T08:00:00.000Z", "2026-11-02T09:00:00.000Z", "2026-11-03T08:00:00.000Z"] {
        run(&team, now, &delays());
    }
    assert_eq!(reminders(&team, &id), 1);
    assert_eq!(bodies(&team, &id, DeliveryAction::Reminder).len(), 1);
}

/// Runs the job at `now` on two instances at once; what each did.
fn two_instances_at_once(team: &PgCases, now: &'static str) -> Vec<QuietRun> {
    let barrier = Arc::new(Barrier::new(2));
    let handles: Vec<_> = [team.clone(), another_instance(team)]
        .into_iter()
        .map(|instance| {
            let barrier = barrier.clone();
            thread::spawn(move || {
                barrier.wait();
                instance.follow_up_quiet(now, &delays()).unwrap()
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn two_instances_running_the_job_at_once_remind_each_case_once() {
    let team = team();
    let ids: Vec<String> =
        (0..20).map(|i| waiting_since(&team, &format!("conv-{i}"), "2026-11-01T08:00:00.000Z")).collect();
    let runs = two_instances_at_once(&team, "2026-11-02T08:00:00.000Z");
    let mut reminded: Vec<String> = runs.into_iter().flat_map(|r| r.reminded).collect();
    reminded.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(reminded, expected, "each case reminded by exactly one instance");
    for id in &ids {
        assert_eq!(
            (reminders(&team, id), bodies(&team, id, DeliveryAction::Reminder).len()),
            (1, 1),
            "case {id}"
        );
    }
}

#[test]
fn two_instances_running_the_job_at_once_close_each_case_once() {
    let team = team();
    let ids: Vec<String> =
        (0..10).map(|i| waiting_since(&team, &format!("conv-{i}"), "2026-11-01T08:00:00.000Z")).collect();
    run(&team, "2026-11-02T08:00:00.000Z", &delays());
    let runs = two_instances_at_once(&team, "2026-11-04T08:00:00.000Z");
    assert_eq!(runs.iter().map(|r| r.closed.len()).sum::<usize>(), 10);
    for id in &ids {
        let closings = kinds(&team, id).into_iter().filter(|k| *k == EventKind::Cancelled).count();
        assert_eq!(
            (closings, bodies(&team, id, DeliveryAction::LeadUnresponsive).len()),
            (1, 1),
            "case {id}"
        );
    }
}

#[test]
fn after_the_second_delay_the_case_closes_as_lead_unresponsive_and_the_agent_is_told() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    run(&team, "2026-11-02T08:00:00.000Z", &delays());
    assert!(run(&team, "2026-11-04T07:59:00.000Z", &delays()).closed.is_empty());
    let done = run(&team, "2026-11-04T08:00:00.000Z", &delays());
    assert_eq!(done.closed, vec![id.clone()]);
    let case = team.pg().read(|c| rows::find_case(c, &id)).unwrap();
    assert_eq!(case.status, CaseStatus::Cancelled);
    assert_eq!((case.closed_at.as_deref(), case.waiting_since), (Some("2026-11-04T08:00:00.000Z"), None));
    let events = team.pg().read(|c| rows::events_for_case(c, &id)).unwrap();
    let tail = &events[events.len() - 2..];
    assert_eq!((tail[0].kind, tail[0].actor), (EventKind::LeadUnresponsive, Actor::System));
    assert_eq!(tail[0].payload["auto_closed"], true);
    assert_eq!((tail[1].kind, tail[1].actor), (EventKind::Cancelled, Actor::System));
    assert_eq!(tail[1].payload["lead_unresponsive_seq"], tail[0].seq);
    let body = &bodies(&team, &id, DeliveryAction::LeadUnresponsive)[0];
    assert_eq!(
        (body["type"].as_str(), body["reason"].as_str()),
        (Some("case.closed"), Some("lead_unresponsive"))
    );
    assert_eq!(body["case"]["status"], "cancelled");
    assert_eq!(body["instruction"], CLOSED_INSTRUCTION);
}

#[test]
fn an_internal_note_after_the_reminder_keeps_the_case_from_closing_by_itself() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    run(&team, "2026-11-02T08:00:00.000Z", &delays());
    team.add_note(&id, "Called her; she answers on Monday.", "Ana").unwrap();
    let done = run(&team, "2030-01-01T00:00:00.000Z", &delays());
    assert!(done.closed.is_empty());
    assert_eq!(status(&team, &id), CaseStatus::AwaitingLead);
}

#[test]
fn the_agent_handing_back_the_answer_resets_the_wait_so_the_next_wait_gets_its_own_reminder() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    run(&team, "2026-11-02T08:00:00.000Z", &delays());
    team.provide_update(&id, "The Visa ending 4242.").unwrap();
    let done = run(&team, "2030-01-01T00:00:00.000Z", &delays());
    assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
    assert_eq!(status(&team, &id), CaseStatus::AwaitingHuman);
    team.reply(&id, HumanAction::NeedLeadInfo, "And the date of the second charge?", "Ana").unwrap();
    psql(
        team.url(),
        &format!("UPDATE cases SET waiting_since = '2026-11-05T08:00:00.000Z' WHERE id = '{id}'"),
    );
    let again = run(&team, "2026-11-06T08:00:00.000Z", &delays());
    assert_eq!(again.reminded, vec![id.clone()]);
    let asked: Vec<Value> =
        bodies(&team, &id, DeliveryAction::Reminder).into_iter().map(|b| b["asked"].clone()).collect();
    assert_eq!(
        asked,
        vec![Value::from("Which card was charged twice?"), "And the date of the second charge?".into()]
    );
}

#[test]
fn with_reminders_off_the_case_closes_the_second_delay_after_the_wait_began_without_a_reminder() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    let off = QuietDelays { remind_after: None, close_after: Some(48 * HOUR) };
    assert!(run(&team, "2026-11-03T07:59:00.000Z", &off).closed.is_empty());
    let done = run(&team, "2026-11-03T08:00:00.000Z", &off);
    assert_eq!((done.reminded.len(), done.closed), (0, vec![id.clone()]));
    assert_eq!(reminders(&team, &id), 0);
}

#[test]
fn with_reminders_on_a_case_never_reminded_does_not_close() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    let closing_only_after_a_reminder =
        QuietDelays { remind_after: Some(24 * HOUR), close_after: Some(HOUR) };
    psql(
        team.url(),
        &format!("UPDATE cases SET waiting_since = '2026-11-02T07:30:00.000Z' WHERE id = '{id}'"),
    );
    let done = run(&team, "2026-11-02T08:00:00.000Z", &closing_only_after_a_reminder);
    assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
    assert_eq!(status(&team, &id), CaseStatus::AwaitingLead);
}

#[test]
fn with_closing_off_a_reminded_case_waits_on_the_customer_for_ever() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    let off = QuietDelays { remind_after: Some(24 * HOUR), close_after: None };
    run(&team, "2026-11-02T08:00:00.000Z", &off);
    run(&team, "2030-01-01T00:00:00.000Z", &off);
    assert_eq!((status(&team, &id), reminders(&team, &id)), (CaseStatus::AwaitingLead, 1));
}

#[test]
fn cases_waiting_on_a_person_or_closed_are_never_reminded_nor_closed() {
    let team = team();
    let on_you = team.open_case(refund_case("conv-1")).unwrap().case.id;
    let gone = waiting_since(&team, "conv-2", "2026-11-01T08:00:00.000Z");
    team.cancel(&gone, Actor::Human, Some("Ana"), Some("duplicate")).unwrap();
    let before = (kinds(&team, &on_you), kinds(&team, &gone));
    let done = run(&team, "2030-01-01T00:00:00.000Z", &delays());
    assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
    assert_eq!((kinds(&team, &on_you), kinds(&team, &gone)), before);
}

#[test]
fn reminding_a_closed_case_is_an_invalid_transition_that_changes_nothing() {
    let team = team();
    let id = waiting_since(&team, "conv-1", "2026-11-01T08:00:00.000Z");
    team.cancel(&id, Actor::Agent, None, None).unwrap();
    let before = kinds(&team, &id);
    let err = team
        .pg()
        .write(|tx| transition::remind_quiet(tx, &id, "2030-01-01T00:00:00.000Z", "2029-12-31T00:00:00.000Z"))
        .unwrap_err();
    assert_eq!(err.code(), "invalid_transition");
    assert_eq!(kinds(&team, &id), before);
}

#[test]
fn a_job_time_that_is_not_a_time_is_refused() {
    let team = team();
    let err = team.follow_up_quiet("yesterday", &delays()).unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
}
