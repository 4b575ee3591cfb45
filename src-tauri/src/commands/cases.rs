//! The case inbox and case detail (SPEC C1): pages, counts, one case with its timeline, the
//! three-action reply, Retry, unread marks and the endpoint banner.

use crate::ipc::ipc;
use skillcase_application::domain::cases::model::{Delivery, HumanAction};
use skillcase_application::domain::cases::outbox::OutboxStatus;
use skillcase_application::domain::cases::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use tauri::State;

use crate::state::AppState;

ipc! {
    /// One inbox page: the tab, search, status and date filters, offset and limit in `filter`.
    fn cases_list(state: State<'_, AppState>, filter: CaseFilter) -> CasePage {
        Ok(state.app().list_cases(filter).await?)
    }

    /// The tab counts and the unread count (for the tab labels and the navigation badge).
    fn cases_counts(state: State<'_, AppState>) -> TabCounts {
        Ok(state.app().case_counts().await?)
    }

    /// One case with its timeline and deliveries.
    fn case_get(state: State<'_, AppState>, id: String) -> CaseWithTimeline {
        Ok(state.app().get_case(id).await?)
    }

    /// Marks the case read (the person opened it) or unread again.
    fn case_mark_read(state: State<'_, AppState>, id: String, read: bool) -> () {
        Ok(state.app().mark_case_read(id, read).await?)
    }

    /// The person's answer: resolved, need info from the customer, or escalate, with its text.
    /// Returns the case as it now stands, with the pending delivery that relays the answer.
    fn case_reply(state: State<'_, AppState>, id: String, action: HumanAction, text: String) -> CaseWithTimeline {
        Ok(state.app().reply_to_case(id, action, text).await?)
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
