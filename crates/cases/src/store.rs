//! Reading cases: one case with its timeline and deliveries, and what an inbox page asks for and
//! returns. Nothing here writes; every change goes through [`super::transition`] or
//! [`super::outbox`]. The pages themselves are read by each database its own way
//! ([`crate::sql::Storage::list_cases`]): the SQL that serves them fast differs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::error::CasesError;
use super::model::{Case, CaseEvent, CaseStatus, Delivery, DeliveryState};
use super::promises::{promises_of, PendingPromise, Promise};
use super::reason::HandoverReason;
use super::rows::{deliveries_for_case, events_for_case, find_case};
use crate::sql::Sql;

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
    pub fn condition(self) -> &'static str {
        match self {
            CaseTab::WaitingOnYou => "status = 'awaiting_human'",
            CaseTab::WaitingOnCustomer => "status = 'awaiting_lead'",
            CaseTab::Closed => "closed_at IS NOT NULL",
        }
    }

    /// The tab's order: the longest-waiting first — after, on *Waiting on you*, the cases whose
    /// promise to the customer is overdue at `now`, most overdue first.
    pub fn order(self, now: &str) -> String {
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

/// Up to how many cases a search finds for the page to treat them as few: both databases then
/// read the found cases as a list (looked up, sorted, counted) instead of walking the tab's order
/// or searching again in each statement. Past it, walking the tab's order finds a page sooner.
pub const FEW_MATCHES: i64 = 5_000;

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

/// The case with its whole timeline and deliveries; `case_not_found` if there is none.
pub fn get_case(sql: &mut dyn Sql, id: &str) -> Result<CaseWithTimeline, CasesError> {
    let case = find_case(sql, id)?;
    let events = events_for_case(sql, id)?;
    Ok(CaseWithTimeline {
        promises: promises_of(&events),
        events,
        deliveries: deliveries_for_case(sql, id)?,
        case,
        quiet: None,
        replying: super::lease::live(sql, id, &super::clock::now())?,
    })
}

/// The limit of a page for `filter`: [`DEFAULT_PAGE`] when it asks for none, at most [`MAX_PAGE`].
pub fn page_limit(filter: &CaseFilter) -> u32 {
    match filter.limit {
        0 => DEFAULT_PAGE,
        n => n.min(MAX_PAGE),
    }
}

/// An inbox row's latest delivery state as stored, or `db_corrupt`.
pub fn delivery_state(stored: Option<String>) -> Result<Option<DeliveryState>, CasesError> {
    stored.map(|s| super::rows::parse_enum("delivery state", s, DeliveryState::parse)).transpose()
}

/// A calendar day as `YYYY-MM-DD`; anything else is `invalid_case_input` naming the field, on
/// both databases.
pub fn checked_day(field: &'static str, day: &str) -> Result<String, CasesError> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(day.trim(), &format).map(|_| day.trim().to_string()).map_err(|_| {
        CasesError::InvalidInput { field, reason: format!("is '{day}', not a day written as YYYY-MM-DD") }
    })
}

/// The words of what a person typed that the search looks for: split on whitespace, those with
/// no letter or digit left out. Both databases look for the same words.
pub fn search_words(search: &str) -> impl Iterator<Item = &str> {
    search.split_whitespace().filter(|word| word.chars().any(char::is_alphanumeric))
}

/// Whose closed total a page's total is, when it is one the closing steps keep
/// ([`crate::transition::closed_total`]): the *Closed* tab of *Mine* (`Some(Some(me))`) or
/// *Unassigned* (`Some(None)`) with nothing else narrowing it. `None` for any other page.
pub fn kept_closed_total(filter: &CaseFilter) -> Result<Option<Option<&str>>, CasesError> {
    let narrowed = filter.status.is_some()
        || filter.reason.is_some()
        || filter.search.as_deref().is_some_and(|s| !s.trim().is_empty())
        || filter.opened_from.is_some()
        || filter.opened_to.is_some();
    if filter.tab != Some(CaseTab::Closed) || narrowed {
        return Ok(None);
    }
    Ok(match filter.view {
        Some(CaseView::Mine) => Some(Some(me(filter)?)),
        Some(CaseView::Unassigned) => Some(None),
        None | Some(CaseView::All) => None,
    })
}

/// The total of a page: the kept closed total when it is one ([`kept_closed_total`]), else
/// `count()`.
pub fn page_total(
    sql: &mut dyn Sql,
    filter: &CaseFilter,
    count: impl FnOnce(&mut dyn Sql) -> Result<i64, CasesError>,
) -> Result<i64, CasesError> {
    match kept_closed_total(filter)? {
        Some(assignee) => crate::transition::closed_total(sql, assignee),
        None => count(sql),
    }
}

/// Who *Mine* means: the person at this desktop; `text_required` when nobody is set.
pub fn me(filter: &CaseFilter) -> Result<&str, CasesError> {
    filter
        .me
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .ok_or(CasesError::TextRequired { field: "me" })
}

/// An inbox row of `case` with its latest delivery, unread mark and pending promise as stored.
pub fn list_item(
    case: Case,
    latest: Option<String>,
    unread: bool,
    promise: Option<(String, Option<String>)>,
) -> Result<CaseListItem, CasesError> {
    Ok(CaseListItem {
        case,
        latest_delivery: delivery_state(latest)?,
        unread,
        promise: promise.map(|(quote, due_at)| PendingPromise { quote, due_at }),
    })
}
