//! Generates the blank window's Tauri context from its own `tauri.conf.json`.
fn main() {
    tauri_build::build();
}
