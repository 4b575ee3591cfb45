//! Install to the agents of the table in a project: agents that read the standard's shared
//! folder get one copy, and that copy is recorded in the project's `skills-lock.json` beside
//! whatever the `skills` CLI recorded there, which verify checks in turn.

use std::fs;
use std::path::Path;

use skillcase_application::install::InstallTarget;
use skillcase_application::{App, AppOptions};
use skillcase_library::install::ecosystem::OtherState;
use skillcase_library::install::Agent;

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

const CLI_LOCK: &str = r#"{
  "version": 1,
  "skills": {
    "demo-skill": {
      "source": "/src/demo-skill",
      "sourceType": "local",
      "computedHash": "e185d44ef65a7b5483359a7287c3cd2badfcc082ef8854ee28b0e37a6e47dcc7"
    }
  }
}
"#;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

async fn app_over(dir: &Path) -> App {
    write(&dir.join("skills/frete"), "SKILL.md", SKILL_MD);
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.join("data"))
    };
    App::start(options).await.unwrap()
}

fn targets(ids: &[&str], project: &Path) -> Vec<InstallTarget> {
    ids.iter()
        .map(|id| InstallTarget {
            agent: Agent::find(id).unwrap(),
            project: Some(project.display().to_string()),
        })
        .collect()
}

/// The `skills` CLI's own install of its test skill: the folder and its lock entry.
fn cli_installed_demo(project: &Path) {
    write(
        project,
        ".agents/skills/demo-skill/SKILL.md",
        "---\nname: demo-skill\ndescription: Demo.\n---\n\n# Demo\n",
    );
    write(project, ".agents/skills/demo-skill/scripts/run.sh", "#!/bin/sh\necho hi\n");
    write(project, "skills-lock.json", CLI_LOCK);
}

#[tokio::test(flavor = "multi_thread")]
async fn agents_that_share_the_project_folder_get_one_copy() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let app = app_over(dir.path()).await;
    let report = app
        .install_skill("frete".into(), targets(&["codex", "cursor", "github-copilot"], &project), false)
        .await
        .unwrap();
    assert_eq!(report.places.len(), 1);
    assert!(report.places[0].dir.ends_with("project/.agents/skills"), "{}", report.places[0].dir);
    assert!(report.places[0].agents.contains(&Agent::find("gemini-cli").unwrap()));
    assert!(project.join(".agents/skills/frete/SKILL.md").is_file());
    assert!(!project.join(".github").exists() && !project.join(".cursor").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_copy_in_the_shared_folder_is_recorded_in_skills_lock_beside_the_clis_entry() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    cli_installed_demo(&project);
    let app = app_over(dir.path()).await;
    app.install_skill("frete".into(), targets(&["codex"], &project), false).await.unwrap();
    let lock: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(project.join("skills-lock.json")).unwrap()).unwrap();
    assert_eq!(
        lock["skills"]["demo-skill"],
        serde_json::from_str::<serde_json::Value>(CLI_LOCK).unwrap()["skills"]["demo-skill"]
    );
    assert_eq!(lock["skills"]["frete"]["sourceType"], "local");
    assert_eq!(lock["skills"]["frete"]["computedHash"].as_str().unwrap().len(), 64);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_copy_for_claude_code_alone_leaves_the_skills_lock_alone() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let app = app_over(dir.path()).await;
    app.install_skill("frete".into(), targets(&["claude-code"], &project), false).await.unwrap();
    assert!(project.join(".claude/skills/frete/SKILL.md").is_file());
    assert!(!project.join("skills-lock.json").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreadable_skills_lock_refuses_the_install_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    write(&project, "skills-lock.json", "{ \"version\": 1, \"skills\": ");
    let app = app_over(dir.path()).await;
    let error = app
        .install_skill("frete".into(), targets(&["claude-code", "codex"], &project), false)
        .await
        .unwrap_err();
    assert_eq!(error.code, "lock_corrupt");
    assert!(!project.join(".claude").exists() && !project.join(".agents").exists());
    assert_eq!(
        fs::read_to_string(project.join("skills-lock.json")).unwrap(),
        "{ \"version\": 1, \"skills\": "
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn verify_checks_what_the_skills_cli_installed_against_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    cli_installed_demo(&project);
    let app = app_over(dir.path()).await;
    let report = app.verify_installs(targets(&["universal"], &project)).await.unwrap();
    assert!(report.clean);
    let others = &report.targets[0].others;
    assert_eq!((others[0].name.as_str(), others[0].state), ("demo-skill", OtherState::InSync));

    write(&project, ".agents/skills/demo-skill/scripts/run.sh", "#!/bin/sh\necho bye\n");
    let report = app.verify_installs(targets(&["universal"], &project)).await.unwrap();
    assert!(!report.clean);
    assert_eq!(report.targets[0].others[0].state, OtherState::Drifted);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_entry_whose_folder_is_gone_is_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    write(&project, "skills-lock.json", CLI_LOCK);
    fs::create_dir_all(project.join(".agents/skills")).unwrap();
    let app = app_over(dir.path()).await;
    let report = app.verify_installs(targets(&["universal"], &project)).await.unwrap();
    assert!(report.clean);
    assert!(report.targets.is_empty(), "{:?}", report.targets);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_inventory_lists_what_the_skills_cli_installed_in_a_project_installed_to_before() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    cli_installed_demo(&project);
    let app = app_over(dir.path()).await;
    app.install_skill("frete".into(), targets(&["claude-code"], &project), false).await.unwrap();
    let others = app.installed_by_other_tools().await.unwrap();
    let found: Vec<(&str, &str, OtherState)> =
        others.iter().map(|o| (o.skill.name.as_str(), o.skill.source.as_str(), o.skill.state)).collect();
    assert_eq!(found, [("demo-skill", "/src/demo-skill", OtherState::InSync)]);
    assert!(others[0].dir.ends_with("project/.agents/skills"), "{}", others[0].dir);
}
