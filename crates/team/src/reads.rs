//! Reading the team inbox: one case with its timeline, the inbox pages with their tab counts,
//! the read marks and the handover report.
//!
//! Every page is read the way its order is held by an index: the page walks that index and stops
//! after its rows, so the first page costs the same at a million cases as at a hundred. An order
//! that no single index holds (overdue promises first, due soonest first, open before closed) is
//! read as consecutive stretches, each one an index's order, and paged across them.

use postgres::types::ToSql;
use postgres::{GenericClient, Row, Transaction};
use skillcase_cases::clock;
use skillcase_cases::model::{Case, DeliveryState};
use skillcase_cases::promises::{promises_of, PendingPromise};
use skillcase_cases::reads::UNREAD_SQL;
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::report::{
    checked_range, CaseReport, ReasonCount, ReportRange, ReportSummary, ReportWeek,
};
use skillcase_cases::store::{
    checked_day, search_words, CaseFilter, CaseListItem, CasePage, CaseSort, CaseTab, CaseView,
    CaseWithTimeline, TabCounts, DEFAULT_PAGE, MAX_PAGE,
};
use skillcase_cases::transition::bulk_ids;
use skillcase_cases::CasesError;

use crate::error::TeamError;
use crate::rows::{
    case_from_row, deliveries_for_case, events_for_case, find_case, CASE_COLUMNS, CASE_COLUMN_COUNT,
};

/// The folded text the inbox search reads, exactly as the trigram index `cases_search_text`
/// holds it (the planner uses the index only for this very expression).
const SEARCH_TEXT: &str = "(search_fields || ' ' || search_talk)";

/// The cases waiting on the person that they have not opened since they began waiting (what
/// `UNREAD_SQL` says of a case waiting on the person), word for word the predicate of the index
/// `cases_unread`, so the planner counts them from that index alone.
pub const UNREAD_WAITING: &str = "status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since)";

/// The open cases, as the partial indexes `cases_one_open_per_conversation` and
/// `cases_open_waiting` select them.
const OPEN: &str = "status IN ('awaiting_human', 'awaiting_lead')";

/// The case with its whole timeline, deliveries and promise ledger; `case_not_found` if there is
/// none.
pub fn get_case(c: &mut impl GenericClient, id: &str) -> Result<CaseWithTimeline, TeamError> {
    let case = find_case(c, id)?;
    let events = events_for_case(c, id)?;
    let deliveries = deliveries_for_case(c, id)?;
    let replying = crate::lease::live(c, id, &skillcase_cases::clock::now())?;
    Ok(CaseWithTimeline { promises: promises_of(&events), case, events, deliveries, quiet: None, replying })
}

/// The case people know by `number` (`#1042`), through the unique index on `number`;
/// `case_not_found` naming the number if there is none.
pub fn find_case_by_number(c: &mut impl GenericClient, number: i64) -> Result<Case, TeamError> {
    let row = c.query_opt(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE number = $1"), &[&number])?;
    case_from_row(&row.ok_or(CasesError::CaseNumberNotFound { number })?)
}

/// One inbox page for `filter`, in the same order and with the same paging as on SQLite, with
/// the total the filter matches and the tab counts.
pub fn list_cases(c: &mut impl GenericClient, filter: &CaseFilter) -> Result<CasePage, TeamError> {
    let limit = match filter.limit {
        0 => DEFAULT_PAGE,
        n => n.min(MAX_PAGE),
    };
    let conditions = Conditions::of(filter)?;
    let counts = tab_counts(c)?;
    let total = match conditions.narrowed.is_empty() {
        true => tab_total(filter.tab, &counts),
        false => narrowed_total(c, &conditions, filter.tab)?,
    };
    let due_soonest = filter.sort == Some(CaseSort::DueSoonest);
    let stretches = stretches(filter.tab, due_soonest, conditions.by_assignee);
    let ids = page_ids(c, &conditions, &stretches, limit, filter.offset)?;
    Ok(CasePage { items: items(c, &ids)?, total, offset: filter.offset, limit, counts })
}

/// How many cases each tab holds and how many waiting on the person they have not opened yet.
///
/// Each open count is a count of one small index (`cases_open_status`, `cases_unread`): the cases
/// waiting now, not the whole history, and a few bytes each. Closed cases are not counted one
/// by one: the case counter hands out numbers without gaps (its row lock makes the opening
/// transactions take turns, a rolled-back one gives its number back) and no case is ever deleted,
/// so the cases are exactly those numbered from the lowest to the highest number — two index
/// lookups — and the closed ones are those that are not open.
pub fn tab_counts(c: &mut impl GenericClient) -> Result<TabCounts, TeamError> {
    let row = c.query_one(
        &format!(
            "SELECT (SELECT count(*) FROM cases WHERE status = 'awaiting_human'), \
             (SELECT count(*) FROM cases WHERE status = 'awaiting_lead'), \
             (SELECT count(*) FROM cases WHERE {UNREAD_WAITING}), \
             (SELECT coalesce(max(number) - min(number) + 1, 0) FROM cases)"
        ),
        &[],
    )?;
    let (waiting_on_you, waiting_on_customer): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
    let numbered: i64 = row.try_get(3)?;
    Ok(TabCounts {
        waiting_on_you,
        waiting_on_customer,
        closed: numbered - waiting_on_you - waiting_on_customer,
        unread: row.try_get(2)?,
    })
}

/// Marks the case read now (the person opened it) or unread again; `case_not_found` if there is
/// none. Every instance's inbox shows the mark once this commits.
pub fn set_read(tx: &mut Transaction<'_>, case_id: &str, read: bool) -> Result<(), TeamError> {
    let at = read.then(clock::now);
    match tx.execute("UPDATE cases SET read_at = $2 WHERE id = $1", &[&case_id, &at])? {
        0 => Err(CasesError::CaseNotFound { id: case_id.to_string() }.into()),
        _ => Ok(()),
    }
}

/// Marks several cases read or unread at once: all of them, or none when one does not exist.
/// The rows are locked in id order first, so two instances marking overlapping sets take turns
/// instead of deadlocking.
pub fn set_read_many(tx: &mut Transaction<'_>, case_ids: &[String], read: bool) -> Result<(), TeamError> {
    let ids = bulk_ids(case_ids)?;
    let locked = tx.query("SELECT id FROM cases WHERE id = ANY($1) ORDER BY id FOR UPDATE", &[&ids])?;
    let locked = locked.iter().map(|row| row.try_get(0)).collect::<Result<Vec<String>, _>>()?;
    if let Some(missing) = ids.iter().find(|id| !locked.contains(id)) {
        return Err(CasesError::CaseNotFound { id: missing.clone() }.into());
    }
    let at = read.then(clock::now);
    tx.execute("UPDATE cases SET read_at = $2 WHERE id = ANY($1)", &[&ids, &at])?;
    Ok(())
}

/// The handover report over the cases opened in `range` (SPEC D5), with the same figures as on
/// SQLite: each week's cases per reason (every week of the range, empty ones included), and per
/// reason and overall the cases, the answered ones, the median time to the first answer (the
/// mean of the two middle ones for an even count) and the reopened ones. Every figure is an
/// aggregate over `cases_by_opened_reason` and, for reopened cases, `cases_by_conversation_resolved`.
///
/// Both queries read one transaction, without JIT compilation: the planner's estimate counts an
/// index probe per case for the reopened ones, which sets off a compilation that costs more
/// than the query it compiles.
pub fn report(c: &mut impl GenericClient, range: &ReportRange) -> Result<CaseReport, TeamError> {
    let (from, to) = checked_range(range)?;
    let range = ReportRange { from: from.to_string(), to: to.to_string() };
    let mut tx = c.transaction()?;
    tx.batch_execute("SET LOCAL jit = off")?;
    let weeks = report_weeks(&mut tx, &range)?;
    let (reasons, overall) = report_summaries(&mut tx, &range)?;
    tx.commit()?;
    Ok(CaseReport { range, weeks, reasons, overall })
}

/// The cases of the report's range (`$1` its first day, `$2` its last, both included).
fn in_range() -> String {
    format!("opened_at >= $1 AND opened_at < {}", day_after("$2"))
}

/// The day after the `YYYY-MM-DD` parameter `param`, as text: the bound of "on or before it".
fn day_after(param: &str) -> String {
    format!("to_char({param}::text::date + 1, 'YYYY-MM-DD')")
}

/// Every week of the range (its Monday, in UTC like every stored time) with its cases per reason.
fn report_weeks(c: &mut impl GenericClient, range: &ReportRange) -> Result<Vec<ReportWeek>, TeamError> {
    let sql = format!(
        "WITH counted AS ( \
             SELECT date_trunc('week', left(opened_at, 10)::timestamp) AS week, reason, count(*) AS cases \
             FROM cases WHERE {} GROUP BY 1, 2) \
         SELECT to_char(w.week, 'YYYY-MM-DD'), counted.reason, counted.cases \
         FROM generate_series(date_trunc('week', $1::text::timestamp), $2::text::timestamp, interval '7 days') \
             AS w (week) \
         LEFT JOIN counted USING (week) ORDER BY w.week",
        in_range()
    );
    let mut weeks: Vec<ReportWeek> = Vec::new();
    for row in c.query(&sql, &[&range.from, &range.to])? {
        let week: String = row.try_get(0)?;
        if weeks.last().is_none_or(|last| last.week != week) {
            weeks.push(ReportWeek { week, total: 0, by_reason: Vec::new() });
        }
        let (Some(reason), Some(cases)) = (row.try_get::<_, Option<String>>(1)?, row.try_get(2)?) else {
            continue;
        };
        let slot = weeks.last_mut().expect("a week was pushed for this row");
        slot.total += cases;
        slot.by_reason.push(ReasonCount { reason: parsed_reason(reason)?, cases });
    }
    for week in &mut weeks {
        week.by_reason.sort_by_key(|count| count.reason);
    }
    Ok(weeks)
}

/// The summary of each reason that has cases, in the SPEC's order, and the overall one (the
/// grand total row, which `GROUPING SETS` returns even for a range without cases).
fn report_summaries(
    c: &mut impl GenericClient,
    range: &ReportRange,
) -> Result<(Vec<ReportSummary>, ReportSummary), TeamError> {
    let rows = c.query(&summaries_sql(), &[&range.from, &range.to])?;
    let mut summaries = rows.iter().map(summary_from_row).collect::<Result<Vec<_>, _>>()?;
    summaries.sort_by_key(|s| s.reason);
    let overall = match summaries.first().is_some_and(|s| s.reason.is_none()) {
        true => summaries.remove(0),
        false => {
            ReportSummary { reason: None, cases: 0, replied: 0, median_first_reply_secs: None, reopened: 0 }
        }
    };
    Ok((summaries, overall))
}

/// One row per reason and one for the whole range (`GROUPING SETS`), each with its cases,
/// answered cases, reopened cases and median seconds to the first answer (`percentile_cont`
/// interpolates between the two middle ones; rounded half away from zero, as on SQLite).
fn summaries_sql() -> String {
    format!(
        "SELECT GROUPING(reason) = 1, reason, count(*), count(first_reply_at), \
         count(*) FILTER (WHERE EXISTS (SELECT 1 FROM cases earlier \
             WHERE earlier.conversation_id = cases.conversation_id AND earlier.status = 'resolved' \
             AND earlier.closed_at <= cases.opened_at)), \
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY \
             extract(epoch FROM first_reply_at::timestamptz - opened_at::timestamptz))::numeric)::bigint \
         FROM cases WHERE {} GROUP BY GROUPING SETS ((reason), ())",
        in_range()
    )
}

fn summary_from_row(row: &Row) -> Result<ReportSummary, TeamError> {
    let overall: bool = row.try_get(0)?;
    let reason = match overall {
        true => None,
        false => Some(parsed_reason(row.try_get(1)?)?),
    };
    Ok(ReportSummary {
        reason,
        cases: row.try_get(2)?,
        replied: row.try_get(3)?,
        reopened: row.try_get(4)?,
        median_first_reply_secs: row.try_get(5)?,
    })
}

fn parsed_reason(value: String) -> Result<HandoverReason, TeamError> {
    HandoverReason::parse(&value)
        .ok_or(TeamError::Cases(CasesError::Corrupt { what: "handover reason", value }))
}

/// A filter as SQL over `cases`: the tab's condition and the conditions that narrow it further,
/// their values as `$n` parameters.
#[derive(Default)]
struct Conditions {
    tab: Option<&'static str>,
    narrowed: Vec<String>,
    args: Vec<String>,
    /// Whether a view picks the cases by assignee: the open cases' assignee index holds only
    /// rows with `closed_at IS NULL`, so a condition must say so for the planner to use it.
    by_assignee: bool,
}

impl Conditions {
    fn of(filter: &CaseFilter) -> Result<Conditions, TeamError> {
        let mut conditions = Conditions { tab: filter.tab.map(tab_condition), ..Conditions::default() };
        if let Some(status) = filter.status {
            conditions.narrow("status = ", status.as_str().to_string());
        }
        if let Some(reason) = filter.reason {
            conditions.narrow("reason = ", reason.as_str().to_string());
        }
        conditions.view(filter)?;
        if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            let condition = conditions.search(search);
            conditions.narrowed.push(condition);
        }
        if let Some(day) = &filter.opened_from {
            conditions.narrow("opened_at >= ", checked_day("opened_from", day)?);
        }
        if let Some(day) = &filter.opened_to {
            let param = conditions.param(checked_day("opened_to", day)?);
            conditions.narrowed.push(format!("opened_at < {}", day_after(&param)));
        }
        Ok(conditions)
    }

    /// Adds `value` as the next parameter; returns its placeholder.
    fn param(&mut self, value: String) -> String {
        self.args.push(value);
        format!("${}", self.args.len())
    }

    /// Narrows to the cases where `condition` (ending in an operator) holds for `value`.
    fn narrow(&mut self, condition: &str, value: String) {
        let param = self.param(value);
        self.narrowed.push(format!("{condition}{param}"));
    }

    fn view(&mut self, filter: &CaseFilter) -> Result<(), TeamError> {
        match filter.view {
            None | Some(CaseView::All) => return Ok(()),
            Some(CaseView::Unassigned) => self.narrowed.push("assignee IS NULL".into()),
            Some(CaseView::Mine) => {
                let me = filter.me.as_deref().map(str::trim).filter(|m| !m.is_empty());
                self.narrow("assignee = ", me.ok_or(CasesError::TextRequired { field: "me" })?.to_string());
            }
        }
        self.by_assignee = true;
        Ok(())
    }

    /// The number typed (`1042` or `#1042`), or every word typed found somewhere in the case's
    /// folded text (so a prefix finds the word and "joao" finds "João"). Words are matched with
    /// `LIKE`, its wildcards escaped, so whatever is typed is only text; nothing to look for
    /// finds nothing.
    fn search(&mut self, search: &str) -> String {
        let mut alternatives = Vec::new();
        if let Ok(number) = search.trim_start_matches('#').parse::<i64>() {
            alternatives.push(format!("number = {number}"));
        }
        let words: Vec<String> = search_words(search)
            .map(|word| {
                let param = self.param(like_escaped(word));
                format!("{SEARCH_TEXT} LIKE '%' || skillcase_fold({param}) || '%'")
            })
            .collect();
        if !words.is_empty() {
            alternatives.push(format!("({})", words.join(" AND ")));
        }
        match alternatives.is_empty() {
            true => "false".into(),
            false => format!("({})", alternatives.join(" OR ")),
        }
    }

    /// Every condition of the filter and `more`, joined.
    fn sql(&self, more: &str) -> String {
        self.tab
            .into_iter()
            .chain(self.narrowed.iter().map(String::as_str))
            .chain([more])
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    fn args(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.args.iter().map(|arg| arg as &(dyn ToSql + Sync)).collect()
    }

    /// How many cases meet the filter and `more`.
    fn count(&self, c: &mut impl GenericClient, more: &str) -> Result<i64, TeamError> {
        let row =
            c.query_one(&format!("SELECT count(*) FROM cases WHERE {}", self.sql(more)), &self.args())?;
        Ok(row.try_get(0)?)
    }
}

/// A word as a `LIKE` pattern that matches only itself: `\`, `%` and `_` escaped.
fn like_escaped(word: &str) -> String {
    word.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// The condition that selects a tab's cases, as an index on `status` or `closed_at` serves it.
fn tab_condition(tab: CaseTab) -> &'static str {
    match tab {
        CaseTab::WaitingOnYou => "status = 'awaiting_human'",
        CaseTab::WaitingOnCustomer => "status = 'awaiting_lead'",
        CaseTab::Closed => "closed_at IS NOT NULL",
    }
}

/// An unnarrowed tab's total: its count.
fn tab_total(tab: Option<CaseTab>, counts: &TabCounts) -> i64 {
    match tab {
        Some(CaseTab::WaitingOnYou) => counts.waiting_on_you,
        Some(CaseTab::WaitingOnCustomer) => counts.waiting_on_customer,
        Some(CaseTab::Closed) => counts.closed,
        None => counts.waiting_on_you + counts.waiting_on_customer + counts.closed,
    }
}

/// How many cases a narrowed filter matches: counted per stretch of the tab's plain order, which
/// split the tab between the open cases' and the closed cases' partial indexes, so each count
/// reads one of them rather than every case.
fn narrowed_total(
    c: &mut impl GenericClient,
    conditions: &Conditions,
    tab: Option<CaseTab>,
) -> Result<i64, TeamError> {
    plain_stretches(tab, conditions.by_assignee)
        .iter()
        .map(|stretch| conditions.count(c, &stretch.condition))
        .sum()
}

/// One stretch of a page's order: the cases meeting `condition`, in `order`, an order one index
/// holds for them.
struct Stretch {
    condition: String,
    order: &'static str,
}

fn stretch(condition: impl Into<String>, order: &'static str) -> Stretch {
    Stretch { condition: condition.into(), order }
}

/// The stretches a page's order is read in, one after the other.
///
/// - *Waiting on you*: first the cases whose promise to the customer is overdue now, most overdue
///   first (few, from `cases_promise_waiting`), then the others longest-waiting first.
/// - Due soonest: first the cases with a running response-time target, soonest due first
///   (`cases_sla_due`), then the others in the tab's plain order.
/// - No tab: the open cases longest-waiting first, then the closed ones most recently closed
///   first (ties by number, as on SQLite).
fn stretches(tab: Option<CaseTab>, due_soonest: bool, by_assignee: bool) -> Vec<Stretch> {
    let plain = plain_stretches(tab, by_assignee);
    if due_soonest {
        let rest =
            plain.into_iter().map(|s| stretch(format!("sla_due_at IS NULL AND {}", s.condition), s.order));
        return std::iter::once(stretch("sla_due_at IS NOT NULL", "sla_due_at, number"))
            .chain(rest)
            .collect();
    }
    if tab != Some(CaseTab::WaitingOnYou) {
        return plain;
    }
    let now = clock::now();
    let mut stretches =
        vec![stretch(format!("promise_due_at <= '{now}'"), "promise_due_at, waiting_since, number")];
    for rest in plain {
        let condition =
            format!("(promise_due_at IS NULL OR promise_due_at > '{now}') AND {}", rest.condition);
        stretches.push(stretch(condition, rest.order));
    }
    stretches
}

/// A tab's order without the promises or the targets first.
fn plain_stretches(tab: Option<CaseTab>, by_assignee: bool) -> Vec<Stretch> {
    let open = match by_assignee {
        true => "closed_at IS NULL",
        false => "true",
    };
    match tab {
        Some(CaseTab::WaitingOnYou | CaseTab::WaitingOnCustomer) => {
            vec![stretch(open, "waiting_since, number")]
        }
        Some(CaseTab::Closed) => vec![stretch("true", "closed_at DESC, number DESC")],
        None => vec![
            stretch(format!("{OPEN} AND {open}"), "waiting_since, number"),
            stretch("closed_at IS NOT NULL", "closed_at DESC, number"),
        ],
    }
}

/// The ids of one page, `offset` cases into the stretches read one after the other: each
/// stretch's walk stops after the page; a stretch the offset passes entirely is counted (only
/// ever a stretch before the last, which holds few cases) to know how far into the next one the
/// page begins.
fn page_ids(
    c: &mut impl GenericClient,
    conditions: &Conditions,
    stretches: &[Stretch],
    limit: u32,
    offset: u32,
) -> Result<Vec<String>, TeamError> {
    let mut ids: Vec<String> = Vec::new();
    let mut skip = i64::from(offset);
    for (n, stretch) in stretches.iter().enumerate() {
        let wanted = i64::from(limit) - ids.len() as i64;
        if wanted <= 0 {
            break;
        }
        let sql = format!(
            "SELECT id FROM cases WHERE {} ORDER BY {} LIMIT {wanted} OFFSET {skip}",
            conditions.sql(&stretch.condition),
            stretch.order
        );
        let found = c.query(&sql, &conditions.args())?;
        let passed_over = found.is_empty() && skip > 0 && n + 1 < stretches.len();
        skip = match passed_over {
            true => (skip - conditions.count(c, &stretch.condition)?).max(0),
            false => 0,
        };
        for row in found {
            ids.push(row.try_get(0)?);
        }
    }
    Ok(ids)
}

/// The page's rows whole, in the order of `ids`, each with the state of its latest delivery,
/// whether it is unread and the promise it still owes.
fn items(c: &mut impl GenericClient, ids: &[String]) -> Result<Vec<CaseListItem>, TeamError> {
    let sql = format!(
        "SELECT {CASE_COLUMNS}, (SELECT state FROM deliveries d WHERE d.case_id = cases.id \
         ORDER BY d.created_at DESC, d.id DESC LIMIT 1), {UNREAD_SQL}, promise_quote, promise_due_at \
         FROM cases WHERE id = ANY($1)"
    );
    let mut items = c.query(&sql, &[&ids])?.iter().map(item_from_row).collect::<Result<Vec<_>, _>>()?;
    items.sort_by_key(|item| ids.iter().position(|id| *id == item.case.id));
    Ok(items)
}

fn item_from_row(row: &Row) -> Result<CaseListItem, TeamError> {
    let extra = CASE_COLUMN_COUNT;
    let latest_delivery = match row.try_get::<_, Option<String>>(extra)? {
        Some(value) => {
            Some(DeliveryState::parse(&value).ok_or(CasesError::Corrupt { what: "delivery state", value })?)
        }
        None => None,
    };
    let promise = match row.try_get::<_, Option<String>>(extra + 2)? {
        Some(quote) => Some(PendingPromise { quote, due_at: row.try_get(extra + 3)? }),
        None => None,
    };
    Ok(CaseListItem { case: case_from_row(row)?, latest_delivery, unread: row.try_get(extra + 1)?, promise })
}
