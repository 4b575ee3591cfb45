//! The inbox CLI's tests: `skillcase cases …` on a test's own data directory, run as the
//! system user `ana`, with the usual data directory pointing elsewhere so only `--data-dir`
//! can find the cases.

use std::path::PathBuf;

use assert_cmd::Command;
use tempfile::TempDir;

/// The data directory the tests name with `--data-dir`.
pub fn data_dir(work: &TempDir) -> PathBuf {
    work.path().join("data")
}

/// The binary running `cases ARGS --data-dir D` as `ana`.
pub fn cases(work: &TempDir, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("skillcase")
        .unwrap()
        .env("SKILLCASE_DATA_DIR", work.path().join("elsewhere"))
        .env("HOME", work.path().join("home"))
        .env("USER", "ana")
        .arg("cases")
        .args(args)
        .arg("--data-dir")
        .arg(data_dir(work))
        .output()
        .unwrap()
}
