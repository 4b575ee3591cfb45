//! The Skillcase desktop shell: window, commands and events over the application layer.
//!
//! Nothing here holds business logic. Commands unwrap arguments, call one application function
//! and map its error to the one IPC error shape; events from the application's bus are forwarded
//! to the window.

mod ipc;

mod commands;
mod error;
mod events;
mod notify;
mod rendering;
mod state;

#[cfg(test)]
mod bindings;

use state::AppState;
use tauri::Manager;

/// Starts the desktop app. Panics only when the window system itself cannot start.
/// Every command the window may call: the Tauri handler and, for the bindings test, their names.
macro_rules! registered {
    ($($module:ident :: $name:ident),* $(,)?) => {
        fn handler() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$module::$name),*]
        }

        #[cfg(test)]
        const REGISTERED: &[&str] = &[$(stringify!($name)),*];
    };
}

registered![
    app::app_info,
    skills::skills_list,
    skills::skill_detail,
    skills::skill_index,
    skills::skill_activation,
    skills::skill_file_text,
    skills::skill_source,
    skills::skill_file_data_url,
    skills::skills_import,
    skills::skills_import_check,
    skills::skills_pick_packages,
    skills::skills_try_message,
    skills::skill_export,
    skills::skill_security_scan,
    skills::skill_client_preview,
    install::install_agents,
    install::skill_install_status,
    install::skill_install,
    editing::skill_versions,
    editing::skill_diff,
    editing::skill_restore,
    editing::skill_activity,
    editing::skill_preview_edit,
    editing::skill_save_file,
    editing::skill_create,
    editing::skill_remove_file,
    editing::skill_delete,
    editing::skill_activation_log,
    editing::skill_trigger_tests,
    editing::skill_add_trigger_case,
    editing::skill_remove_trigger_case,
    editing::skill_preview_trigger_changes,
    catalog::catalog_list,
    catalog::catalog_install,
    catalog::catalog_remove_override,
    catalog::remote_catalogs,
    catalog::remote_catalog_add,
    catalog::remote_catalog_remove,
    catalog::remote_catalog_pull,
    catalog::remote_catalogs_pull,
    catalog::remote_skills,
    catalog::remote_skill_install,
    cases::cases_list,
    cases::cases_counts,
    cases::cases_report,
    cases::case_get,
    cases::case_history_breaks,
    cases::case_mark_read,
    cases::cases_mark_read,
    cases::cases_cancel,
    cases::cases_assign,
    cases::case_take,
    cases::cases_me,
    cases::case_next_waiting,
    cases::case_reply,
    cases::case_hold_reply,
    cases::case_add_note,
    cases::delivery_retry,
    cases::outbox_status,
    guard::guard_vetoes,
    guard::guard_marks,
    guard::guard_mark,
    guard::guard_unmark,
    guard::guard_model_status,
    guard::guard_retrain,
    guard::guard_forget_model,
    guard::guard_export_marks,
    dialog::pick_folder,
    dialog::pick_save_file,
    dialog::pick_open_file,
    settings::settings_get,
    team::team_inbox,
    team::team_database_test,
    team::team_database_save,
    team::team_copy_inbox,
    team::app_restart,
    settings::settings_set_skills_dir,
    settings::settings_set_api_port,
    settings::settings_set_policy,
    settings::settings_set_language,
    settings::settings_set_theme,
    settings::settings_set_calendar,
    settings::settings_national_holidays,
    settings::settings_set_quiet,
    settings::settings_set_you,
    settings::settings_set_response_targets,
    settings::settings_set_endpoint,
    settings::settings_set_agent,
    settings::settings_remove_agent,
    settings::settings_test_endpoint,
    settings::settings_generate_secret,
    settings::settings_rotate_token,
    replies::saved_replies_list,
    replies::saved_reply_create,
    replies::saved_reply_update,
    replies::saved_reply_delete,
    replies::saved_replies_pick,
    replies::saved_replies_export,
    replies::saved_replies_import,
    mcp::mcp_setup,
    mcp::mcp_clients
];

pub fn run() {
    rendering::paint_without_compositing();
    skillcase_application::memory::limit_malloc_arenas();
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
        .invoke_handler(handler())
        .build(tauri::generate_context!())
        .expect("error while building the Skillcase window");
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            handle.state::<AppState>().shutdown();
        }
    });
}
