//! The case inbox and case detail (SPEC C1): pages, counts, the handover report, one case with
//! its timeline, the three-action reply (and resolve-and-next), internal notes, Retry, unread
//! marks, bulk actions, assignment and the endpoint banner.

use crate::ipc::ipc;
use skillcase_application::domain::cases::lease::Replying;
use skillcase_application::domain::cases::model::{Case, Delivery, HumanAction};
use skillcase_application::domain::cases::outbox::OutboxStatus;
use skillcase_application::domain::cases::report::{CaseReport, ReportRange};
use skillcase_application::domain::cases::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use skillcase_application::team::ChainBreak;
use tauri::State;

use crate::state::AppState;

ipc! {
    /// One inbox page: the tab, search, status and date filters, offset and limit in `filter`.
    /// A newer call interrupts one still running, which fails with `superseded`.
    fn cases_list(state: State<'_, AppState>, filter: CaseFilter) -> CasePage {
        Ok(state.app().list_cases_latest(filter).await?)
    }

    /// The handover report: cases per reason per week, median time to the first human reply,
    /// reopened cases, over the cases opened in `range`.
    fn cases_report(state: State<'_, AppState>, range: ReportRange) -> CaseReport {
        Ok(state.app().case_report(range).await?)
    }

    /// The tab counts and the unread count (for the tab labels and the navigation badge).
    fn cases_counts(state: State<'_, AppState>) -> TabCounts {
        Ok(state.app().case_counts().await?)
    }

    /// One case with its timeline and deliveries.
    fn case_get(state: State<'_, AppState>, id: String) -> CaseWithTimeline {
        Ok(state.app().get_case(id).await?)
    }

    /// Where the case's history on the team database breaks its hash chain (empty: intact).
    fn case_history_breaks(state: State<'_, AppState>, id: String) -> Vec<ChainBreak> {
        Ok(state.app().case_history_breaks(id).await?)
    }

    /// Marks the case read (the person opened it) or unread again.
    fn case_mark_read(state: State<'_, AppState>, id: String, read: bool) -> () {
        Ok(state.app().mark_case_read(id, read).await?)
    }

    /// Bulk action: marks the cases read or unread again, all or none.
    fn cases_mark_read(state: State<'_, AppState>, ids: Vec<String>, read: bool) -> () {
        Ok(state.app().mark_cases_read(ids, read).await?)
    }

    /// Bulk action: cancels the open cases with one reason, all or none.
    fn cases_cancel(state: State<'_, AppState>, ids: Vec<String>, reason: String) -> Vec<Case> {
        Ok(state.app().cancel_cases(ids, reason).await?)
    }

    /// Gives the open cases to `assignee` (`null`: unassigned), all or none (the bulk *Assign*
    /// and the case's *Unassign*).
    fn cases_assign(state: State<'_, AppState>, ids: Vec<String>, assignee: Option<String>) -> Vec<Case> {
        Ok(state.app().assign_cases(ids, assignee).await?)
    }

    /// *Take*: assigns the open case to the person at this desktop.
    fn case_take(state: State<'_, AppState>, id: String) -> Case {
        Ok(state.app().take_case(id).await?)
    }

    /// This desktop's person is writing a reply on the case: holds its short lease ("… is
    /// replying" elsewhere); answers with the lease in force, another person's while theirs runs.
    fn case_hold_reply(state: State<'_, AppState>, id: String) -> Replying {
        Ok(state.app().hold_reply(id).await?)
    }

    /// The name this desktop's person goes by on cases (Settings' You name, else the system user).
    fn cases_me(state: State<'_, AppState>) -> String {
        Ok(state.app().me().await?)
    }

    /// For resolve-and-next: the case waiting on the person longest, other than `except`.
    fn case_next_waiting(state: State<'_, AppState>, except: Option<String>) -> Option<String> {
        Ok(state.app().next_case_waiting_on_you(except).await?)
    }

    /// The person's answer: resolved, need info from the customer, or escalate, with its text.
    /// Returns the case as it now stands, with the pending delivery that relays the answer.
    fn case_reply(state: State<'_, AppState>, id: String, action: HumanAction, text: String) -> CaseWithTimeline {
        Ok(state.app().reply_to_case(id, action, text).await?)
    }

    /// A person's internal note on the case: on the timeline, never sent to the agent.
    /// Returns the case as it now stands.
    fn case_add_note(state: State<'_, AppState>, id: String, text: String) -> CaseWithTimeline {
        Ok(state.app().add_case_note(id, text).await?)
    }

    /// Sends a failed or dead delivery again, under the same id.
    fn delivery_retry(state: State<'_, AppState>, id: String) -> Delivery {
        Ok(state.app().retry_delivery(id).await?)
    }

    /// Whether replies reach the agent endpoint, for the banner on the cases screen.
    fn outbox_status(state: State<'_, AppState>) -> OutboxStatus {
        Ok(state.app().outbox_status().await?)
    }
}
