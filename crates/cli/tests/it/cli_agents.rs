//! `skillcase agents` and `install --target ID | --all` on the real binary with a temporary HOME:
//! the table with the agents installed here marked, the docs' copy of it kept equal, and installs
//! that pick the detected agents and write each shared folder once.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

const SKILL_MD: &str = "---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

fn skillcase(home: &Path) -> Command {
    let mut command = Command::cargo_bin("skillcase").unwrap();
    command.env("HOME", home).env("SKILLCASE_DATA_DIR", home.join("data")).env_remove("XDG_STATE_HOME");
    command
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A home folder where Claude Code and Cursor are installed (their config folders exist).
fn home_with_claude_and_cursor() -> TempDir {
    let home = TempDir::new().unwrap();
    for folder in [".claude", ".cursor"] {
        fs::create_dir_all(home.path().join(folder)).unwrap();
    }
    home
}

fn skill(root: &Path) -> std::path::PathBuf {
    let dir = root.join("src/frete");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), SKILL_MD).unwrap();
    dir
}

#[test]
fn agents_marks_the_ones_whose_config_folder_is_in_the_home_folder() {
    let home = home_with_claude_and_cursor();
    let run = skillcase(home.path()).args(["agents", "--detected"]).output().unwrap();
    assert_eq!(run.status.code(), Some(0));
    let lines: Vec<String> =
        stdout(&run).lines().map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(lines, ["* claude-code", "* cursor", "2 agents,"]);
}

#[test]
fn agents_as_json_lists_every_agent_with_its_folders() {
    let home = home_with_claude_and_cursor();
    let run = skillcase(home.path()).args(["agents", "--format", "json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    let agents = doc["agents"].as_array().unwrap();
    assert!(agents.len() >= 80, "{}", agents.len());
    let copilot = agents.iter().find(|a| a["id"] == "github-copilot").unwrap();
    assert_eq!(copilot["project_folder"], ".agents/skills");
    assert_eq!(copilot["user_folder"], ".agents/skills");
    assert_eq!(copilot["detected"], false);
}

#[test]
fn the_agents_table_in_the_docs_is_the_one_the_cli_prints() {
    let home = TempDir::new().unwrap();
    let run = skillcase(home.path()).args(["agents", "--format", "markdown"]).output().unwrap();
    let docs =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/install.md")).unwrap();
    let begin = docs.find("<!-- agents-table:begin -->\n").expect("the begin marker")
        + "<!-- agents-table:begin -->\n".len();
    let end = docs.find("<!-- agents-table:end -->").expect("the end marker");
    assert_eq!(
        &docs[begin..end],
        stdout(&run),
        "run `skillcase agents --format markdown` and paste it into docs/install.md"
    );
}

#[test]
fn install_all_writes_each_detected_agents_folder_once() {
    let home = home_with_claude_and_cursor();
    let src = skill(home.path());
    let run = skillcase(home.path()).arg("install").arg(&src).args(["--all", "--user"]).output().unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    let claude = home.path().join(".claude/skills/frete/SKILL.md");
    let shared = home.path().join(".agents/skills/frete/SKILL.md");
    assert!(claude.is_file() && shared.is_file());
    assert_eq!(stdout(&run).lines().count(), 2, "{}", stdout(&run));
    assert!(!home.path().join(".cursor/skills").exists(), "Cursor reads ~/.agents/skills");
}

#[test]
fn install_all_with_no_agent_on_the_machine_says_so() {
    let home = TempDir::new().unwrap();
    let src = skill(home.path());
    let run = skillcase(home.path()).arg("install").arg(&src).args(["--all", "--user"]).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(stdout(&run).starts_with("error install_no_target: "), "{}", stdout(&run));
}

#[test]
fn an_unknown_agent_is_a_usage_error_that_points_at_the_table() {
    let home = TempDir::new().unwrap();
    let run =
        skillcase(home.path()).args(["install", "x", "--target", "notepad", "--user"]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr)
        .contains("unknown agent `notepad`; `skillcase agents` lists the known ones"));
}

#[test]
fn the_former_target_names_still_install_where_they_did() {
    let home = TempDir::new().unwrap();
    let src = skill(home.path());
    let run = skillcase(home.path())
        .arg("install")
        .arg(&src)
        .args(["--target", "claude", "--user"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    assert!(home.path().join(".claude/skills/frete/SKILL.md").is_file());
}

#[test]
fn a_user_install_for_an_agent_that_reads_only_projects_is_refused_by_code() {
    let home = TempDir::new().unwrap();
    let src = skill(home.path());
    let run =
        skillcase(home.path()).arg("install").arg(&src).args(["--target", "eve", "--user"]).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stdout(&run).starts_with("error install_no_user_folder: eve has no skills folder"),
        "{}",
        stdout(&run)
    );
}
