//! Skillcase and the `skills` CLI (npm) on the same folders, in both directions, on the real
//! binaries with a temporary HOME: what Skillcase installs into the shared `.agents/skills` is
//! listed by `skills ls` and tracked in the CLI's locks; what `skills add` installs is checked by
//! `skillcase verify`, drift included; neither tool drops the other's lock entry.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

use crate::support::skills_cli::skills;

const FRETE_MD: &str = "---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n";
const DEMO_MD: &str = "---\nname: demo-skill\ndescription: Demo.\n---\n\n# Demo\n";

struct Work {
    dir: TempDir,
}

impl Work {
    fn new() -> Work {
        let work = Work { dir: TempDir::new().unwrap() };
        for folder in ["home", "project", "skills"] {
            fs::create_dir_all(work.dir.path().join(folder)).unwrap();
        }
        write(&work.path("src/frete"), "SKILL.md", FRETE_MD);
        write(&work.path("src/demo-skill"), "SKILL.md", DEMO_MD);
        write(&work.path("src/demo-skill"), "scripts/run.sh", "#!/bin/sh\necho hi\n");
        work
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().canonicalize().unwrap().join(rel)
    }

    fn skillcase(&self, args: &[&str]) -> std::process::Output {
        let mut command = Command::cargo_bin("skillcase").unwrap();
        command
            .env("SKILLCASE_DATA_DIR", self.path("data"))
            .env("HOME", self.path("home"))
            .env("SKILLCASE_SKILLS_DIR", self.path("skills"))
            .env_remove("XDG_STATE_HOME")
            .args(args)
            .output()
            .unwrap()
    }

    /// `skillcase install src/NAME --target TARGET --project project`, which must succeed.
    fn install_in_project(&self, name: &str, target: &str) {
        let (src, project) = (self.path(&format!("src/{name}")), self.path("project"));
        let args =
            ["install", src.to_str().unwrap(), "--target", target, "--project", project.to_str().unwrap()];
        let installed = self.skillcase(&args);
        assert!(installed.status.success(), "{}", text(&installed));
    }

    fn skills(&self, args: &[&str]) -> String {
        skills(&self.path("project"), &self.path("home"), args)
    }

    fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&fs::read_to_string(self.path(rel)).unwrap()).unwrap()
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The names `skills ls --json` lists.
fn listed(json: &str) -> Vec<String> {
    let start = json.find('[').expect("a JSON list");
    let list: Vec<Value> = serde_json::from_str(&json[start..]).unwrap();
    list.iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_project_skill_skillcase_installed_is_listed_by_the_skills_cli_and_kept_by_its_add() {
    let work = Work::new();
    let project = work.path("project");
    work.install_in_project("frete", "codex");
    let ours = work.json("project/skills-lock.json")["skills"]["frete"].clone();

    assert_eq!(listed(&work.skills(&["ls", "--json"])), ["frete"]);
    let demo = work.path("src/demo-skill");
    work.skills(&["add", demo.to_str().unwrap(), "-y", "--agent", "claude-code", "codex"]);

    let lock = work.json("project/skills-lock.json");
    assert_eq!(lock["skills"]["frete"], ours, "the skills CLI kept Skillcase's entry");
    assert_eq!(
        lock["skills"]["demo-skill"]["computedHash"],
        "e185d44ef65a7b5483359a7287c3cd2badfcc082ef8854ee28b0e37a6e47dcc7"
    );
    let verify = work.skillcase(&["verify", "--project", project.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
    assert!(
        text(&verify).contains("/.agents/skills/demo-skill: installed by the skills CLI from"),
        "{}",
        text(&verify)
    );
}

#[test]
fn a_skill_the_skills_cli_added_is_verified_by_skillcase_and_a_hand_edit_found() {
    let work = Work::new();
    let project = work.path("project");
    let demo = work.path("src/demo-skill");
    work.skills(&["add", demo.to_str().unwrap(), "-y", "--agent", "codex"]);

    let verify = |work: &Work| work.skillcase(&["verify", "--project", project.to_str().unwrap()]);
    let clean = verify(&work);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean));
    assert!(text(&clean).contains("demo-skill: installed by the skills CLI from"), "{}", text(&clean));
    assert!(text(&clean).contains("(local), in sync"), "{}", text(&clean));

    write(&project, ".agents/skills/demo-skill/scripts/run.sh", "#!/bin/sh\necho bye\n");
    let drifted = verify(&work);
    assert_eq!(drifted.status.code(), Some(1), "{}", text(&drifted));
    assert!(text(&drifted).contains("demo-skill: installed by the skills CLI from"), "{}", text(&drifted));
    assert!(text(&drifted).contains("changed since it was installed"), "{}", text(&drifted));
}

#[test]
fn a_user_skill_skillcase_installed_is_in_the_skills_clis_user_lock_and_listing() {
    let work = Work::new();
    let src = work.path("src/frete");
    let installed =
        work.skillcase(&["install", src.to_str().unwrap(), "--target", "github-copilot", "--user"]);
    assert!(installed.status.success(), "{}", text(&installed));
    let lock = work.json("home/.agents/.skill-lock.json");
    assert_eq!(lock["version"], 3);
    assert_eq!(lock["skills"]["frete"]["sourceType"], "local");

    assert_eq!(listed(&work.skills(&["ls", "-g", "--json"])), ["frete"]);
    let update = work.skills(&["update", "-g"]);
    assert!(update.contains("frete"), "the skills CLI tracks Skillcase's user install: {update}");
    let demo = work.path("src/demo-skill");
    work.skills(&["add", demo.to_str().unwrap(), "-g", "-y", "--agent", "codex"]);
    assert_eq!(work.json("home/.agents/.skill-lock.json")["skills"]["frete"], lock["skills"]["frete"]);
    let verify = work.skillcase(&["verify", "--user"]);
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
}

#[test]
fn the_inventory_lists_what_the_skills_cli_installed_in_a_project_installed_to_before() {
    let work = Work::new();
    let project = work.path("project");
    work.install_in_project("frete", "claude-code");
    let demo = work.path("src/demo-skill");
    work.skills(&["add", demo.to_str().unwrap(), "-y", "--agent", "codex"]);

    let csv = work.skillcase(&["inventory", "--format", "csv"]);
    assert!(csv.status.success(), "{}", text(&csv));
    let row = text(&csv).lines().find(|l| l.starts_with("demo-skill,")).map(str::to_string);
    let expected = format!(
        "demo-skill,other_tool,,,{},,,false,false,universal:{}:in_sync",
        demo.display(),
        project.join(".agents/skills").display()
    );
    assert_eq!(row.as_deref(), Some(expected.as_str()), "{}", text(&csv));
    let json: Value =
        serde_json::from_str(&text(&work.skillcase(&["inventory", "--format", "json"]))).unwrap();
    assert_eq!(json["others"][0]["skill"]["name"], "demo-skill");
}
