//! The library's scan of the skills directory and catalog (SPEC A9): listing, validity,
//! versions recorded for what is on disk, origins, and an unavailable directory.

use crate::support;

use std::fs;

use skillcase_common::events::DomainEvent;
use skillcase_library::{Library, Origin, SkillQuery, Source, ValidityFilter, VersionSource};
use skillcase_skill::disclosure::IndexFormat;
use skillcase_testkit::skills::{skill_md, write_simple, write_skill};
use support::{drain, names, Workspace};

#[test]
fn a_scan_lists_every_skill_folder_with_its_validity() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    write_skill(&ws.skills(), "broken", &[("SKILL.md", "---\nname: Broken\n---\n")]);
    fs::create_dir_all(ws.skills().join("no-skill-md")).unwrap();
    let library = ws.open();
    let page = library.list(&SkillQuery::default());
    assert_eq!(page.total, 2);
    let by_name: Vec<(String, u32)> =
        page.items.iter().map(|s| (s.name.clone(), s.validity.errors)).collect();
    assert_eq!(by_name[1], ("frete".to_string(), 0));
    assert_eq!(by_name[0].0, "broken");
    assert!(by_name[0].1 > 0);
}

#[test]
fn the_first_scan_records_one_watch_version_per_folder_and_a_rescan_reads_nothing() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    let library = Library::open(ws.options()).unwrap();
    let first = library.scan().unwrap();
    assert_eq!((first.local, first.read, first.recorded), (1, 1, 1));
    let versions = library.versions("frete").unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(versions[0].source, VersionSource::Watch);
    assert!(versions[0].live);
    let again = library.scan().unwrap();
    assert_eq!((again.read, again.recorded), (0, 0));
}

#[test]
fn the_first_phase_lists_the_skills_before_any_version_is_recorded() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    let library = Library::open(ws.options()).unwrap();
    let _first = library.list_first().unwrap();
    let summary = library.summary("frete").unwrap();
    assert_eq!(summary.description, "Calcula o frete");
    assert_eq!(summary.live_version, None);
    assert!(library.versions("frete").unwrap().is_empty());
}

#[test]
fn the_first_phase_says_the_list_is_complete_so_a_window_reads_it_at_once() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    write_simple(&ws.skills(), "boleto", "Segunda via de boleto");
    let library = Library::open(ws.options()).unwrap();
    let mut events = ws.events.subscribe();
    let _first = library.list_first().unwrap();
    let progress: Vec<DomainEvent> = drain(&mut events);
    assert_eq!(progress, [DomainEvent::ScanProgress { done: 2, total: 2 }]);
}

#[test]
fn a_folder_added_between_the_two_phases_is_listed_and_recorded_by_the_second() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    let library = Library::open(ws.options()).unwrap();
    let first = library.list_first().unwrap();
    write_simple(&ws.skills(), "boleto", "Segunda via de boleto");
    let report = library.finish_scan(first).unwrap();
    assert_eq!((report.local, report.read, report.recorded), (2, 2, 2));
    assert_eq!(names(&library), ["boleto", "frete"]);
    assert_eq!(library.versions("boleto").unwrap().len(), 1);
}

#[test]
fn a_folder_changed_between_the_two_phases_is_listed_as_the_second_read_it() {
    let ws = Workspace::new();
    let dir = write_simple(&ws.skills(), "frete", "Calcula o frete");
    ws.open();
    let library = Library::open(ws.options()).unwrap();
    let first = library.list_first().unwrap();
    fs::write(dir.join("SKILL.md"), skill_md("frete", "Calcula o frete e o prazo de entrega")).unwrap();
    library.finish_scan(first).unwrap();
    assert_eq!(library.summary("frete").unwrap().description, "Calcula o frete e o prazo de entrega");
    assert_eq!(library.versions("frete").unwrap().len(), 2);
}

#[test]
fn a_folder_removed_between_the_two_phases_leaves_the_list() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    let gone = write_simple(&ws.skills(), "boleto", "Segunda via de boleto");
    let library = Library::open(ws.options()).unwrap();
    let first = library.list_first().unwrap();
    fs::remove_dir_all(gone).unwrap();
    library.finish_scan(first).unwrap();
    assert_eq!(names(&library), ["frete"]);
}

#[test]
fn a_folder_changed_while_closed_gets_a_new_version_when_reopened() {
    let ws = Workspace::new();
    let dir = write_simple(&ws.skills(), "frete", "Calcula o frete");
    let v1 = ws.open().summary("frete").unwrap().live_version.unwrap();
    fs::write(dir.join("SKILL.md"), skill_md("frete", "Calcula o frete e o prazo")).unwrap();
    let reopened = ws.open();
    let summary = reopened.summary("frete").unwrap();
    assert_ne!(summary.live_version, Some(v1));
    assert_eq!(summary.description, "Calcula o frete e o prazo");
    assert_eq!(reopened.versions("frete").unwrap().len(), 2);
}

#[test]
fn the_same_content_never_makes_two_versions() {
    let ws = Workspace::new();
    let dir = write_simple(&ws.skills(), "frete", "Calcula o frete");
    let library = ws.open();
    let v1 = library.summary("frete").unwrap().live_version;
    fs::write(dir.join("SKILL.md"), skill_md("frete", "Outra")).unwrap();
    library.sync_skill("frete", Source::Watch).unwrap();
    fs::write(dir.join("SKILL.md"), skill_md("frete", "Calcula o frete")).unwrap();
    library.sync_skill("frete", Source::Watch).unwrap();
    assert_eq!(library.summary("frete").unwrap().live_version, v1);
    assert_eq!(library.versions("frete").unwrap().len(), 2);
}

#[test]
fn the_list_filters_by_text_origin_validity_and_pages() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete de um pedido");
    write_simple(&ws.skills(), "boleto", "Segunda via de boleto");
    write_skill(&ws.skills(), "quebrado", &[("SKILL.md", "sem frontmatter")]);
    write_simple(&ws.catalog(), "devolucao", "Política de devolução");
    let library = ws.open();
    let text = library.list(&SkillQuery { text: Some("FRETE pedi".into()), ..Default::default() });
    assert_eq!(text.items.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["frete"]);
    let catalog = library.list(&SkillQuery { origin: Some(Origin::Catalog), ..Default::default() });
    assert_eq!(catalog.items.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["devolucao"]);
    let invalid = library.list(&SkillQuery { validity: Some(ValidityFilter::Invalid), ..Default::default() });
    assert_eq!(invalid.items.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["quebrado"]);
    let page = library.list(&SkillQuery { offset: Some(1), limit: Some(2), ..Default::default() });
    assert_eq!(page.total, 4);
    assert_eq!(page.items.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["devolucao", "frete"]);
}

#[test]
fn a_local_skill_with_a_catalog_name_overrides_it() {
    let ws = Workspace::new();
    write_simple(&ws.catalog(), "frete", "Catalog frete");
    write_simple(&ws.skills(), "frete", "Local frete");
    let library = ws.open();
    let summary = library.summary("frete").unwrap();
    assert_eq!(summary.origin, Origin::Overridden);
    assert_eq!(summary.description, "Local frete");
    assert_eq!(names(&library), ["frete"]);
}

#[test]
fn a_catalog_that_is_the_skills_directory_lists_each_skill_once_as_local() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    let mut options = ws.options();
    options.catalog_dir = Some(ws.skills());
    let library = Library::open(options).unwrap();
    library.scan().unwrap();
    let page = library.list(&SkillQuery::default());
    assert_eq!(page.total, 1);
    assert_eq!(page.items[0].origin, Origin::Local);
    assert!(library.catalog_dir().is_none());
}

#[test]
fn the_index_serves_only_valid_visible_skills() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    write_skill(&ws.skills(), "broken", &[("SKILL.md", "---\nname: broken\n---\n")]);
    let library = ws.open();
    let index = library.index(IndexFormat::Agentskills, 8000);
    assert!(index.text.contains("<name>\nfrete\n</name>"), "{}", index.text);
    assert!(!index.text.contains("broken"));
}

#[test]
fn a_changed_folder_is_resynced_alone_with_one_event() {
    let ws = Workspace::new();
    let dir = write_simple(&ws.skills(), "frete", "Calcula o frete");
    write_simple(&ws.skills(), "boleto", "Segunda via");
    let library = ws.open();
    let mut events = ws.events.subscribe();
    fs::write(dir.join("SKILL.md"), "---\nname: frete\n---\nno description\n").unwrap();
    library.sync_skill("frete", Source::Watch).unwrap();
    assert_eq!(drain(&mut events), [DomainEvent::SkillChanged { name: "frete".into() }]);
    assert!(library.summary("frete").unwrap().validity.errors > 0);
    fs::remove_dir_all(&dir).unwrap();
    library.sync_skill("frete", Source::Watch).unwrap();
    assert_eq!(drain(&mut events), [DomainEvent::SkillRemoved { name: "frete".into() }]);
    assert_eq!(names(&library), ["boleto"]);
}

#[test]
fn an_unavailable_skills_directory_is_reported_and_recovers() {
    let ws = Workspace::new();
    write_simple(&ws.skills(), "frete", "Calcula o frete");
    write_simple(&ws.catalog(), "devolucao", "Devolução");
    let library = ws.open();
    let mut events = ws.events.subscribe();
    let moved = ws.root.path().join("moved");
    fs::rename(ws.skills(), &moved).unwrap();
    let report = library.scan().unwrap();
    assert!(report.unavailable.is_some());
    assert!(library.unavailable().is_some());
    assert_eq!(names(&library), ["devolucao"]);
    fs::rename(&moved, ws.skills()).unwrap();
    library.scan().unwrap();
    assert_eq!(names(&library), ["devolucao", "frete"]);
    let statuses: Vec<bool> = drain(&mut events)
        .into_iter()
        .filter_map(|e| match e {
            DomainEvent::SkillsDirStatus { available, .. } => Some(available),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, [false, true]);
}

#[test]
fn a_large_directory_announces_scan_progress() {
    let ws = Workspace::new();
    for i in 0..250 {
        write_simple(&ws.skills(), &format!("skill-{i:03}"), "Generated");
    }
    let mut events = ws.events.subscribe();
    let library = ws.open();
    assert_eq!(library.list(&SkillQuery::default()).total, 250);
    let progress: Vec<(u32, u32)> = drain(&mut events)
        .into_iter()
        .filter_map(|e| match e {
            DomainEvent::ScanProgress { done, total } => Some((done, total)),
            _ => None,
        })
        .collect();
    assert_eq!(progress.last(), Some(&(250, 250)));
}

#[test]
fn old_staging_leftovers_beside_the_skills_directory_are_swept_by_a_scan() {
    let ws = Workspace::new();
    let old = ws.root.path().join(".skillcase-staging-killed");
    let fresh = ws.root.path().join(".skillcase-staging-running");
    for dir in [&old, &fresh] {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("SKILL.md"), "half").unwrap();
    }
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::open(&old).unwrap().set_modified(an_hour_ago).unwrap();
    ws.open();
    assert!(!old.exists());
    assert!(fresh.exists());
}

#[test]
fn the_detail_has_the_manifest_the_findings_and_the_live_version() {
    let ws = Workspace::new();
    write_skill(
        &ws.skills(),
        "frete",
        &[("SKILL.md", &skill_md("frete", "Calcula o frete")), ("references/tabela.md", "| CEP |\n")],
    );
    write_simple(&ws.catalog(), "devolucao", "Devolução");
    let library = ws.open();
    let detail = library.detail("frete").unwrap();
    let manifest: Vec<(&str, u64)> = detail.manifest.iter().map(|m| (m.path.as_str(), m.size)).collect();
    assert_eq!(manifest, [("SKILL.md", 75), ("references/tabela.md", 8)]);
    assert_eq!(detail.manifest[1].sha256.len(), 64);
    assert!(detail.findings.iter().all(|f| !f.is_error()), "{:?}", detail.findings);
    let live = detail.live_version.unwrap();
    assert_eq!((live.files, live.source, live.live), (2, VersionSource::Watch, true));
    assert!(detail.editable);
    assert!(!library.detail("devolucao").unwrap().editable);
    assert_eq!(library.detail("nope").unwrap_err().to_string(), "no skill named `nope` in the library");
}
