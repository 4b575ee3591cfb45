//! `skillcase prompt | read | read-file | match` run as the real binary over a skills directory
//! written in a temp dir: exact output, JSON shapes and exit codes.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// A skills directory with `frete` (plain), `trocas` (config, references, routes, matcher) and
/// `broken` (its name does not match its folder, so it is never served).
fn library() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    write(
        &root,
        "frete/SKILL.md",
        "---\nname: frete\ndescription: Calcula o frete & o prazo.\n---\nUse a tabela.\n",
    );
    write(
        &root,
        "trocas/SKILL.md",
        "---\nname: trocas\ndescription: Trocas e devoluções.\n---\n# Trocas\n\nSiga a política.\n",
    );
    write(
        &root,
        "trocas/skill.config.yaml",
        "category: pos-venda\nmatcher:\n  any_keywords: [devolução]\n  probe_keywords: [defeito]\n\
         references:\n  required: [references/politica.md]\n  routes:\n    - match: [prazo]\n      \
         required_refs: [references/prazos.md]\n",
    );
    write(&root, "trocas/references/politica.md", "# Política\n\nSete dias.\n");
    write(&root, "trocas/references/prazos.md", "# Prazos\n\n30 dias.\n");
    write(&root, "broken/SKILL.md", "---\nname: wrong\ndescription: Never served.\n---\n");
    (tmp, root)
}

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    fs::create_dir_all(full.parent().unwrap()).unwrap();
    fs::write(full, text).unwrap();
}

fn skillcase(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("skillcase").unwrap().args(args).assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stderr.clone()).unwrap()
}

#[test]
fn prompt_agentskills_prints_the_reference_format_for_valid_skills_only() {
    let (_tmp, root) = library();
    let a = skillcase(&["prompt", root.to_str().unwrap(), "--format", "agentskills"]).code(0);
    let d = root.display();
    assert_eq!(
        stdout(&a),
        format!(
            "<available_skills>\n<skill>\n<name>\nfrete\n</name>\n<description>\nCalcula o frete &amp; o prazo.\n</description>\n\
             <location>\n{d}/frete/SKILL.md\n</location>\n</skill>\n\
             <skill>\n<name>\ntrocas\n</name>\n<description>\nTrocas e devoluções.\n</description>\n\
             <location>\n{d}/trocas/SKILL.md\n</location>\n</skill>\n</available_skills>\n"
        )
    );
    assert_eq!(stderr(&a), format!("skipped {d}/broken: 1 validation error(s)\n"));
}

#[test]
fn prompt_json_shows_where_the_budget_cuts() {
    let (_tmp, root) = library();
    let a = skillcase(&[
        "prompt",
        root.to_str().unwrap(),
        "--format",
        "skillcase",
        "--budget",
        "700",
        "--output",
        "json",
    ])
    .code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(json["format"], "skillcase");
    assert_eq!(json["budget_chars"], 700);
    let entries: Vec<(String, bool)> = json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["included"].as_bool().unwrap()))
        .collect();
    assert_eq!(entries, [("frete".to_string(), true), ("trocas".to_string(), false)]);
    assert!(json["text"].as_str().unwrap().ends_with(
        "<available_skills>\n<skill name=\"frete\" type=\"prompt\">Calcula o frete &amp; o prazo.</skill>\n</available_skills>"
    ));
}

#[test]
fn prompt_with_an_unknown_format_is_a_usage_error() {
    let (_tmp, root) = library();
    skillcase(&["prompt", root.to_str().unwrap(), "--format", "xml"]).code(2);
}

#[test]
fn read_with_a_task_inlines_the_routed_reference() {
    let (_tmp, root) = library();
    let a = skillcase(&["read", root.to_str().unwrap(), "trocas", "--task", "Qual o PRAZO?"]).code(0);
    assert_eq!(
        stdout(&a),
        "# Trocas

Siga a política.

<skill_required_references>
Read every document below with read_skill_file before you act.
- references/politica.md
- references/prazos.md
</skill_required_references>

<skill_route_matched_references>
--- references/prazos.md ---
# Prazos

30 dias.
</skill_route_matched_references>
"
    );
}

#[test]
fn read_json_carries_the_text_and_the_reference_lists() {
    let (_tmp, root) = library();
    let a = skillcase(&["read", root.to_str().unwrap(), "trocas", "--format", "json"]).code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(json["name"], "trocas");
    assert_eq!(json["required"], serde_json::json!(["references/politica.md"]));
    assert_eq!(json["optional"], serde_json::json!(["references/prazos.md"]));
    assert_eq!(json["route_matched"], serde_json::json!([]));
    assert!(json["text"].as_str().unwrap().starts_with("# Trocas\n"));
}

#[test]
fn read_of_an_unknown_skill_exits_one_with_skill_not_found() {
    let (_tmp, root) = library();
    let a = skillcase(&["read", root.to_str().unwrap(), "nada"]).code(1);
    assert_eq!(stdout(&a), "");
    assert_eq!(stderr(&a), format!("error[skill_not_found]: no skill named `nada` in {}\n", root.display()));
}

#[test]
fn read_refuses_a_name_that_walks_out_of_the_directory() {
    let (_tmp, root) = library();
    let a = skillcase(&["read", root.join("trocas").to_str().unwrap(), ".."]).code(1);
    assert!(stderr(&a).starts_with("error[skill_not_found]"));
}

#[test]
fn read_of_an_invalid_skill_exits_one_with_its_findings_in_json() {
    let (_tmp, root) = library();
    let a = skillcase(&["read", root.to_str().unwrap(), "broken", "--format", "json"]).code(1);
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(json["error"]["code"], "skill_invalid");
    assert_eq!(json["error"]["details"]["findings"][0]["code"], "name_mismatch");
}

#[test]
fn read_file_prints_the_file_verbatim() {
    let (_tmp, root) = library();
    let a = skillcase(&["read-file", root.to_str().unwrap(), "trocas", "references/prazos.md"]).code(0);
    assert_eq!(stdout(&a), "# Prazos\n\n30 dias.\n");
}

#[test]
fn read_file_refuses_a_dot_segment_with_its_code() {
    let (_tmp, root) = library();
    let a = skillcase(&["read-file", root.to_str().unwrap(), "trocas", "references/../SKILL.md"]).code(1);
    assert_eq!(stderr(&a), "error[path_dot_segment]: `references/../SKILL.md` has a `.` or `..` segment\n");
}

#[test]
fn read_file_refusal_in_json_has_the_api_error_shape() {
    let (_tmp, root) = library();
    let a =
        skillcase(&["read-file", root.to_str().unwrap(), "trocas", "skill.config.yaml", "--format", "json"])
            .code(1);
    assert_eq!(
        stdout(&a),
        "{
  \"error\": {
    \"code\": \"path_not_support_folder\",
    \"message\": \"`skill.config.yaml` is not inside a support folder (references/, assets/, templates/, scripts/)\",
    \"details\": {
      \"path\": \"skill.config.yaml\"
    }
  }
}
"
    );
}

#[test]
fn match_prints_hard_and_probe_lines() {
    let (_tmp, root) = library();
    let hard = skillcase(&["match", root.to_str().unwrap(), "Quero fazer a DEVOLUCAO"]).code(0);
    assert_eq!(stdout(&hard), "hard trocas (keyword: devolução)\n");
    let probe = skillcase(&["match", root.to_str().unwrap(), "veio com defeito", "--format", "json"]).code(0);
    let json: serde_json::Value = serde_json::from_str(&stdout(&probe)).unwrap();
    assert_eq!(json, serde_json::json!([{ "name": "trocas", "trigger": "probe", "keyword": "defeito" }]));
}

#[test]
fn match_with_no_keyword_says_so_and_exits_zero() {
    let (_tmp, root) = library();
    let a = skillcase(&["match", root.to_str().unwrap(), "bom dia"]).code(0);
    assert_eq!(stdout(&a), "no skill fires\n");
}
