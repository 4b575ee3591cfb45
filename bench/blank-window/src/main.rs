//! An empty Tauri 2 window with the app's size and content security policy: what any Tauri app
//! costs before its own code, measured beside Skillcase by `bench/desktop`.
fn main() {
    tauri::Builder::default().run(tauri::generate_context!()).expect("the blank window could not start");
}
