//! The `skillcase` binary's basic contract: help, version, usage errors exit 2.

use assert_cmd::Command;

fn skillcase() -> Command {
    Command::cargo_bin("skillcase").unwrap()
}

#[test]
fn version_prints_the_crate_version() {
    let out = skillcase().arg("--version").assert().success().get_output().stdout.clone();
    assert_eq!(String::from_utf8(out).unwrap(), format!("skillcase {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn help_lists_the_subcommands() {
    let out = skillcase().arg("--help").assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Usage: skillcase [OPTIONS] <COMMAND>"), "{text}");
    assert!(text.contains("info"), "{text}");
    assert!(text.contains("--database <URL>"), "{text}");
}

#[test]
fn an_unknown_subcommand_is_a_usage_error_with_exit_code_2() {
    skillcase().arg("frobnicate").assert().code(2);
}

#[test]
fn info_reports_the_data_directory_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let out = skillcase()
        .arg("info")
        .env("SKILLCASE_DATA_DIR", dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let info: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(info["data_dir"], dir.path().display().to_string());
    assert_eq!(info["database_path"], dir.path().join("skillcase.sqlite3").display().to_string());
}
