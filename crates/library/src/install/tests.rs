//! The operations over one target folder, on real folders in temporary directories.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;

const NOW: &str = "2026-05-01T10:00:00.000Z";
const LATER: &str = "2026-05-02T10:00:00.000Z";

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# {name}\n\n{body}\n")
}

/// A valid skill folder `root/name` with a SKILL.md and one reference.
fn skill_folder(root: &Path, name: &str, body: &str) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(dir.join("SKILL.md"), skill_md(name, body)).unwrap();
    fs::write(dir.join("references/tabela.md"), "# Tabela\n").unwrap();
    dir
}

/// The target folder, created and held as the application holds it.
fn held(dir: &Path) -> OpenDir {
    OpenDir::create_named(dir).unwrap()
}

fn source_of(dir: &Path) -> SourceSkill {
    let source = SkillSource::Folder { path: dir.display().to_string() };
    SourceSkill::read(dir, source, None).unwrap()
}

/// Resolves folder sources by reading them again, as the application does.
fn from_folders(_name: &str, source: &SkillSource) -> Option<SourceSkill> {
    match source {
        SkillSource::Folder { path } => SourceSkill::read(Path::new(path), source.clone(), None).ok(),
        SkillSource::Library { .. } | SkillSource::Git { .. } => None,
    }
}

fn outcomes(synced: &[Synced]) -> Vec<(&str, SyncOutcome)> {
    synced.iter().map(|s| (s.name.as_str(), s.outcome)).collect()
}

#[test]
fn an_installed_skill_is_listed_in_the_lock_with_every_files_digest_and_checks_clean() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join(".claude/skills");
    let src = skill_folder(work.path(), "frete", "v1");
    assert!(!install(&held(&target), &source_of(&src), false, NOW).unwrap().replaced);
    let lock = lock::read(&held(&target)).unwrap().unwrap();
    let entry = &lock.skills["frete"];
    assert_eq!(entry.files.keys().collect::<Vec<_>>(), ["SKILL.md", "references/tabela.md"]);
    assert_eq!(entry.installed_at, NOW);
    assert_eq!(entry.version, None);
    assert_eq!(fs::read(target.join("frete/SKILL.md")).unwrap(), fs::read(src.join("SKILL.md")).unwrap());
    let checks = check(&held(&target), &from_folders).unwrap();
    assert_eq!(checks.len(), 1);
    assert_eq!((checks[0].drift.as_slice(), checks[0].source), (&[][..], SourceState::Same));
}

#[test]
fn a_folder_the_lock_does_not_list_is_not_overwritten_without_force() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    fs::create_dir_all(target.join("frete")).unwrap();
    fs::write(target.join("frete/SKILL.md"), "my own skill").unwrap();
    let src = skill_folder(work.path(), "frete", "v1");
    let error = install(&held(&target), &source_of(&src), false, NOW).unwrap_err();
    assert!(matches!(error, InstallError::Conflict { .. }), "{error}");
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), "my own skill");
    assert_eq!(lock::read(&held(&target)).unwrap(), None);
}

#[test]
fn a_forced_install_replaces_an_unlisted_folder_and_lists_it() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    fs::create_dir_all(target.join("frete")).unwrap();
    fs::write(target.join("frete/SKILL.md"), "my own skill").unwrap();
    let src = skill_folder(work.path(), "frete", "v1");
    assert!(install(&held(&target), &source_of(&src), true, NOW).unwrap().replaced);
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), skill_md("frete", "v1"));
    assert!(lock::read(&held(&target)).unwrap().unwrap().skills.contains_key("frete"));
}

#[test]
fn installing_again_over_a_listed_folder_needs_no_force() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let src = skill_folder(work.path(), "frete", "v1");
    install(&held(&target), &source_of(&src), false, NOW).unwrap();
    fs::write(src.join("SKILL.md"), skill_md("frete", "v2")).unwrap();
    assert!(install(&held(&target), &source_of(&src), false, LATER).unwrap().replaced);
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), skill_md("frete", "v2"));
    assert_eq!(lock::read(&held(&target)).unwrap().unwrap().skills["frete"].installed_at, LATER);
}

#[test]
fn a_skill_with_validation_errors_is_refused_before_anything_is_written() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("frete");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("SKILL.md"), "no frontmatter at all\n").unwrap();
    let error =
        SourceSkill::read(&dir, SkillSource::Folder { path: dir.display().to_string() }, None).unwrap_err();
    assert!(matches!(error, InstallError::Refused { .. }), "{error}");
}

#[test]
fn an_edited_installed_file_is_drift_and_a_changed_source_is_reported_changed() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let src = skill_folder(work.path(), "frete", "v1");
    install(&held(&target), &source_of(&src), false, NOW).unwrap();
    fs::write(target.join("frete/references/tabela.md"), "edited by hand").unwrap();
    fs::write(src.join("SKILL.md"), skill_md("frete", "v2")).unwrap();
    let checked = check_one(&held(&target), "frete", &from_folders).unwrap().unwrap();
    assert_eq!(checked.drift, [FileDrift { path: "references/tabela.md".into(), kind: DriftKind::Modified }]);
    assert_eq!(checked.source, SourceState::Changed);
    assert_eq!(check_one(&held(&target), "boleto", &from_folders).unwrap(), None);
}

#[test]
fn sync_repairs_only_the_drifted_skill_and_never_touches_an_unlisted_folder() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let frete = skill_folder(work.path(), "frete", "v1");
    let boleto = skill_folder(work.path(), "boleto", "v1");
    install(&held(&target), &source_of(&frete), false, NOW).unwrap();
    install(&held(&target), &source_of(&boleto), false, NOW).unwrap();
    fs::create_dir_all(target.join("mine")).unwrap();
    fs::write(target.join("mine/SKILL.md"), "hand-made").unwrap();
    fs::write(target.join("frete/SKILL.md"), "edited").unwrap();
    fs::write(target.join("frete/notes.md"), "added").unwrap();
    let untouched = fs::metadata(target.join("boleto/SKILL.md")).unwrap().modified().unwrap();
    let lock_before = fs::read(lock::lock_path(&target)).unwrap();

    let synced = sync(&held(&target), &from_folders, LATER).unwrap();
    assert_eq!(outcomes(&synced), [("boleto", SyncOutcome::Unchanged), ("frete", SyncOutcome::Repaired)]);
    assert_eq!(
        synced[1].drift,
        [
            FileDrift { path: "SKILL.md".into(), kind: DriftKind::Modified },
            FileDrift { path: "notes.md".into(), kind: DriftKind::Added },
        ]
    );
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), skill_md("frete", "v1"));
    assert_eq!(
        fs::read_to_string(target.join("frete/notes.md")).unwrap(),
        "added",
        "a person's own file is kept"
    );
    assert_eq!(synced[1].kept, ["notes.md"]);
    assert_eq!(fs::metadata(target.join("boleto/SKILL.md")).unwrap().modified().unwrap(), untouched);
    assert_eq!(fs::read_to_string(target.join("mine/SKILL.md")).unwrap(), "hand-made");
    assert_eq!(
        fs::read(lock::lock_path(&target)).unwrap(),
        lock_before,
        "a repair leaves the lock as it was"
    );
    let left: Vec<Vec<FileDrift>> =
        check(&held(&target), &from_folders).unwrap().into_iter().map(|c| c.drift).collect();
    assert_eq!(
        left,
        [vec![], vec![FileDrift { path: "notes.md".into(), kind: DriftKind::Added }]],
        "only the kept file"
    );
}

#[test]
fn sync_copies_a_source_that_moved_ahead_and_records_its_new_digests() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let src = skill_folder(work.path(), "frete", "v1");
    install(&held(&target), &source_of(&src), false, NOW).unwrap();
    fs::write(src.join("SKILL.md"), skill_md("frete", "v2")).unwrap();
    let synced = sync(&held(&target), &from_folders, LATER).unwrap();
    assert_eq!(outcomes(&synced), [("frete", SyncOutcome::Updated)]);
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), skill_md("frete", "v2"));
    let entry = &lock::read(&held(&target)).unwrap().unwrap().skills["frete"];
    assert_eq!((entry.installed_at.as_str(), &entry.files), (LATER, &source_of(&src).digests()));
}

#[test]
fn sync_leaves_a_drifted_copy_alone_when_its_source_is_gone() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let src = skill_folder(work.path(), "frete", "v1");
    install(&held(&target), &source_of(&src), false, NOW).unwrap();
    fs::remove_dir_all(&src).unwrap();
    fs::write(target.join("frete/SKILL.md"), "edited").unwrap();
    let synced = sync(&held(&target), &from_folders, LATER).unwrap();
    assert_eq!(outcomes(&synced), [("frete", SyncOutcome::SourceMissing)]);
    assert_eq!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap(), "edited");
}

#[test]
fn sync_puts_back_an_installed_folder_that_was_deleted() {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("skills");
    let src = skill_folder(work.path(), "frete", "v1");
    install(&held(&target), &source_of(&src), false, NOW).unwrap();
    fs::remove_dir_all(target.join("frete")).unwrap();
    let synced = sync(&held(&target), &from_folders, LATER).unwrap();
    assert_eq!(outcomes(&synced), [("frete", SyncOutcome::Repaired)]);
    assert_eq!(synced[0].drift.iter().map(|d| d.kind).collect::<Vec<_>>(), [DriftKind::Missing; 2]);
    assert!(target.join("frete/references/tabela.md").is_file());
}

#[test]
fn a_folder_without_a_lock_has_nothing_to_check_or_sync() {
    let work = tempfile::tempdir().unwrap();
    fs::create_dir_all(work.path().join("mine")).unwrap();
    assert_eq!(check(&held(work.path()), &from_folders).unwrap(), []);
    assert_eq!(sync(&held(work.path()), &from_folders, NOW).unwrap(), []);
    assert!(!lock::lock_path(work.path()).exists());
}

#[cfg(unix)]
mod linked {
    use super::*;

    #[test]
    fn a_linked_install_puts_a_link_and_records_where_it_points() {
        let root = tempfile::tempdir().unwrap();
        let skill = source_of(&skill_folder(&root.path().join("src"), "frete", "v1"));
        let claude = held(&root.path().join("project/.claude/skills"));
        install_link(&claude, &skill, "../../.agents/skills/frete", false, "2026-12-06T10:00:00Z").unwrap();
        let link = fs::read_link(root.path().join("project/.claude/skills/frete")).unwrap();
        assert_eq!(link, Path::new("../../.agents/skills/frete"));
        let lock = lock::read(&claude).unwrap().unwrap();
        assert_eq!(lock.skills["frete"].link.as_deref(), Some("../../.agents/skills/frete"));
    }

    #[test]
    fn a_link_repointed_by_hand_is_drift_and_sync_puts_it_back_without_following_it() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let skill = source_of(&skill_folder(&root.path().join("src"), "frete", "v1"));
        let dir = root.path().join("project/.claude/skills");
        let claude = held(&dir);
        install_link(&claude, &skill, "../../.agents/skills/frete", false, "2026-12-06T10:00:00Z").unwrap();
        fs::remove_file(dir.join("frete")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.join("frete")).unwrap();
        let checked = check(&claude, &from_folders).unwrap();
        assert_eq!(checked[0].drift, [FileDrift { path: "(link)".into(), kind: DriftKind::Link }]);
        let synced = sync(&claude, &from_folders, "2026-12-06T11:00:00Z").unwrap();
        assert_eq!(synced[0].outcome, SyncOutcome::Repaired);
        assert_eq!(fs::read_link(dir.join("frete")).unwrap(), Path::new("../../.agents/skills/frete"));
        assert_eq!(
            fs::read_dir(outside.path()).unwrap().count(),
            0,
            "nothing written where the stray link pointed"
        );
    }

    #[test]
    fn only_links_to_the_shared_folders_copy_of_that_skill_pass_the_lock_check() {
        for good in
            ["../../.agents/skills/frete", "../.agents/skills/frete", "/home/ana/.agents/skills/frete"]
        {
            assert!(lock::is_canonical_link(good, "frete"), "{good}");
        }
        for bad in [
            "/etc",
            "../../.agents/skills/other",
            "../x/../.agents/skills/frete",
            ".agents/skills/frete",
            "/home/../etc/.agents/skills/frete",
        ] {
            assert!(!lock::is_canonical_link(bad, "frete"), "{bad}");
        }
    }
}

mod own_files {
    use super::*;

    #[test]
    fn an_update_over_a_copy_with_its_own_changes_is_held_back_and_writes_nothing() {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("skills");
        let src = skill_folder(work.path(), "frete", "v1");
        install(&held(&target), &source_of(&src), false, NOW).unwrap();
        fs::write(target.join("frete/references/tabela.md"), "mine").unwrap();
        fs::write(src.join("SKILL.md"), skill_md("frete", "v2")).unwrap();
        let synced = sync(&held(&target), &from_folders, NOW).unwrap();
        assert_eq!(synced[0].outcome, SyncOutcome::HeldBack);
        assert_eq!(fs::read_to_string(target.join("frete/references/tabela.md")).unwrap(), "mine");
        assert!(fs::read_to_string(target.join("frete/SKILL.md")).unwrap().contains("v1"));
    }

    #[test]
    fn a_repair_restores_edited_files_but_keeps_the_files_a_person_added() {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("skills");
        let src = skill_folder(work.path(), "frete", "v1");
        install(&held(&target), &source_of(&src), false, NOW).unwrap();
        fs::write(target.join("frete/references/tabela.md"), "edited").unwrap();
        fs::write(target.join("frete/minhas-notas.md"), "my notes").unwrap();
        let synced = sync(&held(&target), &from_folders, NOW).unwrap();
        assert_eq!(synced[0].outcome, SyncOutcome::Repaired);
        assert_eq!(synced[0].kept, ["minhas-notas.md"]);
        assert_eq!(fs::read_to_string(target.join("frete/references/tabela.md")).unwrap(), "# Tabela\n");
        assert_eq!(fs::read_to_string(target.join("frete/minhas-notas.md")).unwrap(), "my notes");
    }

    #[test]
    fn installing_again_keeps_the_files_a_person_added_and_says_so() {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("skills");
        let src = skill_folder(work.path(), "frete", "v1");
        install(&held(&target), &source_of(&src), false, NOW).unwrap();
        fs::write(target.join("frete/minhas-notas.md"), "my notes").unwrap();
        let placed = install(&held(&target), &source_of(&src), false, NOW).unwrap();
        assert_eq!(placed, Placed { replaced: true, kept: vec!["minhas-notas.md".into()] });
        assert_eq!(fs::read_to_string(target.join("frete/minhas-notas.md")).unwrap(), "my notes");
    }

    #[test]
    fn adopting_a_hand_made_folder_records_it_as_it_is() {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("skills");
        skill_folder(&target, "frete", "made by hand");
        let source = SkillSource::Folder { path: target.join("frete").display().to_string() };
        adopt(&held(&target), "frete", source, None, NOW).unwrap();
        let checked = check_one(&held(&target), "frete", &from_folders).unwrap().unwrap();
        assert_eq!((checked.drift.len(), checked.source), (0, SourceState::Same));
        let again = adopt(&held(&target), "frete", checked.locked.source.clone(), None, NOW).unwrap_err();
        assert_eq!(skillcase_common::error::Coded::code(&again), "adopt_refused");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_or_a_missing_folder_is_not_adopted() {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("skills");
        fs::create_dir_all(&target).unwrap();
        std::os::unix::fs::symlink(work.path(), target.join("frete")).unwrap();
        let source = SkillSource::Folder { path: "/x".into() };
        for name in ["frete", "boleto"] {
            let refused = adopt(&held(&target), name, source.clone(), None, NOW).unwrap_err();
            assert!(matches!(refused, InstallError::NotAdoptable { .. }), "{name}: {refused}");
        }
        assert!(!target.join("skillcase.lock").exists());
    }
}
