//! Changing the library (SPEC A8, A9): import, catalog install and override, rollback, diff and
//! the safe edits — each on real folders, a real database and a real blob store.

use crate::support;
use skillcase_testkit::zips;

use std::fs;
use std::path::Path;

use skillcase_common::error::Coded;
use skillcase_common::events::DomainEvent;
use skillcase_library::{FileChange, Origin, VersionSource};
use skillcase_skill::load::package_from_dir;
use skillcase_testkit::skills::{skill_md, write_simple, write_skill};
use support::{drain, names, Workspace};
use zips::zip_of;

const FRETE_V1: &str =
    "---\nname: frete\ndescription: Calcula o frete por CEP.\n---\n# Frete\n\nLeia references/tabela.md.\n";
const FRETE_V2: &str = "---\nname: frete\ndescription: Calcula o frete e o prazo por CEP.\n---\n# Frete\n\nLeia references/tabela.md.\n";
const TABELA: &str = "| CEP | valor |\n| 01000 | 10 |\n";

/// (path, sha256) of every file in a folder, for byte-exact comparisons.
fn hashes(dir: &Path) -> Vec<(String, String)> {
    package_from_dir(dir).unwrap().files.into_iter().map(|f| (f.path, f.sha256)).collect()
}

fn frete_zip(skill_md: &str) -> Vec<u8> {
    zip_of(&[("frete/SKILL.md", skill_md.as_bytes()), ("frete/references/tabela.md", TABELA.as_bytes())])
}

#[test]
fn an_import_installs_the_folder_and_records_an_import_version() {
    let ws = Workspace::new();
    let library = ws.open();
    let report = library.import_zip(&frete_zip(FRETE_V1), false).unwrap();
    assert_eq!(report.refused, None);
    assert!(report.installed && !report.replaced);
    let paths: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/tabela.md"]);
    assert_eq!(report.files[1].short_hash.len(), 12);
    assert_eq!(report.version.as_ref().unwrap().source, VersionSource::Import);
    assert_eq!(fs::read_to_string(ws.skills().join("frete/references/tabela.md")).unwrap(), TABELA);
    assert_eq!(library.summary("frete").unwrap().live_version, Some(report.version.unwrap().id));
}

#[test]
fn an_import_over_an_existing_skill_replaces_the_whole_folder() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1), ("references/old.md", "old")]);
    let library = ws.open();
    let report = library.import_zip(&frete_zip(FRETE_V2), false).unwrap();
    assert!(report.replaced);
    let now: Vec<String> = hashes(&ws.skills().join("frete")).into_iter().map(|(p, _)| p).collect();
    assert_eq!(now, ["SKILL.md", "references/tabela.md"]);
    assert_eq!(library.versions("frete").unwrap().len(), 2);
}

#[test]
fn a_refused_import_writes_nothing_and_reports_the_findings() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1), ("references/tabela.md", TABELA)]);
    let library = ws.open();
    let before = hashes(&ws.skills().join("frete"));
    let evil = zip_of(&[("frete/SKILL.md", FRETE_V2.as_bytes()), ("frete/../escape.md", b"x")]);
    let report = library.import_zip(&evil, false).unwrap();
    assert_eq!(report.refused.as_deref(), Some("import_refused"));
    assert!(report.findings[0].is_error());
    let broken = frete_zip("---\nname: frete\n---\nno description\n");
    assert!(library.import_zip(&broken, false).unwrap().refused.is_some());
    assert_eq!(hashes(&ws.skills().join("frete")), before);
    assert_eq!(library.versions("frete").unwrap().len(), 1);
    let leftovers: Vec<_> = fs::read_dir(ws.root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".skillcase"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_dry_run_import_checks_everything_and_writes_nothing() {
    let ws = Workspace::new();
    let library = ws.open();
    let report = library.import_zip(&frete_zip(FRETE_V1), true).unwrap();
    assert!(report.dry_run && !report.installed && report.version.is_none());
    assert!(!ws.skills().join("frete").exists());
}

#[test]
fn rollback_restores_the_folder_byte_for_byte() {
    let ws = Workspace::new();
    let library = ws.open();
    let zip_v1 = zip_of(&[
        ("frete/SKILL.md", FRETE_V1.as_bytes()),
        ("frete/references/tabela.md", TABELA.as_bytes()),
        ("frete/assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x01binary"),
    ]);
    let v1 = library.import_zip(&zip_v1, false).unwrap().version.unwrap().id;
    let v1_hashes = hashes(&ws.skills().join("frete"));
    library.import_zip(&frete_zip(FRETE_V2), false).unwrap();
    assert_ne!(hashes(&ws.skills().join("frete")), v1_hashes);
    let restored = library.rollback("frete", v1).unwrap();
    assert_eq!(restored.id, v1);
    assert!(restored.live);
    assert_eq!(hashes(&ws.skills().join("frete")), v1_hashes);
    assert_eq!(library.versions("frete").unwrap().len(), 2);
}

#[test]
fn rollback_to_another_skills_version_is_refused() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Frete");
    write_simple(&ws.skills(), "boleto", "Boleto");
    let library = ws.open();
    let boleto = library.summary("boleto").unwrap().live_version.unwrap();
    assert_eq!(library.rollback("frete", boleto).unwrap_err().code(), "version_not_found");
}

#[test]
fn diff_shows_text_changes_as_unified_diffs_and_binaries_by_size_and_hash() {
    let ws = Workspace::new();
    let library = ws.open();
    let v1 = library
        .import_zip(
            &zip_of(&[("frete/SKILL.md", FRETE_V1.as_bytes()), ("frete/assets/a.png", b"\x00\x01")]),
            false,
        )
        .unwrap()
        .version
        .unwrap()
        .id;
    let v2 = library
        .import_zip(
            &zip_of(&[("frete/SKILL.md", FRETE_V2.as_bytes()), ("frete/assets/a.png", b"\x00\x02\x03")]),
            false,
        )
        .unwrap()
        .version
        .unwrap()
        .id;
    let diff = library.diff("frete", v1, v2).unwrap();
    assert_eq!(diff[0].path, "SKILL.md");
    assert_eq!(diff[0].change, FileChange::Modified);
    assert_eq!(
        diff[0].unified.as_deref().unwrap(),
        "--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1,6 +1,6 @@\n ---\n name: frete\n-description: Calcula o frete por CEP.\n+description: Calcula o frete e o prazo por CEP.\n ---\n # Frete\n \n"
    );
    assert_eq!(diff[1].path, "assets/a.png");
    assert_eq!((diff[1].unified.as_deref(), diff[1].old_size, diff[1].new_size), (None, Some(2), Some(3)));
    assert_ne!(diff[1].old_sha256, diff[1].new_sha256);
}

#[test]
fn installing_a_catalog_skill_makes_a_local_copy_that_overrides_it() {
    let ws = Workspace::new();
    write_simple(&ws.catalog(), "devolucao", "Devolução de produtos");
    let library = ws.open();
    assert_eq!(library.summary("devolucao").unwrap().origin, Origin::Catalog);
    let version = library.install("devolucao").unwrap();
    assert_eq!(version.source, VersionSource::Catalog);
    assert_eq!(hashes(&ws.skills().join("devolucao")), hashes(&ws.catalog().join("devolucao")));
    assert_eq!(library.summary("devolucao").unwrap().origin, Origin::Overridden);
    let entry = &library.catalog()[0];
    assert!(entry.installed && !entry.overridden);
    let edited = library.edit("devolucao", "SKILL.md", &skill_md("devolucao", "Devolução (local)")).unwrap();
    assert_eq!(edited.forked_from, Some(version.id));
    assert!(library.catalog()[0].overridden);
}

#[test]
fn removing_an_override_brings_the_catalog_version_back() {
    let ws = Workspace::new();
    write_simple(&ws.catalog(), "devolucao", "Catalog text");
    write_simple(&ws.skills(), "devolucao", "Local text");
    let library = ws.open();
    let mut events = ws.events.subscribe();
    library.remove_override("devolucao").unwrap();
    assert!(!ws.skills().join("devolucao").exists());
    let summary = library.summary("devolucao").unwrap();
    assert_eq!((summary.origin, summary.description.as_str()), (Origin::Catalog, "Catalog text"));
    assert_eq!(drain(&mut events), [DomainEvent::SkillChanged { name: "devolucao".into() }]);
    assert_eq!(library.remove_override("devolucao").unwrap_err().code(), "skill_not_overridden");
}

#[test]
fn a_catalog_skill_that_disappears_while_overridden_leaves_the_local_copy_standalone() {
    let ws = Workspace::new();
    write_simple(&ws.catalog(), "devolucao", "Catalog text");
    write_simple(&ws.skills(), "devolucao", "Local text");
    let library = ws.open();
    fs::remove_dir_all(ws.catalog().join("devolucao")).unwrap();
    library.scan().unwrap();
    let summary = library.summary("devolucao").unwrap();
    assert_eq!((summary.origin, summary.description.as_str()), (Origin::Local, "Local text"));
}

#[test]
fn catalog_skills_are_read_only() {
    let ws = Workspace::new();
    write_simple(&ws.catalog(), "devolucao", "Catalog text");
    let library = ws.open();
    let err = library.edit("devolucao", "SKILL.md", &skill_md("devolucao", "changed")).unwrap_err();
    assert_eq!(err.code(), "skill_read_only");
    assert_eq!(library.delete("devolucao").unwrap_err().code(), "skill_read_only");
}

#[test]
fn create_writes_a_valid_skill_and_refuses_an_existing_name() {
    let ws = Workspace::new();
    let library = ws.open();
    let version = library.create("frete", "Frete: prazo e valor", "# Frete\n\nPergunte o CEP.\n").unwrap();
    assert_eq!(version.source, VersionSource::Edit);
    assert_eq!(
        fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(),
        "---\nname: frete\ndescription: 'Frete: prazo e valor'\n---\n# Frete\n\nPergunte o CEP.\n"
    );
    assert_eq!(library.summary("frete").unwrap().description, "Frete: prazo e valor");
    assert_eq!(library.create("frete", "again", "x").unwrap_err().code(), "skill_exists");
    assert_eq!(library.create("../escape", "x", "x").unwrap_err().code(), "skill_name_invalid");
}

#[test]
fn edit_replaces_a_file_and_records_an_edit_version() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    let version = library.edit("frete", "SKILL.md", FRETE_V2).unwrap();
    assert_eq!(fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(), FRETE_V2);
    assert_eq!(library.summary("frete").unwrap().live_version, Some(version.id));
}

#[test]
fn patch_replaces_the_one_occurrence() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    library.patch("frete", "SKILL.md", "por CEP.", "por CEP e peso.").unwrap();
    let text = fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap();
    assert!(text.contains("description: Calcula o frete por CEP e peso.\n"), "{text}");
}

#[test]
fn patch_with_no_match_is_refused_and_changes_nothing() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    let err = library.patch("frete", "SKILL.md", "boleto", "x").unwrap_err();
    assert_eq!(err.code(), "patch_no_match");
    assert_eq!(fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(), FRETE_V1);
}

#[test]
fn patch_with_two_matches_is_refused_and_says_how_many() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    let err = library.patch("frete", "SKILL.md", "frete", "envio").unwrap_err();
    assert_eq!(err.code(), "patch_ambiguous");
    assert_eq!(
        err.to_string(),
        "the text to replace occurs 2 times in `SKILL.md`; include more context so it occurs once"
    );
    assert_eq!(fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(), FRETE_V1);
}

#[test]
fn a_patch_that_breaks_the_frontmatter_is_refused_and_nothing_changes() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    let mut events = ws.events.subscribe();
    let err =
        library.patch("frete", "SKILL.md", "description: Calcula", "description: [Calcula").unwrap_err();
    assert_eq!(err.code(), "edit_refused");
    let skillcase_library::LibraryError::Refused { findings } = &err else { panic!("{err}") };
    assert!(findings.iter().all(|f| f.is_error() && f.file == "SKILL.md"), "{findings:?}");
    assert_eq!(fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(), FRETE_V1);
    assert_eq!(library.versions("frete").unwrap().len(), 1);
    assert!(drain(&mut events).is_empty());
}

#[test]
fn support_files_are_written_and_removed_under_support_folders_only() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    library.write_file("frete", "references/tabela.md", TABELA.as_bytes()).unwrap();
    assert_eq!(fs::read_to_string(ws.skills().join("frete/references/tabela.md")).unwrap(), TABELA);
    assert_eq!(library.write_file("frete", "../x.md", b"x").unwrap_err().code(), "skill_path_invalid");
    assert_eq!(library.write_file("frete", "SKILL.md", b"x").unwrap_err().code(), "skill_path_invalid");
    library.remove_file("frete", "references/tabela.md").unwrap();
    assert!(!ws.skills().join("frete/references/tabela.md").exists());
    assert_eq!(library.remove_file("frete", "references/tabela.md").unwrap_err().code(), "file_not_in_skill");
    assert_eq!(library.versions("frete").unwrap().len(), 2);
}

#[test]
fn an_edit_may_fix_one_error_while_another_remains() {
    let ws = Workspace::new();
    let broken = "---\nname: frete\ndescription: Frete\nlicense: [unclosed\n---\nbody\n";
    write_skill(&ws.skills(), "frete", &[("SKILL.md", broken)]);
    let library = ws.open();
    assert!(library.summary("frete").unwrap().validity.errors > 0);
    library.edit("frete", "SKILL.md", FRETE_V1).unwrap();
    assert_eq!(library.summary("frete").unwrap().validity.errors, 0);
}

#[test]
fn preview_edit_validates_without_writing() {
    let ws = Workspace::new();
    write_skill(&ws.skills(), "frete", &[("SKILL.md", FRETE_V1)]);
    let library = ws.open();
    let findings = library.preview_edit("frete", "SKILL.md", "---\nname: frete\n---\n").unwrap();
    assert!(findings.iter().any(|f| f.code == "description_missing"), "{findings:?}");
    assert_eq!(fs::read_to_string(ws.skills().join("frete/SKILL.md")).unwrap(), FRETE_V1);
}

#[test]
fn delete_removes_the_folder_and_the_skill() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Frete");
    let library = ws.open();
    let mut events = ws.events.subscribe();
    library.delete("frete").unwrap();
    assert!(!ws.skills().join("frete").exists());
    assert!(names(&library).is_empty());
    assert_eq!(drain(&mut events), [DomainEvent::SkillRemoved { name: "frete".into() }]);
    assert_eq!(library.delete("frete").unwrap_err().code(), "skill_not_found");
}

#[test]
fn unreferenced_blobs_are_collected_only_on_request() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Frete");
    let library = ws.open();
    let orphan = ws.data().join("blobs/ab").join(format!("ab{}", "0".repeat(62)));
    fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    fs::write(&orphan, "orphan").unwrap();
    library.scan().unwrap();
    assert!(orphan.exists());
    let report = library.gc_blobs().unwrap();
    assert_eq!((report.kept, report.removed, report.freed_bytes), (1, 1, 6));
    assert!(!orphan.exists());
}
