//! `skillcase test` run as the real binary: the factory catalog's cases pass, a failing case
//! exits 1 and says what was expected, conflicts and broken folders are reported, and the JUnit
//! output is valid against the JUnit schema the `junit-report` crate ships.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn skill(root: &Path, name: &str, config: &str, cases: &str) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Answers about {name}.\n---\nBody.\n"),
    )
    .unwrap();
    fs::write(dir.join("skill.config.yaml"), config).unwrap();
    fs::write(dir.join("references/retirada.md"), "# Retirada\n").unwrap();
    fs::write(dir.join("skill.triggers.json"), cases).unwrap();
    dir
}

const FRETE: &str = "matcher:\n  any_keywords: [frete]\n  probe_keywords: [entrega]\nreferences:\n  routes:\n    - match: [retirar]\n      required_refs: [references/retirada.md]\n";
const TROCAS: &str = "matcher:\n  any_keywords: [troca, frete de volta]\n";

fn test_cmd(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("skillcase").unwrap().arg("test").args(args).assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills-examples")
}

#[test]
fn the_factory_catalogs_cases_all_pass_without_conflicts() {
    let a = test_cmd(&[examples().to_str().unwrap()]).code(0);
    let out = stdout(&a);
    let summary = out.lines().last().unwrap();
    assert!(
        summary.contains("in 11 skill(s)")
            && summary.contains(" 0 failed; 0 conflict(s); 0 skill(s) not run"),
        "{summary}"
    );
}

#[test]
fn a_failing_case_exits_one_and_says_what_it_expected_and_what_happened() {
    let tmp = TempDir::new().unwrap();
    skill(
        tmp.path(),
        "frete",
        FRETE,
        r#"[{"query": "a entrega atrasou", "should_trigger": true}, {"query": "frete grátis?", "should_trigger": true}]"#,
    );
    let a = test_cmd(&[tmp.path().to_str().unwrap()]).code(1);
    let out = stdout(&a);
    assert!(out.contains("frete: 1 passed, 1 failed; precision 100 %, recall 50 %"), "{out}");
    assert!(
        out.contains("FAIL \"a entrega atrasou\" -> probe (keyword: entrega); expected to fire hard"),
        "{out}"
    );
}

#[test]
fn json_lists_each_case_with_its_route_and_the_conflicts() {
    let tmp = TempDir::new().unwrap();
    skill(
        tmp.path(),
        "frete",
        FRETE,
        r#"[{"query": "quero retirar, qual o frete?", "should_trigger": true, "required_refs": ["references/retirada.md"]}]"#,
    );
    skill(
        tmp.path(),
        "trocas",
        TROCAS,
        r#"[{"query": "quem paga o frete de volta?", "should_trigger": true}]"#,
    );
    let a = test_cmd(&[tmp.path().to_str().unwrap(), "--format", "json"]).code(0);
    let doc: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(doc["passed"], 2);
    assert_eq!(doc["skills"][0]["cases"][0]["required"], serde_json::json!(["references/retirada.md"]));
    assert_eq!(doc["conflicts"][0]["kind"], "fires_many");
    assert_eq!(doc["conflicts"][0]["skills"], serde_json::json!(["frete", "trocas"]));
}

#[test]
fn skills_in_several_paths_are_matched_together() {
    let one = TempDir::new().unwrap();
    let two = TempDir::new().unwrap();
    let frete =
        skill(one.path(), "frete", FRETE, r#"[{"query": "quanto é o frete?", "should_trigger": true}]"#);
    skill(two.path(), "trocas", TROCAS, "[]");
    let a = test_cmd(&[frete.to_str().unwrap(), two.path().to_str().unwrap(), "--format", "json"]).code(0);
    let doc: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(doc["skills"].as_array().unwrap().len(), 1);
    let b = test_cmd(&[frete.to_str().unwrap(), "--format", "json"]).code(0);
    assert_eq!(serde_json::from_str::<Value>(&stdout(&b)).unwrap()["passed"], 1);
}

#[test]
fn a_skill_whose_cases_file_is_broken_is_not_run_and_fails_the_run() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "frete", FRETE, r#"[{"query": "frete", "should_trigger": "yes"}]"#);
    let a = test_cmd(&[tmp.path().to_str().unwrap()]).code(1);
    let out = stdout(&a);
    assert!(
        out.contains("not run: ")
            && out.contains("error[trigger_expectation_missing] skill.triggers.json:1:1"),
        "{out}"
    );
}

#[test]
fn a_path_that_is_not_a_directory_is_refused() {
    let a = test_cmd(&["/no/such/folder"]).code(1);
    assert!(String::from_utf8_lossy(&a.get_output().stderr).contains("is not a directory"));
}

/// The JUnit schema published with the `junit-report` crate (Windy Road's Ant JUnit XSD), found
/// in the crate's source as cargo downloaded it.
fn junit_schema() -> PathBuf {
    let out = Process::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == "junit-report").unwrap();
    Path::new(package["manifest_path"].as_str().unwrap()).parent().unwrap().join("tests/JUnit.xsd")
}

#[test]
fn junit_output_is_valid_against_the_junit_schema_with_failures_conflicts_and_broken_skills() {
    let tmp = TempDir::new().unwrap();
    skill(
        tmp.path(),
        "frete",
        FRETE,
        r#"[{"query": "a <entrega> & o \"prazo\"", "should_trigger": true}, {"query": "o frete de volta", "should_trigger": true}]"#,
    );
    skill(tmp.path(), "trocas", TROCAS, r#"[{"query": "frete", "should_trigger": true}]"#);
    skill(tmp.path(), "quebrada", FRETE, "{}");
    let a = test_cmd(&[tmp.path().to_str().unwrap(), "--format", "junit"]).code(1);
    let xml = tmp.path().join("report.xml");
    fs::write(&xml, &a.get_output().stdout).unwrap();
    let text = fs::read_to_string(&xml).unwrap();
    assert!(text.contains("<testsuite id=\"0\" name=\"frete\"") && text.contains("failures=\"1\""), "{text}");
    assert!(text.contains("name=\"conflicts\"") && text.contains("type=\"fires_many\""), "{text}");
    assert!(text.contains("type=\"skill_invalid\""), "{text}");
    let check = Process::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(junit_schema())
        .arg(&xml)
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
}

/// The JSON report's cases for `path`, as (skill, query, passed).
fn cases_of(path: &Path) -> Vec<(String, String, bool)> {
    let a = test_cmd(&[path.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout(&a)).unwrap();
    let mut out = Vec::new();
    for s in doc["skills"].as_array().unwrap() {
        for c in s["cases"].as_array().unwrap() {
            out.push((
                s["name"].as_str().unwrap().into(),
                c["case"]["query"].as_str().unwrap().into(),
                c["failure"].is_null(),
            ));
        }
    }
    out
}

const CASES: &str = r#"[{"query": "qual o frete?", "should_trigger": true}, {"query": "quero trocar", "should_trigger": false}]"#;

#[test]
fn the_cases_survive_an_export_and_an_import_byte_for_byte() {
    let work = TempDir::new().unwrap();
    let data = TempDir::new().unwrap();
    let dir = skill(work.path(), "frete", FRETE, CASES);
    let package = work.path().join("frete.skill");
    let skillcase = || {
        let mut c = Command::cargo_bin("skillcase").unwrap();
        c.env("SKILLCASE_DATA_DIR", data.path());
        c
    };
    skillcase().arg("export").arg(&dir).arg("-o").arg(&package).assert().code(0);
    let imported = work.path().join("imported");
    skillcase().arg("import").arg(&package).arg("--into").arg(&imported).assert().code(0);
    let copy = imported.join("frete/skill.triggers.json");
    assert_eq!(fs::read(&copy).unwrap(), CASES.as_bytes());
    assert_eq!(cases_of(&imported), cases_of(&dir));
    assert_eq!(cases_of(&imported).len(), 2);
}

#[test]
fn an_install_to_an_agent_folder_carries_the_cases() {
    let work = TempDir::new().unwrap();
    let dir = skill(work.path(), "frete", FRETE, CASES);
    let project = work.path().join("project");
    fs::create_dir_all(&project).unwrap();
    Command::cargo_bin("skillcase")
        .unwrap()
        .env("SKILLCASE_DATA_DIR", work.path().join("data"))
        .env("HOME", work.path().join("home"))
        .arg("install")
        .arg(&dir)
        .args(["--target", "claude", "--project"])
        .arg(&project)
        .assert()
        .code(0);
    let installed = project.join(".claude/skills/frete");
    assert_eq!(fs::read(installed.join("skill.triggers.json")).unwrap(), CASES.as_bytes());
    assert_eq!(cases_of(&installed), cases_of(&dir));
}
