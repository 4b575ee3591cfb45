//! Generates the Tauri context; capabilities live in `src-tauri/capabilities/` because the
//! package root is the repository root.
fn main() {
    let attributes =
        tauri_build::Attributes::new().capabilities_path_pattern("src-tauri/capabilities/*.json");
    tauri_build::try_build(attributes).expect("failed to run tauri-build");
}
