//! The handover report (SPEC D5): over the cases opened in a range of days, how many the AI
//! handed over for each reason in each week, how long people took to send the first answer (the
//! median, per reason and overall), and how many cases were reopened.
//!
//! A case is **reopened** when its conversation already had a case that was resolved before this
//! one was opened: the customer came back after being told the matter was settled. Weeks start on
//! Monday and, like every stored time, are counted in UTC. The **first human reply** is the first
//! of the three answers a person sent (resolved, need info, escalate); internal notes are not
//! replies. Medians are over the cases that have one; the others are counted as unanswered.
//!
//! Every figure is an SQL aggregate over the indexes of migration 10, so the report costs the same
//! few milliseconds however many cases there are outside the range, and never loads a case.

use serde::{Deserialize, Serialize};
use time::{Date, Duration};
use ts_rs::TS;

use super::error::CasesError;
use super::reason::HandoverReason;
use super::store::checked_day;

/// The longest range a report covers, in days (a year and a day, so a leap year fits).
pub const MAX_REPORT_DAYS: i64 = 366;

/// Which days the report covers, both included (`YYYY-MM-DD`, UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReportRange {
    pub from: String,
    pub to: String,
}

/// Cases opened for one reason (in one week, or in the whole range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReasonCount {
    pub reason: HandoverReason,
    pub cases: i64,
}

/// One week of the chart: the cases opened in it, per reason (only the reasons it has).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReportWeek {
    /// The week's Monday (`YYYY-MM-DD`).
    pub week: String,
    pub total: i64,
    pub by_reason: Vec<ReasonCount>,
}

/// The figures of one reason, or of every case (`reason` absent) in the range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReportSummary {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<HandoverReason>,
    pub cases: i64,
    /// Cases a person has answered at least once.
    pub replied: i64,
    /// The median time from opening to the first human reply, in seconds; `None` without replies.
    pub median_first_reply_secs: Option<i64>,
    /// Cases whose conversation had a case resolved before they were opened.
    pub reopened: i64,
}

/// The whole report: the chart's weeks (every week of the range, empty ones included), one
/// summary per reason that has cases (in the SPEC's order), and the overall summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseReport {
    pub range: ReportRange,
    pub weeks: Vec<ReportWeek>,
    pub reasons: Vec<ReportSummary>,
    pub overall: ReportSummary,
}

/// The range's two days, checked: `invalid_case_input` when a day is malformed, the range runs
/// backwards or is longer than [`MAX_REPORT_DAYS`]. Public so the team database's report
/// refuses the same ranges.
pub fn checked_range(range: &ReportRange) -> Result<(Date, Date), CasesError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let day = |field, value: &str| -> Result<Date, CasesError> {
        let text = checked_day(field, value)?;
        Date::parse(&text, &format)
            .map_err(|_| CasesError::InvalidInput { field, reason: "is not a day".into() })
    };
    let (from, to) = (day("from", &range.from)?, day("to", &range.to)?);
    if to < from {
        return Err(CasesError::InvalidInput { field: "to", reason: format!("is before from ({from})") });
    }
    let days = (to - from).whole_days() + 1;
    if days > MAX_REPORT_DAYS {
        return Err(CasesError::InvalidInput {
            field: "to",
            reason: format!("makes the range {days} days long; a report covers at most {MAX_REPORT_DAYS}"),
        });
    }
    Ok((from, to))
}

/// The Monday of `day`'s week.
pub fn monday_of(day: Date) -> Date {
    day - Duration::days(i64::from(day.weekday().number_days_from_monday()))
}

/// A stored handover reason, or `db_corrupt`.
pub fn parsed(reason: &str) -> Result<HandoverReason, CasesError> {
    HandoverReason::parse(reason)
        .ok_or_else(|| CasesError::Corrupt { what: "handover reason", value: reason.to_string() })
}

/// Every week from `from`'s to `to`'s, empty: the report fills in each week's counts.
pub fn empty_weeks(from: Date, to: Date) -> Vec<ReportWeek> {
    let mut out = Vec::new();
    let mut monday = monday_of(from);
    while monday <= to {
        out.push(ReportWeek { week: monday.to_string(), total: 0, by_reason: Vec::new() });
        monday += Duration::days(7);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weeks_monday_is_itself_for_a_monday_and_six_days_back_for_a_sunday() {
        let day =
            |s: &str| Date::parse(s, time::macros::format_description!("[year]-[month]-[day]")).unwrap();
        assert_eq!(monday_of(day("2026-11-30")), day("2026-11-30"));
        assert_eq!(monday_of(day("2026-12-06")), day("2026-11-30"));
        assert_eq!(monday_of(day("2026-12-02")), day("2026-11-30"));
    }
}
