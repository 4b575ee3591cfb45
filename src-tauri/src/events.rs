//! Forwards the domain's [`DomainEvent`]s to the window, each under its own event name
//! (`case-opened`, `skill-changed`, ...), so the UI refreshes only what changed.

use skillcase_application::domain::common::events::EventBus;
use tauri::{AppHandle, Emitter};
use tokio::sync::broadcast::error::RecvError;

/// Emitted when the forwarder fell behind and dropped events: the UI should reload its views.
pub const LAGGED: &str = "events-lagged";

/// Starts the forwarding task; it ends when the bus is dropped.
pub fn forward(bus: &EventBus, app: AppHandle) {
    let mut events = bus.subscribe();
    tauri::async_runtime::spawn(async move {
        loop {
            match events.recv().await {
                Ok(event) => {
                    let _ = app.emit(event.name(), &event);
                }
                Err(RecvError::Lagged(_)) => {
                    let _ = app.emit(LAGGED, ());
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
}
