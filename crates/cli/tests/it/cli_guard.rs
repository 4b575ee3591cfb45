//! `skillcase guard MESSAGE [--format text|json]` prints `promise` or `clear` and exits 0; bad
//! usage exits 2.

use assert_cmd::Command;

fn guard() -> Command {
    Command::cargo_bin("skillcase").unwrap()
}

#[test]
fn a_portuguese_promise_prints_promise() {
    guard()
        .args(["guard", "Vou verificar com a equipe e te retorno."])
        .assert()
        .success()
        .stdout("promise\n");
}

#[test]
fn a_portuguese_ordinary_commitment_prints_clear() {
    guard().args(["guard", "Vou te mandar o link do rastreio."]).assert().success().stdout("clear\n");
}

#[test]
fn an_english_promise_prints_promise() {
    guard().args(["guard", "Someone from billing will call you."]).assert().success().stdout("promise\n");
}

#[test]
fn an_english_offer_prints_clear() {
    guard()
        .args(["guard", "Would you like me to connect you with sales?"])
        .assert()
        .success()
        .stdout("clear\n");
}

#[test]
fn json_output_carries_the_rule_the_evidence_and_the_language() {
    let output = guard()
        .args(["guard", "--format", "json", "Te retorno mais tarde."])
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((&json["promise"], &json["rule"]), (&serde_json::json!(true), &serde_json::json!("model")));
    assert_eq!(
        (&json["evidence"], &json["language"]),
        (&serde_json::json!("Te retorno mais tarde."), &serde_json::json!("pt-BR"))
    );
    let spans = json["spans"].as_array().unwrap();
    let deferral = spans.iter().find(|s| s["role"] == "deferral").expect("a deferral span");
    let (start, end) =
        (deferral["start"].as_u64().unwrap() as usize, deferral["end"].as_u64().unwrap() as usize);
    let chars: String = "Te retorno mais tarde.".chars().skip(start).take(end - start).collect();
    assert_eq!(deferral["text"].as_str(), Some(chars.as_str()), "offsets count characters of the message");
}

#[test]
fn a_missing_message_is_a_usage_error() {
    guard().arg("guard").assert().code(2);
}

#[test]
fn an_unknown_format_is_a_usage_error() {
    guard().args(["guard", "--format", "xml", "oi"]).assert().code(2);
}
