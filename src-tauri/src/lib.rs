//! The Skillcase desktop shell: window, commands and events over the application layer.
//!
//! Nothing here holds business logic. Commands unwrap arguments, call one application function
//! and map its error to the one IPC error shape; events from the application's bus are forwarded
//! to the window.

mod commands;
mod error;
mod events;
mod notify;
mod state;

use state::AppState;
use tauri::Manager;

/// Starts the desktop app. Panics only when the window system itself cannot start.
pub fn run() {
    let state = match AppState::start() {
        Ok(state) => state,
        Err(err) => {
            eprintln!("skillcase: cannot start: {err}");
            std::process::exit(1);
        }
    };
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_notification::init())
        .setup(|app| {
            let bus = app.state::<AppState>().app().events().clone();
            let bus = &bus;
            events::forward(bus, app.handle().clone());
            notify::notify_new_cases(bus, app.handle().clone());
            Ok(())
        })
        .plugin(tauri_plugin_dialog::init())
        .manage(state)
        .invoke_handler(tauri::generate_handler![
            commands::app::app_info,
            commands::skills::skills_list,
            commands::skills::skill_detail,
            commands::skills::skill_index,
            commands::skills::skill_activation,
            commands::skills::skill_file_text,
            commands::skills::skill_source,
            commands::skills::skill_file_data_url,
            commands::skills::skills_import,
            commands::skills::skills_pick_packages,
            commands::skills::skills_try_message,
            commands::editing::skill_versions,
            commands::editing::skill_diff,
            commands::editing::skill_restore,
            commands::editing::skill_activity,
            commands::editing::skill_preview_edit,
            commands::editing::skill_save_file,
            commands::editing::skill_create,
            commands::editing::skill_remove_file,
            commands::editing::skill_delete,
            commands::catalog::catalog_list,
            commands::catalog::catalog_install,
            commands::catalog::catalog_remove_override,
            commands::cases::cases_list,
            commands::cases::cases_counts,
            commands::cases::case_get,
            commands::cases::case_mark_read,
            commands::cases::case_reply,
            commands::cases::delivery_retry,
            commands::cases::outbox_status,
            commands::dialog::pick_folder,
            commands::settings::settings_get,
            commands::settings::settings_set_skills_dir,
            commands::settings::settings_set_api_port,
            commands::settings::settings_set_policy,
            commands::settings::settings_set_language,
            commands::settings::settings_set_theme,
            commands::settings::settings_set_endpoint,
            commands::settings::settings_test_endpoint,
            commands::settings::settings_generate_secret,
            commands::settings::settings_rotate_token,
        ])
        .build(tauri::generate_context!())
        .expect("error while building the Skillcase window");
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            handle.state::<AppState>().shutdown();
        }
    });
}
