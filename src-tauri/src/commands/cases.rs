//! The case inbox and case detail (SPEC C1): pages, counts, one case with its timeline, the
//! three-action reply, Retry, unread marks and the endpoint banner.

use skillcase_application::domain::cases::model::{Delivery, HumanAction};
use skillcase_application::domain::cases::outbox::OutboxStatus;
use skillcase_application::domain::cases::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// One inbox page: the tab, search, status and date filters, offset and limit in `filter`.
#[tauri::command]
pub async fn cases_list(state: State<'_, AppState>, filter: CaseFilter) -> Result<CasePage, IpcError> {
    Ok(state.app().list_cases(filter).await?)
}

/// The tab counts and the unread count (for the tab labels and the navigation badge).
#[tauri::command]
pub async fn cases_counts(state: State<'_, AppState>) -> Result<TabCounts, IpcError> {
    Ok(state.app().case_counts().await?)
}

/// One case with its timeline and deliveries.
#[tauri::command]
pub async fn case_get(state: State<'_, AppState>, id: String) -> Result<CaseWithTimeline, IpcError> {
    Ok(state.app().get_case(id).await?)
}

/// Marks the case read (the person opened it) or unread again.
#[tauri::command]
pub async fn case_mark_read(state: State<'_, AppState>, id: String, read: bool) -> Result<(), IpcError> {
    Ok(state.app().mark_case_read(id, read).await?)
}

/// The person's answer: resolved, need info from the customer, or escalate, with its text.
/// Returns the case as it now stands, with the pending delivery that relays the answer.
#[tauri::command]
pub async fn case_reply(
    state: State<'_, AppState>,
    id: String,
    action: HumanAction,
    text: String,
) -> Result<CaseWithTimeline, IpcError> {
    Ok(state.app().reply_to_case(id, action, text).await?)
}

/// Sends a failed or dead delivery again, under the same id.
#[tauri::command]
pub async fn delivery_retry(state: State<'_, AppState>, id: String) -> Result<Delivery, IpcError> {
    Ok(state.app().retry_delivery(id).await?)
}

/// Whether replies reach the agent endpoint, for the banner on the cases screen.
#[tauri::command]
pub async fn outbox_status(state: State<'_, AppState>) -> Result<OutboxStatus, IpcError> {
    Ok(state.app().outbox_status().await?)
}
