//! Every curl example in `docs/agent-api.md` runs, unchanged, against a live `skillcase serve`
//! and succeeds (SPEC C2, B4): the documentation cannot drift from the API.
//!
//! Examples are the fenced `sh` blocks, run in order with `sh -c` and `$TOKEN`, `$PORT` and
//! `$CASE_ID` set; curl gets `--fail-with-body` so any error status fails the test. The first
//! answer that carries a case id sets `$CASE_ID`. A block preceded by the comment
//! `<!-- test: a person asks the lead -->` first has a person answer "need info from the customer"
//! on that case, as the desktop app would, so the agent-side examples that need `awaiting_lead`
//! can run.

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use skillcase_cases::model::HumanAction;
use skillcase_cases::CasesRepository;
use skillcase_cases_sqlite::SqliteCases;
use skillcase_store::db;
use support::process::ServeProcess;

const DOC: &str = include_str!("../../../../docs/agent-api.md");
const PERSON_ASKS: &str = "<!-- test: a person asks the lead -->";

/// One `sh` block and whether a person must ask the lead before it runs.
struct Example {
    script: String,
    person_asks_first: bool,
}

fn examples(markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut previous = "";
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```sh" {
            let script: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            found.push(Example {
                script: script.join("\n"),
                person_asks_first: previous.trim() == PERSON_ASKS,
            });
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    found
}

/// The skill the examples read: `shipping-policy`, matched by `frete` and `entrega`.
fn skills_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("shipping-policy");
    std::fs::create_dir_all(skill.join("references")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: shipping-policy\ndescription: Prazos e custos de frete. Use quando o cliente perguntar sobre entrega.\n---\n# Frete\n\nConsulte a tabela de prazos antes de responder.\n",
    )
    .unwrap();
    std::fs::write(
        skill.join("skill.config.yaml"),
        "matcher:\n  any_keywords: [frete, entrega]\nreferences:\n  required: [references/prazos.md]\n",
    )
    .unwrap();
    std::fs::write(skill.join("references/prazos.md"), "Sudeste: 3 dias úteis.\n").unwrap();
    dir
}

/// Whether `script` calls `path`: its fixed parts appear in order (`{id}` and the like vary).
fn calls(script: &str, path: &str) -> bool {
    let mut rest = script;
    for fixed in path.split(['{', '}']).step_by(2).filter(|f| !f.is_empty()) {
        match rest.find(fixed) {
            Some(at) => rest = &rest[at + fixed.len()..],
            None => return false,
        }
    }
    true
}

fn person_asks_the_lead(data_dir: &Path, case_id: &str) {
    let cases = SqliteCases::new(skillcase_store::Database::open(&data_dir.join(db::DATABASE_FILE)).unwrap());
    cases.reply(case_id, HumanAction::NeedLeadInfo, "Which order number is it?", "Marta").unwrap();
}

#[test]
fn every_documented_curl_example_succeeds_against_a_live_server() {
    let skills = skills_dir();
    let serve = ServeProcess::start(&["--skills-dir", skills.path().to_str().unwrap()]);
    let examples = examples(DOC);
    let endpoints = skillcase_api::routes::ENDPOINTS.len();
    assert!(examples.len() >= endpoints, "{} examples for {endpoints} endpoints", examples.len());
    let mut case_id = String::new();
    for (n, example) in examples.iter().enumerate() {
        assert!(example.script.contains("curl -sS"), "example {n} is not a curl call:\n{}", example.script);
        if example.person_asks_first {
            person_asks_the_lead(serve.data_dir.path(), &case_id);
        }
        let script = example.script.replace("curl -sS", "curl -sS --fail-with-body");
        let output = Command::new("sh")
            .args(["-c", &script])
            .env("TOKEN", serve.token())
            .env("PORT", serve.port.to_string())
            .env("CASE_ID", &case_id)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "example {n} failed:\n{}\n--- stdout\n{stdout}\n--- stderr\n{}",
            example.script,
            String::from_utf8_lossy(&output.stderr)
        );
        let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
            panic!("example {n} did not answer JSON ({e}):\n{}\n{stdout}", example.script)
        });
        if case_id.is_empty() {
            if let Some(id) = answer["case"]["id"].as_str() {
                case_id = id.to_string();
            }
        }
    }
    assert!(!case_id.is_empty(), "no example opened a case");
}

#[test]
fn every_endpoint_of_the_route_table_has_an_example() {
    let scripts: Vec<String> = examples(DOC).into_iter().map(|e| e.script).collect();
    for endpoint in skillcase_api::routes::ENDPOINTS {
        let path = endpoint.openapi_path();
        let method_ok = |s: &&String| {
            let is_get = !s.contains("-X ") && !s.contains("-d ") && !s.contains("--data");
            (endpoint.method == "GET") == is_get
        };
        assert!(
            scripts.iter().filter(method_ok).any(|s| calls(s, &path)),
            "no {} example for {}",
            endpoint.method,
            endpoint.path
        );
    }
}
