//! The Skillcase desktop shell: window, commands and events over `skillcase-core`.
//!
//! Nothing here holds business logic. Commands unwrap arguments, call the domain and map its
//! errors to the one IPC error shape; everything else lives in the core crate.

mod commands;
mod error;
mod state;

use state::AppState;

/// Starts the desktop app. Panics only when the window system itself cannot start.
pub fn run() {
    let state = match AppState::from_env() {
        Ok(state) => state,
        Err(err) => {
            eprintln!("skillcase: cannot start: {err}");
            std::process::exit(1);
        }
    };
    tauri::Builder::default()
        .manage(state)
        .invoke_handler(tauri::generate_handler![commands::app::app_info])
        .run(tauri::generate_context!())
        .expect("error while running the Skillcase window");
}
