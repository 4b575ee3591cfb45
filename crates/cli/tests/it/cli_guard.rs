//! `skillcase guard MESSAGE [--format text|json]` prints `promise` or `clear` and exits 0; bad
//! usage exits 2.

use assert_cmd::Command;

/// `skillcase` with a data directory that holds no database: the shipped model judges.
fn guard() -> Command {
    let mut command = Command::cargo_bin("skillcase").unwrap();
    command.env("SKILLCASE_DATA_DIR", std::env::temp_dir().join("skillcase-guard-without-a-workspace"));
    command
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

#[test]
fn a_promise_with_a_time_prints_when_it_falls_due_in_the_zones_calendar() {
    guard()
        .args(["guard", "--zone", "America/Sao_Paulo", "--at", "2026-12-01T10:00"])
        .arg("O Ricardo, do nosso time de apólices, vai te enviar a nova apólice antes do Natal.")
        .assert()
        .success()
        .stdout("promise\ndue Thu 2026-12-24 18:00 -03 (\"antes do Natal\")\n");
}

#[test]
fn business_days_skip_the_zones_national_holidays() {
    guard()
        .args(["guard", "--zone", "America/New_York", "--at", "2026-12-01T10:00"])
        .arg("Our billing team will refund you within 19 business days.")
        .assert()
        .success()
        .stdout("promise\ndue Tue 2026-12-29 18:00 EST (\"within 19 business days\")\n");
}

#[test]
fn json_output_carries_the_due_time_beside_the_detection() {
    let output = guard()
        .args(["guard", "--format", "json", "--zone", "America/Sao_Paulo", "--at", "2026-12-01T10:00"])
        .arg("A Ana te liga na sexta da semana que vem.")
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["promise"], serde_json::json!(true));
    assert_eq!(json["due"]["expression"]["text"], serde_json::json!("na sexta da semana que vem"));
    assert_eq!(json["due"]["at"], serde_json::json!("2026-12-11T18:00:00-03:00[America/Sao_Paulo]"));
}

#[test]
fn an_unknown_zone_is_refused_with_its_name() {
    let output = guard()
        .args(["guard", "--zone", "Mars/Olympus", "Te ligo amanhã."])
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&output.stderr).contains("Mars/Olympus"), "{output:?}");
}
