//! When the customer goes quiet (SPEC D5): the reminder after the first delay and the auto-close
//! after the second, each once per wait — also when two instances run the job at the same
//! moment — with the job's `now` chosen by the test.

use std::time::Duration;

use serde_json::Value;
use skillcase_cases::model::{Actor, CaseStatus, DeliveryAction, EventKind, HumanAction};
use skillcase_cases::quiet::{self, QuietDelays, QuietRun, CLOSED_INSTRUCTION, REMINDER_INSTRUCTION};
use skillcase_cases::sql::Storage;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::{at_once, Db};

const HOUR: Duration = Duration::from_secs(3600);

/// A reminder after 24 h on the customer, the close 48 h after the reminder.
fn delays() -> QuietDelays {
    QuietDelays { remind_after: Some(24 * HOUR), close_after: Some(48 * HOUR) }
}

/// A case whose person asked the customer for the card, its wait backdated to `since`.
fn waiting_since(db: &Db, conversation: &str, since: &str) -> String {
    let id = db.open(conversation);
    db.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged twice?", "Ana").unwrap();
    db.set(&id, &format!("waiting_since = '{since}'"));
    id
}

fn run(db: &Db, now: &str, delays: &QuietDelays) -> QuietRun {
    db.follow_up_quiet(now, delays).unwrap()
}

fn count(db: &Db, id: &str, kind: EventKind) -> usize {
    db.kinds(id).into_iter().filter(|k| *k == kind).count()
}

/// The bodies of the case's deliveries of `action`, oldest first.
fn bodies(db: &Db, id: &str, action: DeliveryAction) -> Vec<Value> {
    db.deliveries(id).into_iter().filter(|d| d.action == action).map(|d| db.body(&d.id)).collect()
}

on_both! {
    fn a_case_quiet_past_the_first_delay_gets_a_reminder_event_and_a_case_reminder_delivery(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let done = run(db, "2026-11-02T08:00:00.000Z", &delays());
        assert_eq!((done.reminded, done.closed), (vec![id.clone()], vec![]));
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingLead);
        let event = db.events(&id).pop().unwrap();
        assert_eq!(
            (event.kind, event.actor, event.at.as_str()),
            (EventKind::ReminderSent, Actor::System, "2026-11-02T08:00:00.000Z")
        );
        let delivery = db.deliveries(&id).into_iter().find(|d| d.action == DeliveryAction::Reminder).unwrap();
        assert_eq!(delivery.event_seq, event.seq);
        let body = db.body(&delivery.id);
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
}

on_both! {
    fn a_case_not_yet_past_the_first_delay_is_left_alone(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let before = db.kinds(&id);
        assert!(run(db, "2026-11-02T07:59:59.000Z", &delays()).reminded.is_empty());
        assert_eq!(db.kinds(&id), before);
    }
}

on_both! {
    fn a_case_is_reminded_once_per_wait_however_often_the_job_runs(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        for now in ["2026-11-02T08:00:00.000Z", "2026-11-02T09:00:00.000Z", "2026-11-03T08:00:00.000Z"] {
            run(db, now, &delays());
        }
        assert_eq!(count(db, &id, EventKind::ReminderSent), 1);
        assert_eq!(bodies(db, &id, DeliveryAction::Reminder).len(), 1);
    }
}

on_both! {
    fn two_instances_running_the_job_at_once_remind_each_case_once(db) {
        let mut ids: Vec<String> =
            (0..20).map(|i| waiting_since(db, &format!("conv-{i}"), "2026-11-01T08:00:00.000Z")).collect();
        let runs = at_once(db, 2, |instance, _| run(instance, "2026-11-02T08:00:00.000Z", &delays()));
        let mut reminded: Vec<String> = runs.into_iter().flat_map(|r| r.reminded).collect();
        reminded.sort();
        ids.sort();
        assert_eq!(reminded, ids, "each case reminded by exactly one instance");
        for id in &ids {
            assert_eq!(
                (count(db, id, EventKind::ReminderSent), bodies(db, id, DeliveryAction::Reminder).len()),
                (1, 1),
                "case {id}"
            );
        }
    }
}

on_both! {
    fn two_instances_running_the_job_at_once_close_each_case_once(db) {
        let ids: Vec<String> =
            (0..10).map(|i| waiting_since(db, &format!("conv-{i}"), "2026-11-01T08:00:00.000Z")).collect();
        run(db, "2026-11-02T08:00:00.000Z", &delays());
        let runs = at_once(db, 2, |instance, _| run(instance, "2026-11-04T08:00:00.000Z", &delays()));
        assert_eq!(runs.iter().map(|r| r.closed.len()).sum::<usize>(), 10);
        for id in &ids {
            assert_eq!(
                (count(db, id, EventKind::Cancelled), bodies(db, id, DeliveryAction::LeadUnresponsive).len()),
                (1, 1),
                "case {id}"
            );
        }
    }
}

on_both! {
    fn after_the_second_delay_the_case_closes_as_lead_unresponsive_and_the_agent_is_told(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        run(db, "2026-11-02T08:00:00.000Z", &delays());
        assert!(run(db, "2026-11-04T07:59:00.000Z", &delays()).closed.is_empty());
        let done = run(db, "2026-11-04T08:00:00.000Z", &delays());
        assert_eq!(done.closed, vec![id.clone()]);
        let case = db.case(&id);
        assert_eq!(case.status, CaseStatus::Cancelled);
        assert_eq!((case.closed_at.as_deref(), case.waiting_since), (Some("2026-11-04T08:00:00.000Z"), None));
        let events = db.events(&id);
        let tail = &events[events.len() - 2..];
        assert_eq!((tail[0].kind, tail[0].actor), (EventKind::LeadUnresponsive, Actor::System));
        assert_eq!(tail[0].payload["auto_closed"], true);
        assert_eq!((tail[1].kind, tail[1].actor), (EventKind::Cancelled, Actor::System));
        assert_eq!(tail[1].payload["lead_unresponsive_seq"], tail[0].seq);
        let body = &bodies(db, &id, DeliveryAction::LeadUnresponsive)[0];
        assert_eq!(
            (body["type"].as_str(), body["reason"].as_str()),
            (Some("case.closed"), Some("lead_unresponsive"))
        );
        assert_eq!(body["case"]["status"], "cancelled");
        assert_eq!(body["instruction"], CLOSED_INSTRUCTION);
    }
}

on_both! {
    fn an_internal_note_after_the_reminder_keeps_the_case_from_closing_by_itself(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        run(db, "2026-11-02T08:00:00.000Z", &delays());
        db.add_note(&id, "Called her; she answers on Monday.", "Ana").unwrap();
        assert!(run(db, "2030-01-01T00:00:00.000Z", &delays()).closed.is_empty());
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingLead);
    }
}

on_both! {
    fn the_agent_handing_back_the_answer_resets_the_wait_so_the_next_wait_gets_its_own_reminder(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        run(db, "2026-11-02T08:00:00.000Z", &delays());
        db.provide_update(&id, "The Visa ending 4242.").unwrap();
        let done = run(db, "2030-01-01T00:00:00.000Z", &delays());
        assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingHuman);
        db.reply(&id, HumanAction::NeedLeadInfo, "And the date of the second charge?", "Ana").unwrap();
        db.set(&id, "waiting_since = '2026-11-05T08:00:00.000Z'");
        let again = run(db, "2026-11-06T08:00:00.000Z", &delays());
        assert_eq!(again.reminded, vec![id.clone()]);
        let asked: Vec<Value> =
            bodies(db, &id, DeliveryAction::Reminder).into_iter().map(|b| b["asked"].clone()).collect();
        assert_eq!(
            asked,
            vec![Value::from("Which card was charged twice?"), "And the date of the second charge?".into()]
        );
    }
}

on_both! {
    fn with_reminders_off_the_case_closes_the_second_delay_after_the_wait_began_without_a_reminder(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let off = QuietDelays { remind_after: None, close_after: Some(48 * HOUR) };
        assert!(run(db, "2026-11-03T07:59:00.000Z", &off).closed.is_empty());
        let done = run(db, "2026-11-03T08:00:00.000Z", &off);
        assert_eq!((done.reminded.len(), done.closed), (0, vec![id.clone()]));
        assert_eq!(count(db, &id, EventKind::ReminderSent), 0);
    }
}

on_both! {
    fn with_reminders_on_a_case_never_reminded_does_not_close(db) {
        let id = waiting_since(db, "conv-1", "2026-11-02T07:30:00.000Z");
        let closing_soon_after_a_reminder =
            QuietDelays { remind_after: Some(24 * HOUR), close_after: Some(HOUR) };
        let done = run(db, "2026-11-02T08:00:00.000Z", &closing_soon_after_a_reminder);
        assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingLead);
    }
}

on_both! {
    fn with_closing_off_a_reminded_case_waits_on_the_customer_for_ever(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let off = QuietDelays { remind_after: Some(24 * HOUR), close_after: None };
        run(db, "2026-11-02T08:00:00.000Z", &off);
        run(db, "2030-01-01T00:00:00.000Z", &off);
        assert_eq!(
            (db.case(&id).status, count(db, &id, EventKind::ReminderSent)),
            (CaseStatus::AwaitingLead, 1)
        );
    }
}

on_both! {
    fn cases_waiting_on_a_person_or_closed_are_never_reminded_nor_closed(db) {
        let on_you = db.open("conv-1");
        let gone = waiting_since(db, "conv-2", "2026-11-01T08:00:00.000Z");
        db.cancel(&gone, Actor::Human, Some("Ana"), Some("duplicate")).unwrap();
        let before = (db.kinds(&on_you), db.kinds(&gone));
        let done = run(db, "2030-01-01T00:00:00.000Z", &delays());
        assert_eq!((done.reminded.len(), done.closed.len()), (0, 0));
        assert_eq!((db.kinds(&on_you), db.kinds(&gone)), before);
    }
}

on_both! {
    fn reminding_a_closed_case_is_an_invalid_transition_that_changes_nothing(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        db.cancel(&id, Actor::Agent, None, None).unwrap();
        let before = db.snapshot(&id);
        let closed = id.clone();
        let err = db
            .write(move |sql| {
                skillcase_cases::transition::remind_quiet(
                    sql,
                    &closed,
                    "2030-01-01T00:00:00.000Z",
                    "2029-12-31T00:00:00.000Z",
                )
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_transition");
        assert_eq!(db.snapshot(&id), before);
    }
}

on_both! {
    fn a_job_time_that_is_not_a_time_is_refused(db) {
        assert_eq!(db.follow_up_quiet("yesterday", &delays()).unwrap_err().code(), "invalid_case_input");
    }
}

on_both! {
    fn the_plan_shows_when_the_reminder_goes_and_when_the_case_closes(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let plan = quiet::plan(&db.get_case(&id).unwrap(), &delays()).unwrap();
        assert_eq!(plan.remind_at.as_deref(), Some("2026-11-02T08:00:00.000Z"));
        assert_eq!(plan.close_at.as_deref(), Some("2026-11-04T08:00:00.000Z"));
        assert_eq!((plan.reminded_at, plan.held), (None, false));
        run(db, "2026-11-02T09:30:00.000Z", &delays());
        let plan = quiet::plan(&db.get_case(&id).unwrap(), &delays()).unwrap();
        assert_eq!(plan.reminded_at.as_deref(), Some("2026-11-02T09:30:00.000Z"));
        assert_eq!((plan.remind_at, plan.close_at.as_deref()), (None, Some("2026-11-04T09:30:00.000Z")));
        db.add_note(&id, "I'll phone her.", "Ana").unwrap();
        let plan = quiet::plan(&db.get_case(&id).unwrap(), &delays()).unwrap();
        assert_eq!((plan.close_at, plan.held), (None, true));
    }
}

// When the job next has work.

fn next(db: &Db, delays: &QuietDelays) -> Option<String> {
    db.next_quiet_at(delays).unwrap()
}

on_both! {
    fn the_job_next_wakes_when_the_longest_waiting_case_is_due_its_reminder(db) {
        assert_eq!(next(db, &delays()), None, "nobody waits on the customer");
        waiting_since(db, "conv-1", "2026-11-01T09:00:00.000Z");
        waiting_since(db, "conv-2", "2026-11-01T08:00:00.000Z");
        assert_eq!(next(db, &delays()).as_deref(), Some("2026-11-02T08:00:00.000Z"));
        assert_eq!(next(db, &QuietDelays::default()), None, "both delays off");
    }
}

on_both! {
    fn after_the_reminder_the_job_next_wakes_when_the_case_is_due_to_close(db) {
        let id = waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        run(db, "2026-11-02T08:00:00.000Z", &delays());
        assert_eq!(next(db, &delays()).as_deref(), Some("2026-11-04T08:00:00.000Z"));
        db.add_note(&id, "Called the customer, they will send it tonight.", "Ana").unwrap();
        assert_eq!(next(db, &delays()), None, "a person acted: it will not close by itself");
    }
}

on_both! {
    fn with_reminders_off_the_job_next_wakes_when_the_wait_is_due_to_close(db) {
        waiting_since(db, "conv-1", "2026-11-01T08:00:00.000Z");
        let closing_only = QuietDelays { remind_after: None, close_after: Some(48 * HOUR) };
        assert_eq!(next(db, &closing_only).as_deref(), Some("2026-11-03T08:00:00.000Z"));
    }
}
