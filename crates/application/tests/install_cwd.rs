//! The window's install names a library skill, never a folder: alone in its test binary because
//! it changes the process's working folder, which every other test would see.

use std::fs;
use std::path::Path;

use skillcase_application::install::InstallTarget;
use skillcase_application::{App, AppOptions};
use skillcase_library::install::{Agent, SkillSource};

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_window_install_takes_the_library_skill_even_beside_a_folder_of_that_name() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("skills/frete"), "SKILL.md", SKILL_MD);
    write(&dir.path().join("frete"), "SKILL.md", "---\nname: frete\ndescription: Outra. Use nunca.\n---\n");
    let project = dir.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.path().join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.path().join("data"))
    };
    let app = App::start(options).await.unwrap();
    std::env::set_current_dir(dir.path()).unwrap();
    let target = InstallTarget { agent: Agent::Claude, project: Some(project.display().to_string()) };

    let report = app.install_library_skill("frete".into(), vec![target], false).await.unwrap();

    assert!(matches!(report.source, SkillSource::Library { .. }), "{:?}", report.source);
    let installed = project.canonicalize().unwrap().join(".claude/skills/frete/SKILL.md");
    assert_eq!(fs::read_to_string(installed).unwrap(), SKILL_MD);
}
