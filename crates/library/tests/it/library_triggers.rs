//! Trigger tests through the library: the report over the served skills, cases added and
//! removed as versions, the cases an edit in progress would flip, and the activity log whose
//! messages become cases.

use crate::support;

use skillcase_common::error::Coded;
use skillcase_skill::matcher::Trigger;
use skillcase_skill::triggers::{CaseFailure, TriggerCase, CASES_FILE};
use skillcase_testkit::skills::{skill_md, write_skill};
use support::Workspace;

const FRETE_CONFIG: &str = "matcher:\n  any_keywords: [frete]\n  probe_keywords: [envio]\n";

fn skills(ws: &Workspace, frete_cases: &str) {
    write_skill(
        &ws.skills(),
        "frete",
        &[
            ("SKILL.md", &skill_md("frete", "Calcula o frete")),
            ("skill.config.yaml", FRETE_CONFIG),
            (CASES_FILE, frete_cases),
        ],
    );
    write_skill(
        &ws.skills(),
        "trocas",
        &[
            ("SKILL.md", &skill_md("trocas", "Trocas")),
            ("skill.config.yaml", "matcher:\n  any_keywords: [troca]\n"),
        ],
    );
}

fn case(query: &str, should_trigger: bool) -> TriggerCase {
    TriggerCase { query: query.into(), should_trigger, kind: None, required_refs: None }
}

#[test]
fn the_report_runs_each_served_skills_cases_against_the_whole_library() {
    let ws = Workspace::new();
    skills(
        &ws,
        r#"[{"query": "qual o frete?", "should_trigger": true}, {"query": "quero uma troca", "should_trigger": false}]"#,
    );
    let library = ws.open();
    let report = library.trigger_tests();
    let frete = report.skill("frete").unwrap();
    assert_eq!((frete.passed, frete.failed), (2, 0));
    assert_eq!(frete.cases[1].others, ["trocas"]);
    assert!(report.skill("trocas").is_none(), "a skill without cases has no entry");
}

#[test]
fn adding_a_case_writes_the_file_as_a_new_version_and_refuses_a_repeat() {
    let ws = Workspace::new();
    skills(&ws, "[]");
    let library = ws.open();
    let before = library.summary("frete").unwrap().live_version;
    library.add_trigger_case("frete", case("o envio demora?", false)).unwrap();
    assert_ne!(library.summary("frete").unwrap().live_version, before);
    let text = std::fs::read_to_string(ws.skills().join("frete").join(CASES_FILE)).unwrap();
    assert!(text.contains("\"query\": \"o envio demora?\""), "{text}");
    let repeat = library.add_trigger_case("frete", case("O ENVIO demora?", true)).unwrap_err();
    assert_eq!(repeat.code(), "trigger_case_exists");
    assert_eq!(library.trigger_tests().skill("frete").unwrap().cases.len(), 1);
}

#[test]
fn a_case_with_a_reference_the_skill_lacks_is_refused_and_nothing_is_written() {
    let ws = Workspace::new();
    skills(&ws, "[]");
    let library = ws.open();
    let bad = TriggerCase { required_refs: Some(vec!["references/nope.md".into()]), ..case("frete", true) };
    let err = library.add_trigger_case("frete", bad).unwrap_err();
    assert_eq!(err.code(), "edit_refused");
    let text = std::fs::read_to_string(ws.skills().join("frete").join(CASES_FILE)).unwrap();
    assert_eq!(text, "[]");
}

#[test]
fn removing_a_case_by_its_message_keeps_the_others() {
    let ws = Workspace::new();
    skills(
        &ws,
        r#"[{"query": "frete?", "should_trigger": true}, {"query": "troca", "should_trigger": false}]"#,
    );
    let library = ws.open();
    library.remove_trigger_case("frete", "frete?").unwrap();
    let report = library.trigger_tests();
    let cases = &report.skill("frete").unwrap().cases;
    assert_eq!(cases.iter().map(|c| c.case.query.as_str()).collect::<Vec<_>>(), ["troca"]);
    assert_eq!(library.remove_trigger_case("frete", "frete?").unwrap_err().code(), "trigger_case_not_found");
}

#[test]
fn an_edit_in_progress_names_the_cases_it_would_flip_in_any_skill_writing_nothing() {
    let ws = Workspace::new();
    skills(
        &ws,
        r#"[{"query": "qual o frete?", "should_trigger": true}, {"query": "o envio", "should_trigger": false}]"#,
    );
    let library = ws.open();
    // Making `envio` a hard keyword breaks the negative case; dropping `frete` breaks the positive.
    let edited = "matcher:\n  any_keywords: [envio]\n";
    let changes = library.preview_trigger_changes("frete", "skill.config.yaml", edited).unwrap();
    let flipped: Vec<_> =
        changes.iter().map(|c| (c.now.case.query.as_str(), c.passed_before, c.now.failure)).collect();
    assert_eq!(
        flipped,
        [
            ("qual o frete?", true, Some(CaseFailure::NotFired)),
            ("o envio", true, Some(CaseFailure::FiredUnexpectedly))
        ]
    );
    let on_disk = std::fs::read_to_string(ws.skills().join("frete/skill.config.yaml")).unwrap();
    assert_eq!(on_disk, FRETE_CONFIG);
}

#[test]
fn the_activity_log_keeps_the_message_that_fired_each_activation_newest_first() {
    let ws = Workspace::new();
    skills(&ws, "[]");
    let library = ws.open();
    library.match_message("c1", "Qual o frete pra Recife?").unwrap();
    library.match_message("c2", "e o envio?").unwrap();
    let log = library.activation_log("frete", 10).unwrap();
    let seen: Vec<_> =
        log.iter().map(|a| (a.message.as_deref(), a.trigger, a.conversation_id.as_str())).collect();
    assert_eq!(
        seen,
        [(Some("e o envio?"), Trigger::Probe, "c2"), (Some("Qual o frete pra Recife?"), Trigger::Hard, "c1")]
    );
}
