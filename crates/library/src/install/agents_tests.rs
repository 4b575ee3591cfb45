use std::collections::HashSet;
use std::path::Path;

use super::*;

fn agent(id: &str) -> Agent {
    Agent::find(id).unwrap_or_else(|| panic!("{id} is in the table"))
}

#[test]
fn the_table_lists_at_least_eighty_agents_each_once() {
    let ids: Vec<&str> = Agent::all().map(Agent::as_str).collect();
    assert!(ids.len() >= 80, "{} agents", ids.len());
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
}

#[test]
fn every_folder_in_the_table_stays_inside_its_root() {
    for a in Agent::all() {
        let info = a.info();
        let folders = std::iter::once(info.project.as_str()).chain(
            info.user
                .iter()
                .chain(&info.detect)
                .map(|u| u.strip_prefix("~/").expect("user paths start with ~/")),
        );
        for folder in folders {
            assert!(!folder.is_empty() && !folder.starts_with('/'), "{}: {folder}", info.id);
            assert!(
                folder.split('/').all(|p| !p.is_empty() && p != "." && p != ".."),
                "{}: {folder}",
                info.id
            );
        }
    }
}

#[test]
fn every_agent_names_the_source_of_its_folders() {
    for a in Agent::all() {
        assert!(a.info().source.starts_with("https://"), "{}", a.as_str());
        assert!(!a.name().is_empty());
    }
}

#[test]
fn codex_cursor_and_copilot_read_the_shared_project_folder() {
    for id in ["codex", "cursor", "github-copilot", "gemini-cli", "opencode"] {
        assert_eq!(agent(id).project_dir(Path::new("/p")), Path::new("/p/.agents/skills"), "{id}");
    }
    assert_eq!(agent("claude-code").project_dir(Path::new("/p")), Path::new("/p/.claude/skills"));
}

#[test]
fn a_user_install_writes_the_shared_folder_when_the_agent_reads_it_else_its_own() {
    let home = Path::new("/home/ana");
    let dir = |id: &str| agent(id).user_dir(home).unwrap();
    assert_eq!(dir("codex"), Path::new("/home/ana/.agents/skills"));
    assert_eq!(dir("github-copilot"), Path::new("/home/ana/.agents/skills"));
    assert_eq!(dir("universal"), Path::new("/home/ana/.agents/skills"));
    assert_eq!(dir("claude-code"), Path::new("/home/ana/.claude/skills"));
    assert_eq!(dir("amp"), Path::new("/home/ana/.config/agents/skills"));
}

#[test]
fn copilot_is_never_sent_to_the_github_folder_at_user_level() {
    let info = agent("github-copilot").info();
    assert_eq!(info.user[0], "~/.copilot/skills");
    assert!(!info.user.iter().any(|u| u.contains(".github")));
}

#[test]
fn an_agent_that_reads_only_projects_has_no_user_folder() {
    assert_eq!(agent("eve").user_dir(Path::new("/h")), None);
}

#[test]
fn the_former_five_names_still_find_their_agents() {
    assert_eq!(agent("claude").as_str(), "claude-code");
    assert_eq!(agent("github").as_str(), "github-copilot");
    assert_eq!(agent("agents").as_str(), "universal");
    assert_eq!(agent("codex").as_str(), "codex");
    assert_eq!(agent("cursor").as_str(), "cursor");
    assert_eq!(Agent::find("notepad"), None);
}

#[test]
fn an_agent_serialises_as_its_id_and_reads_back_from_it() {
    let json = serde_json::to_value(agent("claude")).unwrap();
    assert_eq!(json, serde_json::json!("claude-code"));
    assert_eq!(serde_json::from_value::<Agent>(json).unwrap(), agent("claude-code"));
    let unknown = serde_json::from_value::<Agent>(serde_json::json!("notepad")).unwrap_err();
    assert!(unknown.to_string().contains("unknown agent `notepad`"), "{unknown}");
}

#[test]
fn an_agent_is_detected_by_its_config_folder_in_the_home_folder() {
    let home = tempfile::tempdir().unwrap();
    assert!(!agent("claude-code").detected_in(home.path()));
    std::fs::create_dir(home.path().join(".claude")).unwrap();
    assert!(agent("claude-code").detected_in(home.path()));
    assert!(!agent("cursor").detected_in(home.path()));
}

#[test]
fn links_are_followed_only_where_the_table_says_so() {
    assert!(agent("claude-code").follows_links());
    assert!(!agent("cursor").follows_links());
    assert!(!agent("aider-desk").follows_links(), "unknown counts as no");
}
