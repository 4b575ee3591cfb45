//! SPEC D3 with clients we did not write: the Python MCP SDK (`mcp` 2.x), the FastMCP client
//! (`fastmcp` 4.x) and the MCP Inspector CLI drive the real `skillcase mcp` (stdio) and a real
//! `skillcase serve` (Streamable HTTP at `/mcp`). Each test is one client, one transport, one
//! scenario; the scripts in `tests/mcp-clients/` raise on any check that fails and print what
//! they saw as JSON, which the test then holds to the specification.

use crate::support;

use std::process::Command;

use serde_json::{json, Value};
use support::mcp::{self, Fixture, Target};
use support::process::ServeProcess;

const SDK: &str = "sdk_client.py";
const FASTMCP: &str = "fastmcp_client.py";

/// Runs `script scenario` over stdio against a fresh fixture.
fn over_stdio(script: &str, scenario: &str, mode: &str) -> Value {
    let fixture = Fixture::new();
    mcp::run(script, scenario, mode, Target::Stdio, &fixture)
}

/// Runs `script scenario` over Streamable HTTP against a `skillcase serve` of a fresh fixture.
fn over_http(script: &str, scenario: &str, mode: &str) -> Value {
    let fixture = Fixture::new();
    let skills = fixture.skills_dir().display().to_string();
    let serve = ServeProcess::start(&["--skills-dir", &skills]);
    let token = serve.token();
    let target = Target::Http { port: serve.port, token: &token, data_dir: serve.data_dir.path() };
    let facts = mcp::run(script, scenario, mode, target, &fixture);
    assert!(serve.terminate().success(), "skillcase serve stops cleanly after MCP clients");
    facts
}

/// What the skills scenario must have seen, whichever client and transport.
fn assert_skills_served(facts: &Value) {
    assert_eq!(facts["listed"], 251, "250 fillers and shipping-policy; not the hidden or the broken one");
    assert_eq!(facts["pages"], 2, "200 skills a page");
    assert_eq!(facts["files_read"], 256, "shipping-policy's 6 files and one SKILL.md per filler");
    assert_eq!(facts["blobs"], 1, "only the PNG is not UTF-8");
    assert_eq!(
        facts["visible_frontmatter"],
        json!({
            "name": "shipping-policy",
            "description": "Prazos e custos de frete. Use quando o cliente perguntar sobre entrega.",
            "license": "MIT",
            "metadata": { "owner": "logistica" }
        })
    );
    let refusals = &facts["refusals"];
    for refusal in [
        "get_broken",
        "get_unknown",
        "get_not_skill_md",
        "directory_of_a_file",
        "directory_unknown",
        "read_unknown",
    ] {
        assert_eq!(refusals[refusal], -32602, "{refusal}");
    }
    assert_eq!(
        facts["root"],
        json!({
            "SKILL.md": "text/markdown", "skill.config.yaml": "application/yaml", "assets": "inode/directory",
            "references": "inode/directory", "templates": "inode/directory"
        })
    );
    assert_eq!(facts["references"], json!(["internacional.md", "prazos.md"]));
}

#[test]
fn python_sdk_over_stdio_lists_gets_and_reads_every_file_byte_exact_on_protocol_2026_07_28() {
    let facts = over_stdio(SDK, "skills", "auto");
    assert_eq!(facts["protocol"], "2026-07-28");
    assert_skills_served(&facts);
}

#[test]
fn python_sdk_over_stdio_with_the_initialize_handshake_is_served_the_same_skills() {
    let facts = over_stdio(SDK, "skills", "legacy");
    assert_eq!(facts["protocol"], "2025-11-25");
    assert_skills_served(&facts);
}

#[test]
fn python_sdk_over_http_lists_gets_and_reads_every_file_byte_exact() {
    let facts = over_http(SDK, "skills", "auto");
    assert_eq!(facts["protocol"], "2026-07-28");
    assert_skills_served(&facts);
}

/// What the tools scenario must have seen: the HTTP API's semantics and error codes.
fn assert_tools_behave_like_the_api(facts: &Value) {
    assert_eq!(
        facts["tools"],
        json!([
            "check_message",
            "get_case",
            "match_skills",
            "open_case",
            "provide_case_update",
            "read_skill",
            "read_skill_file",
            "record_case_event"
        ])
    );
    let shipping = json!({ "name": "shipping-policy", "trigger": "hard", "keyword": "entrega" });
    assert!(facts["match"]["hard"].as_array().unwrap().contains(&shipping), "{}", facts["match"]);
    assert_eq!(facts["match"]["probe"], json!([]));
    assert_eq!(
        facts["read_skill"],
        json!({
            "required": ["references/prazos.md", "references/internacional.md"],
            "optional": ["assets/logo.png", "templates/resposta.md"],
            "route_matched": ["references/internacional.md"]
        })
    );
    assert_eq!(facts["open_case"], json!([false, true, true]), "a second open returns the open case");
    assert_eq!(facts["open_case_reason"], "policy_restriction");
    assert_eq!(
        facts["reason_enum"],
        json!([
            "customer_request",
            "missing_knowledge",
            "unsupported_request",
            "policy_restriction",
            "tool_failure",
            "pending_clarification"
        ]),
        "the JSON Schema offers exactly the reasons an agent may send"
    );
    assert_eq!(facts["timeline"], json!(["opened"]));
    assert_eq!(facts["cancelled_status"], "cancelled");
    assert_eq!(
        facts["guard"],
        json!({
            "first": "veto",
            "first_reason": "you promised a human follow-up without opening a case: open one, or rephrase without the promise (the promise: \"Vou verificar com a equipe financeira e te retorno mais tarde.\")",
            "second": "pass",
            "second_opened": "guardrail_autofallback",
            "second_reason": "guardrail_autofallback",
            "plain": "pass"
        })
    );
    assert_eq!(
        facts["codes"],
        json!({
            "file_without_conversation": "skill_not_active",
            "file_not_active": "skill_not_active",
            "read_unknown_skill": "skill_not_found",
            "read_broken_skill": "skill_invalid",
            "unknown_field": "bad_request",
            "blank_title": "text_required",
            "unknown_reason": "invalid_reason",
            "guardrail_reason": "invalid_reason",
            "unknown_case": "case_not_found",
            "update_while_awaiting_human": "invalid_transition",
            "lead_asked_while_awaiting_human": "invalid_transition"
        })
    );
}

#[test]
fn python_sdk_over_stdio_calls_every_tool_with_the_api_semantics_and_codes() {
    assert_tools_behave_like_the_api(&over_stdio(SDK, "tools", "auto"));
}

#[test]
fn python_sdk_over_http_with_the_initialize_handshake_calls_every_tool_with_the_api_semantics() {
    let facts = over_http(SDK, "tools", "legacy");
    assert_eq!(facts["protocol"], "2025-11-25");
    assert_tools_behave_like_the_api(&facts);
}

/// A change to a file of shipping-policy reached the client as both notifications within a second.
fn assert_change_notified(facts: &Value) {
    let events = facts["events"].as_array().unwrap();
    assert!(
        events.contains(&json!(["ResourceUpdated", "skill://shipping-policy/references/prazos.md"])),
        "{events:?}"
    );
    assert!(events.contains(&json!(["ResourcesListChanged", null])), "{events:?}");
    assert!(
        !events.iter().any(|e| e[1] == "skill://filler-000/SKILL.md"),
        "an unchanged skill is not announced"
    );
    assert!(facts["seconds"].as_f64().unwrap() < 1.0, "notified {} s after the write", facts["seconds"]);
}

#[test]
fn python_sdk_over_stdio_listens_and_sees_a_changed_skill_within_a_second() {
    assert_change_notified(&over_stdio(SDK, "notify", "auto"));
}

#[test]
fn python_sdk_over_http_listens_and_sees_a_changed_skill_within_a_second() {
    assert_change_notified(&over_http(SDK, "notify", "auto"));
}

#[test]
fn python_sdk_over_stdio_subscribed_with_the_initialize_handshake_sees_a_changed_skill() {
    assert_change_notified(&over_stdio(SDK, "notify", "legacy"));
}

#[test]
fn fastmcp_over_stdio_reads_and_verifies_every_skill() {
    let facts = over_stdio(FASTMCP, "skills", "auto");
    assert_eq!((facts["listed"].clone(), facts["files_verified"].clone()), (json!(251), json!(256)));
    assert_eq!(facts["get_broken"], -32602);
}

#[test]
fn fastmcp_over_http_reads_and_verifies_every_skill() {
    let facts = over_http(FASTMCP, "skills", "auto");
    assert_eq!((facts["listed"].clone(), facts["files_verified"].clone()), (json!(251), json!(256)));
}

/// The tools as FastMCP saw them.
fn assert_fastmcp_tools(facts: &Value) {
    assert_eq!(facts["tools"].as_array().unwrap().len(), 8);
    assert_eq!(
        facts["outcome"],
        json!({
            "match_skills": ["politica-de-frete", "shipping-policy"],
            "read_skill": ["references/prazos.md"],
            "read_skill_file": "references/prazos.md",
            "open_case": false,
            "open_case_reason": "missing_knowledge",
            "open_case_unknown_reason": "invalid_reason",
            "provide_case_update": "invalid_transition",
            "record_case_event": "cancelled",
            "get_case": "cancelled",
            "check_message": "veto",
            "read_skill_file_without_conversation": "skill_not_active"
        })
    );
}

#[test]
fn fastmcp_over_stdio_calls_every_tool() {
    assert_fastmcp_tools(&over_stdio(FASTMCP, "tools", "auto"));
}

#[test]
fn fastmcp_over_http_calls_every_tool() {
    assert_fastmcp_tools(&over_http(FASTMCP, "tools", "auto"));
}

#[test]
fn fastmcp_over_http_sees_a_changed_skill_within_a_second() {
    assert_change_notified(&over_http(FASTMCP, "notify", "auto"));
}

/// Runs the Inspector CLI with `args` (its target and method) in the fixture's data directory.
fn inspector(fixture: &Fixture, args: &[&str]) -> Value {
    let script = mcp::inspector();
    let output = Command::new("node")
        .current_dir(script.parent().unwrap())
        .arg(&script)
        .args(args)
        .env("SKILLCASE_DATA_DIR", fixture.data_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "inspector {args:?}: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("inspector printed {stdout:?}: {e}"))
}

#[test]
fn the_inspector_cli_over_stdio_lists_the_tools_and_the_skill_resources() {
    let fixture = Fixture::new();
    let skills = fixture.skills_dir().display().to_string();
    let bin = env!("CARGO_BIN_EXE_skillcase");
    let tools = inspector(&fixture, &[bin, "--method", "tools/list", "--", "mcp", "--skills-dir", &skills]);
    assert_eq!(tools["tools"].as_array().unwrap().len(), 8);
    let resources =
        inspector(&fixture, &[bin, "--method", "resources/list", "--", "mcp", "--skills-dir", &skills]);
    let uris: Vec<&str> =
        resources["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris.len(), 200, "the first page");
    assert!(
        uris.contains(&"skill://filler-000/SKILL.md") && !uris.contains(&"skill://hidden-helper/SKILL.md")
    );
    assert!(resources["nextCursor"].is_string());
}

#[test]
fn the_inspector_cli_over_http_with_the_token_lists_the_tools() {
    let fixture = Fixture::new();
    let skills = fixture.skills_dir().display().to_string();
    let serve = ServeProcess::start(&["--skills-dir", &skills]);
    let url = format!("http://127.0.0.1:{}/mcp", serve.port);
    let bearer = format!("Authorization: Bearer {}", serve.token());
    let tools =
        inspector(&fixture, &[&url, "--transport", "http", "--header", &bearer, "--method", "tools/list"]);
    assert_eq!(tools["tools"].as_array().unwrap().len(), 8);
    let read = inspector(
        &fixture,
        &[
            &url,
            "--transport",
            "http",
            "--header",
            &bearer,
            "--method",
            "resources/read",
            "--uri",
            "skill://shipping-policy/references/prazos.md",
        ],
    );
    assert_eq!(read["contents"][0]["text"], "Sudeste: 3 dias úteis.\n");
}
