//! `skillcase validate` run as the real binary: output lines, JSON shape and exit codes.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

fn skill(root: &Path, folder: &str, skill_md: &str) -> PathBuf {
    let dir = root.join(folder);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), skill_md).unwrap();
    dir
}

fn validate(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("skillcase").unwrap().arg("validate").args(args).assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

const GOOD: &str = "---\nname: shipping\ndescription: Answers delivery questions. Use when the lead asks about shipping.\n---\n# Shipping\n";

#[test]
fn a_valid_skill_exits_zero_with_a_summary() {
    let tmp = TempDir::new().unwrap();
    let dir = skill(tmp.path(), "shipping", GOOD);
    let a = validate(&[dir.to_str().unwrap()]).code(0);
    assert_eq!(stdout(&a), "ok: 1 skills checked, 1 valid, 0 invalid; 0 errors, 0 warnings\n");
}

#[test]
fn an_invalid_skill_exits_one_with_located_findings_and_hints() {
    let tmp = TempDir::new().unwrap();
    let dir = skill(tmp.path(), "shipping-policy", GOOD);
    let a = validate(&[dir.to_str().unwrap()]).code(1);
    let expected = format!(
        "{}/SKILL.md:2:7 error name_mismatch: the name `shipping` does not match the folder name `shipping-policy`\n  \
         hint: rename the folder or change `name:` so they are equal\n\
         failed: 1 skills checked, 0 valid, 1 invalid; 1 errors, 0 warnings\n",
        dir.display()
    );
    assert_eq!(stdout(&a), expected);
}

#[test]
fn warnings_alone_exit_zero() {
    let tmp = TempDir::new().unwrap();
    let text = GOOD.replace("---\n# Shipping", "author: Ana\n---\n# Shipping");
    let dir = skill(tmp.path(), "shipping", &text);
    let a = validate(&[dir.to_str().unwrap()]).code(0);
    assert!(stdout(&a).contains("warning unknown_key: unknown frontmatter key `author`"));
}

#[test]
fn the_profile_flag_changes_the_rules() {
    let tmp = TempDir::new().unwrap();
    let text = GOOD.replace("---\n# Shipping", "author: Ana\n---\n# Shipping");
    let dir = skill(tmp.path(), "shipping", &text);
    let a = validate(&[dir.to_str().unwrap(), "--profile", "standard"]).code(1);
    assert!(stdout(&a).contains("error unknown_key: `author` is not a standard frontmatter key"));
}

#[test]
fn a_directory_of_skill_folders_validates_each() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "shipping", GOOD);
    skill(tmp.path(), "nested/returns", &GOOD.replace("name: shipping", "name: returns"));
    let a = validate(&[tmp.path().to_str().unwrap()]).code(0);
    assert!(stdout(&a).ends_with("ok: 2 skills checked, 2 valid, 0 invalid; 0 errors, 0 warnings\n"));
}

#[test]
fn json_output_has_skills_findings_and_summary() {
    let tmp = TempDir::new().unwrap();
    let dir = skill(tmp.path(), "shipping-policy", GOOD);
    let a = validate(&[dir.to_str().unwrap(), "--format", "json"]).code(1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(json["profile"], "skillcase");
    assert_eq!(
        json["summary"],
        serde_json::json!({"skills": 1, "valid": 0, "invalid": 1, "errors": 1, "warnings": 0})
    );
    let s = &json["skills"][0];
    assert_eq!(
        (s["name"].as_str(), s["type"].as_str(), s["valid"].as_bool()),
        (Some("shipping"), Some("prompt"), Some(false))
    );
    let f = &s["findings"][0];
    assert_eq!(
        (f["code"].as_str(), f["severity"].as_str(), f["line"].as_u64(), f["column"].as_u64()),
        (Some("name_mismatch"), Some("error"), Some(2), Some(7))
    );
}

#[test]
fn a_missing_path_is_reported_as_a_finding() {
    let tmp = TempDir::new().unwrap();
    let missing = tmp.path().join("nope");
    let a = validate(&[missing.to_str().unwrap()]).code(1);
    assert!(stdout(&a).contains("error path_not_found: path does not exist"));
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    validate(&[".", "--profile", "strict"]).code(2);
}

#[test]
fn no_path_is_a_usage_error() {
    validate(&[]).code(2);
}

#[test]
fn output_to_a_pipe_has_no_colour_codes() {
    let tmp = TempDir::new().unwrap();
    let dir = skill(tmp.path(), "other", GOOD);
    let a = validate(&[dir.to_str().unwrap()]).code(1);
    assert!(!stdout(&a).contains('\u{1b}'));
}

fn zip_file(dir: &Path, name: &str, entries: &[(&str, &str)]) -> PathBuf {
    let path = dir.join(name);
    let mut writer = zip::ZipWriter::new(fs::File::create(&path).unwrap());
    for (entry, text) in entries {
        writer.start_file(*entry, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    writer.finish().unwrap();
    path
}

#[test]
fn a_valid_zip_package_is_validated_without_being_extracted() {
    let tmp = TempDir::new().unwrap();
    let zip = zip_file(tmp.path(), "shipping.zip", &[("shipping/SKILL.md", GOOD)]);
    let a = validate(&[zip.to_str().unwrap()]).code(0);
    assert_eq!(stdout(&a), "ok: 1 skills checked, 1 valid, 0 invalid; 0 errors, 0 warnings\n");
    let left: Vec<_> = fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["shipping.zip"]);
}

#[test]
fn a_malicious_zip_package_is_refused_with_the_archive_code() {
    let tmp = TempDir::new().unwrap();
    let zip = zip_file(tmp.path(), "evil.zip", &[("SKILL.md", GOOD), ("../escape.md", "x")]);
    let a = validate(&[zip.to_str().unwrap(), "--format", "json"]).code(1);
    let out: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let codes: Vec<&str> = out["skills"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"zip_path_traversal"), "{codes:?}");
}

/// A 3 GB (sparse) `.zip` is refused from its size: the peak memory of the `validate` process,
/// as `wait4` reports it for that child alone, stays far below it (reading it whole, as `validate`
/// once did, takes 3 GB).
#[cfg(target_os = "linux")]
#[test]
fn a_package_larger_than_any_archive_is_refused_unread() {
    use std::io::Read;
    let tmp = TempDir::new().unwrap();
    let huge = tmp.path().join("huge.zip");
    skillcase_testkit::hostile::sparse_file(&huge, b"PK\x03\x04", 3 * 1024 * 1024 * 1024);
    #[expect(clippy::zombie_processes, reason = "reaped by wait4, which reports this child's own peak")]
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["validate", huge.to_str().unwrap(), "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    let (pid, mut status, mut usage) = (child.id() as libc::pid_t, 0, unsafe { std::mem::zeroed() });
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    assert_eq!(libc::WEXITSTATUS(status), 1, "{text}");
    let out: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(out["skills"][0]["findings"][0]["code"], "zip_archive_too_large");
    let peak = usage.ru_maxrss as u64 * 1024;
    assert!(peak < 512 * 1024 * 1024, "validate's peak memory was {peak} bytes");
}
