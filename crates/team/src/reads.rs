//! Reading the team inbox: the inbox pages with their tab counts, and the handover report —
//! the reads whose SQL is PostgreSQL's own. One case, its timeline and the read marks are the
//! domain's, the same on both databases.
//!
//! Every page is read the way its order is held by an index: the page walks that index and stops
//! after its rows, so the first page costs the same at a million cases as at a hundred. An order
//! that no single index holds (overdue promises first, due soonest first, open before closed) is
//! read as consecutive stretches, each one an index's order, and paged across them.

use skillcase_cases::args;
use skillcase_cases::clock;
use skillcase_cases::report::{
    checked_range, parsed, CaseReport, ReasonCount, ReportRange, ReportSummary, ReportWeek,
};
use skillcase_cases::rows::{case_from_row, CASE_COLUMNS, CASE_COLUMN_COUNT};
use skillcase_cases::sql::{Arg, Row, Sql};
use skillcase_cases::store::{
    checked_day, list_item, me, page_limit, page_total, search_words, CaseFilter, CaseListItem, CasePage,
    CaseSort, CaseTab, CaseView, TabCounts, FEW_MATCHES,
};
use skillcase_cases::CasesError;

/// The folded text the inbox search reads, exactly as the trigram index `cases_search_text`
/// holds it (the planner uses the index only for this very expression).
const SEARCH_TEXT: &str = "(search_fields || ' ' || search_talk)";

/// The cases waiting on the person that they have not opened since they began waiting (what
/// `UNREAD_SQL` says of a case waiting on the person), word for word the predicate of the index
/// `cases_unread`, so the planner counts them from that index alone.
pub const UNREAD_WAITING: &str = "status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since)";

/// The same count for a person's login, whose read marks are their own (`case_reads`): the cases
/// waiting on a person, less those this person read since they started waiting — one small
/// index and this person's marks, never a look at every waiting case.
const UNREAD_WAITING_FOR_PERSON: &str = "(SELECT count(*) FROM cases WHERE status = 'awaiting_human') \
     - (SELECT count(*) FROM case_reads r JOIN cases c ON c.id = r.case_id \
        WHERE r.login = session_user::text AND c.status = 'awaiting_human' AND r.read_at >= c.waiting_since)";

/// [`skillcase_cases::reads::UNREAD_SQL`] with this login's own read mark when it is a person's.
const UNREAD_FOR_LOGIN: &str = "(skillcase_read_at(cases.id, cases.read_at) IS NULL \
     OR (cases.status = 'awaiting_human' AND skillcase_read_at(cases.id, cases.read_at) < cases.waiting_since))";

/// The open cases, as the partial indexes `cases_one_open_per_conversation` and
/// `cases_open_waiting` select them.
const OPEN: &str = "status IN ('awaiting_human', 'awaiting_lead')";

/// One inbox page for `filter`, in the same order and with the same paging as on SQLite, with
/// the total the filter matches and the tab counts.
pub fn list_cases(sql: &mut dyn Sql, filter: &CaseFilter) -> Result<CasePage, CasesError> {
    let limit = page_limit(filter);
    let mut conditions = Conditions::of(filter)?;
    let counts = tab_counts(sql)?;
    let found = conditions.find_once(sql)?;
    let total = page_total(sql, filter, |sql| match (found, conditions.narrowed.is_empty()) {
        (Some(found), _) => Ok(found),
        (None, true) => Ok(tab_total(filter.tab, &counts)),
        (None, false) => narrowed_total(sql, &conditions, filter.tab),
    })?;
    let due_soonest = filter.sort == Some(CaseSort::DueSoonest);
    let stretches = stretches(filter.tab, due_soonest, conditions.by_assignee);
    let ids = page_ids(sql, &conditions, &stretches, limit, filter.offset)?;
    Ok(CasePage { items: items(sql, &ids)?, total, offset: filter.offset, limit, counts })
}

/// How many cases each tab holds and how many waiting on the person they have not opened yet.
///
/// Each open count is a count of one small index (`cases_open_status`, `cases_unread`): the cases
/// waiting now, not the whole history, and a few bytes each. Closed cases are not counted one
/// by one: the case counter hands out numbers without gaps (its row lock makes the opening
/// transactions take turns, a rolled-back one gives its number back) and no case is ever deleted,
/// so the cases are exactly those numbered from the lowest to the highest number — two index
/// lookups — and the closed ones are those that are not open.
pub fn tab_counts(sql: &mut dyn Sql) -> Result<TabCounts, CasesError> {
    let row = sql.query_one(
        &format!(
            "SELECT (SELECT count(*) FROM cases WHERE status = 'awaiting_human'), \
             (SELECT count(*) FROM cases WHERE status = 'awaiting_lead'), \
             CASE WHEN EXISTS (SELECT FROM people WHERE login = session_user::text) \
                  THEN {UNREAD_WAITING_FOR_PERSON} ELSE (SELECT count(*) FROM cases WHERE {UNREAD_WAITING}) END, \
             (SELECT coalesce(max(number) - min(number) + 1, 0) FROM cases)"
        ),
        &[],
    )?;
    let (waiting_on_you, waiting_on_customer) = (row.int(0)?, row.int(1)?);
    let numbered = row.int(3)?;
    Ok(TabCounts {
        waiting_on_you,
        waiting_on_customer,
        closed: numbered - waiting_on_you - waiting_on_customer,
        unread: row.int(2)?,
    })
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
pub fn report(sql: &mut dyn Sql, range: &ReportRange) -> Result<CaseReport, CasesError> {
    let (from, to) = checked_range(range)?;
    let range = ReportRange { from: from.to_string(), to: to.to_string() };
    let weeks = report_weeks(sql, &range)?;
    let (reasons, overall) = report_summaries(sql, &range)?;
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
fn report_weeks(sql: &mut dyn Sql, range: &ReportRange) -> Result<Vec<ReportWeek>, CasesError> {
    let query = format!(
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
    for row in sql.query(&query, args![&range.from, &range.to])? {
        let week = row.text(0)?;
        if weeks.last().is_none_or(|last| last.week != week) {
            weeks.push(ReportWeek { week, total: 0, by_reason: Vec::new() });
        }
        let (Some(reason), Some(cases)) = (row.opt_text(1)?, row.opt_int(2)?) else {
            continue;
        };
        let slot = weeks.last_mut().expect("a week was pushed for this row");
        slot.total += cases;
        slot.by_reason.push(ReasonCount { reason: parsed(&reason)?, cases });
    }
    for week in &mut weeks {
        week.by_reason.sort_by_key(|count| count.reason);
    }
    Ok(weeks)
}

/// The summary of each reason that has cases, in the SPEC's order, and the overall one (the
/// grand total row, which `GROUPING SETS` returns even for a range without cases).
fn report_summaries(
    sql: &mut dyn Sql,
    range: &ReportRange,
) -> Result<(Vec<ReportSummary>, ReportSummary), CasesError> {
    let rows = sql.query(&summaries_sql(), args![&range.from, &range.to])?;
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

fn summary_from_row(row: &Row) -> Result<ReportSummary, CasesError> {
    let reason = match row.bool(0)? {
        true => None,
        false => Some(parsed(&row.text(1)?)?),
    };
    Ok(ReportSummary {
        reason,
        cases: row.int(2)?,
        replied: row.int(3)?,
        reopened: row.int(4)?,
        median_first_reply_secs: row.opt_int(5)?,
    })
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
    /// Where in `narrowed` the search's condition is, if there is a search.
    search_at: Option<usize>,
}

impl Conditions {
    fn of(filter: &CaseFilter) -> Result<Conditions, CasesError> {
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
            conditions.search_at = Some(conditions.narrowed.len());
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

    fn view(&mut self, filter: &CaseFilter) -> Result<(), CasesError> {
        match filter.view {
            None | Some(CaseView::All) => return Ok(()),
            Some(CaseView::Unassigned) => self.narrowed.push("assignee IS NULL".into()),
            Some(CaseView::Mine) => {
                self.narrow("assignee = ", me(filter)?.to_string());
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

    fn args(&self) -> Vec<Arg<'_>> {
        self.args.iter().map(Arg::from).collect()
    }

    /// Finds the cases the filter's search names once, when they are few: the count and each
    /// stretch of the page would otherwise each run the search, and a trigram scan of words every
    /// case shares (a conversation id's digits `551`, `511` …) costs about 20 ms at a million
    /// cases. The search's condition becomes the list of those cases; returns how many there
    /// are. `None` (the condition kept) without a search or with more than [`FEW_MATCHES`].
    fn find_once(&mut self, sql: &mut dyn Sql) -> Result<Option<i64>, CasesError> {
        let Some(at) = self.search_at else { return Ok(None) };
        let query = format!("SELECT id FROM cases WHERE {} LIMIT {}", self.sql("true"), FEW_MATCHES + 1);
        let rows = sql.query(&query, &self.args())?;
        if rows.len() as i64 > FEW_MATCHES {
            return Ok(None);
        }
        let ids = rows.iter().map(|row| row.text(0)).collect::<Result<Vec<_>, _>>()?;
        let listed = serde_json::to_string(&ids).expect("a list of strings is JSON");
        let param = self.param(listed);
        self.narrowed[at] = format!("id IN (SELECT jsonb_array_elements_text({param}::jsonb))");
        Ok(Some(ids.len() as i64))
    }

    /// How many cases meet the filter and `more`.
    fn count(&self, sql: &mut dyn Sql, more: &str) -> Result<i64, CasesError> {
        sql.query_one(&format!("SELECT count(*) FROM cases WHERE {}", self.sql(more)), &self.args())?.int(0)
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
    sql: &mut dyn Sql,
    conditions: &Conditions,
    tab: Option<CaseTab>,
) -> Result<i64, CasesError> {
    plain_stretches(tab, conditions.by_assignee)
        .iter()
        .map(|stretch| conditions.count(sql, &stretch.condition))
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
    sql: &mut dyn Sql,
    conditions: &Conditions,
    stretches: &[Stretch],
    limit: u32,
    offset: u32,
) -> Result<Vec<String>, CasesError> {
    let mut ids: Vec<String> = Vec::new();
    let mut skip = i64::from(offset);
    for (n, stretch) in stretches.iter().enumerate() {
        let wanted = i64::from(limit) - ids.len() as i64;
        if wanted <= 0 {
            break;
        }
        let query = format!(
            "SELECT id FROM cases WHERE {} ORDER BY {} LIMIT {wanted} OFFSET {skip}",
            conditions.sql(&stretch.condition),
            stretch.order
        );
        let found = sql.query(&query, &conditions.args())?;
        let passed_over = found.is_empty() && skip > 0 && n + 1 < stretches.len();
        skip = match passed_over {
            true => (skip - conditions.count(sql, &stretch.condition)?).max(0),
            false => 0,
        };
        for row in found {
            ids.push(row.text(0)?);
        }
    }
    Ok(ids)
}

/// The page's rows whole, in the order of `ids`, each with the state of its latest delivery,
/// whether it is unread and the promise it still owes.
fn items(sql: &mut dyn Sql, ids: &[String]) -> Result<Vec<CaseListItem>, CasesError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let params = (1..=ids.len()).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
    let query = format!(
        "SELECT {CASE_COLUMNS}, (SELECT state FROM deliveries d WHERE d.case_id = cases.id \
         ORDER BY d.created_at DESC, d.id DESC LIMIT 1), {UNREAD_FOR_LOGIN}, promise_quote, promise_due_at \
         FROM cases WHERE id IN ({params})"
    );
    let args: Vec<Arg<'_>> = ids.iter().map(Arg::from).collect();
    let mut items = sql.query(&query, &args)?.iter().map(item_from_row).collect::<Result<Vec<_>, _>>()?;
    items.sort_by_key(|item| ids.iter().position(|id| *id == item.case.id));
    Ok(items)
}

fn item_from_row(row: &Row) -> Result<CaseListItem, CasesError> {
    let extra = CASE_COLUMN_COUNT;
    let promise = match row.opt_text(extra + 2)? {
        Some(quote) => Some((quote, row.opt_text(extra + 3)?)),
        None => None,
    };
    list_item(case_from_row(row)?, row.opt_text(extra)?, row.bool(extra + 1)?, promise)
}
