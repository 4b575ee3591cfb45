//! `skillcase endpoint [show|set]`: configure where replies go without the window; refusals exit
//! 1 with their code, and the secret is never printed.

use assert_cmd::Command;

fn endpoint(dir: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("skillcase").unwrap();
    cmd.env("SKILLCASE_DATA_DIR", dir.path()).arg("endpoint");
    cmd
}

#[test]
fn a_fresh_data_directory_has_no_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    endpoint(&dir).assert().success().stdout("no agent endpoint configured\n");
}

#[test]
fn set_saves_the_endpoint_and_show_prints_it_without_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    endpoint(&dir)
        .args([
            "set",
            "--url",
            "http://127.0.0.1:9000/hooks",
            "--secret",
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        ])
        .args(["--max-attempts", "1"])
        .assert()
        .success()
        .stdout("http://127.0.0.1:9000/hooks (enabled, timeout 10 s, 1 attempts, secret set)\n");
    let shown = endpoint(&dir).args(["show", "--format", "json"]).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&shown.get_output().stdout).unwrap();
    assert_eq!(
        (json["url"].as_str(), json["max_attempts"].as_u64()),
        (Some("http://127.0.0.1:9000/hooks"), Some(1))
    );
    assert!(!String::from_utf8_lossy(&shown.get_output().stdout).contains("MfKQ9"));
}

#[test]
fn an_invalid_url_is_refused_with_its_code_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let refused = endpoint(&dir)
        .args(["set", "--url", "ftp://agent.local", "--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])
        .args(["--format", "json"])
        .assert()
        .code(1);
    let json: serde_json::Value = serde_json::from_slice(&refused.get_output().stdout).unwrap();
    assert_eq!(json["error"]["code"], "invalid_endpoint_url");
}

#[test]
fn a_url_with_credentials_is_refused_with_its_code_and_the_password_is_never_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let refused = endpoint(&dir)
        .args(["set", "--url", "http://agent:hunter2@127.0.0.1:9000/hooks"])
        .args(["--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "--format", "json"])
        .assert()
        .code(1);
    let output = refused.get_output();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["error"]["code"], "endpoint_url_has_credentials");
    let printed = [output.stdout.as_slice(), output.stderr.as_slice()].concat();
    assert!(!String::from_utf8_lossy(&printed).contains("hunter2"));
    endpoint(&dir).assert().success().stdout("no agent endpoint configured\n");
}

#[test]
fn show_masks_credentials_in_a_url_stored_before_they_were_refused() {
    let dir = tempfile::tempdir().unwrap();
    endpoint(&dir)
        .args(["set", "--url", "http://127.0.0.1:9000/hooks"])
        .args(["--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])
        .assert()
        .success();
    let conn = rusqlite::Connection::open(dir.path().join("skillcase.sqlite3")).unwrap();
    conn.execute("UPDATE agent_endpoint SET url = 'http://agent:hunter2@127.0.0.1:9000/hooks'", []).unwrap();
    endpoint(&dir)
        .arg("show")
        .assert()
        .success()
        .stdout("http://***@127.0.0.1:9000/hooks (enabled, timeout 10 s, 15 attempts, secret set)\n");
}
