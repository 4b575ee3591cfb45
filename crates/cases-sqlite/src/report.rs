//! The handover report on SQLite: every figure an SQL aggregate over the indexes of migration 10,
//! so the report costs the same few milliseconds however many cases lie outside the range, and
//! never loads a case. What the figures mean is the domain's ([`skillcase_cases::report`]).

use time::Date;

use skillcase_cases::args;
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::report::{
    checked_range, empty_weeks, parsed, CaseReport, ReasonCount, ReportRange, ReportSummary, ReportWeek,
};
use skillcase_cases::sql::Sql;
use skillcase_cases::CasesError;

/// The cases of the range, as every query below selects them (`?1` the first day, `?2` the last).
const IN_RANGE: &str = "opened_at >= $1 AND opened_at < date($2, '+1 day')";

/// Seconds from opening to the first reply.
/// (`julianday` counts days in a double: a second is off by a few microseconds, so the difference
/// is rounded to the millisecond the stamps hold, and a median half-way between two whole
/// seconds rounds up as on PostgreSQL.)
const FIRST_REPLY_SECS: &str =
    "round((julianday(first_reply_at) - julianday(opened_at)) * 86400000.0) / 1000.0";

/// The report for `range`; `invalid_case_input` when a day is malformed, the range runs
/// backwards or is longer than [`MAX_REPORT_DAYS`].
pub fn case_report(sql: &mut dyn Sql, range: &ReportRange) -> Result<CaseReport, CasesError> {
    let (from, to) = checked_range(range)?;
    let range = ReportRange { from: from.to_string(), to: to.to_string() };
    let weeks = weeks(sql, &range, from, to)?;
    let mut reasons = summaries(sql, &range)?;
    let medians = medians(sql, &range, "reason")?;
    for summary in &mut reasons {
        let key = summary.reason.map_or("", HandoverReason::as_str);
        summary.median_first_reply_secs = medians.iter().find(|(k, _)| k == key).map(|(_, m)| *m);
    }
    let overall = ReportSummary {
        reason: None,
        cases: reasons.iter().map(|r| r.cases).sum(),
        replied: reasons.iter().map(|r| r.replied).sum(),
        median_first_reply_secs: medians_overall(sql, &range)?,
        reopened: reasons.iter().map(|r| r.reopened).sum(),
    };
    Ok(CaseReport { range, weeks, reasons, overall })
}

/// Every week from `from`'s to `to`'s, with its counts per reason.
fn weeks(
    sql: &mut dyn Sql,
    range: &ReportRange,
    from: Date,
    to: Date,
) -> Result<Vec<ReportWeek>, CasesError> {
    let mut out = empty_weeks(from, to);
    // `date(t, '-6 days', 'weekday 1')`: the Monday on or before t's day.
    let query = format!(
        "SELECT date(opened_at, '-6 days', 'weekday 1') AS week, reason, count(*) FROM cases \
         WHERE {IN_RANGE} GROUP BY week, reason"
    );
    for row in sql.query(&query, args![&range.from, &range.to])? {
        let (week, reason, cases) = (row.text(0)?, row.text(1)?, row.int(2)?);
        let reason = parsed(&reason)?;
        if let Some(slot) = out.iter_mut().find(|w| w.week == week) {
            slot.total += cases;
            slot.by_reason.push(ReasonCount { reason, cases });
        }
    }
    for week in &mut out {
        week.by_reason.sort_by_key(|c| c.reason);
    }
    Ok(out)
}

/// Cases, answered cases and reopened cases per reason, in the SPEC's order.
fn summaries(sql: &mut dyn Sql, range: &ReportRange) -> Result<Vec<ReportSummary>, CasesError> {
    let query = format!(
        "SELECT reason, count(*), count(first_reply_at), \
         sum(EXISTS (SELECT 1 FROM cases earlier WHERE earlier.conversation_id = cases.conversation_id \
                     AND earlier.status = 'resolved' AND earlier.closed_at <= cases.opened_at)) \
         FROM cases WHERE {IN_RANGE} GROUP BY reason"
    );
    let mut out = Vec::new();
    for row in sql.query(&query, args![&range.from, &range.to])? {
        let (reason, cases, replied, reopened) = (row.text(0)?, row.int(1)?, row.int(2)?, row.int(3)?);
        out.push(ReportSummary {
            reason: Some(parsed(&reason)?),
            cases,
            replied,
            median_first_reply_secs: None,
            reopened,
        });
    }
    out.sort_by_key(|s| s.reason);
    Ok(out)
}

/// The median seconds to the first reply per value of `group` (a column of `cases`), as
/// `(value, seconds)`: the middle one of an odd count, the mean of the two middle ones of an
/// even count.
fn medians(sql: &mut dyn Sql, range: &ReportRange, group: &str) -> Result<Vec<(String, i64)>, CasesError> {
    let query = format!(
        "WITH replied AS ( \
             SELECT {group} AS grp, {FIRST_REPLY_SECS} AS secs FROM cases \
             WHERE {IN_RANGE} AND first_reply_at IS NOT NULL), \
         ranked AS ( \
             SELECT grp, secs, row_number() OVER (PARTITION BY grp ORDER BY secs) AS n, \
                    count(*) OVER (PARTITION BY grp) AS total FROM replied) \
         SELECT grp, avg(secs) FROM ranked WHERE n IN ((total + 1) / 2, (total + 2) / 2) GROUP BY grp"
    );
    sql.query(&query, args![&range.from, &range.to])?
        .iter()
        .map(|row| Ok((row.text(0)?, row.opt_real(1)?.unwrap_or_default().round() as i64)))
        .collect()
}

fn medians_overall(sql: &mut dyn Sql, range: &ReportRange) -> Result<Option<i64>, CasesError> {
    Ok(medians(sql, range, "''")?.into_iter().next().map(|(_, m)| m))
}
