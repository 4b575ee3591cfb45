//! SPEC D5: why the AI handed over — the reason stored with each case — and the report: cases
//! per reason per week (empty weeks included), the median time to the first human reply, and
//! the cases that came back after their conversation's case was resolved, with exact figures
//! over known cases.

use skillcase_cases::model::{Actor, CaseSource, HumanAction, NewCase};
use skillcase_cases::reason::HandoverReason::{self, *};
use skillcase_cases::report::{ReasonCount, ReportRange, ReportSummary, ReportWeek};
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::{plus_secs, refund_case, Db};

/// Opens a case for `conversation` with `reason` (as the guardrail does for its own reason).
fn open(db: &Db, conversation: &str, reason: HandoverReason) -> String {
    let source =
        if reason == GuardrailAutofallback { CaseSource::GuardrailAutofallback } else { CaseSource::Agent };
    db.open_case(NewCase { reason, source, ..refund_case(conversation) }).unwrap().case.id
}

/// A case opened at `opened` and, when it has one, first answered `reply_after` seconds later
/// (so the figures do not depend on when the test runs).
fn opened_at(
    db: &Db,
    conversation: &str,
    reason: HandoverReason,
    opened: &str,
    reply_after: Option<i64>,
) -> String {
    let id = open(db, conversation, reason);
    if reply_after.is_some() {
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
    }
    let first_reply = reply_after.map_or("NULL".to_string(), |secs| format!("'{}'", plus_secs(opened, secs)));
    db.set(&id, &format!("opened_at = '{opened}', first_reply_at = {first_reply}"));
    id
}

/// A case that was closed (resolved or cancelled) in October, before the report's range.
fn closed_in_october(db: &Db, conversation: &str, resolved: bool) {
    let id = open(db, conversation, CustomerRequest);
    if resolved {
        db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    } else {
        db.cancel(&id, Actor::Agent, None, Some("opened by mistake")).unwrap();
    }
    db.set(
        &id,
        "opened_at = '2026-10-20T10:00:00.000Z', closed_at = '2026-10-21T10:00:00.000Z', first_reply_at = NULL",
    );
}

/// November 2026, weeks of Monday 2 (three cases), 9 (one) and 16 (four), and a case just
/// outside each end; one conversation comes back after its October case was resolved, another
/// after its October case was cancelled.
fn november(db: &Db) {
    closed_in_october(db, "came-back", true);
    closed_in_october(db, "cancelled-before", false);
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
        opened_at(db, conversation, reason, opened, reply_after);
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

on_both! {
    fn the_report_counts_each_weeks_cases_per_reason_empty_weeks_included(db) {
        november(db);
        let range = ReportRange { from: "2026-11-02".into(), to: "2026-11-29".into() };
        let report = db.report(&range).unwrap();
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
        let empty = db.report(&ReportRange { from: "2026-12-07".into(), to: "2026-12-20".into() }).unwrap();
        let weeks: Vec<(&str, i64)> = empty.weeks.iter().map(|w| (w.week.as_str(), w.total)).collect();
        assert_eq!(weeks, [("2026-12-07", 0), ("2026-12-14", 0)]);
    }
}

on_both! {
    fn the_report_gives_each_reasons_median_first_reply_and_reopened_cases(db) {
        november(db);
        let report = db.report(&november_range()).unwrap();
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
}

on_both! {
    fn the_overall_median_is_over_every_answered_case_of_the_range(db) {
        november(db);
        let report = db.report(&november_range()).unwrap();
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
}

on_both! {
    fn a_median_half_way_between_two_seconds_rounds_up(db) {
        opened_at(db, "a", NotStated, "2026-11-02T10:00:00.000Z", Some(1));
        opened_at(db, "b", NotStated, "2026-11-02T11:00:00.000Z", Some(2));
        assert_eq!(db.report(&november_range()).unwrap().overall.median_first_reply_secs, Some(2));
    }
}

on_both! {
    fn a_range_without_cases_reports_zero_overall(db) {
        let report = db.report(&november_range()).unwrap();
        assert_eq!((report.weeks.len(), report.reasons.len()), (3, 0));
        let zero =
            ReportSummary { reason: None, cases: 0, replied: 0, median_first_reply_secs: None, reopened: 0 };
        assert_eq!(report.overall, zero);
    }
}

on_both! {
    fn a_range_that_runs_backwards_or_past_a_year_or_is_not_days_is_refused(db) {
        let backwards = ReportRange { from: "2026-11-22".into(), to: "2026-11-02".into() };
        let err = db.report(&backwards).unwrap_err();
        assert_eq!(
            (err.code(), err.details().unwrap()["field"].as_str()),
            ("invalid_case_input", Some("to"))
        );
        let long = ReportRange { from: "2025-01-01".into(), to: "2026-01-02".into() };
        assert_eq!(db.report(&long).unwrap_err().code(), "invalid_case_input");
        let malformed = ReportRange { from: "02/11/2026".into(), to: "2026-11-22".into() };
        assert_eq!(db.report(&malformed).unwrap_err().details().unwrap()["field"], "from");
    }
}

on_both! {
    fn the_first_reply_time_is_the_first_answer_not_a_later_one(db) {
        let id = open(db, "conv-1", PolicyRestriction);
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let query = format!("SELECT first_reply_at FROM cases WHERE id = '{id}'");
        let first = db.text(&query).unwrap();
        db.provide_update(&id, "The Visa ending 4242.").unwrap();
        db.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
        assert_eq!(db.text(&query).unwrap(), first);
    }
}

on_both! {
    fn the_case_keeps_the_reason_it_was_opened_with(db) {
        let id = open(db, "conv-1", MissingKnowledge);
        assert_eq!(db.case(&id).reason, MissingKnowledge);
    }
}
