//! Teaching the guardrail on the real binary: a running `skillcase serve` vetoes a message the
//! shipped model gets wrong; `skillcase guard mark|marks|retrain` on the same data directory
//! marks it, lists and exports the marks, and retrains; the server then judges with the adopted
//! model. `unmark` and `reset` undo each step.

use crate::support;

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use serde_json::{json, Value};
use skillcase_testkit::http::Req;
use support::process::ServeProcess;

/// A system event, not a person's follow-up; the shipped model calls it a promise.
const REFUND_POSTED: &str = "O estorno constará em fatura em até 3 dias úteis.";

fn guard(data_dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("skillcase")
        .unwrap()
        .arg("guard")
        .args(args)
        .args(["--data-dir", data_dir.to_str().unwrap()])
        .output()
        .unwrap()
}

fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

async fn verdict(serve: &ServeProcess, conversation: &str, message: &str) -> String {
    let reply = Req::new(serve.port, "POST", "/v1/guard/before-send")
        .header("Host", &format!("127.0.0.1:{}", serve.port))
        .bearer(&serve.token())
        .json(&json!({ "conversation_id": conversation, "turn_id": "t1", "message": message }))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    let body: Value = serde_json::from_slice(&reply.body).unwrap();
    body["verdict"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_marked_false_alarm_passes_once_the_retrained_model_is_adopted() {
    let serve = ServeProcess::start(&[]);
    let data = serve.data_dir.path().to_path_buf();
    assert_eq!(verdict(&serve, "wa-1", REFUND_POSTED).await, "veto");

    let marked = json_of(&guard(&data, &["mark", "--clear", REFUND_POSTED, "--format", "json"]));
    assert_eq!((&marked["text"], &marked["promise"]), (&json!(REFUND_POSTED), &json!(false)));
    let report = json_of(&guard(&data, &["retrain", "--format", "json"]));
    assert_eq!(
        (&report["marks"], &report["trained_on"], &report["adopted"]),
        (&json!(1), &json!(1), &json!(true))
    );

    assert_eq!(verdict(&serve, "wa-2", REFUND_POSTED).await, "pass");
    assert!(guard(&data, &["reset"]).status.success());
    assert_eq!(verdict(&serve, "wa-3", REFUND_POSTED).await, "veto", "the shipped model again");
    serve.terminate();
}

#[test]
fn skillcase_guard_judges_a_message_with_the_workspace_s_model() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let judge = || {
        let output = Command::cargo_bin("skillcase")
            .unwrap()
            .args(["guard", REFUND_POSTED, "--data-dir", data.to_str().unwrap()])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap().lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(judge(), "promise", "no workspace yet: the shipped model");
    assert!(!data.exists(), "judging never creates a data directory");

    json_of(&guard(&data, &["mark", "--clear", REFUND_POSTED, "--format", "json"]));
    assert_eq!(json_of(&guard(&data, &["retrain", "--format", "json"]))["adopted"], json!(true));
    assert_eq!(judge(), "clear");
    assert!(guard(&data, &["reset"]).status.success());
    assert_eq!(judge(), "promise");
}

#[test]
fn marks_are_listed_exported_as_labelled_lines_and_taken_back() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let first = json_of(&guard(&data, &["mark", "--clear", REFUND_POSTED, "--format", "json"]));
    guard(&data, &["mark", "--promise", "Send us a DM with your number so our team can call you."]);

    let listed = String::from_utf8(guard(&data, &["marks"]).stdout).unwrap();
    assert!(listed.contains("clear") && listed.contains(REFUND_POSTED), "{listed}");
    let file = work.path().join("marks.tsv");
    let exported = guard(&data, &["marks", "--export", file.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&exported.stdout).starts_with("2 marks written to"), "{exported:?}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!(
            "label\tlang\ttext\nclear\tpt-BR\t{REFUND_POSTED}\npromise\ten\tSend us a DM with your number so our team can call you.\n"
        )
    );

    let id = first["id"].to_string();
    assert!(guard(&data, &["unmark", &id]).status.success());
    let again = guard(&data, &["unmark", &id]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).starts_with("guard_mark_not_found:"), "{again:?}");
}

#[test]
fn a_mark_needs_a_verdict() {
    let work = tempfile::tempdir().unwrap();
    let output = guard(&work.path().join("data"), &["mark", "We'll call you."]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

#[test]
fn a_blank_mark_is_refused_with_text_required() {
    let work = tempfile::tempdir().unwrap();
    let output = guard(&work.path().join("data"), &["mark", "--promise", "   "]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("text_required:"), "{output:?}");
}
