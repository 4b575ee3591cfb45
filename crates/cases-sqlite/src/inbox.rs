//! The inbox pages on SQLite: each tab walked in order from the index that holds it and
//! stopped after the page, the full-text search through FTS5, and the tab counts that triggers
//! keep in step with every write to `cases`.

use skillcase_cases::args;
use skillcase_cases::reads::UNREAD_SQL;
use skillcase_cases::rows::{case_from_row, CASE_COLUMNS, CASE_COLUMN_COUNT};
use skillcase_cases::sql::{Arg, Sql};
use skillcase_cases::store::{
    checked_day, list_item, me, page_limit, page_total, search_words, CaseFilter, CasePage, CaseSort,
    CaseTab, CaseView, TabCounts, FEW_MATCHES,
};
use skillcase_cases::CasesError;

/// One inbox page for `filter`, with the per-tab counts.
pub fn list_cases(sql: &mut dyn Sql, filter: &CaseFilter) -> Result<CasePage, CasesError> {
    let limit = page_limit(filter);
    let matched = stage_matches(sql, filter)?;
    let (where_sql, args) = filter_sql(filter, matched)?;
    let from = Source::of(matched);
    let count = format!("SELECT count(*) FROM {} {where_sql}", from.cases());
    let total = page_total(sql, filter, |sql| sql.query_one(&count, &texts(&args))?.int(0))?;
    let now = skillcase_cases::clock::now();
    let tab_order = match filter.tab {
        Some(tab) => tab.order(&now),
        None => "waiting_since IS NULL, waiting_since ASC, closed_at DESC, number ASC".into(),
    };
    let due_soonest = filter.sort == Some(CaseSort::DueSoonest);
    let order = if due_soonest {
        // After the due cases, the rest in the plain order an index holds (no promise first).
        let rest = match filter.tab {
            Some(CaseTab::WaitingOnYou | CaseTab::WaitingOnCustomer) => "waiting_since ASC, number ASC",
            Some(CaseTab::Closed) => "closed_at DESC, number DESC",
            None => "waiting_since IS NULL, waiting_since ASC, closed_at DESC, number ASC",
        };
        format!("sla_due_at IS NULL, sla_due_at, {rest}")
    } else {
        tab_order
    };
    let page = match filter.tab {
        _ if due_soonest => due_soonest_page(sql, from, &where_sql, &args, &order, limit, filter.offset)?,
        Some(CaseTab::WaitingOnYou) => {
            waiting_on_you_page(sql, from, &where_sql, &args, &now, limit, filter.offset)?
        }
        _ => {
            let query = format!(
                "SELECT rowid FROM {} {where_sql} ORDER BY {order} LIMIT {limit} OFFSET {}",
                from.cases(),
                filter.offset
            );
            rowids(sql, &query, &args)?
        }
    };
    // Only the page's rows are read whole, with their latest delivery.
    let page = page.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let query = format!(
        "SELECT {CASE_COLUMNS}, (SELECT state FROM deliveries d WHERE d.case_id = cases.id \
         ORDER BY d.created_at DESC, d.rowid DESC LIMIT 1), {UNREAD_SQL}, promise_quote, promise_due_at FROM cases \
         WHERE rowid IN ({page}) ORDER BY {order}"
    );
    let extra = CASE_COLUMN_COUNT;
    let items = sql
        .query(&query, &[])?
        .iter()
        .map(|row| {
            let promise =
                row.opt_text(extra + 2)?.map(|quote| Ok::<_, CasesError>((quote, row.opt_text(extra + 3)?)));
            list_item(case_from_row(row)?, row.opt_text(extra)?, row.bool(extra + 1)?, promise.transpose()?)
        })
        .collect::<Result<Vec<_>, CasesError>>()?;
    Ok(CasePage { items, total, offset: filter.offset, limit, counts: tab_counts(sql)? })
}

/// The rowids of one page of *Waiting on you*: cases whose promise is overdue first (soonest
/// due first; few, read through the partial index `cases_promise_due` of cases with a promise),
/// then the rest longest-waiting first, read in order from the covering index
/// `cases_waiting_page` and stopped after the page —
/// one sort over every waiting case, as a single ORDER BY on the promise expression needs, costs
/// hundreds of milliseconds at 100,000 cases.
fn waiting_on_you_page(
    sql: &mut dyn Sql,
    from: Source,
    where_sql: &str,
    args: &[String],
    now: &str,
    limit: u32,
    offset: u32,
) -> Result<Vec<i64>, CasesError> {
    let mut args = args.to_vec();
    args.push(now.to_string());
    let now_arg = args.len();
    let overdue = rowids(
        sql,
        &format!(
            "SELECT rowid FROM {} {where_sql} AND promise_due_at <= ?{now_arg} \
             ORDER BY promise_due_at, waiting_since, number",
            from.overdue()
        ),
        &args,
    )?;
    let (limit, offset) = (limit as usize, offset as usize);
    let mut page: Vec<i64> = overdue.iter().skip(offset).take(limit).copied().collect();
    if page.len() < limit {
        let rest_offset = offset.saturating_sub(overdue.len());
        let rest = rowids(
            sql,
            &format!(
                "SELECT rowid FROM {} {where_sql} AND (promise_due_at IS NULL OR promise_due_at > ?{now_arg}) \
                 ORDER BY waiting_since, number LIMIT {} OFFSET {rest_offset}",
                from.cases(),
                limit - page.len()
            ),
            &args,
        )?;
        page.extend(rest);
    }
    Ok(page)
}

/// The rowids of one "due soonest" page: the cases with a running target in due order, walked
/// from the index `cases_sla_due` and stopped after the page, then the rest in the tab's order.
fn due_soonest_page(
    sql: &mut dyn Sql,
    from: Source,
    where_sql: &str,
    args: &[String],
    order: &str,
    limit: u32,
    offset: u32,
) -> Result<Vec<i64>, CasesError> {
    let and = if where_sql.is_empty() { "WHERE" } else { "AND" };
    let cases = from.cases();
    let mut page = rowids(
        sql,
        &format!(
            "SELECT rowid FROM {cases} {where_sql} {and} sla_due_at IS NOT NULL \
             ORDER BY sla_due_at, number LIMIT {limit} OFFSET {offset}"
        ),
        args,
    )?;
    if page.len() < limit as usize {
        let due: i64 = match page.len() {
            0 => sql
                .query_one(
                    &format!("SELECT count(*) FROM {cases} {where_sql} {and} sla_due_at IS NOT NULL"),
                    &texts(args),
                )?
                .int(0)?,
            n => i64::from(offset) + n as i64,
        };
        let rest_offset = i64::from(offset).saturating_sub(due).max(0);
        page.extend(rowids(
            sql,
            &format!(
                "SELECT rowid FROM {cases} {where_sql} {and} sla_due_at IS NULL ORDER BY {order} \
                 LIMIT {} OFFSET {rest_offset}",
                limit as usize - page.len()
            ),
            args,
        )?);
    }
    Ok(page)
}

/// Where a page's rows come from. Without a search, from the indexes that hold the tab's order,
/// walked in order and stopped after the page. With words that match up to [`FEW_MATCHES`]
/// cases, from the rows the full-text index matched, looked up by rowid and then sorted: walking
/// the tab's order instead would pass over every case of the tab to find a handful (tens of
/// milliseconds at 100,000). Words most cases hold go back to the walk, which then finds its
/// page quickly, where sorting every match would not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Indexes,
    Matches,
}

impl Source {
    /// Chooses by how many cases the search found (`None`: no search).
    fn of(matched: Option<i64>) -> Source {
        match matched {
            Some(matched) if matched <= FEW_MATCHES => Source::Matches,
            _ => Source::Indexes,
        }
    }

    fn cases(self) -> &'static str {
        match self {
            Source::Indexes => "cases",
            Source::Matches => "cases NOT INDEXED",
        }
    }

    /// The cases with an overdue promise: few, so read through the partial index of cases with
    /// a promise.
    fn overdue(self) -> &'static str {
        match self {
            Source::Indexes => "cases INDEXED BY cases_promise_due",
            Source::Matches => "cases NOT INDEXED",
        }
    }
}

/// Finds what the search names once and keeps the rowids in `temp.inbox_matches` (this
/// connection's own), which the page's statements read instead of searching again: the words'
/// full-text matches, and the case whose number was typed. The count that picks the
/// [`Source`], the total, the overdue cases and the page each ran the match before, and at
/// 17,000 matches one run costs about 10 ms. Returns how many cases were found; `None` when
/// there is no search.
fn stage_matches(sql: &mut dyn Sql, filter: &CaseFilter) -> Result<Option<i64>, CasesError> {
    let search = filter.search.as_deref().map(str::trim).unwrap_or_default();
    let number = search.trim_start_matches('#').parse::<i64>().ok();
    let query = match_query(search);
    if search.is_empty() || (number.is_none() && query.is_none()) {
        return Ok(None);
    }
    sql.execute("CREATE TEMP TABLE IF NOT EXISTS inbox_matches (id INTEGER PRIMARY KEY)", &[])?;
    sql.execute("DELETE FROM temp.inbox_matches", &[])?;
    let mut found = 0;
    if let Some(query) = query {
        found += sql.execute(
            "INSERT INTO temp.inbox_matches SELECT rowid FROM cases_search WHERE cases_search MATCH $1",
            args![&query],
        )?;
    }
    if let Some(number) = number {
        found += sql.execute(
            "INSERT OR IGNORE INTO temp.inbox_matches SELECT rowid FROM cases WHERE number = $1",
            args![number],
        )?;
    }
    Ok(Some(found as i64))
}

fn rowids(sql: &mut dyn Sql, query: &str, args: &[String]) -> Result<Vec<i64>, CasesError> {
    sql.query(query, &texts(args))?.iter().map(|row| row.int(0)).collect()
}

/// The filter's parameters as statement arguments.
fn texts(args: &[String]) -> Vec<Arg<'_>> {
    args.iter().map(Arg::from).collect()
}

/// How many cases each inbox tab holds: four rows of `case_tab_counts`, which triggers keep in
/// step with every write to `cases` (migration 0009), so every page can carry them cheaply.
pub fn tab_counts(sql: &mut dyn Sql) -> Result<TabCounts, CasesError> {
    let mut counts = TabCounts::default();
    for row in sql.query("SELECT tab, n FROM case_tab_counts", &[])? {
        match (row.text(0)?, row.int(1)?) {
            (tab, n) if tab == "awaiting_human" => counts.waiting_on_you = n,
            (tab, n) if tab == "awaiting_lead" => counts.waiting_on_customer = n,
            (tab, n) if tab == "closed" => counts.closed = n,
            (tab, n) if tab == "unread" => counts.unread = n,
            (tab, _) => return Err(CasesError::Corrupt { what: "tab count", value: tab }),
        }
    }
    Ok(counts)
}

fn filter_sql(filter: &CaseFilter, matched: Option<i64>) -> Result<(String, Vec<String>), CasesError> {
    let mut clauses = Vec::new();
    let mut args: Vec<String> = Vec::new();
    if let Some(tab) = filter.tab {
        clauses.push(tab.condition().to_string());
    }
    if let Some(status) = filter.status {
        args.push(status.as_str().to_string());
        clauses.push(format!("status = ?{}", args.len()));
    }
    if let Some(reason) = filter.reason {
        args.push(reason.as_str().to_string());
        clauses.push(format!("reason = ?{}", args.len()));
    }
    match filter.view {
        None | Some(CaseView::All) => {}
        Some(CaseView::Unassigned) => clauses.push("assignee IS NULL".into()),
        Some(CaseView::Mine) => {
            args.push(me(filter)?.to_string());
            clauses.push(format!("assignee = ?{}", args.len()));
        }
    }
    // The open tabs' cases by assignee are held by the partial index of open cases, which the
    // planner uses only when the query says the cases are open (the status alone does not).
    let by_assignee = matches!(filter.view, Some(CaseView::Mine | CaseView::Unassigned));
    if by_assignee && matches!(filter.tab, Some(CaseTab::WaitingOnYou | CaseTab::WaitingOnCustomer)) {
        clauses.push("closed_at IS NULL".into());
    }
    if filter.search.as_deref().is_some_and(|s| !s.trim().is_empty()) {
        clauses.push(match matched {
            Some(_) => "rowid IN (SELECT id FROM temp.inbox_matches)".into(),
            None => "0".into(),
        });
    }
    if let Some(day) = &filter.opened_from {
        args.push(checked_day("opened_from", day)?);
        clauses.push(format!("opened_at >= ?{}", args.len()));
    }
    if let Some(day) = &filter.opened_to {
        args.push(checked_day("opened_to", day)?);
        clauses.push(format!("opened_at < date(?{}, '+1 day')", args.len()));
    }
    let where_sql =
        if clauses.is_empty() { String::new() } else { format!("WHERE {}", clauses.join(" AND ")) };
    Ok((where_sql, args))
}

/// The FTS5 query for what a person typed: each word a quoted phrase (so `"`, `*`, `-`, `:`,
/// `(`, `AND`, `NEAR` … are text, never syntax) matched as a prefix, every word required. Words with no letter or digit carry nothing to find and are left out; `None` when
/// none is left.
pub fn match_query(search: &str) -> Option<String> {
    let phrases: Vec<String> =
        search_words(search).map(|word| format!("\"{}\"*", word.replace('"', "\"\""))).collect();
    (!phrases.is_empty()).then(|| phrases.join(" "))
}
