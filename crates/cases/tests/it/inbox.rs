//! What the inbox needs beyond the tabs: unread marks (a case is unread until opened, can be
//! marked unread again, and counts as unread when it comes back to the person) and the date
//! filter.

mod support;

use skillcase_cases::model::HumanAction;
use skillcase_cases::reads::{is_unread, mark_read, mark_unread};
use skillcase_cases::store::{list_cases, tab_counts, CaseFilter, CaseTab, TabCounts};
use skillcase_cases::transition::{open_case, provide_update, reply};
use skillcase_common::error::Coded;
use support::{new_db, refund_case};

fn waiting_on_you() -> CaseFilter {
    CaseFilter { tab: Some(CaseTab::WaitingOnYou), ..CaseFilter::default() }
}

fn unread_numbers(conn: &rusqlite::Connection, filter: &CaseFilter) -> Vec<(i64, bool)> {
    list_cases(conn, filter).unwrap().items.iter().map(|i| (i.case.number, i.unread)).collect()
}

#[test]
fn a_new_case_is_unread_until_the_person_opens_it() {
    let (_dir, _path, conn) = new_db();
    let first = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    open_case(&conn, refund_case("conv-2")).unwrap();
    assert_eq!(list_cases(&conn, &waiting_on_you()).unwrap().counts.unread, 2);
    mark_read(&conn, &first).unwrap();
    assert_eq!(unread_numbers(&conn, &waiting_on_you()), vec![(1001, false), (1002, true)]);
    assert_eq!(list_cases(&conn, &waiting_on_you()).unwrap().counts.unread, 1);
}

#[test]
fn a_read_case_can_be_marked_unread_again() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    mark_read(&conn, &id).unwrap();
    assert!(!is_unread(&conn, &id).unwrap());
    mark_unread(&conn, &id).unwrap();
    assert!(is_unread(&conn, &id).unwrap());
    assert_eq!(list_cases(&conn, &waiting_on_you()).unwrap().counts.unread, 1);
}

#[test]
fn a_case_the_agent_hands_back_after_it_was_read_is_unread_again() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    mark_read(&conn, &id).unwrap();
    reply(&conn, &id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
    assert!(!is_unread(&conn, &id).unwrap(), "waiting on the customer, already read");
    std::thread::sleep(std::time::Duration::from_millis(5));
    provide_update(&conn, &id, "The Visa ending 4242").unwrap();
    assert!(is_unread(&conn, &id).unwrap());
}

#[test]
fn marking_a_case_that_does_not_exist_is_case_not_found() {
    let (_dir, _path, conn) = new_db();
    assert_eq!(mark_read(&conn, "no-such-case").unwrap_err().code(), "case_not_found");
    assert_eq!(mark_unread(&conn, "no-such-case").unwrap_err().code(), "case_not_found");
}

#[test]
fn the_date_filter_keeps_cases_opened_within_the_days_inclusive() {
    let (_dir, _path, conn) = new_db();
    for (n, opened) in ["2026-11-28T23:59:59.999Z", "2026-11-29T00:00:00.000Z", "2026-11-30T12:00:00.000Z"]
        .iter()
        .enumerate()
    {
        let id = open_case(&conn, refund_case(&format!("conv-{n}"))).unwrap().case.id;
        conn.execute("UPDATE cases SET opened_at = ?2 WHERE id = ?1", [&id, *opened]).unwrap();
    }
    let numbers = |from: Option<&str>, to: Option<&str>| -> Vec<i64> {
        let filter = CaseFilter {
            opened_from: from.map(String::from),
            opened_to: to.map(String::from),
            ..CaseFilter::default()
        };
        list_cases(&conn, &filter).unwrap().items.iter().map(|i| i.case.number).collect()
    };
    assert_eq!(numbers(Some("2026-11-29"), None), vec![1002, 1003]);
    assert_eq!(numbers(None, Some("2026-11-29")), vec![1001, 1002]);
    assert_eq!(numbers(Some("2026-11-29"), Some("2026-11-29")), vec![1002]);
}

#[test]
fn a_date_that_is_not_a_day_is_refused_naming_the_field() {
    let (_dir, _path, conn) = new_db();
    let filter = CaseFilter { opened_to: Some("30/11/2026".into()), ..CaseFilter::default() };
    let err = list_cases(&conn, &filter).unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
    assert_eq!(err.to_string(), "opened_to is '30/11/2026', not a day written as YYYY-MM-DD");
}

#[test]
fn search_matches_the_conversation_id_inside_a_tab() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, refund_case("wa-5511-alpha")).unwrap();
    open_case(&conn, refund_case("wa-5511-beta")).unwrap();
    let filter = CaseFilter { search: Some("beta".into()), ..waiting_on_you() };
    assert_eq!(unread_numbers(&conn, &filter), vec![(1002, true)]);
}

/// The tab counts recounted from every case, the way the kept counts must always agree.
fn recounted(conn: &rusqlite::Connection) -> TabCounts {
    let count = |condition: &str| -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM cases WHERE {condition}"), [], |r| r.get(0)).unwrap()
    };
    TabCounts {
        waiting_on_you: count("status = 'awaiting_human'"),
        waiting_on_customer: count("status = 'awaiting_lead'"),
        closed: count("status NOT IN ('awaiting_human', 'awaiting_lead')"),
        unread: count("status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since)"),
    }
}

#[test]
fn the_kept_tab_counts_follow_every_write_to_a_case() {
    let (_dir, _path, conn) = new_db();
    let first = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let second = open_case(&conn, refund_case("conv-2")).unwrap().case.id;
    open_case(&conn, refund_case("conv-3")).unwrap();
    let steps: Vec<Box<dyn Fn()>> = vec![
        Box::new(|| mark_read(&conn, &first).unwrap()),
        Box::new(|| drop(reply(&conn, &first, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap())),
        Box::new(|| {
            std::thread::sleep(std::time::Duration::from_millis(5));
            drop(provide_update(&conn, &first, "The Visa").unwrap())
        }),
        Box::new(|| drop(reply(&conn, &second, HumanAction::Resolved, "Refunded.", "Ana").unwrap())),
        Box::new(|| mark_unread(&conn, &second).unwrap()),
        Box::new(|| mark_read(&conn, &first).unwrap()),
    ];
    for step in &steps {
        step();
        assert_eq!(tab_counts(&conn).unwrap(), recounted(&conn));
    }
    let expected = TabCounts { waiting_on_you: 2, waiting_on_customer: 0, closed: 1, unread: 1 };
    assert_eq!(tab_counts(&conn).unwrap(), expected);
}
