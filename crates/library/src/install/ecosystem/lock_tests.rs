use std::path::Path;

use super::*;

fn held(dir: &tempfile::TempDir) -> OpenDir {
    OpenDir::open_named(dir.path()).unwrap()
}

const CLI_PROJECT_LOCK: &str = r#"{
  "version": 1,
  "skills": {
    "pdf": {
      "source": "anthropics/skills",
      "ref": "main",
      "sourceType": "github",
      "skillPath": "skills/pdf/SKILL.md",
      "computedHash": "1111111111111111111111111111111111111111111111111111111111111111"
    }
  }
}
"#;

const CLI_USER_LOCK: &str = r#"{
  "version": 3,
  "skills": {
    "pdf": {
      "source": "anthropics/skills",
      "sourceType": "github",
      "sourceUrl": "https://github.com/anthropics/skills.git",
      "skillFolderHash": "0123456789012345678901234567890123456789",
      "installedAt": "2026-10-01T10:00:00.000Z",
      "updatedAt": "2026-10-01T10:00:00.000Z"
    }
  },
  "dismissed": {
    "findSkillsPrompt": true
  },
  "lastSelectedAgents": [
    "claude-code"
  ]
}"#;

#[test]
fn a_folder_without_the_lock_has_none() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(EcoLock::read(&held(&dir), LockKind::Project).unwrap(), None);
}

#[test]
fn recording_a_skill_keeps_the_entry_the_skills_cli_wrote_and_sorts_by_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(PROJECT_LOCK), CLI_PROJECT_LOCK).unwrap();
    let mut lock = EcoLock::read(&held(&dir), LockKind::Project).unwrap().unwrap();
    lock.record_local("frete", "./skills/frete", "ab", "2026-12-06T10:00:00Z");
    lock.write(&held(&dir)).unwrap();
    let text = std::fs::read_to_string(dir.path().join(PROJECT_LOCK)).unwrap();
    let expected = CLI_PROJECT_LOCK.replace(
        "  \"skills\": {\n",
        "  \"skills\": {\n    \"frete\": {\n      \"source\": \"./skills/frete\",\n      \"sourceType\": \"local\",\n      \"computedHash\": \"ab\"\n    },\n",
    );
    assert_eq!(text, expected);
}

#[test]
fn the_user_lock_keeps_its_other_keys_and_order_and_has_no_final_newline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(USER_LOCK), CLI_USER_LOCK).unwrap();
    let mut lock = EcoLock::read(&held(&dir), LockKind::User).unwrap().unwrap();
    lock.record_local("frete", "/src/frete", "cd", "2026-12-06T10:00:00Z");
    let doc: serde_json::Value = serde_json::from_str(&lock.to_text()).unwrap();
    assert!(!lock.to_text().ends_with('\n'));
    assert_eq!(
        doc["skills"]["pdf"],
        serde_json::from_str::<serde_json::Value>(CLI_USER_LOCK).unwrap()["skills"]["pdf"]
    );
    assert_eq!(doc["dismissed"], serde_json::json!({ "findSkillsPrompt": true }));
    assert_eq!(doc["lastSelectedAgents"], serde_json::json!(["claude-code"]));
    assert_eq!(
        doc["skills"]["frete"],
        serde_json::json!({
            "source": "/src/frete", "sourceType": "local", "sourceUrl": "/src/frete", "skillFolderHash": "cd",
            "installedAt": "2026-12-06T10:00:00Z", "updatedAt": "2026-12-06T10:00:00Z"
        })
    );
}

#[test]
fn installing_again_keeps_the_first_install_time_in_the_user_lock() {
    let mut lock = EcoLock::empty(LockKind::User);
    lock.record_local("frete", "/src/frete", "a", "2026-12-01T00:00:00Z");
    lock.record_local("frete", "/src/frete", "b", "2026-12-06T00:00:00Z");
    let doc: serde_json::Value = serde_json::from_str(&lock.to_text()).unwrap();
    assert_eq!(doc["skills"]["frete"]["installedAt"], "2026-12-01T00:00:00Z");
    assert_eq!(doc["skills"]["frete"]["updatedAt"], "2026-12-06T00:00:00Z");
}

#[test]
fn a_new_user_lock_has_the_shape_the_cli_creates() {
    let lock = EcoLock::empty(LockKind::User);
    assert_eq!(lock.to_text(), "{\n  \"version\": 3,\n  \"skills\": {},\n  \"dismissed\": {}\n}");
}

#[test]
fn a_lock_of_another_version_or_not_json_is_refused_not_emptied() {
    let dir = tempfile::tempdir().unwrap();
    for text in [r#"{"version": 2, "skills": {}}"#, "not json", r#"{"skills": {}}"#] {
        std::fs::write(dir.path().join(USER_LOCK), text).unwrap();
        let refused = EcoLock::read(&held(&dir), LockKind::User).unwrap_err();
        assert!(matches!(refused, InstallError::LockCorrupt { .. }), "{text}: {refused}");
        assert_eq!(std::fs::read_to_string(dir.path().join(USER_LOCK)).unwrap(), text);
    }
}

#[test]
fn entries_say_source_type_and_hash_as_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(USER_LOCK), CLI_USER_LOCK).unwrap();
    let lock = EcoLock::read(&held(&dir), LockKind::User).unwrap().unwrap();
    assert_eq!(
        lock.entries(),
        [EcoEntry {
            name: "pdf".into(),
            source: "anthropics/skills".into(),
            source_type: "github".into(),
            hash: Some("0123456789012345678901234567890123456789".into()),
        }]
    );
}

#[test]
fn a_project_source_inside_the_project_is_named_relative_to_it() {
    let root = Path::new("/shop");
    assert_eq!(local_source(Path::new("/shop/skills/frete"), root, LockKind::Project), "./skills/frete");
    assert_eq!(local_source(Path::new("/lib/frete"), root, LockKind::Project), "/lib/frete");
    assert_eq!(local_source(Path::new("/shop/skills/frete"), root, LockKind::User), "/shop/skills/frete");
}
