//! The per-client profiles and listings from the real binary: `validate --profile claude-code|codex`
//! and `prompt --client`.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

fn skill(root: &Path, name: &str, frontmatter_extra: &str) {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    let md = format!(
        "---\nname: {name}\ndescription: Handles {name} for customers.\n{frontmatter_extra}---\n# {name}\n"
    );
    fs::write(dir.join("SKILL.md"), md).unwrap();
}

fn skillcase(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("skillcase").unwrap().args(args).assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

#[test]
fn a_claude_code_key_is_an_error_for_the_standard_and_fine_for_claude_code() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "refunds", "when_to_use: When a customer was charged twice.\n");
    let dir = tmp.path().join("refunds");
    skillcase(&["validate", "--profile", "standard", dir.to_str().unwrap()]).code(1);
    let a = skillcase(&["validate", "--profile", "claude-code", dir.to_str().unwrap()]).code(0);
    assert!(stdout(&a).starts_with("ok: 1 skills checked, 1 valid"), "{}", stdout(&a));
}

#[test]
fn codex_refuses_a_skill_it_would_not_load_and_names_the_code() {
    let tmp = TempDir::new().unwrap();
    let long = format!("metadata:\n  short-description: \"{}\"\n", "s".repeat(1_100));
    skill(tmp.path(), "refunds", &long);
    let a =
        skillcase(&["validate", "--profile", "codex", tmp.path().join("refunds").to_str().unwrap()]).code(1);
    assert!(stdout(&a).contains("error short_description_too_long"), "{}", stdout(&a));
}

#[test]
fn an_unknown_profile_is_refused_listing_the_five() {
    let a = skillcase(&["validate", "--profile", "cursor", "."]).code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("standard, claude, skillcase, claude-code or codex"), "{err}");
}

#[test]
fn the_codex_listing_names_each_skill_with_its_file() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "refunds", "");
    let a = skillcase(&["prompt", tmp.path().to_str().unwrap(), "--client", "codex"]).code(0);
    let file = tmp.path().join("refunds").join("SKILL.md");
    assert_eq!(stdout(&a), format!("- refunds: Handles refunds for customers. (file: {})\n", file.display()));
}

#[test]
fn the_claude_code_listing_leaves_out_a_skill_the_model_may_not_start_and_says_so_in_json() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "refunds", "when_to_use: Charged twice.\n");
    skill(tmp.path(), "deploy", "disable-model-invocation: true\n");
    let a =
        skillcase(&["prompt", tmp.path().to_str().unwrap(), "--client", "claude-code", "--output", "json"])
            .code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(json["text"], "- refunds: Handles refunds for customers. Charged twice.");
    assert_eq!(json["entries"][0]["name"], "deploy");
    assert_eq!(json["entries"][0]["fate"], "not_listed");
    assert_eq!(json["entries"][1]["fate"], "kept");
    assert_eq!(json["encoding"], "o200k_base");
    assert!(json["tokens"].as_u64().unwrap() > 5);
}

#[test]
fn a_small_budget_shortens_descriptions_before_leaving_skills_out() {
    let tmp = TempDir::new().unwrap();
    for name in ["alpha", "bravo", "charlie"] {
        skill(tmp.path(), name, "");
    }
    let a = skillcase(&[
        "prompt",
        tmp.path().to_str().unwrap(),
        "--client",
        "claude-code",
        "--budget",
        "60",
        "--output",
        "json",
    ])
    .code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let fates: Vec<&str> =
        json["entries"].as_array().unwrap().iter().map(|e| e["fate"].as_str().unwrap()).collect();
    assert_eq!(fates, ["shortened", "shortened", "shortened"]);
    assert!(json["used_chars"].as_u64().unwrap() <= 60);
}

#[test]
fn an_unknown_client_is_refused() {
    let a = skillcase(&["prompt", ".", "--client", "cursor"]).code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("unknown agent client `cursor`"), "{err}");
}
