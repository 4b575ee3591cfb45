//! Trigger tests over real skill folders: each case runs through the matcher and level-2 routing
//! against the whole library, and the report names failures, precision, recall and conflicts.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use skillcase_skill::load::load_dir;
use skillcase_skill::matcher::Trigger;
use skillcase_skill::model::Skill;
use skillcase_skill::policy::Policy;
use skillcase_skill::triggers::{run_cases, CaseFailure, ConflictKind, TriggerCase, CASES_FILE};
use skillcase_skill::validate::Profile;

const FRETE_CONFIG: &str = "matcher:
  any_keywords: [frete, prazo de entrega]
  probe_keywords: [entrega]
references:
  required: [references/politica.md]
  routes:
    - match: [retirar, retirada]
      required_refs: [references/retirada.md]
";

const TROCAS_CONFIG: &str = "matcher:
  any_keywords: [troca, devolução, frete de volta]
";

fn write_skill(root: &Path, name: &str, config: &str, triggers: Option<&str>) {
    let dir = root.join(name);
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Answers about {name}.\n---\nBody.\n"),
    )
    .unwrap();
    fs::write(dir.join("skill.config.yaml"), config).unwrap();
    fs::write(dir.join("references/politica.md"), "# Política\n").unwrap();
    fs::write(dir.join("references/retirada.md"), "# Retirada\n").unwrap();
    if let Some(text) = triggers {
        fs::write(dir.join(CASES_FILE), text).unwrap();
    }
}

fn load(root: &Path, name: &str) -> Skill {
    let validated = load_dir(&root.join(name), Profile::Skillcase, &Policy::default());
    assert!(validated.is_valid(), "{name}: {:?}", validated.findings);
    validated.skill.unwrap()
}

fn case(query: &str, should_trigger: bool) -> TriggerCase {
    TriggerCase { query: query.into(), should_trigger, kind: None, required_refs: None }
}

fn library() -> (tempfile::TempDir, Vec<Skill>) {
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "frete", FRETE_CONFIG, None);
    write_skill(root.path(), "trocas", TROCAS_CONFIG, None);
    let skills = vec![load(root.path(), "frete"), load(root.path(), "trocas")];
    (root, skills)
}

fn run(skills: &[Skill], name: &str, cases: Vec<TriggerCase>) -> skillcase_skill::triggers::TriggerReport {
    run_cases(skills, &BTreeMap::from([(name.to_string(), cases)]))
}

#[test]
fn a_case_passes_when_the_skill_fires_as_expected_and_shows_the_keyword_and_route() {
    let (_root, skills) = library();
    let report = run(
        &skills,
        "frete",
        vec![case("Qual o FRETE para retirar?", true), case("quero trocar a cor", false)],
    );
    let tests = report.skill("frete").unwrap();
    assert_eq!((tests.passed, tests.failed), (2, 0));
    let first = &tests.cases[0];
    assert_eq!((first.fired, first.keyword.as_deref()), (Some(Trigger::Hard), Some("frete")));
    assert_eq!(first.required, ["references/politica.md", "references/retirada.md"]);
    assert!(report.is_success());
}

#[test]
fn a_message_that_only_probes_fails_a_hard_expectation_and_passes_a_probe_one() {
    let (_root, skills) = library();
    let probe = TriggerCase { kind: Some(Trigger::Probe), ..case("a entrega atrasou", true) };
    let report = run(&skills, "frete", vec![case("a entrega atrasou", true), probe]);
    let failures: Vec<_> = report.skill("frete").unwrap().cases.iter().map(|c| c.failure).collect();
    assert_eq!(failures, [Some(CaseFailure::NotFired), None]);
    assert!(!report.is_success());
}

#[test]
fn firing_on_a_should_not_message_fails_and_a_probe_expectation_fired_hard_is_the_wrong_kind() {
    let (_root, skills) = library();
    let hard_probe = TriggerCase { kind: Some(Trigger::Probe), ..case("o frete", true) };
    let report = run(&skills, "frete", vec![case("quanto é o frete", false), hard_probe]);
    let failures: Vec<_> = report.skill("frete").unwrap().cases.iter().map(|c| c.failure).collect();
    assert_eq!(failures, [Some(CaseFailure::FiredUnexpectedly), Some(CaseFailure::WrongKind)]);
}

#[test]
fn expected_references_are_compared_exactly_and_in_order() {
    let (_root, skills) = library();
    let refs = |r: &[&str]| TriggerCase {
        required_refs: Some(r.iter().map(|s| s.to_string()).collect()),
        ..case("frete para retirada", true)
    };
    let report = run(
        &skills,
        "frete",
        vec![refs(&["references/politica.md", "references/retirada.md"]), refs(&["references/retirada.md"])],
    );
    let failures: Vec<_> = report.skill("frete").unwrap().cases.iter().map(|c| c.failure).collect();
    assert_eq!(failures, [None, Some(CaseFailure::WrongRoute)]);
}

#[test]
fn precision_and_recall_count_hard_firing_on_the_skills_own_cases() {
    let (_root, skills) = library();
    let report = run(
        &skills,
        "frete",
        vec![
            case("frete?", true),
            case("prazo de entrega", true),
            case("a entrega", true),
            case("frete caro", false),
        ],
    );
    let tests = report.skill("frete").unwrap();
    // Fired hard on 3 (2 should), of 3 that should it fired on 2.
    assert_eq!(tests.precision, Some(2.0 / 3.0));
    assert_eq!(tests.recall, Some(2.0 / 3.0));
}

#[test]
fn a_message_firing_two_skills_hard_is_a_conflict_reported_once() {
    let (_root, skills) = library();
    let cases = BTreeMap::from([
        ("frete".to_string(), vec![case("quem paga o frete de volta da troca?", true)]),
        ("trocas".to_string(), vec![case("Quem paga o frete de volta da troca?", true)]),
    ]);
    let report = run_cases(&skills, &cases);
    assert_eq!(report.conflicts.len(), 1);
    assert_eq!(report.conflicts[0].kind, ConflictKind::FiresMany);
    assert_eq!(report.conflicts[0].skills, ["frete", "trocas"]);
    assert_eq!(report.skill("frete").unwrap().cases[0].others, ["trocas"]);
}

#[test]
fn a_should_fire_message_another_skill_takes_is_a_conflict_naming_the_taker() {
    let (_root, skills) = library();
    let report = run(&skills, "frete", vec![case("quero fazer uma troca na entrega", true)]);
    let conflict = &report.conflicts[0];
    assert_eq!((conflict.kind, conflict.owner.as_str()), (ConflictKind::Taken, "frete"));
    assert_eq!(conflict.skills, ["trocas"]);
}

#[test]
fn the_cases_file_is_validated_with_the_skill_and_never_offered_to_the_agent() {
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "frete", FRETE_CONFIG, Some(r#"[{"query": "frete", "should_trigger": "yes"}]"#));
    let validated = load_dir(&root.path().join("frete"), Profile::Skillcase, &Policy::default());
    let codes: Vec<_> = validated.findings.iter().map(|f| (f.code.as_str(), f.file.as_str())).collect();
    assert_eq!(codes, [("trigger_expectation_missing", CASES_FILE)]);
    write_skill(root.path(), "frete", FRETE_CONFIG, Some(r#"[{"query": "frete", "should_trigger": true}]"#));
    let skill = load(root.path(), "frete");
    let plan = skillcase_skill::disclosure::activation_plan(&skill, None);
    assert!(!plan.optional.iter().chain(&plan.required).any(|p| p == CASES_FILE));
    assert!(skill.files.iter().any(|f| f.path == CASES_FILE && f.infrastructure));
}

#[test]
fn the_standard_profile_does_not_read_the_cases_file() {
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "frete", FRETE_CONFIG, Some("not json"));
    let validated = load_dir(&root.path().join("frete"), Profile::Standard, &Policy::default());
    assert!(validated.findings.iter().all(|f| !f.code.starts_with("trigger")), "{:?}", validated.findings);
}
