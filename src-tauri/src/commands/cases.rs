//! The case inbox and case detail (SPEC C1, issue #7): pages, counts, one case with its
//! timeline, the three-action reply, Retry, unread marks and the endpoint banner. Each command
//! opens the database off the main thread and calls one core function; changes are announced on
//! the bus (which the window hears as `case-changed`) and wake the delivery worker.

use skillcase_cases::model::{Delivery, HumanAction};
use skillcase_cases::outbox::{self, OutboxStatus};
use skillcase_cases::store::{self, CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use skillcase_cases::{reads, transition};
use skillcase_common::events::DomainEvent;
use tauri::State;

use crate::error::IpcError;
use crate::state::AppState;

/// One inbox page: the tab, search, status and date filters, offset and limit in `filter`.
#[tauri::command]
pub async fn cases_list(state: State<'_, AppState>, filter: CaseFilter) -> Result<CasePage, IpcError> {
    state.with_db(move |conn| Ok(store::list_cases(conn, &filter)?)).await
}

/// The tab counts and the unread count (for the tab labels and the navigation badge).
#[tauri::command]
pub async fn cases_counts(state: State<'_, AppState>) -> Result<TabCounts, IpcError> {
    state.with_db(|conn| Ok(store::tab_counts(conn)?)).await
}

/// One case with its timeline and deliveries.
#[tauri::command]
pub async fn case_get(state: State<'_, AppState>, id: String) -> Result<CaseWithTimeline, IpcError> {
    state.with_db(move |conn| Ok(store::get_case(conn, &id)?)).await
}

/// Marks the case read (the person opened it) or unread again.
#[tauri::command]
pub async fn case_mark_read(state: State<'_, AppState>, id: String, read: bool) -> Result<(), IpcError> {
    let events = state.events.clone();
    state
        .with_db(move |conn| {
            if read {
                reads::mark_read(conn, &id)?;
            } else {
                reads::mark_unread(conn, &id)?;
            }
            events.publish(DomainEvent::CaseChanged { id });
            Ok(())
        })
        .await
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
    let person = crate::state::person_name();
    let events = state.events.clone();
    let answered = state
        .with_db(move |conn| {
            transition::reply(conn, &id, action, &text, &person)?;
            reads::mark_read(conn, &id)?;
            events.publish(DomainEvent::CaseChanged { id: id.clone() });
            Ok(store::get_case(conn, &id)?)
        })
        .await?;
    state.wake_delivery();
    Ok(answered)
}

/// Sends a failed or dead delivery again, under the same id.
#[tauri::command]
pub async fn delivery_retry(state: State<'_, AppState>, id: String) -> Result<Delivery, IpcError> {
    let events = state.events.clone();
    let delivery = state
        .with_db(move |conn| {
            let delivery = outbox::retry(conn, &id)?;
            events.publish(DomainEvent::CaseChanged { id: delivery.case_id.clone() });
            Ok(delivery)
        })
        .await?;
    state.wake_delivery();
    Ok(delivery)
}

/// Whether replies reach the agent endpoint, for the banner on the cases screen.
#[tauri::command]
pub async fn outbox_status(state: State<'_, AppState>) -> Result<OutboxStatus, IpcError> {
    state.with_db(|conn| Ok(outbox::outbox_status(conn)?)).await
}
