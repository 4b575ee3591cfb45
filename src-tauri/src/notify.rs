//! The desktop notification for each new case (SPEC C1). It listens on the domain bus like the
//! window forwarder does; a notification that cannot be shown (no notification daemon, as under
//! Xvfb) is dropped silently, because the inbox itself already shows the case.

use skillcase_application::domain::common::events::{DomainEvent, EventBus};
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;
use tokio::sync::broadcast::error::RecvError;

use crate::state::AppState;

/// Starts the task that notifies about each `CaseOpened`; it ends when the bus is dropped.
pub fn notify_new_cases(bus: &EventBus, app: AppHandle) {
    let mut events = bus.subscribe();
    tauri::async_runtime::spawn(async move {
        loop {
            match events.recv().await {
                Ok(DomainEvent::CaseOpened { id }) => show(&app, id).await,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            }
        }
    });
}

/// Shows `#1042 Title` with the summary, read from the database off the async runtime.
async fn show(app: &AppHandle, id: String) {
    let state = app.state::<AppState>();
    let Ok(found) = state.app().get_case(id).await else {
        return;
    };
    let case = found.case;
    let _ = app
        .notification()
        .builder()
        .title(format!("#{} {}", case.number, case.title))
        .body(case.summary)
        .show();
}
