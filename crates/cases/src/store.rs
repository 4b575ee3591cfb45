//! Reading cases: one case with its timeline and deliveries, and the inbox pages with their
//! tab counts. Nothing here writes; every change goes through [`super::transition`] or
//! [`super::outbox`].

use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::error::CasesError;
use super::model::{
    Actor, Case, CaseEvent, CaseSource, CaseStatus, ContextMessage, Delivery, DeliveryAction, DeliveryState,
    EventKind, Lead,
};
use super::promises::{promises_of, PendingPromise, Promise};
use super::reads::UNREAD_SQL;
use super::reason::HandoverReason;

/// A case as the detail screen and `GET /v1/cases/{id}` show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseWithTimeline {
    pub case: Case,
    /// Every event, oldest first.
    pub events: Vec<CaseEvent>,
    /// Every delivery of a reply to the agent endpoint, oldest first.
    pub deliveries: Vec<Delivery>,
    /// What the agent promised the customer on this case, oldest first (the promise ledger).
    pub promises: Vec<Promise>,
    /// When the reminder goes and the case closes while it waits on the customer; filled in by
    /// the application, which knows the delays ([`super::quiet::plan`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub quiet: Option<super::quiet::QuietPlan>,
    /// Who is writing a reply on the case right now, while their lease runs ([`super::lease`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replying: Option<super::lease::Replying>,
}

/// The inbox tabs of SPEC C1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseTab {
    /// `awaiting_human`: a person must answer.
    WaitingOnYou,
    /// `awaiting_lead`: the agent is asking the customer.
    WaitingOnCustomer,
    /// `resolved`, `escalated` or `cancelled`.
    Closed,
}

impl CaseTab {
    /// The condition that selects the tab's cases, written so an index serves it.
    fn condition(self) -> &'static str {
        match self {
            CaseTab::WaitingOnYou => "status = 'awaiting_human'",
            CaseTab::WaitingOnCustomer => "status = 'awaiting_lead'",
            CaseTab::Closed => "closed_at IS NOT NULL",
        }
    }

    /// The tab's order: the longest-waiting first — after, on *Waiting on you*, the cases whose
    /// promise to the customer is overdue at `now`, most overdue first.
    fn order(self, now: &str) -> String {
        match self {
            CaseTab::WaitingOnYou => format!(
                "CASE WHEN promise_due_at <= '{now}' THEN promise_due_at END IS NULL, \
                 CASE WHEN promise_due_at <= '{now}' THEN promise_due_at END, waiting_since ASC, number ASC"
            ),
            CaseTab::WaitingOnCustomer => "waiting_since ASC, number ASC".into(),
            CaseTab::Closed => "closed_at DESC, number DESC".into(),
        }
    }
}

/// Whose cases an inbox page shows, beside the tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseView {
    /// Every case.
    All,
    /// The cases assigned to the person at this desktop.
    Mine,
    /// The cases nobody has taken.
    Unassigned,
}

/// The order of an inbox page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseSort {
    /// The tab's own order (longest waiting first; closed: most recently closed first).
    #[default]
    Tab,
    /// The case whose response-time target falls due soonest first (overdue ones first of all),
    /// then the cases with no running target in the tab's order.
    DueSoonest,
}

/// Which cases an inbox page shows. Tab, status, reason and dates narrow together; `search` matches the
/// number (`1042` or `#1042`) or, through the full-text index, every word typed (the last one as
/// a prefix, accents and case ignored) in the title, summary, blocker, lead, conversation id,
/// context, answers and internal notes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tab: Option<CaseTab>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<CaseStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
    /// Only cases the AI handed over for this reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<HandoverReason>,
    /// Only cases opened on or after this day (`YYYY-MM-DD`, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opened_from: Option<String>,
    /// Only cases opened on or before this day (`YYYY-MM-DD`, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opened_to: Option<String>,
    /// The page's order; the tab's own when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sort: Option<CaseSort>,
    /// Whose cases: everyone's when absent (*All*), the person's own, or nobody's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub view: Option<CaseView>,
    /// Who *Mine* means: filled in by the application with the person at this desktop, never
    /// taken from a caller.
    #[serde(skip)]
    #[ts(skip)]
    pub me: Option<String>,
    #[serde(default)]
    pub offset: u32,
    /// At most [`MAX_PAGE`]; 0 means [`DEFAULT_PAGE`].
    #[serde(default)]
    pub limit: u32,
}

/// Page size when the filter does not say.
pub const DEFAULT_PAGE: u32 = 50;
/// The largest page served at once.
pub const MAX_PAGE: u32 = 200;

/// How many cases each tab holds, for the tab labels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TabCounts {
    pub waiting_on_you: i64,
    pub waiting_on_customer: i64,
    pub closed: i64,
    /// Cases waiting on the person that they have not opened yet (the navigation badge).
    pub unread: i64,
}

/// One inbox row: the case, the state of its latest delivery (for the problem marker) and
/// whether the person has opened it since it last came to them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseListItem {
    pub case: Case,
    pub latest_delivery: Option<DeliveryState>,
    pub unread: bool,
    /// The promise the case still owes the customer, if any.
    pub promise: Option<PendingPromise>,
}

/// One page of the inbox. Open cases come longest-waiting first; closed ones most recently
/// closed first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CasePage {
    pub items: Vec<CaseListItem>,
    /// How many cases match the filter in all pages.
    pub total: i64,
    pub offset: u32,
    pub limit: u32,
    /// Counts per tab, ignoring the filter, for the tab labels.
    pub counts: TabCounts,
}

pub(crate) const CASE_COLUMNS: &str = "id, number, conversation_id, lead_id, lead_name, lead_channel, \
     lead_contact, agent_id, status, title, summary, blocker, context, source, waiting_since, opened_at, \
     updated_at, closed_at, reason, first_reply_target, first_reply_due_at, first_reply_at, resolution_target, \
     resolution_due_at, closed_at, sla_paused_at, sla_due_at, assignee";

/// How many columns [`CASE_COLUMNS`] names; a page's extra columns come after them.
const CASE_COLUMN_COUNT: usize = 28;

const EVENT_COLUMNS: &str = "seq, case_id, kind, actor, actor_name, at, payload";

pub(crate) const DELIVERY_COLUMNS: &str =
    "id, case_id, event_seq, action, state, attempts, next_attempt_at, \
     last_error, last_status, created_at, updated_at, delivered_at";

/// The case with its whole timeline and deliveries; `case_not_found` if there is none.
pub fn get_case(conn: &Connection, id: &str) -> Result<CaseWithTimeline, CasesError> {
    let case = find_case(conn, id)?;
    let events = events_for_case(conn, id)?;
    Ok(CaseWithTimeline {
        promises: promises_of(&events),
        events,
        deliveries: deliveries_for_case(conn, id)?,
        case,
        quiet: None,
        replying: super::lease::live(conn, id, &super::clock::now())?,
    })
}

/// Just the case; `case_not_found` if there is none.
pub fn find_case(conn: &Connection, id: &str) -> Result<Case, CasesError> {
    conn.query_row(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE id = ?1"), [id], case_from_row)
        .optional()?
        .ok_or_else(|| CasesError::CaseNotFound { id: id.to_string() })?
}

/// The case people know by `number` (`#1042`); `case_not_found` naming the number if there is
/// none. Served by the unique index on `number`.
pub fn find_case_by_number(conn: &Connection, number: i64) -> Result<Case, CasesError> {
    conn.query_row(&format!("SELECT {CASE_COLUMNS} FROM cases WHERE number = ?1"), [number], case_from_row)
        .optional()?
        .ok_or(CasesError::CaseNumberNotFound { number })?
}

/// The open case of a conversation, if it has one (the guardrail asks this before vetoing).
pub fn open_case_for_conversation(
    conn: &Connection,
    conversation_id: &str,
) -> Result<Option<Case>, CasesError> {
    conn.query_row(
        &format!(
            "SELECT {CASE_COLUMNS} FROM cases WHERE conversation_id = ?1 \
             AND status IN ('awaiting_human', 'awaiting_lead')"
        ),
        [conversation_id],
        case_from_row,
    )
    .optional()?
    .transpose()
}

/// The timeline of a case, oldest first.
pub fn events_for_case(conn: &Connection, case_id: &str) -> Result<Vec<CaseEvent>, CasesError> {
    let mut stmt =
        conn.prepare(&format!("SELECT {EVENT_COLUMNS} FROM case_events WHERE case_id = ?1 ORDER BY seq"))?;
    let rows = stmt.query_map([case_id], event_from_row)?;
    rows.map(|r| r?).collect()
}

/// The deliveries of a case, oldest first.
pub fn deliveries_for_case(conn: &Connection, case_id: &str) -> Result<Vec<Delivery>, CasesError> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE case_id = ?1 ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map([case_id], delivery_from_row)?;
    rows.map(|r| r?).collect()
}

/// One delivery; `delivery_not_found` if there is none.
pub fn get_delivery(conn: &Connection, id: &str) -> Result<Delivery, CasesError> {
    conn.query_row(
        &format!("SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = ?1"),
        [id],
        delivery_from_row,
    )
    .optional()?
    .ok_or_else(|| CasesError::DeliveryNotFound { id: id.to_string() })?
}

/// One inbox page for `filter`, with the per-tab counts.
pub fn list_cases(conn: &Connection, filter: &CaseFilter) -> Result<CasePage, CasesError> {
    let limit = match filter.limit {
        0 => DEFAULT_PAGE,
        n => n.min(MAX_PAGE),
    };
    let (where_sql, args) = filter_sql(filter)?;
    let from = Source::of(conn, filter)?;
    let total: i64 = conn.query_row(
        &format!("SELECT count(*) FROM {} {where_sql}", from.cases()),
        rusqlite::params_from_iter(&args),
        |r| r.get(0),
    )?;
    let now = super::clock::now();
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
        _ if due_soonest => due_soonest_page(conn, from, &where_sql, &args, &order, limit, filter.offset)?,
        Some(CaseTab::WaitingOnYou) => {
            waiting_on_you_page(conn, from, &where_sql, &args, &now, limit, filter.offset)?
        }
        _ => {
            let sql = format!(
                "SELECT rowid FROM {} {where_sql} ORDER BY {order} LIMIT {limit} OFFSET {}",
                from.cases(),
                filter.offset
            );
            rowids(conn, &sql, &args)?
        }
    };
    // Only the page's rows are read whole, with their latest delivery.
    let page = page.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let sql = format!(
        "SELECT {CASE_COLUMNS}, (SELECT state FROM deliveries d WHERE d.case_id = cases.id \
         ORDER BY d.created_at DESC, d.rowid DESC LIMIT 1), {UNREAD_SQL}, promise_quote, promise_due_at FROM cases \
         WHERE rowid IN ({page}) ORDER BY {order}"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], |row| {
        let extra = CASE_COLUMN_COUNT;
        let latest: Option<String> = row.get(extra)?;
        let promise = row.get::<_, Option<String>>(extra + 2)?.map(|quote| (quote, row.get(extra + 3)));
        Ok((case_from_row(row)?, latest, row.get::<_, bool>(extra + 1)?, promise))
    })?;
    let mut items = Vec::new();
    for row in rows {
        let (case, latest, unread, promise) = row?;
        let latest_delivery =
            latest.map(|s| parse_enum("delivery state", &s, DeliveryState::parse)).transpose()?;
        let promise = match promise {
            Some((quote, due_at)) => Some(PendingPromise { quote, due_at: due_at? }),
            None => None,
        };
        items.push(CaseListItem { case: case?, latest_delivery, unread, promise });
    }
    Ok(CasePage { items, total, offset: filter.offset, limit, counts: tab_counts(conn)? })
}

/// The rowids of one page of *Waiting on you*: cases whose promise is overdue first (soonest
/// due first; few, read through the partial index `cases_promise_due` of cases with a promise),
/// then the rest longest-waiting first, read in order from the covering index
/// `cases_waiting_page` and stopped after the page —
/// one sort over every waiting case, as a single ORDER BY on the promise expression needs, costs
/// hundreds of milliseconds at 100,000 cases.
fn waiting_on_you_page(
    conn: &Connection,
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
        conn,
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
            conn,
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
    conn: &Connection,
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
        conn,
        &format!(
            "SELECT rowid FROM {cases} {where_sql} {and} sla_due_at IS NOT NULL \
             ORDER BY sla_due_at, number LIMIT {limit} OFFSET {offset}"
        ),
        args,
    )?;
    if page.len() < limit as usize {
        let due: i64 = match page.len() {
            0 => conn.query_row(
                &format!("SELECT count(*) FROM {cases} {where_sql} {and} sla_due_at IS NOT NULL"),
                rusqlite::params_from_iter(args),
                |r| r.get(0),
            )?,
            n => i64::from(offset) + n as i64,
        };
        let rest_offset = i64::from(offset).saturating_sub(due).max(0);
        page.extend(rowids(
            conn,
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

/// Up to how many matches a search page sorts the matches rather than walking the tab's order.
pub const FEW_MATCHES: i64 = 5_000;

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
    /// Counts what the words match in the full-text index alone (a number typed is looked up
    /// by its index, so it keeps the indexes).
    fn of(conn: &Connection, filter: &CaseFilter) -> Result<Source, CasesError> {
        let search = filter.search.as_deref().map(str::trim).unwrap_or_default();
        if search.is_empty() || search.trim_start_matches('#').parse::<i64>().is_ok() {
            return Ok(Source::Indexes);
        }
        let Some(query) = match_query(search) else { return Ok(Source::Indexes) };
        let matched: i64 =
            conn.query_row("SELECT count(*) FROM cases_search WHERE cases_search MATCH ?1", [query], |r| {
                r.get(0)
            })?;
        Ok(if matched <= FEW_MATCHES { Source::Matches } else { Source::Indexes })
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

fn rowids(conn: &Connection, sql: &str, args: &[String]) -> Result<Vec<i64>, CasesError> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(args), |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// How many cases each inbox tab holds: four rows of `case_tab_counts`, which triggers keep in
/// step with every write to `cases` (migration 0009), so every page can carry them cheaply.
pub fn tab_counts(conn: &Connection) -> Result<TabCounts, CasesError> {
    let mut counts = TabCounts::default();
    let mut stmt = conn.prepare_cached("SELECT tab, n FROM case_tab_counts")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        match row? {
            (tab, n) if tab == "awaiting_human" => counts.waiting_on_you = n,
            (tab, n) if tab == "awaiting_lead" => counts.waiting_on_customer = n,
            (tab, n) if tab == "closed" => counts.closed = n,
            (tab, n) if tab == "unread" => counts.unread = n,
            (tab, _) => return Err(CasesError::Corrupt { what: "tab count", value: tab }),
        }
    }
    Ok(counts)
}

fn filter_sql(filter: &CaseFilter) -> Result<(String, Vec<String>), CasesError> {
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
            let me = filter.me.as_deref().map(str::trim).filter(|m| !m.is_empty());
            args.push(me.ok_or(CasesError::TextRequired { field: "me" })?.to_string());
            clauses.push(format!("assignee = ?{}", args.len()));
        }
    }
    if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        let mut alternatives = Vec::new();
        if let Ok(number) = search.trim_start_matches('#').parse::<i64>() {
            alternatives.push(format!("number = {number}"));
        }
        if let Some(query) = match_query(search) {
            args.push(query);
            alternatives.push(format!(
                "rowid IN (SELECT rowid FROM cases_search WHERE cases_search MATCH ?{})",
                args.len()
            ));
        }
        if alternatives.is_empty() {
            alternatives.push("0".into());
        }
        clauses.push(format!("({})", alternatives.join(" OR ")));
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

/// A calendar day as `YYYY-MM-DD`; anything else is `invalid_case_input` naming the field.
/// Public so the team database's date filters refuse the same days with the same message.
pub fn checked_day(field: &'static str, day: &str) -> Result<String, CasesError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(day.trim(), &format).map(|_| day.trim().to_string()).map_err(|_| {
        CasesError::InvalidInput { field, reason: format!("is '{day}', not a day written as YYYY-MM-DD") }
    })
}

/// The FTS5 query for what a person typed: each word a quoted phrase (so `"`, `*`, `-`, `:`,
/// `(`, `AND`, `NEAR` … are text, never syntax) matched as a prefix, every word required. Words with no letter or digit carry nothing to find and are left out; `None` when
/// none is left.
pub fn match_query(search: &str) -> Option<String> {
    let phrases: Vec<String> =
        search_words(search).map(|word| format!("\"{}\"*", word.replace('"', "\"\""))).collect();
    (!phrases.is_empty()).then(|| phrases.join(" "))
}

/// The words of what a person typed that the search looks for: split on whitespace, those with
/// no letter or digit left out. Shared with the team database's search, so both databases look
/// for the same words.
pub fn search_words(search: &str) -> impl Iterator<Item = &str> {
    search.split_whitespace().filter(|word| word.chars().any(char::is_alphanumeric))
}

fn parse_enum<T>(what: &'static str, value: &str, parse: fn(&str) -> Option<T>) -> Result<T, CasesError> {
    parse(value).ok_or_else(|| CasesError::Corrupt { what, value: value.to_string() })
}

/// Maps a row selected with [`CASE_COLUMNS`]. The outer error is SQLite's; the inner one a
/// stored value this build does not know.
pub(crate) fn case_from_row(row: &Row<'_>) -> rusqlite::Result<Result<Case, CasesError>> {
    let status: String = row.get(8)?;
    let source: String = row.get(13)?;
    let context: String = row.get(12)?;
    let reason: String = row.get(18)?;
    let now = super::clock::now();
    let build = |status: CaseStatus,
                 source: CaseSource,
                 reason: HandoverReason,
                 context: Vec<ContextMessage>|
     -> rusqlite::Result<Case> {
        Ok(Case {
            id: row.get(0)?,
            number: row.get(1)?,
            conversation_id: row.get(2)?,
            lead: Lead { id: row.get(3)?, name: row.get(4)?, channel: row.get(5)?, contact: row.get(6)? },
            agent_id: row.get(7)?,
            status,
            title: row.get(9)?,
            summary: row.get(10)?,
            blocker: row.get(11)?,
            context,
            source,
            reason,
            waiting_since: row.get(14)?,
            opened_at: row.get(15)?,
            updated_at: row.get(16)?,
            closed_at: row.get(17)?,
            sla: super::sla::sla_from_row(row, 19, &now)?,
            assignee: row.get(27)?,
        })
    };
    let parsed = (|| {
        let status = parse_enum("case status", &status, CaseStatus::parse)?;
        let source = parse_enum("case source", &source, CaseSource::parse)?;
        let reason = parse_enum("handover reason", &reason, HandoverReason::parse)?;
        let context: Vec<ContextMessage> = serde_json::from_str(&context)
            .map_err(|_| CasesError::Corrupt { what: "case context", value: context.clone() })?;
        Ok::<_, CasesError>((status, source, reason, context))
    })();
    match parsed {
        Ok((status, source, reason, context)) => build(status, source, reason, context).map(Ok),
        Err(e) => Ok(Err(e)),
    }
}

fn event_from_row(row: &Row<'_>) -> rusqlite::Result<Result<CaseEvent, CasesError>> {
    let kind: String = row.get(2)?;
    let actor: String = row.get(3)?;
    let payload: String = row.get(6)?;
    let (seq, case_id, actor_name, at) = (row.get(0)?, row.get(1)?, row.get(4)?, row.get(5)?);
    Ok((|| {
        Ok(CaseEvent {
            seq,
            case_id,
            kind: parse_enum("event kind", &kind, EventKind::parse)?,
            actor: parse_enum("event actor", &actor, Actor::parse)?,
            actor_name,
            at,
            payload: serde_json::from_str(&payload)
                .map_err(|_| CasesError::Corrupt { what: "event payload", value: payload.clone() })?,
        })
    })())
}

/// Maps a row selected with [`DELIVERY_COLUMNS`].
pub(crate) fn delivery_from_row(row: &Row<'_>) -> rusqlite::Result<Result<Delivery, CasesError>> {
    let action: String = row.get(3)?;
    let state: String = row.get(4)?;
    let id = row.get(0)?;
    let case_id = row.get(1)?;
    let event_seq = row.get(2)?;
    let attempts = row.get(5)?;
    let next_attempt_at = row.get(6)?;
    let last_error = row.get(7)?;
    let last_status = row.get(8)?;
    let created_at = row.get(9)?;
    let updated_at = row.get(10)?;
    let delivered_at = row.get(11)?;
    Ok((|| {
        Ok(Delivery {
            id,
            case_id,
            event_seq,
            action: parse_enum("delivery action", &action, DeliveryAction::parse)?,
            state: parse_enum("delivery state", &state, DeliveryState::parse)?,
            attempts,
            next_attempt_at,
            last_error,
            last_status,
            created_at,
            updated_at,
            delivered_at,
        })
    })())
}

/// Appends one event to a case's timeline (the only write path to `case_events`, used inside
/// the transactions of [`super::transition`] and [`super::outbox`]). Returns its `seq`.
pub(crate) fn append_event(
    conn: &Connection,
    case_id: &str,
    kind: EventKind,
    actor: Actor,
    actor_name: Option<&str>,
    at: &str,
    payload: &serde_json::Value,
) -> Result<i64, CasesError> {
    conn.execute(
        "INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![case_id, kind.as_str(), actor.as_str(), actor_name, at, payload.to_string()],
    )?;
    Ok(conn.last_insert_rowid())
}
