//! SPEC D5: why the AI handed over — the reason stored with each case, the inbox filter by it,
//! and the report (cases per reason per week, median time to the first human reply, reopened
//! cases) with exact figures over known cases on a real SQLite file.

mod support;

use rusqlite::{params, Connection};
use skillcase_cases::model::{Actor, CaseSource, HumanAction};
use skillcase_cases::reason::HandoverReason::{self, *};
use skillcase_cases::report::{case_report, ReasonCount, ReportRange, ReportSummary, ReportWeek};
use skillcase_cases::store::{find_case, list_cases, CaseFilter};
use skillcase_cases::transition::{cancel, open_case, provide_update, reply};
use skillcase_common::error::Coded;
use support::{new_db, refund_case};

/// Opens a case for `conversation` with `reason` (as the guardrail does for its own reason).
fn open(conn: &Connection, conversation: &str, reason: HandoverReason) -> String {
    let mut new = refund_case(conversation);
    new.reason = reason;
    if reason == GuardrailAutofallback {
        new.source = CaseSource::GuardrailAutofallback;
    }
    open_case(conn, new).unwrap().case.id
}

/// Moves a case's opening to `opened` (and its first answer `reply_after` seconds later, when it
/// has one), so the figures do not depend on when the test runs.
fn backdate(conn: &Connection, id: &str, opened: &str, reply_after: Option<i64>) {
    if reply_after.is_some() {
        reply(conn, id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
    }
    conn.execute(
        "UPDATE cases SET opened_at = ?2, first_reply_at = strftime('%Y-%m-%dT%H:%M:%fZ', ?2, ?3 || ' seconds') \
         WHERE id = ?1",
        params![id, opened, reply_after.map(|s| s.to_string())],
    )
    .unwrap();
    if reply_after.is_none() {
        conn.execute("UPDATE cases SET first_reply_at = NULL WHERE id = ?1", [id]).unwrap();
    }
}

/// A case that was closed (resolved or cancelled) in October, before the report's range.
fn closed_in_october(conn: &Connection, conversation: &str, resolved: bool) {
    let id = open(conn, conversation, CustomerRequest);
    if resolved {
        reply(conn, &id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    } else {
        cancel(conn, &id, Actor::Agent, None, Some("opened by mistake")).unwrap();
    }
    conn.execute(
        "UPDATE cases SET opened_at = '2026-10-20T10:00:00.000Z', closed_at = '2026-10-21T10:00:00.000Z', \
         first_reply_at = NULL WHERE id = ?1",
        [&id],
    )
    .unwrap();
}

/// November 2026, weeks of Monday 2 (three cases), 9 (one) and 16 (four), and a case just
/// outside each end; one conversation comes back after its October case was resolved, another
/// after its October case was cancelled.
fn november(conn: &Connection) {
    closed_in_october(conn, "came-back", true);
    closed_in_october(conn, "cancelled-before", false);
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
        let id = open(conn, conversation, reason);
        backdate(conn, &id, opened, reply_after);
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
    let (_dir, _path, conn) = new_db();
    november(&conn);
    let report = case_report(&conn, &november_range()).unwrap();
    assert_eq!(
        report.weeks,
        vec![
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
        ]
    );
}

#[test]
fn the_report_gives_each_reasons_median_first_reply_and_reopened_cases() {
    let (_dir, _path, conn) = new_db();
    november(&conn);
    let report = case_report(&conn, &november_range()).unwrap();
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
    let (_dir, _path, conn) = new_db();
    november(&conn);
    let report = case_report(&conn, &november_range()).unwrap();
    // 120, 300, 600, 1800, 3600, 7200: the mean of 600 and 1800.
    assert_eq!(
        report.overall,
        ReportSummary {
            reason: None,
            cases: 8,
            replied: 6,
            median_first_reply_secs: Some(1200),
            reopened: 1
        }
    );
    assert_eq!(report.range, november_range());
}

#[test]
fn a_range_that_runs_backwards_or_past_a_year_is_refused() {
    let (_dir, _path, conn) = new_db();
    let backwards = ReportRange { from: "2026-11-22".into(), to: "2026-11-02".into() };
    let err = case_report(&conn, &backwards).unwrap_err();
    assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("invalid_case_input", Some("to")));
    let long = ReportRange { from: "2025-01-01".into(), to: "2026-01-02".into() };
    assert_eq!(case_report(&conn, &long).unwrap_err().code(), "invalid_case_input");
    let malformed = ReportRange { from: "02/11/2026".into(), to: "2026-11-22".into() };
    let err = case_report(&conn, &malformed).unwrap_err();
    assert_eq!(err.details().unwrap()["field"], "from");
}

#[test]
fn the_first_reply_time_is_the_first_answer_not_a_later_one() {
    let (_dir, _path, conn) = new_db();
    let id = open(&conn, "conv-1", PolicyRestriction);
    reply(&conn, &id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    let first: String =
        conn.query_row("SELECT first_reply_at FROM cases WHERE id = ?1", [&id], |r| r.get(0)).unwrap();
    provide_update(&conn, &id, "The Visa ending 4242.").unwrap();
    reply(&conn, &id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    let after: String =
        conn.query_row("SELECT first_reply_at FROM cases WHERE id = ?1", [&id], |r| r.get(0)).unwrap();
    assert_eq!(after, first);
}

#[test]
fn the_case_keeps_the_reason_it_was_opened_with() {
    let (_dir, _path, conn) = new_db();
    let id = open(&conn, "conv-1", MissingKnowledge);
    assert_eq!(find_case(&conn, &id).unwrap().reason, MissingKnowledge);
}

#[test]
fn an_agent_case_claiming_the_guardrails_reason_is_refused_and_nothing_is_written() {
    let (_dir, _path, conn) = new_db();
    let mut new = refund_case("conv-1");
    new.reason = GuardrailAutofallback;
    let err = open_case(&conn, new).unwrap_err();
    assert_eq!(err.code(), "invalid_reason");
    let cases: i64 = conn.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).unwrap();
    assert_eq!(cases, 0);
}

#[test]
fn the_inbox_filter_by_reason_shows_only_that_reasons_cases() {
    let (_dir, _path, conn) = new_db();
    november(&conn);
    let filter = CaseFilter { reason: Some(PolicyRestriction), ..CaseFilter::default() };
    let page = list_cases(&conn, &filter).unwrap();
    assert_eq!(page.total, 5);
    assert!(page.items.iter().all(|i| i.case.reason == PolicyRestriction));
    let not_stated = CaseFilter { reason: Some(NotStated), ..CaseFilter::default() };
    let conversations: Vec<String> =
        list_cases(&conn, &not_stated).unwrap().items.into_iter().map(|i| i.case.conversation_id).collect();
    assert_eq!(conversations, ["n"]);
}
