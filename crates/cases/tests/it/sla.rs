//! Response-time targets on cases: due times counted in business hours (weekends and holidays
//! skipped), the clock paused while the case waits on the customer, met or late, "due soonest"
//! order, and each target that falls due announced once with its timeline event, however many
//! instances poll at the same moment.

use std::collections::HashSet;

use serde_json::json;
use skillcase_cases::clock;
use skillcase_cases::model::{Actor, EventKind, HumanAction};
use skillcase_cases::sla::{self, SlaState, SlaTarget};
use skillcase_cases::store::{CaseFilter, CaseSort, CaseTab};
use skillcase_cases::CasesRepository;
use skillcase_guard::due::Calendar;

use crate::support::{at_once, plus_secs, refund_case, Db};

const EVERY_DAY: &str = r#"{"time_zone":"UTC","working_days":["monday","tuesday","wednesday","thursday","friday","saturday","sunday"],"opens":"00:00","closes":"23:59","holidays":[]}"#;
const NOW: &str = "2026-12-01T12:00:00.000Z";

/// São Paulo, Monday to Friday 09:00–18:00.
fn sao_paulo() -> Calendar {
    Calendar::named("America/Sao_Paulo").unwrap()
}

fn every_day() -> Calendar {
    sla::calendar_from(Some(EVERY_DAY))
}

/// The inbox counts its targets every day around the clock (so a test's real time counts), and
/// saves these targets.
fn timed(db: &Db, first_reply: Option<u32>, resolution: Option<u32>) {
    db.put_setting(sla::CALENDAR_SETTING, EVERY_DAY);
    targets(db, first_reply, resolution);
}

fn targets(db: &Db, first_reply: Option<u32>, resolution: Option<u32>) {
    let targets = json!({ "first_reply_minutes": first_reply, "resolution_minutes": resolution });
    db.put_setting(sla::TARGETS_SETTING, &targets.to_string());
}

fn plus_minutes(stamp: &str, minutes: i64) -> String {
    plus_secs(stamp, minutes * 60)
}

fn listed(db: &Db, filter: &CaseFilter) -> Vec<i64> {
    db.list_cases(filter).unwrap().items.iter().map(|item| item.case.number).collect()
}

// Business time.

#[test]
fn four_business_hours_from_friday_afternoon_fall_due_on_monday() {
    // Friday 14 March 2025, 16:00 in São Paulo (19:00 UTC): two hours left on Friday.
    let due = sla::due_after(&sao_paulo(), "2025-03-14T19:00:00.000Z", 4 * 60).unwrap();
    assert_eq!(due, "2025-03-17T14:00:00.000Z", "Monday 11:00 in São Paulo");
}

#[test]
fn a_holiday_is_skipped_like_a_weekend() {
    let calendar = sao_paulo().with_holidays([jiff::civil::date(2025, 3, 13)]);
    // Wednesday 12 March, 17:00 in São Paulo; Thursday is a holiday.
    let due = sla::due_after(&calendar, "2025-03-12T20:00:00.000Z", 2 * 60).unwrap();
    assert_eq!(due, "2025-03-14T13:00:00.000Z", "Friday 10:00 in São Paulo");
}

#[test]
fn a_pause_over_the_weekend_pushes_the_due_time_by_the_business_hours_paused_only() {
    // Paused Friday 17:00, resumed Monday 10:00 in São Paulo: two business hours.
    let pushed = sla::push_by_pause(
        &sao_paulo(),
        "2025-03-17T15:00:00.000Z",
        "2025-03-14T20:00:00.000Z",
        "2025-03-17T13:00:00.000Z",
    )
    .unwrap();
    assert_eq!(pushed, "2025-03-17T17:00:00.000Z", "Monday 12:00 pushed to 14:00 in São Paulo");
}

// The clocks a case carries.

on_both! {
    fn a_case_opened_with_targets_carries_both_due_times_running(db) {
        timed(db, Some(30), Some(240));
        let case = db.open_case(refund_case("c1")).unwrap().case;
        let first = case.sla.first_reply.expect("a first-reply clock");
        let resolution = case.sla.resolution.expect("a resolution clock");
        assert_eq!((first.target_minutes, first.state), (30, SlaState::Running));
        assert_eq!(Some(first.due_at.clone()), sla::due_after(&every_day(), &case.opened_at, 30));
        assert_eq!(Some(resolution.due_at), sla::due_after(&every_day(), &case.opened_at, 240));
        assert_eq!(case.sla.next_due_at, Some(first.due_at));
    }
}

on_both! {
    fn the_due_time_is_counted_in_the_saved_business_calendar(db) {
        // Today and the next two days are off (so opening just after midnight changes nothing).
        let day = |n: i64| plus_secs(&clock::now(), n * 24 * 3600)[..10].to_string();
        let calendar = json!({
            "time_zone": "UTC", "opens": "00:00", "closes": "23:59",
            "working_days": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
            "holidays": [day(0), day(1), day(2)],
        });
        db.put_setting(sla::CALENDAR_SETTING, &calendar.to_string());
        targets(db, Some(30), None);
        let case = db.open_case(refund_case("c1")).unwrap().case;
        assert_eq!(case.sla.first_reply.unwrap().due_at, format!("{}T00:30:00.000Z", day(3)));
    }
}

on_both! {
    fn with_targets_off_a_case_has_no_clock(db) {
        let case = db.open_case(refund_case("c1")).unwrap().case;
        assert_eq!((case.sla.first_reply, case.sla.resolution, case.sla.next_due_at), (None, None, None));
    }
}

on_both! {
    fn a_persons_first_answer_meets_the_first_reply_target(db) {
        timed(db, Some(30), Some(240));
        let id = db.open("c1");
        let (after, _) = db.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
        let first = after.case.sla.first_reply.unwrap();
        assert_eq!(
            (first.state, first.met_at.as_deref()),
            (SlaState::Met, Some(after.case.updated_at.as_str()))
        );
    }
}

on_both! {
    fn an_answer_after_the_due_time_is_late(db) {
        timed(db, Some(30), None);
        let id = db.open("c1");
        db.set(&id, "first_reply_due_at = '2026-01-01T00:00:00.000Z'");
        let (after, _) = db.reply(&id, HumanAction::Escalate, "Finance must decide.", "Ana").unwrap();
        assert_eq!(after.case.sla.first_reply.unwrap().state, SlaState::Late);
    }
}

on_both! {
    fn waiting_on_the_customer_pauses_the_clock_and_coming_back_pushes_it_by_the_pause(db) {
        timed(db, Some(30), Some(240));
        let opened = db.open_case(refund_case("c1")).unwrap().case;
        let (asked, _) = db.reply(&opened.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let asked = asked.case;
        assert_eq!(asked.sla.resolution.as_ref().unwrap().state, SlaState::Paused);
        assert_eq!((asked.sla.paused_since.is_some(), asked.sla.next_due_at.as_deref()), (true, None));

        std::thread::sleep(std::time::Duration::from_millis(30));
        let back = db.provide_update(&opened.id, "The Visa ending 4242.").unwrap();

        let paused_since = asked.sla.paused_since.as_deref().unwrap();
        let before = opened.sla.resolution.unwrap().due_at;
        let after = back.sla.resolution.unwrap();
        assert!(after.due_at > before, "{} should be later than {before}", after.due_at);
        let expected = sla::push_by_pause(&every_day(), &before, paused_since, &back.updated_at);
        assert_eq!(Some(after.due_at.clone()), expected, "pushed by the business time paused");
        assert_eq!((after.state, back.sla.paused_since), (SlaState::Running, None));
        assert_eq!(back.sla.next_due_at, Some(after.due_at));
    }
}

on_both! {
    fn resolving_meets_the_resolution_target_and_stops_the_clock(db) {
        timed(db, None, Some(240));
        let id = db.open("c1");
        let (after, _) = db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        assert_eq!(after.case.sla.resolution.unwrap().state, SlaState::Met);
        assert_eq!(after.case.sla.next_due_at, None);
    }
}

// Due soonest.

on_both! {
    fn due_soonest_puts_the_nearest_due_time_first_and_cases_without_a_target_last(db) {
        timed(db, Some(120), None);
        db.open("later");
        targets(db, None, None);
        db.open("untimed");
        targets(db, Some(15), None);
        db.open("soonest");
        let filter = CaseFilter {
            tab: Some(CaseTab::WaitingOnYou),
            sort: Some(CaseSort::DueSoonest),
            ..CaseFilter::default()
        };
        assert_eq!(listed(db, &filter), [1003, 1001, 1002]);
    }
}

on_both! {
    fn due_soonest_pages_continue_past_the_timed_cases(db) {
        timed(db, Some(60), None);
        db.open("timed");
        targets(db, None, None);
        db.open("u1");
        db.open("u2");
        let page = |offset| {
            listed(
                db,
                &CaseFilter { sort: Some(CaseSort::DueSoonest), offset, limit: 1, ..CaseFilter::default() },
            )
        };
        assert_eq!([page(0), page(1), page(2)].concat(), [1001, 1002, 1003]);
    }
}

// Overdue targets.

on_both! {
    fn a_target_that_falls_due_is_announced_once_with_a_system_event(db) {
        let id = db.open("c1");
        db.set(&id, "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z'");
        let told = db.take_overdue_targets(NOW).unwrap();
        assert_eq!(
            told.iter().map(|t| (t.number, t.target, t.due_at.as_str())).collect::<Vec<_>>(),
            [(1001, SlaTarget::FirstReply, "2026-12-01T09:30:00.000Z")]
        );
        assert!(db.take_overdue_targets("2026-12-01T13:00:00.000Z").unwrap().is_empty(), "told once");
        let event = db
            .events(&id)
            .into_iter()
            .find(|e| e.kind == EventKind::SlaOverdue)
            .expect("an sla_overdue event");
        assert_eq!(event.payload, json!({ "target": "first_reply", "due_at": "2026-12-01T09:30:00.000Z" }));
        assert_eq!((event.actor, event.at.as_str()), (Actor::System, NOW));
    }
}

on_both! {
    fn a_target_announced_is_the_one_the_case_carries(db) {
        timed(db, Some(30), None);
        let case = db.open_case(refund_case("c1")).unwrap().case;
        let told = db.take_overdue_targets(&plus_minutes(&case.opened_at, 31)).unwrap();
        assert_eq!(
            told.iter().map(|t| (t.number, t.target)).collect::<Vec<_>>(),
            [(case.number, SlaTarget::FirstReply)]
        );
        let found = db.get_case(&case.id).unwrap();
        assert_eq!(told[0].due_at, found.case.sla.first_reply.unwrap().due_at);
    }
}

on_both! {
    fn both_targets_due_are_announced_first_reply_first(db) {
        let id = db.open("c1");
        db.set(
            &id,
            "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
             resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
        );
        let told = db.take_overdue_targets(NOW).unwrap();
        assert_eq!(
            told.iter().map(|t| t.target).collect::<Vec<_>>(),
            [SlaTarget::FirstReply, SlaTarget::Resolution]
        );
    }
}

on_both! {
    fn a_target_not_yet_due_or_paused_is_not_announced(db) {
        timed(db, None, Some(60));
        let waiting = db.open_case(refund_case("ahead")).unwrap().case;
        let paused = db.open_case(refund_case("paused")).unwrap().case;
        db.reply(&paused.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        assert!(db.take_overdue_targets(&plus_minutes(&waiting.opened_at, 30)).unwrap().is_empty());
        let later = db.take_overdue_targets(&plus_minutes(&paused.opened_at, 90)).unwrap();
        assert_eq!(later.iter().map(|t| t.case_id.as_str()).collect::<Vec<_>>(), [waiting.id.as_str()]);
    }
}

on_both! {
    fn a_first_reply_already_given_leaves_only_the_resolution_to_announce(db) {
        let id = db.open("c1");
        db.set(
            &id,
            "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
             first_reply_at = '2026-12-01T09:40:00.000Z', \
             resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
        );
        let told = db.take_overdue_targets(NOW).unwrap();
        assert_eq!(told.iter().map(|t| t.target).collect::<Vec<_>>(), [SlaTarget::Resolution]);
    }
}

on_both! {
    fn a_case_whose_clock_runs_again_after_waiting_on_the_customer_is_announced_when_it_falls_due(db) {
        timed(db, None, Some(60));
        let id = db.open("c1");
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let back = db.provide_update(&id, "The Visa ending 4242.").unwrap();
        let due = back.sla.resolution.unwrap().due_at;
        let told = db.take_overdue_targets(&plus_minutes(&due, 1)).unwrap();
        assert_eq!(
            told.iter().map(|t| (t.case_id.as_str(), t.target)).collect::<Vec<_>>(),
            [(id.as_str(), SlaTarget::Resolution)]
        );
    }
}

on_both! {
    fn a_case_closed_before_its_first_reply_is_never_announced(db) {
        timed(db, Some(30), None);
        let opened = db.open_case(refund_case("c1")).unwrap().case;
        db.cancel(&opened.id, Actor::Agent, None, Some("The customer solved it")).unwrap();
        assert!(db.take_overdue_targets(&plus_minutes(&opened.opened_at, 90)).unwrap().is_empty());
    }
}

on_both! {
    fn two_instances_polling_overdue_targets_at_once_take_each_once_with_one_event_each(db) {
        for n in 0..30 {
            let id = db.open(&format!("conv-{n}"));
            db.set(
                &id,
                "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
                 resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
            );
        }
        let told: Vec<(i64, &str)> = at_once(db, 6, |instance, _| {
            instance
                .take_overdue_targets(NOW)
                .unwrap()
                .into_iter()
                .map(|t| (t.number, t.target.as_str()))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect();
        let distinct: HashSet<(i64, &str)> = told.iter().copied().collect();
        assert_eq!((told.len(), distinct.len()), (60, 60), "30 cases × 2 targets, each once: {told:?}");
        assert_eq!(db.int("SELECT count(*) FROM case_events WHERE kind = 'sla_overdue'"), 60);
    }
}

on_both! {
    fn the_watch_next_wakes_at_the_earliest_running_target_not_yet_announced(db) {
        let (first, second) = (db.open("c1"), db.open("c2"));
        db.set(&first, "resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'");
        db.set(&second, "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z'");
        assert_eq!(db.next_overdue_at().unwrap().as_deref(), Some("2026-12-01T09:30:00.000Z"));
        db.take_overdue_targets("2026-12-01T09:45:00.000Z").unwrap();
        assert_eq!(db.next_overdue_at().unwrap().as_deref(), Some("2026-12-01T10:00:00.000Z"));
        db.reply(&first, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        assert_eq!(db.next_overdue_at().unwrap(), None, "a paused clock sets no wake-up");
    }
}
