//! The `skillcase` binary's basic contract: help, version, usage errors exit 2, and a first start
//! that works however many processes make it at once.

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

#[test]
fn processes_started_together_on_a_fresh_data_directory_all_open_it_and_keep_it_private() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let children: Vec<_> = (0..8)
        .map(|_| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("skillcase"))
                .arg("info")
                .env("SKILLCASE_DATA_DIR", &data)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&data), 0o700, "the data directory");
        assert_eq!(mode(&data.join("skillcase.sqlite3")), 0o600, "the database");
    }
}
