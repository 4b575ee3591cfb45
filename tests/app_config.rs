//! The desktop shell's configuration is part of its security and layout contract: these tests
//! pin what a careless edit of `tauri.conf.json` or the capabilities could silently weaken.

use serde_json::Value;

fn read_json(path: &str) -> Value {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {full}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{full} is not JSON: {e}"))
}

#[test]
fn the_window_runs_under_the_strict_content_security_policy() {
    let conf = read_json("tauri.conf.json");
    assert_eq!(
        conf["app"]["security"]["csp"],
        "default-src 'self'; connect-src ipc: http://ipc.localhost; img-src 'self' asset: \
         http://asset.localhost blob: data:; style-src 'self' 'unsafe-inline'"
    );
}

#[test]
fn the_app_serves_the_built_ui_from_ui_dist() {
    let conf = read_json("tauri.conf.json");
    assert_eq!(conf["build"]["frontendDist"], "ui/dist");
}

#[test]
fn the_default_capability_covers_exactly_the_main_window() {
    let conf = read_json("tauri.conf.json");
    let capability = read_json("src-tauri/capabilities/default.json");
    let labels: Vec<&str> =
        conf["app"]["windows"].as_array().unwrap().iter().map(|w| w["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["main"]);
    assert_eq!(capability["windows"], serde_json::json!(["main"]));
}
