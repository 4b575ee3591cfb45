//! Reading the team inbox: one case with its timeline, the inbox pages (tabs, views, search,
//! reasons, dates, the two orders and paging) with their totals and tab counts, the read marks on
//! one instance and on another, the handover report, and a first page and its counts that read
//! indexes, not every case.
//!
//! The cases are written with SQL here, the way the team's transitions write them: a number from
//! the counter, waiting since it opened (one second after the case before), its `opened` event.

mod support;

use skillcase_cases::model::{CaseStatus, DeliveryState, EventKind};
use skillcase_cases::reason::HandoverReason::{self, *};
use skillcase_cases::report::{ReasonCount, ReportRange, ReportSummary, ReportWeek};
use skillcase_cases::store::{CaseFilter, CasePage, CaseSort, CaseTab, CaseView, TabCounts};
use skillcase_cases::transition::MAX_BULK_CASES;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use skillcase_team::{reads, PgCases};
use support::{another_instance, psql, team};

/// A case as the database holds it: its id and the number people know it by.
struct Opened {
    id: String,
    number: i64,
}

/// The refund case an agent opens (as in the SQLite tests), with `fields` in place of its own.
fn open_with(team: &PgCases, conversation: &str, fields: &[(&str, &str)]) -> Opened {
    let mut columns = vec![
        ("conversation_id", conversation),
        ("lead_id", "lead-77"),
        ("lead_name", "Maria Souza"),
        ("lead_channel", "whatsapp"),
        ("lead_contact", "+55 11 91234-5678"),
        ("agent_id", "support-bot"),
        ("title", "Refund for a double charge"),
        ("summary", "The lead was charged twice for order 5512 and wants one charge refunded."),
        ("blocker", "Refunds need a person's approval."),
        ("context", r#"[{"role":"lead","text":"I was charged twice!","at":"2026-11-30T10:00:00.000Z"}]"#),
        ("source", "agent"),
        ("reason", "policy_restriction"),
    ];
    for (name, value) in fields {
        match columns.iter_mut().find(|(column, _)| column == name) {
            Some(column) => column.1 = value,
            None => columns.push((name, value)),
        }
    }
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let values: Vec<String> = columns.iter().map(|(_, value)| literal(value)).collect();
    let sql = format!(
        "WITH n AS (UPDATE case_counter SET next = next + 1 RETURNING next - 1 AS number), \
         t AS (SELECT number, {} AS at FROM n), \
         c AS (INSERT INTO cases (id, number, status, waiting_since, opened_at, updated_at, {}) \
               SELECT 'case-' || number, number, 'awaiting_human', at, at, at, {} FROM t \
               RETURNING id, number, opened_at), \
         e AS (INSERT INTO case_events (case_id, kind, actor, at) SELECT id, 'opened', 'agent', opened_at FROM c) \
         SELECT id || '|' || number FROM c",
        stamp("timestamp '2026-11-30 10:00:00' + (number - 1000) * interval '1 second'"),
        names.join(", "),
        values.join(", ")
    );
    let out = psql(team.url(), &sql);
    let (id, number) = out.split_once('|').unwrap();
    Opened { id: id.to_string(), number: number.parse().unwrap() }
}

fn open(team: &PgCases, conversation: &str) -> Opened {
    open_with(team, conversation, &[])
}

fn literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// A timestamp expression written the way the domain's clock writes times.
fn stamp(timestamp: &str) -> String {
    format!("to_char({timestamp}, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
}

fn set(team: &PgCases, case: &Opened, assignments: &str) {
    psql(team.url(), &format!("UPDATE cases SET {assignments} WHERE id = {}", literal(&case.id)));
}

/// A person asked the customer at `at`: the case waits on the customer since then.
fn ask_customer(team: &PgCases, case: &Opened, at: &str) {
    set(team, case, &format!("status = 'awaiting_lead', waiting_since = '{at}'"));
}

/// The customer answered at `at`: the case waits on the person again since then.
fn customer_answered(team: &PgCases, case: &Opened, at: &str) {
    set(team, case, &format!("status = 'awaiting_human', waiting_since = '{at}'"));
}

fn close(team: &PgCases, case: &Opened, status: &str, at: &str) {
    set(
        team,
        case,
        &format!("status = '{status}', closed_at = '{at}', waiting_since = NULL, sla_due_at = NULL"),
    );
}

fn append(team: &PgCases, case: &Opened, kind: &str, payload: serde_json::Value) {
    psql(
        team.url(),
        &format!(
            "INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
             VALUES ({}, '{kind}', 'human', 'Ana', '2026-11-30T12:00:00.000Z', {})",
            literal(&case.id),
            literal(&payload.to_string())
        ),
    );
}

fn deliver(team: &PgCases, case: &Opened, id: &str, state: &str, created_at: &str) {
    psql(
        team.url(),
        &format!(
            "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, \
             updated_at) SELECT '{id}', id, (SELECT max(seq) FROM case_events WHERE case_id = cases.id), \
             'resolved', '{{}}', '{state}', '{created_at}', '{created_at}', '{created_at}' FROM cases WHERE id = {}",
            literal(&case.id)
        ),
    );
}

fn ids(cases: &[&Opened]) -> Vec<String> {
    cases.iter().map(|case| case.id.clone()).collect()
}

fn numbers(page: &CasePage) -> Vec<i64> {
    page.items.iter().map(|item| item.case.number).collect()
}

fn listed(team: &PgCases, filter: &CaseFilter) -> Vec<i64> {
    numbers(&team.list_cases(filter).unwrap())
}

fn tab(tab: CaseTab) -> CaseFilter {
    CaseFilter { tab: Some(tab), ..CaseFilter::default() }
}

fn found(team: &PgCases, search: &str) -> Vec<i64> {
    listed(team, &CaseFilter { search: Some(search.into()), ..CaseFilter::default() })
}

fn unread(team: &PgCases, case: &Opened) -> bool {
    let page = team.list_cases(&CaseFilter::default()).unwrap();
    page.items.iter().find(|item| item.case.id == case.id).unwrap().unread
}

// One case.

#[test]
fn a_case_comes_with_its_timeline_deliveries_and_promises_oldest_first() {
    let team = team();
    let case = open(&team, "conv-1");
    append(&team, &case, "promise_made", serde_json::json!({ "quote": "Te ligo amanhã.", "due_at": null }));
    append(&team, &case, "human_replied", serde_json::json!({ "action": "resolved", "text": "Refunded." }));
    deliver(&team, &case, "d-1", "pending", "2026-11-30T12:00:01.000Z");

    let found = team.get_case(&case.id).unwrap();
    assert_eq!((found.case.number, found.case.status), (1001, CaseStatus::AwaitingHuman));
    let kinds: Vec<EventKind> = found.events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [EventKind::Opened, EventKind::PromiseMade, EventKind::HumanReplied]);
    assert_eq!(found.deliveries.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["d-1"]);
    assert_eq!(found.promises.len(), 1);
    assert_eq!((found.promises[0].quote.as_str(), found.promises[0].kept), ("Te ligo amanhã.", true));
}

#[test]
fn a_case_is_found_by_the_number_people_know_it_by() {
    let team = team();
    open(&team, "conv-1");
    let second = open(&team, "conv-2");
    let case = team.find_case_by_number(1002).unwrap();
    assert_eq!((case.id, case.conversation_id.as_str()), (second.id, "conv-2"));
}

#[test]
fn a_case_that_does_not_exist_is_case_not_found_by_id_or_by_number() {
    let team = team();
    assert_eq!(team.get_case("no-such-case").unwrap_err().code(), "case_not_found");
    let err = team.find_case_by_number(4242).unwrap_err();
    assert_eq!((err.code(), err.to_string().as_str()), ("case_not_found", "no case #4242"));
}

// The tabs, their order and counts.

#[test]
fn tabs_split_open_and_closed_cases_with_counts_and_longest_waiting_first() {
    let team = team();
    let cases: Vec<Opened> = (0..5).map(|n| open(&team, &format!("conv-{n}"))).collect();
    ask_customer(&team, &cases[0], "2026-11-30T11:00:00.000Z");
    close(&team, &cases[1], "resolved", "2026-11-30T11:00:00.000Z");
    close(&team, &cases[2], "cancelled", "2026-11-30T11:00:01.000Z");

    let waiting = team.list_cases(&tab(CaseTab::WaitingOnYou)).unwrap();
    assert_eq!(numbers(&waiting), [1004, 1005]);
    let counts = waiting.counts;
    assert_eq!((counts.waiting_on_you, counts.waiting_on_customer, counts.closed), (2, 1, 2));
    assert_eq!(listed(&team, &tab(CaseTab::WaitingOnCustomer)), [1001]);
    assert_eq!(listed(&team, &tab(CaseTab::Closed)), [1003, 1002], "most recently closed first");
    assert_eq!(team.list_cases(&CaseFilter::default()).unwrap().total, 5);
}

#[test]
fn a_case_back_from_the_customer_queues_behind_cases_that_waited_longer() {
    let team = team();
    let first = open(&team, "a");
    open(&team, "b");
    ask_customer(&team, &first, "2026-11-30T11:00:00.000Z");
    customer_answered(&team, &first, "2026-11-30T12:00:00.000Z");
    assert_eq!(listed(&team, &tab(CaseTab::WaitingOnYou)), [1002, 1001]);
}

#[test]
fn without_a_tab_open_cases_come_first_longest_waiting_then_the_most_recently_closed() {
    let team = team();
    let cases: Vec<Opened> = (0..4).map(|n| open(&team, &format!("conv-{n}"))).collect();
    close(&team, &cases[0], "resolved", "2026-11-30T11:00:00.000Z");
    close(&team, &cases[2], "cancelled", "2026-11-30T11:00:01.000Z");
    ask_customer(&team, &cases[1], "2026-11-30T11:00:02.000Z");
    assert_eq!(listed(&team, &CaseFilter::default()), [1004, 1002, 1003, 1001]);
}

#[test]
fn pages_without_a_tab_run_on_from_the_open_cases_into_the_closed_ones() {
    let team = team();
    let cases: Vec<Opened> = (0..5).map(|n| open(&team, &format!("conv-{n}"))).collect();
    close(&team, &cases[0], "resolved", "2026-11-30T11:00:00.000Z");
    close(&team, &cases[1], "resolved", "2026-11-30T11:00:01.000Z");
    let page = |offset| listed(&team, &CaseFilter { offset, limit: 2, ..CaseFilter::default() });
    assert_eq!([page(0), page(2), page(4)].concat(), [1003, 1004, 1005, 1002, 1001]);
    assert_eq!(page(3), [1002, 1001]);
}

#[test]
fn status_filter_and_paging_narrow_the_page_but_not_the_counts() {
    let team = team();
    for n in 0..7 {
        open(&team, &format!("conv-{n}"));
    }
    let filter =
        CaseFilter { status: Some(CaseStatus::AwaitingHuman), offset: 2, limit: 3, ..CaseFilter::default() };
    let page = team.list_cases(&filter).unwrap();
    assert_eq!(numbers(&page), [1003, 1004, 1005]);
    assert_eq!((page.total, page.offset, page.limit, page.counts.waiting_on_you), (7, 2, 3, 7));
    let resolved = CaseFilter { status: Some(CaseStatus::Resolved), ..CaseFilter::default() };
    assert_eq!(team.list_cases(&resolved).unwrap().total, 0);
}

#[test]
fn a_page_is_at_most_the_largest_page_and_fifty_when_the_filter_does_not_say() {
    let team = team();
    open(&team, "conv-1");
    assert_eq!(team.list_cases(&CaseFilter::default()).unwrap().limit, 50);
    assert_eq!(team.list_cases(&CaseFilter { limit: 10_000, ..CaseFilter::default() }).unwrap().limit, 200);
}

#[test]
fn inbox_rows_carry_the_state_of_the_latest_delivery() {
    let team = team();
    let case = open(&team, "conv-1");
    open(&team, "conv-2");
    deliver(&team, &case, "d-old", "dead", "2026-11-30T12:00:00.000Z");
    deliver(&team, &case, "d-new", "pending", "2026-11-30T12:05:00.000Z");
    let page = team.list_cases(&CaseFilter::default()).unwrap();
    let states: Vec<(i64, Option<DeliveryState>)> =
        page.items.iter().map(|i| (i.case.number, i.latest_delivery)).collect();
    assert_eq!(states, [(1001, Some(DeliveryState::Pending)), (1002, None)]);
}

#[test]
fn the_tab_counts_agree_with_a_recount_after_every_change() {
    let team = team();
    let cases: Vec<Opened> = (0..4).map(|n| open(&team, &format!("conv-{n}"))).collect();
    let recount = || -> TabCounts {
        let count = |condition: &str| -> i64 {
            psql(team.url(), &format!("SELECT count(*) FROM cases WHERE {condition}")).parse().unwrap()
        };
        TabCounts {
            waiting_on_you: count("status = 'awaiting_human'"),
            waiting_on_customer: count("status = 'awaiting_lead'"),
            closed: count("status NOT IN ('awaiting_human', 'awaiting_lead')"),
            unread: count("status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since)"),
        }
    };
    let steps: Vec<Box<dyn Fn()>> = vec![
        Box::new(|| team.set_read(&cases[0].id, true).unwrap()),
        Box::new(|| ask_customer(&team, &cases[0], "2026-11-30T11:00:00.000Z")),
        Box::new(|| close(&team, &cases[1], "resolved", "2026-11-30T11:00:01.000Z")),
        Box::new(|| close(&team, &cases[2], "escalated", "2026-11-30T11:00:02.000Z")),
        Box::new(|| team.set_read(&cases[3].id, true).unwrap()),
        Box::new(|| drop(open(&team, "conv-late"))),
    ];
    for step in &steps {
        step();
        assert_eq!(team.tab_counts().unwrap(), recount());
    }
    let expected = TabCounts { waiting_on_you: 2, waiting_on_customer: 1, closed: 2, unread: 1 };
    assert_eq!(team.tab_counts().unwrap(), expected);
}

#[test]
fn an_empty_inbox_counts_nothing() {
    let team = team();
    assert_eq!(team.tab_counts().unwrap(), TabCounts::default());
    let page = team.list_cases(&CaseFilter::default()).unwrap();
    assert_eq!((page.items.len(), page.total), (0, 0));
}

// Views, reasons and dates.

#[test]
fn the_mine_and_unassigned_views_split_the_tab_by_assignee() {
    let team = team();
    let anas = open(&team, "conv-1");
    let brunos = open(&team, "conv-2");
    open(&team, "conv-3");
    set(&team, &anas, "assignee = 'Ana'");
    set(&team, &brunos, "assignee = 'Bruno'");
    let page = |view, me: Option<&str>| {
        let filter =
            CaseFilter { view: Some(view), me: me.map(str::to_string), ..tab(CaseTab::WaitingOnYou) };
        let page = team.list_cases(&filter).unwrap();
        (numbers(&page), page.total)
    };
    assert_eq!(page(CaseView::Mine, Some("Ana")), (vec![1001], 1));
    assert_eq!(page(CaseView::Unassigned, None), (vec![1003], 1));
    assert_eq!(page(CaseView::All, None), (vec![1001, 1002, 1003], 3));
}

#[test]
fn the_views_split_the_closed_tab_and_the_whole_inbox_too() {
    let team = team();
    let cases: Vec<Opened> = (0..4).map(|n| open(&team, &format!("conv-{n}"))).collect();
    set(&team, &cases[0], "assignee = 'Ana'");
    set(&team, &cases[1], "assignee = 'Ana'");
    close(&team, &cases[0], "resolved", "2026-11-30T11:00:00.000Z");
    close(&team, &cases[2], "resolved", "2026-11-30T11:00:01.000Z");
    let mine = CaseFilter { view: Some(CaseView::Mine), me: Some("Ana".into()), ..CaseFilter::default() };
    assert_eq!(listed(&team, &CaseFilter { tab: Some(CaseTab::Closed), ..mine.clone() }), [1001]);
    assert_eq!(listed(&team, &mine), [1002, 1001]);
    let unassigned = CaseFilter { view: Some(CaseView::Unassigned), ..tab(CaseTab::Closed) };
    assert_eq!(listed(&team, &unassigned), [1003]);
}

#[test]
fn the_mine_view_without_a_person_is_refused() {
    let team = team();
    let filter = CaseFilter { view: Some(CaseView::Mine), me: Some("  ".into()), ..CaseFilter::default() };
    let err = team.list_cases(&filter).unwrap_err();
    assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("text_required", Some("me")));
}

#[test]
fn the_inbox_filter_by_reason_shows_only_that_reasons_cases() {
    let team = team();
    open_with(&team, "a", &[("reason", "missing_knowledge")]);
    open(&team, "b");
    open_with(&team, "c", &[("reason", "missing_knowledge")]);
    let filter = CaseFilter { reason: Some(MissingKnowledge), ..CaseFilter::default() };
    let page = team.list_cases(&filter).unwrap();
    assert_eq!((numbers(&page), page.total), (vec![1001, 1003], 2));
    assert!(page.items.iter().all(|item| item.case.reason == MissingKnowledge));
}

#[test]
fn the_date_filter_keeps_cases_opened_within_the_days_inclusive() {
    let team = team();
    for (n, opened) in ["2026-11-28T23:59:59.999Z", "2026-11-29T00:00:00.000Z", "2026-11-30T12:00:00.000Z"]
        .iter()
        .enumerate()
    {
        let case = open(&team, &format!("conv-{n}"));
        set(&team, &case, &format!("opened_at = '{opened}'"));
    }
    let days = |from: Option<&str>, to: Option<&str>| {
        let filter = CaseFilter {
            opened_from: from.map(String::from),
            opened_to: to.map(String::from),
            ..Default::default()
        };
        listed(&team, &filter)
    };
    assert_eq!(days(Some("2026-11-29"), None), [1002, 1003]);
    assert_eq!(days(None, Some("2026-11-29")), [1001, 1002]);
    assert_eq!(days(Some("2026-11-29"), Some("2026-11-29")), [1002]);
}

#[test]
fn a_date_that_is_not_a_day_is_refused_naming_the_field() {
    let team = team();
    let filter = CaseFilter { opened_to: Some("30/11/2026".into()), ..CaseFilter::default() };
    let err = team.list_cases(&filter).unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
    assert_eq!(err.to_string(), "opened_to is '30/11/2026', not a day written as YYYY-MM-DD");
}

// Promises and response-time targets first.

#[test]
fn waiting_on_you_lists_the_most_overdue_promise_first_with_the_promise() {
    let team = team();
    open(&team, "c1");
    let later = open(&team, "c2");
    let sooner = open(&team, "c3");
    set(&team, &later, "promise_quote = 'Ligamos às 11h.', promise_due_at = '2020-01-01T11:00:00.000Z'");
    set(&team, &sooner, "promise_quote = 'Ligamos às 10h.', promise_due_at = '2020-01-01T10:00:00.000Z'");
    let page = team.list_cases(&tab(CaseTab::WaitingOnYou)).unwrap();
    assert_eq!(numbers(&page), [1003, 1002, 1001]);
    let promise = page.items[0].promise.as_ref().unwrap();
    assert_eq!(
        (promise.quote.as_str(), promise.due_at.as_deref()),
        ("Ligamos às 10h.", Some("2020-01-01T10:00:00.000Z"))
    );
    assert_eq!(page.items[2].promise, None);
}

#[test]
fn pages_of_waiting_on_you_run_on_across_the_overdue_promises_without_a_gap_or_a_repeat() {
    let team = team();
    let cases: Vec<Opened> = (1..=5).map(|n| open(&team, &format!("c{n}"))).collect();
    set(&team, &cases[3], "promise_quote = 'Ligamos às 10h.', promise_due_at = '2020-01-01T10:00:00.000Z'");
    set(&team, &cases[4], "promise_quote = 'Ligamos às 11h.', promise_due_at = '2020-01-01T11:00:00.000Z'");
    set(&team, &cases[0], "promise_quote = 'Ligamos em 2099.', promise_due_at = '2099-01-01T10:00:00.000Z'");
    let page = |offset| listed(&team, &CaseFilter { offset, limit: 2, ..tab(CaseTab::WaitingOnYou) });
    assert_eq!(page(0), [1004, 1005]);
    assert_eq!(page(1), [1005, 1001]);
    assert_eq!(page(2), [1001, 1002]);
    assert_eq!(page(4), [1003]);
}

#[test]
fn due_soonest_puts_the_nearest_due_time_first_and_cases_without_a_target_last() {
    let team = team();
    let later = open(&team, "later");
    open(&team, "untimed");
    let soonest = open(&team, "soonest");
    set(&team, &later, "sla_due_at = '2026-11-30T12:00:00.000Z'");
    set(&team, &soonest, "sla_due_at = '2026-11-30T10:15:00.000Z'");
    let filter = CaseFilter { sort: Some(CaseSort::DueSoonest), ..tab(CaseTab::WaitingOnYou) };
    assert_eq!(listed(&team, &filter), [1003, 1001, 1002]);
}

#[test]
fn due_soonest_pages_continue_past_the_timed_cases() {
    let team = team();
    let timed = open(&team, "timed");
    open(&team, "u1");
    open(&team, "u2");
    set(&team, &timed, "sla_due_at = '2026-11-30T11:00:00.000Z'");
    let page = |offset| {
        listed(
            &team,
            &CaseFilter { sort: Some(CaseSort::DueSoonest), offset, limit: 1, ..Default::default() },
        )
    };
    assert_eq!([page(0), page(1), page(2)].concat(), [1001, 1002, 1003]);
}

// Search.

fn brazilian_case(team: &PgCases, conversation: &str) -> Opened {
    open_with(
        team,
        conversation,
        &[
            ("lead_name", "João Araújo"),
            ("lead_contact", "joao@exemplo.com.br"),
            ("title", "Reembolso de cobrança duplicada"),
            ("summary", "O cliente foi cobrado duas vezes no cartão."),
            ("blocker", "Estornos acima de R$ 500 precisam de aprovação."),
            ("context", r#"[{"role":"lead","text":"Quero meu dinheiro de volta já!"}]"#),
        ],
    )
}

#[test]
fn a_case_is_found_by_a_word_of_its_title_summary_blocker_lead_context_or_conversation() {
    let team = team();
    open(&team, "conv-other");
    let case = brazilian_case(&team, "wa-5521");
    for word in ["duplicada", "cartão", "aprovação", "Araújo", "exemplo", "dinheiro", "wa-5521"] {
        assert_eq!(found(&team, word), [case.number], "{word}");
    }
}

#[test]
fn accents_and_case_are_ignored_both_ways() {
    let team = team();
    let case = brazilian_case(&team, "conv-1");
    assert_eq!(found(&team, "JOAO araujo"), [case.number]);
    assert_eq!(found(&team, "cobranca"), [case.number]);
    assert_eq!(found(&team, "cartâo"), [case.number]);
}

#[test]
fn each_word_typed_so_far_matches_as_a_prefix_and_all_of_them_must_match() {
    let team = team();
    let case = brazilian_case(&team, "conv-1");
    open(&team, "conv-2");
    assert_eq!(found(&team, "reemb"), [case.number]);
    assert_eq!(found(&team, "jo ar"), [case.number]);
    assert_eq!(found(&team, "wa-5 conv-1"), Vec::<i64>::new());
    assert_eq!(found(&team, "reemb maria"), Vec::<i64>::new());
}

#[test]
fn a_person_s_answer_the_customer_s_answer_and_an_internal_note_are_found() {
    let team = team();
    let case = open(&team, "conv-1");
    open(&team, "conv-2");
    append(&team, &case, "human_replied", serde_json::json!({ "text": "Which marketplace sold it?" }));
    append(&team, &case, "lead_provided", serde_json::json!({ "info": "Bought through Shopee" }));
    append(&team, &case, "internal_note", serde_json::json!({ "text": "Gerente aprovou a exceção." }));
    for word in ["marketplace", "shopee", "excecao"] {
        assert_eq!(found(&team, word), [case.number], "{word}");
    }
}

#[test]
fn the_number_is_found_with_or_without_the_hash() {
    let team = team();
    open(&team, "conv-1");
    open(&team, "conv-2");
    assert_eq!(found(&team, "#1002"), [1002]);
    assert_eq!(found(&team, "1001"), [1001]);
}

#[test]
fn search_narrows_the_tab_and_counts_only_what_it_found() {
    let team = team();
    let open_one = brazilian_case(&team, "conv-1");
    let closed = brazilian_case(&team, "conv-2");
    open(&team, "conv-3");
    close(&team, &closed, "resolved", "2026-11-30T11:00:00.000Z");
    let filter = CaseFilter { search: Some("reembolso".into()), ..tab(CaseTab::WaitingOnYou) };
    let page = team.list_cases(&filter).unwrap();
    assert_eq!((numbers(&page), page.total), (vec![open_one.number], 1));
    assert_eq!(page.counts.waiting_on_you, 2, "the counts ignore the search");
}

#[test]
fn wildcards_and_search_syntax_are_only_text_and_never_fail() {
    let team = team();
    open(&team, "conv-alpha");
    open_with(&team, "conv-beta", &[("title", "Wrong size shipped (100%_cotton)")]);
    assert_eq!(found(&team, "100%_"), [1002]);
    assert_eq!(found(&team, "10_%"), Vec::<i64>::new(), "_ and % match only themselves");
    assert_eq!(found(&team, "%"), Vec::<i64>::new(), "punctuation alone is no word to find");
    assert_eq!(found(&team, "* -"), Vec::<i64>::new());
    for typed in [
        "\"",
        "refund*",
        "-refund",
        "title:refund",
        "(refund",
        "NEAR(refund charge)",
        "\\",
        "'; DROP TABLE cases; --",
        "ref\"und",
        "\u{0345}",
        "🙂",
    ] {
        let filter = CaseFilter { search: Some(typed.into()), ..CaseFilter::default() };
        assert!(team.list_cases(&filter).is_ok(), "{typed:?}");
    }
    assert_eq!(found(&team, "refund AND"), [1001, 1002], "AND is a word to find (\"…order 5512 and…\")");
    assert_eq!(found(&team, "refund AND"), found(&team, "and refund"));
}

#[test]
fn a_blank_search_narrows_nothing() {
    let team = team();
    open(&team, "conv-1");
    open(&team, "conv-2");
    let page = team.list_cases(&CaseFilter { search: Some("   ".into()), ..CaseFilter::default() }).unwrap();
    assert_eq!((numbers(&page), page.total), (vec![1001, 1002], 2));
}

// Read marks.

#[test]
fn a_new_case_is_unread_until_the_person_opens_it() {
    let team = team();
    let first = open(&team, "conv-1");
    open(&team, "conv-2");
    assert_eq!(team.tab_counts().unwrap().unread, 2);
    team.set_read(&first.id, true).unwrap();
    let page = team.list_cases(&tab(CaseTab::WaitingOnYou)).unwrap();
    let marks: Vec<(i64, bool)> = page.items.iter().map(|i| (i.case.number, i.unread)).collect();
    assert_eq!(marks, [(1001, false), (1002, true)]);
    assert_eq!(page.counts.unread, 1);
}

#[test]
fn a_read_case_can_be_marked_unread_again() {
    let team = team();
    let case = open(&team, "conv-1");
    team.set_read(&case.id, true).unwrap();
    assert!(!unread(&team, &case));
    team.set_read(&case.id, false).unwrap();
    assert!(unread(&team, &case));
    assert_eq!(team.tab_counts().unwrap().unread, 1);
}

#[test]
fn a_case_the_customer_hands_back_after_it_was_read_is_unread_again() {
    let team = team();
    let case = open(&team, "conv-1");
    team.set_read(&case.id, true).unwrap();
    ask_customer(&team, &case, "2026-11-30T11:00:00.000Z");
    assert!(!unread(&team, &case), "waiting on the customer, already read");
    set(
        &team,
        &case,
        &format!(
            "status = 'awaiting_human', waiting_since = {}",
            stamp("now() AT TIME ZONE 'UTC' + interval '1 second'")
        ),
    );
    assert!(unread(&team, &case));
}

#[test]
fn marking_a_case_that_does_not_exist_is_case_not_found() {
    let team = team();
    assert_eq!(team.set_read("no-such-case", true).unwrap_err().code(), "case_not_found");
    assert_eq!(team.set_read("no-such-case", false).unwrap_err().code(), "case_not_found");
}

#[test]
fn several_cases_are_marked_read_and_unread_again_at_once() {
    let team = team();
    let (first, second) = (open(&team, "conv-1"), open(&team, "conv-2"));
    team.set_read_many(&ids(&[&first, &second]), true).unwrap();
    assert_eq!((unread(&team, &first), unread(&team, &second)), (false, false));
    team.set_read_many(&ids(&[&first, &second]), false).unwrap();
    assert_eq!((unread(&team, &first), unread(&team, &second)), (true, true));
}

#[test]
fn marking_several_read_changes_none_when_one_does_not_exist() {
    let team = team();
    let case = open(&team, "conv-1");
    let err = team.set_read_many(&[case.id.clone(), "no-such-case".into()], true).unwrap_err();
    assert_eq!((err.code(), err.details().unwrap()["id"].as_str()), ("case_not_found", Some("no-such-case")));
    assert!(unread(&team, &case));
}

#[test]
fn a_bulk_mark_names_at_least_one_case_and_at_most_the_limit() {
    let team = team();
    assert_eq!(team.set_read_many(&[], true).unwrap_err().code(), "invalid_case_input");
    let too_many: Vec<String> = (0..=MAX_BULK_CASES).map(|n| format!("case-{n}")).collect();
    let err = team.set_read_many(&too_many, true).unwrap_err();
    assert_eq!(err.to_string(), "ids names 501 cases; at most 500 are taken at once");
}

// Across instances.

#[test]
fn a_case_read_on_one_instance_is_read_in_the_other_instance_s_inbox_and_badge() {
    let team = team();
    let elsewhere = another_instance(&team);
    let case = open(&team, "conv-1");
    open(&team, "conv-2");
    team.set_read(&case.id, true).unwrap();
    assert!(!unread(&elsewhere, &case));
    assert_eq!(elsewhere.tab_counts().unwrap().unread, 1);
}

#[test]
fn two_instances_marking_the_same_cases_at_once_in_opposite_orders_both_succeed() {
    let team = team();
    let elsewhere = another_instance(&team);
    let cases: Vec<Opened> = (0..20).map(|n| open(&team, &format!("conv-{n}"))).collect();
    let forward: Vec<String> = cases.iter().map(|case| case.id.clone()).collect();
    let backward: Vec<String> = forward.iter().rev().cloned().collect();
    std::thread::scope(|scope| {
        let here = scope.spawn(|| (0..20).try_for_each(|_| team.set_read_many(&forward, true)));
        let there = scope.spawn(|| (0..20).try_for_each(|_| elsewhere.set_read_many(&backward, false)));
        here.join().unwrap().unwrap();
        there.join().unwrap().unwrap();
    });
    let unread = team.tab_counts().unwrap().unread;
    assert!(unread == 0 || unread == 20, "each bulk mark is all or none: {unread}");
}

// The report.

/// Opens a case for `conversation` with `reason`, opened at `opened` and first answered
/// `reply_after` seconds later.
fn opened_at(
    team: &PgCases,
    conversation: &str,
    reason: HandoverReason,
    opened: &str,
    reply_after: Option<i64>,
) -> Opened {
    let case = open_with(team, conversation, &[("reason", reason.as_str())]);
    let first_reply = match reply_after {
        Some(secs) => {
            stamp(&format!("'{opened}'::timestamptz AT TIME ZONE 'UTC' + interval '{secs} seconds'"))
        }
        None => "NULL".into(),
    };
    set(team, &case, &format!("opened_at = '{opened}', first_reply_at = {first_reply}"));
    case
}

/// November 2026, weeks of Monday 2 (three cases), 9 (one) and 16 (four), and a case just
/// outside each end; one conversation comes back after its October case was resolved, another
/// after its October case was cancelled.
fn november(team: &PgCases) {
    for (conversation, status) in [("came-back", "resolved"), ("cancelled-before", "cancelled")] {
        let case = opened_at(team, conversation, CustomerRequest, "2026-10-20T10:00:00.000Z", None);
        close(team, &case, status, "2026-10-21T10:00:00.000Z");
    }
    let cases: [(&str, HandoverReason, &str, Option<i64>); 10] = [
        ("a", PolicyRestriction, "2026-11-02T10:00:00.000Z", Some(600)),
        ("b", PolicyRestriction, "2026-11-03T09:00:00.000Z", Some(1800)),
        ("cancelled-before", ToolFailure, "2026-11-04T12:00:00.000Z", None),
        ("n", NotStated, "2026-11-10T08:00:00.000Z", None),
        ("d", PolicyRestriction, "2026-11-16T08:00:00.000Z", Some(3600)),
        ("d2", PolicyRestriction, "2026-11-17T08:00:00.000Z", Some(7200)),
        ("came-back", CustomerRequest, "2026-11-20T15:00:00.000Z", Some(120)),
        ("g", GuardrailAutofallback, "2026-11-22T23:59:59.999Z", Some(300)),
        ("too-late", PolicyRestriction, "2026-11-23T00:00:00.000Z", Some(5)),
        ("too-early", CustomerRequest, "2026-11-01T23:59:59.999Z", Some(5)),
    ];
    for (conversation, reason, opened, reply_after) in cases {
        opened_at(team, conversation, reason, opened, reply_after);
    }
}

fn november_range() -> ReportRange {
    ReportRange { from: "2026-11-02".into(), to: "2026-11-22".into() }
}

fn summary(
    reason: HandoverReason,
    cases: i64,
    replied: i64,
    median: Option<i64>,
    reopened: i64,
) -> ReportSummary {
    ReportSummary { reason: Some(reason), cases, replied, median_first_reply_secs: median, reopened }
}

fn count(reason: HandoverReason, cases: i64) -> ReasonCount {
    ReasonCount { reason, cases }
}

#[test]
fn the_report_counts_each_weeks_cases_per_reason_empty_weeks_included() {
    let team = team();
    november(&team);
    let range = ReportRange { from: "2026-11-02".into(), to: "2026-11-29".into() };
    let report = team.report(&range).unwrap();
    let november_weeks = vec![
        ReportWeek {
            week: "2026-11-02".into(),
            total: 3,
            by_reason: vec![count(PolicyRestriction, 2), count(ToolFailure, 1)],
        },
        ReportWeek { week: "2026-11-09".into(), total: 1, by_reason: vec![count(NotStated, 1)] },
        ReportWeek {
            week: "2026-11-16".into(),
            total: 4,
            by_reason: vec![
                count(CustomerRequest, 1),
                count(PolicyRestriction, 2),
                count(GuardrailAutofallback, 1),
            ],
        },
        ReportWeek { week: "2026-11-23".into(), total: 1, by_reason: vec![count(PolicyRestriction, 1)] },
    ];
    assert_eq!(report.weeks, november_weeks);
    let empty = team.report(&ReportRange { from: "2026-12-07".into(), to: "2026-12-20".into() }).unwrap();
    let weeks: Vec<(&str, i64)> = empty.weeks.iter().map(|w| (w.week.as_str(), w.total)).collect();
    assert_eq!(weeks, [("2026-12-07", 0), ("2026-12-14", 0)]);
}

#[test]
fn the_report_gives_each_reasons_median_first_reply_and_reopened_cases() {
    let team = team();
    november(&team);
    let report = team.report(&november_range()).unwrap();
    assert_eq!(
        report.reasons,
        vec![
            // The conversation came back after its October case was resolved.
            summary(CustomerRequest, 1, 1, Some(120), 1),
            // 600, 1800, 3600 and 7200 seconds: the mean of the two middle ones.
            summary(PolicyRestriction, 4, 4, Some(2700), 0),
            // Its conversation's October case was cancelled, not resolved: not reopened.
            summary(ToolFailure, 1, 0, None, 0),
            summary(GuardrailAutofallback, 1, 1, Some(300), 0),
            summary(NotStated, 1, 0, None, 0),
        ]
    );
}

#[test]
fn the_overall_median_is_over_every_answered_case_of_the_range() {
    let team = team();
    november(&team);
    let report = team.report(&november_range()).unwrap();
    // 120, 300, 600, 1800, 3600, 7200: the mean of 600 and 1800.
    let overall = ReportSummary {
        reason: None,
        cases: 8,
        replied: 6,
        median_first_reply_secs: Some(1200),
        reopened: 1,
    };
    assert_eq!((report.overall, report.range), (overall, november_range()));
}

#[test]
fn a_median_half_way_between_two_seconds_rounds_up() {
    let team = team();
    opened_at(&team, "a", NotStated, "2026-11-02T10:00:00.000Z", Some(1));
    opened_at(&team, "b", NotStated, "2026-11-02T11:00:00.000Z", Some(2));
    let report = team.report(&november_range()).unwrap();
    assert_eq!(report.overall.median_first_reply_secs, Some(2));
}

#[test]
fn a_range_without_cases_reports_zero_overall() {
    let team = team();
    let report = team.report(&november_range()).unwrap();
    assert_eq!((report.weeks.len(), report.reasons.len()), (3, 0));
    let zero =
        ReportSummary { reason: None, cases: 0, replied: 0, median_first_reply_secs: None, reopened: 0 };
    assert_eq!(report.overall, zero);
}

#[test]
fn a_range_that_runs_backwards_or_past_a_year_or_is_not_days_is_refused() {
    let team = team();
    let backwards = ReportRange { from: "2026-11-22".into(), to: "2026-11-02".into() };
    let err = team.report(&backwards).unwrap_err();
    assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("invalid_case_input", Some("to")));
    let long = ReportRange { from: "2025-01-01".into(), to: "2026-01-02".into() };
    assert_eq!(team.report(&long).unwrap_err().code(), "invalid_case_input");
    let malformed = ReportRange { from: "02/11/2026".into(), to: "2026-11-22".into() };
    assert_eq!(team.report(&malformed).unwrap_err().details().unwrap()["field"], "from");
}

// Reading indexes, not every case.

#[test]
fn the_first_pages_and_their_counts_read_indexes_not_every_case() {
    let team = team();
    // 20,000 cases: 19,000 closed and 1,000 waiting, a quarter of them on the customer; Ana
    // has one case in fifty.
    psql(
        team.url(),
        &format!(
            "WITH c AS (SELECT n, CASE WHEN n > 19000 THEN (CASE WHEN n % 4 = 0 THEN 'awaiting_lead' ELSE 'awaiting_human' END) \
                 ELSE 'resolved' END AS status, {} AS at FROM generate_series(1, 20000) n) \
             INSERT INTO cases (id, number, conversation_id, lead_name, status, title, summary, source, waiting_since, \
                 opened_at, updated_at, closed_at, assignee) \
             SELECT 'case-' || n, 1000 + n, 'conv-' || n, 'Lead ' || n, status, 'Refund for order ' || n, 'Charged twice', \
                 'agent', CASE WHEN status <> 'resolved' THEN at END, at, at, CASE WHEN status = 'resolved' THEN at END, \
                 CASE WHEN n % 50 = 0 THEN 'Ana' END FROM c",
            stamp("timestamp '2024-01-01' + n * interval '1 minute'")
        ),
    );
    psql(team.url(), "UPDATE case_counter SET next = 21001");
    // As autovacuum leaves a table: statistics gathered, new search entries moved into the index.
    psql(team.url(), "VACUUM ANALYZE cases");
    // The reads run in one transaction, whose own scans PostgreSQL counts per table.
    let mut conn = team.pg().connection().unwrap();
    let mut tx = conn.transaction().unwrap();

    let counts = reads::tab_counts(&mut tx).unwrap();
    assert_eq!((counts.waiting_on_you, counts.waiting_on_customer, counts.closed), (750, 250, 19_000));
    let first = reads::list_cases(&mut tx, &tab(CaseTab::WaitingOnYou)).unwrap();
    assert_eq!((first.items.len(), first.total), (50, 750));
    assert_eq!(numbers(&reads::list_cases(&mut tx, &tab(CaseTab::Closed)).unwrap())[0], 20_000);
    let mine = CaseFilter { view: Some(CaseView::Mine), me: Some("Ana".into()), ..tab(CaseTab::Closed) };
    assert_eq!(reads::list_cases(&mut tx, &mine).unwrap().total, 380);
    let search = CaseFilter { search: Some("order 12345".into()), ..tab(CaseTab::Closed) };
    assert_eq!(numbers(&reads::list_cases(&mut tx, &search).unwrap()), [13_345]);

    let scans =
        tx.query_one("SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'cases'", &[]);
    let (seq, idx): (i64, i64) = scans.map(|row| (row.get(0), row.get(1))).unwrap();
    assert!(idx > 0, "the reads used indexes");
    assert_eq!(seq, 0, "no read went through every case");
    // Each count reads the narrowest index for it (the unread one only while its predicate is
    // `UNREAD_WAITING` word for word).
    let counted = [
        (reads::UNREAD_WAITING, "cases_unread"),
        ("status = 'awaiting_lead'", "cases_open_status"),
        ("closed_at IS NOT NULL AND assignee = 'Ana'", "cases_closed_by_assignee"),
    ];
    for (condition, index) in counted {
        let plan = tx.query(&format!("EXPLAIN SELECT count(*) FROM cases WHERE {condition}"), &[]).unwrap();
        let plan: Vec<String> = plan.iter().map(|row| row.get(0)).collect();
        assert!(plan.iter().any(|line| line.contains(index)), "{condition}: {plan:?}");
    }
}
