use super::*;

fn spec(text: &str) -> GitSpec {
    parse_spec(text).expect("a git source").expect("a valid one")
}

#[test]
fn a_git_source_names_a_url_and_optionally_a_branch_or_a_commit() {
    assert_eq!(
        spec("git+https://example.test/skills.git"),
        GitSpec { url: "https://example.test/skills.git".into(), reference: None, commit: None }
    );
    assert_eq!(spec("git+file:///srv/skills.git#release").reference.as_deref(), Some("release"));
    assert_eq!(spec("git+git://127.0.0.1/skills.git@3F2A9c1").commit.as_deref(), Some("3f2a9c1"));
}

#[test]
fn an_at_sign_in_the_url_is_not_a_commit() {
    let ssh = spec("git+ssh://git@example.test/team/skills.git");
    assert_eq!((ssh.url.as_str(), ssh.commit), ("ssh://git@example.test/team/skills.git", None));
}

#[test]
fn text_that_is_not_a_git_source_is_not_read_as_one() {
    assert!(parse_spec("frete").is_none());
    assert!(parse_spec("./skills/frete").is_none());
}

#[test]
fn a_source_with_both_a_branch_and_a_commit_or_no_url_is_refused() {
    for bad in [
        "git+",
        "git+#main",
        "git+https://x.test/r.git@abcdef1#main",
        "git+--upload-pack=evil",
        "git+https://x.test/r.git#--force",
    ] {
        let refused = parse_spec(bad).unwrap().unwrap_err();
        assert!(matches!(refused, InstallError::GitSource { .. }), "{bad}: {refused}");
    }
}

#[test]
fn skill_folders_are_found_at_the_root_or_below_it_but_not_in_git_metadata() {
    let repo = tempfile::tempdir().unwrap();
    for rel in ["skills/frete/SKILL.md", "skills/boleto/SKILL.md", ".git/x/SKILL.md", "docs/README.md"] {
        let path = repo.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }
    assert_eq!(skill_folders(repo.path()), ["skills/boleto", "skills/frete"]);
    std::fs::write(repo.path().join("SKILL.md"), "x").unwrap();
    assert_eq!(skill_folders(repo.path()), [""]);
}
