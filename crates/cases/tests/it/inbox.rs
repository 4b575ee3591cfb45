//! The inbox list: the tabs, their order and counts (kept counts agreeing with a recount after
//! every change), the Mine and Unassigned views, the reason and date filters, paging, the
//! latest delivery of each row, and the unread marks — on this instance and on another.

use std::time::Duration;

use skillcase_cases::model::{Actor, CaseStatus, DeliveryState, HumanAction, NewCase};
use skillcase_cases::outbox::{Attempt, Backoff};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::store::{CaseFilter, CasePage, CaseTab, CaseView, TabCounts};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;

use crate::support::{ids, refund_case, Db};

fn numbers(page: &CasePage) -> Vec<i64> {
    page.items.iter().map(|item| item.case.number).collect()
}

fn listed(db: &Db, filter: &CaseFilter) -> Vec<i64> {
    numbers(&db.list_cases(filter).unwrap())
}

fn tab(tab: CaseTab) -> CaseFilter {
    CaseFilter { tab: Some(tab), ..CaseFilter::default() }
}

fn unread(db: &Db, id: &str) -> bool {
    let page = db.list_cases(&CaseFilter::default()).unwrap();
    page.items.iter().find(|item| item.case.id == id).unwrap().unread
}

/// Lets the clock move on, so the next step's time is later than the last one's.
fn tick() {
    std::thread::sleep(Duration::from_millis(5));
}

// The tabs, their order and counts.

on_both! {
    fn tabs_split_open_and_closed_cases_with_counts_and_longest_waiting_first(db) {
        let cases: Vec<String> = (0..5).map(|n| db.open(&format!("conv-{n}"))).collect();
        db.reply(&cases[0], HumanAction::NeedLeadInfo, "Ask for the order number.", "Ana").unwrap();
        db.reply(&cases[1], HumanAction::Resolved, "Done.", "Ana").unwrap();
        tick();
        db.cancel(&cases[2], Actor::Agent, None, None).unwrap();

        let waiting = db.list_cases(&tab(CaseTab::WaitingOnYou)).unwrap();
        assert_eq!(numbers(&waiting), [1004, 1005]);
        let counts = waiting.counts;
        assert_eq!((counts.waiting_on_you, counts.waiting_on_customer, counts.closed), (2, 1, 2));
        assert_eq!(listed(db, &tab(CaseTab::WaitingOnCustomer)), [1001]);
        assert_eq!(listed(db, &tab(CaseTab::Closed)), [1003, 1002], "most recently closed first");
        assert_eq!(db.list_cases(&CaseFilter::default()).unwrap().total, 5);
    }
}

on_both! {
    fn a_case_back_from_the_customer_queues_behind_cases_that_waited_longer(db) {
        let first = db.open("a");
        db.open("b");
        db.reply(&first, HumanAction::NeedLeadInfo, "Ask which card.", "Ana").unwrap();
        tick();
        db.provide_update(&first, "Visa 4242").unwrap();
        assert_eq!(listed(db, &tab(CaseTab::WaitingOnYou)), [1002, 1001]);
    }
}

on_both! {
    fn without_a_tab_open_cases_come_first_longest_waiting_then_the_most_recently_closed(db) {
        let cases: Vec<String> = (0..4).map(|n| db.open(&format!("conv-{n}"))).collect();
        db.reply(&cases[0], HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        tick();
        db.cancel(&cases[2], Actor::Agent, None, None).unwrap();
        tick();
        db.reply(&cases[1], HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        assert_eq!(listed(db, &CaseFilter::default()), [1004, 1002, 1003, 1001]);
    }
}

on_both! {
    fn pages_without_a_tab_run_on_from_the_open_cases_into_the_closed_ones(db) {
        let cases: Vec<String> = (0..5).map(|n| db.open(&format!("conv-{n}"))).collect();
        db.reply(&cases[0], HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        tick();
        db.reply(&cases[1], HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        let page = |offset| listed(db, &CaseFilter { offset, limit: 2, ..CaseFilter::default() });
        assert_eq!([page(0), page(2), page(4)].concat(), [1003, 1004, 1005, 1002, 1001]);
        assert_eq!(page(3), [1002, 1001]);
    }
}

on_both! {
    fn status_filter_and_paging_narrow_the_page_but_not_the_counts(db) {
        for n in 0..7 {
            db.open(&format!("conv-{n}"));
        }
        let filter = CaseFilter {
            status: Some(CaseStatus::AwaitingHuman),
            offset: 2,
            limit: 3,
            ..CaseFilter::default()
        };
        let page = db.list_cases(&filter).unwrap();
        assert_eq!(numbers(&page), [1003, 1004, 1005]);
        assert_eq!((page.total, page.offset, page.limit, page.counts.waiting_on_you), (7, 2, 3, 7));
        let resolved = CaseFilter { status: Some(CaseStatus::Resolved), ..CaseFilter::default() };
        assert_eq!(db.list_cases(&resolved).unwrap().total, 0);
    }
}

on_both! {
    fn a_page_is_at_most_the_largest_page_and_fifty_when_the_filter_does_not_say(db) {
        db.open("conv-1");
        assert_eq!(db.list_cases(&CaseFilter::default()).unwrap().limit, 50);
        assert_eq!(db.list_cases(&CaseFilter { limit: 10_000, ..CaseFilter::default() }).unwrap().limit, 200);
    }
}

on_both! {
    fn inbox_rows_carry_the_state_of_the_latest_delivery(db) {
        let id = db.open("conv-1");
        db.open("conv-2");
        let (_, first) = db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let refused = Attempt::Refused { status: 400, error: "bad request".into() };
        db.record_attempt(&first.id, &refused, 15, &Backoff::default()).unwrap();
        db.exec(&format!(
            "UPDATE deliveries SET created_at = '2026-01-01T00:00:00.000Z' WHERE id = '{}'",
            first.id
        ));
        db.provide_update(&id, "The Visa.").unwrap();
        db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        let page = db.list_cases(&CaseFilter::default()).unwrap();
        let mut states: Vec<(i64, Option<DeliveryState>)> =
            page.items.iter().map(|i| (i.case.number, i.latest_delivery)).collect();
        states.sort_by_key(|(number, _)| *number);
        assert_eq!(states, [(1001, Some(DeliveryState::Pending)), (1002, None)]);
    }
}

/// The tab counts recounted from every case, which the counts the inbox keeps must agree with.
fn recounted(db: &Db) -> TabCounts {
    let count = |condition: &str| db.int(&format!("SELECT count(*) FROM cases WHERE {condition}"));
    TabCounts {
        waiting_on_you: count("status = 'awaiting_human'"),
        waiting_on_customer: count("status = 'awaiting_lead'"),
        closed: count("status NOT IN ('awaiting_human', 'awaiting_lead')"),
        unread: count("status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since)"),
    }
}

on_both! {
    fn the_tab_counts_agree_with_a_recount_after_every_change(db) {
        let cases: Vec<String> = (0..4).map(|n| db.open(&format!("conv-{n}"))).collect();
        let steps: Vec<Box<dyn Fn()>> = vec![
            Box::new(|| db.set_read(&cases[0], true).unwrap()),
            Box::new(|| drop(db.reply(&cases[0], HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap())),
            Box::new(|| {
                tick();
                drop(db.provide_update(&cases[0], "The Visa").unwrap())
            }),
            Box::new(|| drop(db.reply(&cases[1], HumanAction::Resolved, "Refunded.", "Ana").unwrap())),
            Box::new(|| drop(db.reply(&cases[2], HumanAction::Escalate, "Legal.", "Ana").unwrap())),
            Box::new(|| db.set_read(&cases[1], false).unwrap()),
            Box::new(|| db.set_read(&cases[3], true).unwrap()),
            Box::new(|| drop(db.cancel(&cases[3], Actor::Agent, None, None).unwrap())),
            Box::new(|| drop(db.open("conv-late"))),
        ];
        for step in &steps {
            step();
            assert_eq!(db.tab_counts().unwrap(), recounted(db));
        }
        let expected = TabCounts { waiting_on_you: 2, waiting_on_customer: 0, closed: 3, unread: 2 };
        assert_eq!(db.tab_counts().unwrap(), expected);
    }
}

on_both! {
    fn an_empty_inbox_counts_nothing(db) {
        assert_eq!(db.tab_counts().unwrap(), TabCounts::default());
        let page = db.list_cases(&CaseFilter::default()).unwrap();
        assert_eq!((page.items.len(), page.total), (0, 0));
    }
}

// Views, reasons and dates.

on_both! {
    fn the_mine_and_unassigned_views_split_the_tab_by_assignee(db) {
        let anas = db.open("conv-1");
        let brunos = db.open("conv-2");
        db.open("conv-3");
        db.assign(&ids(&[&anas]), Some("Ana"), "Ana").unwrap();
        db.assign(&ids(&[&brunos]), Some("Bruno"), "Bruno").unwrap();
        let page = |view, me: Option<&str>| {
            let filter =
                CaseFilter { view: Some(view), me: me.map(str::to_string), ..tab(CaseTab::WaitingOnYou) };
            let page = db.list_cases(&filter).unwrap();
            (numbers(&page), page.total)
        };
        assert_eq!(page(CaseView::Mine, Some("Ana")), (vec![1001], 1));
        assert_eq!(page(CaseView::Unassigned, None), (vec![1003], 1));
        assert_eq!(page(CaseView::All, None), (vec![1001, 1002, 1003], 3));
    }
}

on_both! {
    fn the_views_split_the_closed_tab_and_the_whole_inbox_too(db) {
        let cases: Vec<String> = (0..4).map(|n| db.open(&format!("conv-{n}"))).collect();
        db.assign(&ids(&[&cases[0], &cases[1]]), Some("Ana"), "Ana").unwrap();
        db.reply(&cases[0], HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        db.reply(&cases[2], HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        let mine = CaseFilter { view: Some(CaseView::Mine), me: Some("Ana".into()), ..CaseFilter::default() };
        assert_eq!(listed(db, &CaseFilter { tab: Some(CaseTab::Closed), ..mine.clone() }), [1001]);
        assert_eq!(listed(db, &mine), [1002, 1001]);
        let unassigned = CaseFilter { view: Some(CaseView::Unassigned), ..tab(CaseTab::Closed) };
        assert_eq!(listed(db, &unassigned), [1003]);
    }
}

on_both! {
    fn the_mine_view_without_a_person_is_refused(db) {
        let filter =
            CaseFilter { view: Some(CaseView::Mine), me: Some("  ".into()), ..CaseFilter::default() };
        let err = db.list_cases(&filter).unwrap_err();
        assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("text_required", Some("me")));
    }
}

on_both! {
    fn the_inbox_filter_by_reason_shows_only_that_reasons_cases(db) {
        let missing_knowledge = |conversation: &str| NewCase {
            reason: HandoverReason::MissingKnowledge,
            ..refund_case(conversation)
        };
        db.open_case(missing_knowledge("a")).unwrap();
        db.open("b");
        db.open_case(missing_knowledge("c")).unwrap();
        let filter = CaseFilter { reason: Some(HandoverReason::MissingKnowledge), ..CaseFilter::default() };
        let page = db.list_cases(&filter).unwrap();
        assert_eq!((numbers(&page), page.total), (vec![1001, 1003], 2));
        assert!(page.items.iter().all(|item| item.case.reason == HandoverReason::MissingKnowledge));
    }
}

on_both! {
    fn the_date_filter_keeps_cases_opened_within_the_days_inclusive(db) {
        for (n, opened) in
            ["2026-11-28T23:59:59.999Z", "2026-11-29T00:00:00.000Z", "2026-11-30T12:00:00.000Z"]
                .iter()
                .enumerate()
        {
            let id = db.open(&format!("conv-{n}"));
            db.set(&id, &format!("opened_at = '{opened}'"));
        }
        let days = |from: Option<&str>, to: Option<&str>| {
            let filter = CaseFilter {
                opened_from: from.map(String::from),
                opened_to: to.map(String::from),
                ..Default::default()
            };
            listed(db, &filter)
        };
        assert_eq!(days(Some("2026-11-29"), None), [1002, 1003]);
        assert_eq!(days(None, Some("2026-11-29")), [1001, 1002]);
        assert_eq!(days(Some("2026-11-29"), Some("2026-11-29")), [1002]);
    }
}

on_both! {
    fn a_date_that_is_not_a_day_is_refused_naming_the_field(db) {
        let filter = CaseFilter { opened_to: Some("30/11/2026".into()), ..CaseFilter::default() };
        let err = db.list_cases(&filter).unwrap_err();
        assert_eq!(err.code(), "invalid_case_input");
        assert_eq!(err.to_string(), "opened_to is '30/11/2026', not a day written as YYYY-MM-DD");
    }
}

// Read marks.

on_both! {
    fn a_new_case_is_unread_until_the_person_opens_it(db) {
        let first = db.open("conv-1");
        db.open("conv-2");
        assert_eq!(db.tab_counts().unwrap().unread, 2);
        db.set_read(&first, true).unwrap();
        let page = db.list_cases(&tab(CaseTab::WaitingOnYou)).unwrap();
        let marks: Vec<(i64, bool)> = page.items.iter().map(|i| (i.case.number, i.unread)).collect();
        assert_eq!(marks, [(1001, false), (1002, true)]);
        assert_eq!(page.counts.unread, 1);
    }
}

on_both! {
    fn a_read_case_can_be_marked_unread_again(db) {
        let id = db.open("conv-1");
        db.set_read(&id, true).unwrap();
        assert!(!unread(db, &id));
        db.set_read(&id, false).unwrap();
        assert!(unread(db, &id));
        assert_eq!(db.tab_counts().unwrap().unread, 1);
    }
}

on_both! {
    fn a_case_the_agent_hands_back_after_it_was_read_is_unread_again(db) {
        let id = db.open("conv-1");
        db.set_read(&id, true).unwrap();
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
        assert!(!unread(db, &id), "waiting on the customer, already read");
        tick();
        db.provide_update(&id, "The Visa ending 4242").unwrap();
        assert!(unread(db, &id));
    }
}

on_both! {
    fn marking_a_case_that_does_not_exist_is_case_not_found(db) {
        assert_eq!(db.set_read("no-such-case", true).unwrap_err().code(), "case_not_found");
        assert_eq!(db.set_read("no-such-case", false).unwrap_err().code(), "case_not_found");
    }
}

on_both! {
    fn a_case_read_on_one_instance_is_read_in_the_other_instance_s_inbox_and_badge(db) {
        let elsewhere = db.another_instance();
        let id = db.open("conv-1");
        db.open("conv-2");
        db.set_read(&id, true).unwrap();
        assert!(!unread(&elsewhere, &id));
        assert_eq!(elsewhere.tab_counts().unwrap().unread, 1);
    }
}
