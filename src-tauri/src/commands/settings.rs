//! The Settings screen: read everything at once, save one group at a time, test the agent
//! endpoint, rotate the API token. Saving the skills directory or the port restarts the
//! service in [`AppState`]; every save announces `settings-changed` so the status line re-reads.

use skillcase_application::settings::{self, view, SettingsView};
use skillcase_application::token::TokenStore;
use skillcase_cases::delivery::{test_endpoint, PingOutcome};
use skillcase_cases::endpoint::{checked_endpoint, set_endpoint, EndpointInput};
use skillcase_cases::signature::generate_secret;
use skillcase_common::events::DomainEvent;
use skillcase_common::ErrorBody;
use skillcase_skill::policy::Policy;
use tauri::State;

use crate::{error::IpcError, state::AppState};

/// Everything Settings shows: saved settings, values in force, endpoint (no secret), API access.
#[tauri::command]
pub async fn settings_get(state: State<'_, AppState>) -> Result<SettingsView, IpcError> {
    read_view(&state).await
}

/// Saves the skills directory (`None` = the default) and serves it from now on.
#[tauri::command]
pub async fn settings_set_skills_dir(
    state: State<'_, AppState>,
    path: Option<String>,
) -> Result<SettingsView, IpcError> {
    let data_dir = state.data_dir.clone();
    let (dir, port) = state
        .with_db(move |conn| {
            settings::set_skills_dir(conn, path.as_deref())?;
            Ok((settings::effective_skills_dir(conn, &data_dir)?, settings::api_port(conn)?))
        })
        .await?;
    state.switch_skills_dir(dir, port).await;
    changed(&state, "skills_dir");
    read_view(&state).await
}

/// Moves the local API to `port` when it is valid and free; otherwise refuses it and the API
/// stays where it was.
#[tauri::command]
pub async fn settings_set_api_port(state: State<'_, AppState>, port: u32) -> Result<SettingsView, IpcError> {
    let current = state.api_port().await;
    let port = blocking(move || Ok(settings::check_api_port(port, current)?)).await?;
    state.move_api(port).await?;
    state.with_db(move |conn| Ok(settings::set_api_port(conn, port.into(), Some(port))?)).await?;
    changed(&state, "api");
    read_view(&state).await
}

/// Saves the import policy and limits, and restarts the service so the library validates and
/// imports under them at once.
#[tauri::command]
pub async fn settings_set_policy(
    state: State<'_, AppState>,
    policy: Policy,
) -> Result<SettingsView, IpcError> {
    let saved_port = state.with_db(move |conn| {
        settings::set_policy(conn, policy)?;
        Ok(settings::api_port(conn)?)
    });
    state.restart_service(saved_port.await?).await;
    changed(&state, "policy");
    read_view(&state).await
}

/// Saves the UI language (`system`, `en`, `pt-BR`).
#[tauri::command]
pub async fn settings_set_language(
    state: State<'_, AppState>,
    language: String,
) -> Result<SettingsView, IpcError> {
    state.with_db(move |conn| Ok(settings::set_language(conn, &language)?)).await?;
    changed(&state, "appearance");
    read_view(&state).await
}

/// Saves the theme (`system`, `light`, `dark`).
#[tauri::command]
pub async fn settings_set_theme(state: State<'_, AppState>, theme: String) -> Result<SettingsView, IpcError> {
    state.with_db(move |conn| Ok(settings::set_theme(conn, &theme)?)).await?;
    changed(&state, "appearance");
    read_view(&state).await
}

/// Saves the agent endpoint; the delivery worker reads it before its next attempt.
#[tauri::command]
pub async fn settings_set_endpoint(
    state: State<'_, AppState>,
    input: EndpointInput,
) -> Result<SettingsView, IpcError> {
    state.with_db(move |conn| Ok(set_endpoint(conn, input)?)).await?;
    state.wake_delivery();
    changed(&state, "endpoint");
    read_view(&state).await
}

/// Sends a signed ping to the endpoint as typed (saved or not; no secret = the saved one).
#[tauri::command]
pub async fn settings_test_endpoint(
    state: State<'_, AppState>,
    input: EndpointInput,
) -> Result<PingOutcome, IpcError> {
    let endpoint = state.with_db(move |conn| Ok(checked_endpoint(conn, &input)?)).await?;
    Ok(test_endpoint(&endpoint).await?)
}

/// A new random signing secret (`whsec_…`) for the endpoint form.
#[tauri::command]
pub fn settings_generate_secret() -> String {
    generate_secret()
}

/// Replaces the API token; the old one is refused from now on.
#[tauri::command]
pub async fn settings_rotate_token(state: State<'_, AppState>) -> Result<SettingsView, IpcError> {
    let data_dir = state.data_dir.clone();
    blocking(move || Ok(TokenStore::open(&data_dir)?.rotate().map(drop)?)).await?;
    changed(&state, "api");
    read_view(&state).await
}

async fn read_view(state: &AppState) -> Result<SettingsView, IpcError> {
    let status = state.api_status().await;
    let data_dir = state.data_dir.clone();
    state.with_db(move |conn| Ok(view::read(conn, &data_dir, status)?)).await
}

fn changed(state: &AppState, section: &str) {
    state.events.publish(DomainEvent::SettingsChanged { section: section.to_string() });
}

/// Runs file-system work (the token file) off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, IpcError> + Send + 'static,
) -> Result<T, IpcError> {
    tauri::async_runtime::spawn_blocking(work).await.map_err(|e| {
        IpcError::from(ErrorBody::new("task_failed", format!("a background task stopped: {e}")))
    })?
}
