//! The window's install names a library skill, never a folder: the app runs in a folder holding a
//! folder of that name. The test runs in a process of its own started in that folder, since the
//! working folder is the whole process's.

use std::fs;
use std::path::Path;

use skillcase_application::install::InstallTarget;
use skillcase_application::{App, AppOptions};
use skillcase_library::install::{Agent, SkillSource};
use skillcase_testkit::own_process::in_own_process;

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn the_window_install_takes_the_library_skill_even_beside_a_folder_of_that_name() {
    in_own_process(
        "install_cwd::the_window_install_takes_the_library_skill_even_beside_a_folder_of_that_name",
        |process| {
            let dir = tempfile::tempdir().unwrap();
            process.current_dir(dir.path());
            dir
        },
        || tokio::runtime::Runtime::new().unwrap().block_on(installs_the_library_skill()),
    );
}

async fn installs_the_library_skill() {
    let dir = std::env::current_dir().unwrap();
    write(&dir.join("skills/frete"), "SKILL.md", SKILL_MD);
    write(&dir.join("frete"), "SKILL.md", "---\nname: frete\ndescription: Outra. Use nunca.\n---\n");
    let project = dir.join("project");
    fs::create_dir_all(&project).unwrap();
    let options = AppOptions {
        skills_dir: Some(dir.join("skills")),
        catalog_dir: None,
        background: false,
        ..AppOptions::new(dir.join("data"))
    };
    let app = App::start(options).await.unwrap();
    let target = InstallTarget {
        agent: Agent::find("claude-code").unwrap(),
        project: Some(project.display().to_string()),
    };

    let report = app.install_library_skill("frete".into(), vec![target], false).await.unwrap();

    assert!(matches!(report.source, SkillSource::Library { .. }), "{:?}", report.source);
    let installed = project.canonicalize().unwrap().join(".claude/skills/frete/SKILL.md");
    assert_eq!(fs::read_to_string(installed).unwrap(), SKILL_MD);
}
