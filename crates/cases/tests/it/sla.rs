//! Response-time targets on cases: due times counted in business hours (weekends and holidays
//! skipped), the clock paused while the case waits on the customer, met or late, "due soonest"
//! order, and each target that falls due announced once with its timeline event.

mod support;

use rusqlite::{params, Connection};
use skillcase_cases::model::{Actor, EventKind, HumanAction};
use skillcase_cases::sla::{self, SlaState, SlaTarget};
use skillcase_cases::store::{CaseFilter, CaseSort, CaseTab};
use skillcase_cases::CasesRepository;
use skillcase_guard::due::Calendar;
use support::{cases_at, new_db, refund_case};

/// São Paulo, Monday to Friday 09:00–18:00.
fn sao_paulo() -> Calendar {
    Calendar::named("America/Sao_Paulo").unwrap()
}

const EVERY_DAY: &str = r#"{"time_zone":"UTC","working_days":["monday","tuesday","wednesday","thursday","friday","saturday","sunday"],"opens":"00:00","closes":"23:59","holidays":[]}"#;

/// Every day, 00:00–23:59 UTC: the clock runs (nearly) around the clock, so a test's real time
/// counts.
fn around_the_clock(conn: &Connection) {
    put_setting(conn, sla::CALENDAR_SETTING, EVERY_DAY);
}

fn every_day() -> Calendar {
    Calendar::from_settings(&serde_json::from_str(EVERY_DAY).unwrap()).unwrap()
}

fn targets(conn: &Connection, first_reply: Option<u32>, resolution: Option<u32>) {
    let value = serde_json::json!({ "first_reply_minutes": first_reply, "resolution_minutes": resolution });
    put_setting(conn, sla::TARGETS_SETTING, &value.to_string());
}

fn put_setting(conn: &Connection, key: &str, value: &str) {
    conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)", params![key, value])
        .unwrap();
}

fn plus_minutes(stamp: &str, minutes: i64) -> String {
    let at = skillcase_cases::clock::parse(stamp).unwrap() + time::Duration::minutes(minutes);
    skillcase_cases::clock::format(at)
}

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

#[test]
fn a_case_opened_with_targets_carries_both_due_times_running() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), Some(240));
    let case = cases_at(&path).open_case(refund_case("c1")).unwrap().case;

    let first = case.sla.first_reply.expect("a first-reply clock");
    let resolution = case.sla.resolution.expect("a resolution clock");
    assert_eq!((first.target_minutes, first.state), (30, SlaState::Running));
    assert_eq!(Some(first.due_at.clone()), sla::due_after(&every_day(), &case.opened_at, 30));
    assert_eq!(Some(resolution.due_at), sla::due_after(&every_day(), &case.opened_at, 240));
    assert_eq!(case.sla.next_due_at, Some(first.due_at));
}

#[test]
fn with_targets_off_a_case_has_no_clock() {
    let (_dir, path, _conn) = new_db();
    let case = cases_at(&path).open_case(refund_case("c1")).unwrap().case;
    assert_eq!((case.sla.first_reply, case.sla.resolution, case.sla.next_due_at), (None, None, None));
}

#[test]
fn a_persons_first_answer_meets_the_first_reply_target() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), Some(240));
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("c1")).unwrap().case.id;
    let (case, _) = cases.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();

    let first = case.sla.first_reply.unwrap();
    assert_eq!(first.state, SlaState::Met);
    assert!(first.met_at.is_some());
}

#[test]
fn an_answer_after_the_due_time_is_late() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), None);
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("c1")).unwrap().case.id;
    conn.execute("UPDATE cases SET first_reply_due_at = '2026-01-01T00:00:00.000Z' WHERE id = ?1", [&id])
        .unwrap();
    let (case, _) = cases.reply(&id, HumanAction::Escalate, "Finance must decide.", "Ana").unwrap();

    assert_eq!(case.sla.first_reply.unwrap().state, SlaState::Late);
}

#[test]
fn waiting_on_the_customer_pauses_the_clock_and_coming_back_pushes_it_by_the_pause() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), Some(240));
    let cases = cases_at(&path);
    let opened = cases.open_case(refund_case("c1")).unwrap().case;
    let (asked, _) = cases.reply(&opened.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    assert_eq!(asked.sla.resolution.as_ref().unwrap().state, SlaState::Paused);
    assert_eq!((asked.sla.paused_since.is_some(), asked.sla.next_due_at.as_deref()), (true, None));

    std::thread::sleep(std::time::Duration::from_millis(30));
    let back = cases.provide_update(&opened.id, "The Visa ending 4242.").unwrap();

    let paused_since = asked.sla.paused_since.as_deref().unwrap();
    let before = opened.sla.resolution.unwrap().due_at;
    let after = back.sla.resolution.unwrap();
    assert!(after.due_at > before, "{} should be later than {before}", after.due_at);
    let expected = sla::push_by_pause(&every_day(), &before, paused_since, &back.updated_at);
    assert_eq!(Some(after.due_at.clone()), expected, "pushed by the business time paused");
    assert_eq!((after.state, back.sla.paused_since), (SlaState::Running, None));
    assert_eq!(back.sla.next_due_at, Some(after.due_at));
}

#[test]
fn resolving_meets_the_resolution_target_and_stops_the_clock() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, None, Some(240));
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("c1")).unwrap().case.id;
    let (case, _) = cases.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();

    assert_eq!(case.sla.resolution.unwrap().state, SlaState::Met);
    assert_eq!(case.sla.next_due_at, None);
}

#[test]
fn due_soonest_puts_the_nearest_due_time_first_and_cases_without_a_target_last() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    let cases = cases_at(&path);
    targets(&conn, Some(120), None);
    let later = cases.open_case(refund_case("later")).unwrap().case.number;
    targets(&conn, None, None);
    let untimed = cases.open_case(refund_case("untimed")).unwrap().case.number;
    targets(&conn, Some(15), None);
    let soonest = cases.open_case(refund_case("soonest")).unwrap().case.number;

    let filter = CaseFilter {
        tab: Some(CaseTab::WaitingOnYou),
        sort: Some(CaseSort::DueSoonest),
        ..CaseFilter::default()
    };
    let page = cases.list_cases(&filter).unwrap();
    let order: Vec<i64> = page.items.iter().map(|item| item.case.number).collect();
    assert_eq!(order, vec![soonest, later, untimed]);
}

#[test]
fn due_soonest_pages_continue_past_the_timed_cases() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    let cases = cases_at(&path);
    targets(&conn, Some(60), None);
    let timed = cases.open_case(refund_case("timed")).unwrap().case.number;
    targets(&conn, None, None);
    let first_untimed = cases.open_case(refund_case("u1")).unwrap().case.number;
    let second_untimed = cases.open_case(refund_case("u2")).unwrap().case.number;

    let page = |offset| {
        let filter =
            CaseFilter { sort: Some(CaseSort::DueSoonest), offset, limit: 1, ..CaseFilter::default() };
        cases.list_cases(&filter).unwrap().items.iter().map(|item| item.case.number).collect::<Vec<_>>()
    };
    assert_eq!([page(0), page(1), page(2)].concat(), vec![timed, first_untimed, second_untimed]);
}

#[test]
fn a_target_that_falls_due_is_announced_once_with_a_timeline_event() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), None);
    let cases = cases_at(&path);
    let case = cases.open_case(refund_case("c1")).unwrap().case;
    let later = plus_minutes(&case.opened_at, 31);

    let told = cases.take_overdue_targets(&later).unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!((told[0].number, told[0].target), (case.number, SlaTarget::FirstReply));
    assert!(cases.take_overdue_targets(&plus_minutes(&later, 10)).unwrap().is_empty(), "told once");

    let found = cases.get_case(&case.id).unwrap();
    let event = found.events.iter().find(|e| e.kind == EventKind::SlaOverdue).expect("an sla_overdue event");
    assert_eq!(event.payload["target"], "first_reply");
    assert_eq!(event.payload["due_at"], found.case.sla.first_reply.unwrap().due_at.as_str());
}

#[test]
fn a_target_not_yet_due_or_paused_is_not_announced() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, None, Some(60));
    let cases = cases_at(&path);
    let waiting = cases.open_case(refund_case("ahead")).unwrap().case;
    let paused = cases.open_case(refund_case("paused")).unwrap().case;
    cases.reply(&paused.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();

    assert!(cases.take_overdue_targets(&plus_minutes(&waiting.opened_at, 30)).unwrap().is_empty());
    assert!(cases
        .take_overdue_targets(&plus_minutes(&paused.opened_at, 90))
        .unwrap()
        .iter()
        .all(|t| t.case_id != paused.id));
}

#[test]
fn a_case_whose_clock_runs_again_after_waiting_on_the_customer_is_announced_when_it_falls_due() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, None, Some(60));
    let cases = cases_at(&path);
    let opened = cases.open_case(refund_case("c1")).unwrap().case;
    cases.reply(&opened.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    let back = cases.provide_update(&opened.id, "The Visa ending 4242.").unwrap();
    let due = back.sla.resolution.unwrap().due_at;

    let told = cases.take_overdue_targets(&plus_minutes(&due, 1)).unwrap();

    assert_eq!(
        told.iter().map(|t| (t.case_id.as_str(), t.target)).collect::<Vec<_>>(),
        [(opened.id.as_str(), SlaTarget::Resolution)]
    );
}

#[test]
fn a_case_closed_before_its_first_reply_is_never_announced() {
    let (_dir, path, conn) = new_db();
    around_the_clock(&conn);
    targets(&conn, Some(30), None);
    let cases = cases_at(&path);
    let opened = cases.open_case(refund_case("c1")).unwrap().case;
    cases.cancel(&opened.id, Actor::Agent, None, Some("The customer solved it")).unwrap();

    assert!(cases.take_overdue_targets(&plus_minutes(&opened.opened_at, 90)).unwrap().is_empty());
}
