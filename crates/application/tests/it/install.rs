//! Install to agents as the application's actions: a library skill installed by name records
//! its version and library source, the status badge follows the copy from in sync to drifted
//! and outdated, and a target holding someone's own folder refuses the whole install.

use std::fs;
use std::path::Path;

use skillcase_application::install::{InstallState, InstallTarget};
use skillcase_application::{App, AppOptions};
use skillcase_library::install::{Agent, DriftKind, SkillSource, SyncOutcome};

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

async fn app_over(dir: &Path) -> App {
    write(&dir.join("skills/frete"), "SKILL.md", SKILL_MD);
    write(&dir.join("skills/frete"), "references/tabela.md", "# Tabela\n");
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.join("data"))
    };
    App::start(options).await.unwrap()
}

fn in_project(agent: Agent, project: &Path) -> InstallTarget {
    InstallTarget { agent, project: Some(project.display().to_string()) }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_library_skill_installs_by_name_with_its_version_and_library_source() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let app = app_over(dir.path()).await;
    let report = app
        .install_skill("frete".into(), vec![in_project(Agent::find("claude-code").unwrap(), &project)], false)
        .await
        .unwrap();
    let live = app.skill_detail("frete".into()).await.unwrap().summary.live_version;
    assert!(live.is_some());
    assert_eq!((report.name.as_str(), report.version, report.files), ("frete", live, 2));
    let data_dir = std::path::absolute(dir.path().join("data")).unwrap().display().to_string();
    assert_eq!(report.source, SkillSource::Library { name: "frete".into(), data_dir });
    let installed = project.canonicalize().unwrap().join(".claude/skills/frete/SKILL.md");
    assert_eq!(
        report.places[0].dir,
        project.canonicalize().unwrap().join(".claude/skills").display().to_string()
    );
    assert_eq!(fs::read_to_string(installed).unwrap(), SKILL_MD);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_status_follows_a_copy_from_in_sync_to_drifted_back_to_in_sync_then_outdated() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let app = app_over(dir.path()).await;
    app.install_skill("frete".into(), vec![in_project(Agent::find("codex").unwrap(), &project)], false)
        .await
        .unwrap();
    let root = project.canonicalize().unwrap();
    let state = |places: Vec<skillcase_application::install::InstallPlace>| {
        let place = places
            .into_iter()
            .find(|p| {
                p.target.project == Some(root.display().to_string())
                    && p.agents.contains(&Agent::find("codex").unwrap())
            })
            .expect("remembered");
        (place.state, place.drift.iter().map(|d| (d.path.clone(), d.kind)).collect::<Vec<_>>())
    };
    assert_eq!(
        state(app.install_status("frete".into()).await.unwrap()),
        (Some(InstallState::InSync), vec![])
    );

    write(&root.join(".agents/skills/frete"), "references/tabela.md", "edited");
    assert_eq!(
        state(app.install_status("frete".into()).await.unwrap()),
        (Some(InstallState::Drifted), vec![("references/tabela.md".to_string(), DriftKind::Modified)])
    );

    let synced = app.sync_installs(vec![in_project(Agent::find("codex").unwrap(), &root)]).await.unwrap();
    assert_eq!(synced.targets[0].skills[0].outcome, SyncOutcome::Repaired);
    assert_eq!(
        state(app.install_status("frete".into()).await.unwrap()),
        (Some(InstallState::InSync), vec![])
    );

    write(&dir.path().join("skills/frete"), "references/tabela.md", "# Tabela nova\n");
    assert_eq!(
        state(app.install_status("frete".into()).await.unwrap()),
        (Some(InstallState::Outdated), vec![])
    );
    let verified = app.verify_installs(vec![]).await.unwrap();
    assert!(!verified.clean);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_target_holding_an_unlisted_folder_refuses_the_whole_install() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    write(&project, ".agents/skills/frete/SKILL.md", "someone's own skill");
    let app = app_over(dir.path()).await;
    let targets = vec![
        in_project(Agent::find("claude-code").unwrap(), &project),
        in_project(Agent::find("cursor").unwrap(), &project),
    ];
    let error = app.install_skill("frete".into(), targets, false).await.unwrap_err();
    assert_eq!(error.code, "install_conflict");
    assert!(!project.join(".claude").exists(), "no target is written when one refuses");
    assert_eq!(
        fs::read_to_string(project.join(".agents/skills/frete/SKILL.md")).unwrap(),
        "someone's own skill"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_project_that_is_not_a_folder_is_refused_with_invalid_project_dir() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_over(dir.path()).await;
    let missing = dir.path().join("no-such-project");
    let error = app
        .install_skill(
            "frete".into(),
            vec![in_project(Agent::find("github-copilot").unwrap(), &missing)],
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(
        (error.code.as_str(), error.details.unwrap()["path"].as_str()),
        ("invalid_project_dir", missing.to_str())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_install_with_no_target_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_over(dir.path()).await;
    assert_eq!(app.install_skill("frete".into(), vec![], false).await.unwrap_err().code, "install_no_target");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_window_install_of_an_unknown_skill_is_refused_with_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let app = app_over(dir.path()).await;
    let err = app
        .install_library_skill(
            "nada".into(),
            vec![in_project(Agent::find("claude-code").unwrap(), &project)],
            false,
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, "skill_not_found");
    assert!(!project.join(".claude").exists());
}
