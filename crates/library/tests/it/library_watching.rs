//! The library fed by the real watcher (SPEC A9): what happens in the skills directory — a new
//! folder, an edit, a rename, a deletion, an unzip of 200 skills — ends as exactly the versions
//! and listing it should, with nothing missed and nothing recorded twice.
//!
//! Deadlines are generous (the machine is shared); these test behaviour, not latency, which the
//! `watch` bench measures.

use crate::support;

use std::fs;
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use skillcase_library::types::VersionSource;
use skillcase_library::watch::{SkillsWatcher, WatchOptions};
use skillcase_library::{watching, Library};
use skillcase_testkit::skills::{skill_md, write_simple};
use skillcase_testkit::zips::zip_of;
use support::{names, Workspace};

const DEADLINE: Duration = Duration::from_secs(10);

fn watched(workspace: &Workspace) -> (Arc<Library>, SkillsWatcher) {
    let library = workspace.open();
    let watcher = watching::watch(&library, WatchOptions::default()).unwrap();
    (library, watcher)
}

/// Waits until `done` holds for the library, or fails with `what`.
fn until(library: &Library, what: &str, done: impl Fn(&Library) -> bool) {
    let start = Instant::now();
    while !done(library) {
        assert!(start.elapsed() < DEADLINE, "timed out waiting for {what}");
        sleep(Duration::from_millis(50));
    }
}

fn sources(library: &Library, name: &str) -> Vec<VersionSource> {
    library.versions(name).unwrap().into_iter().map(|v| v.source).collect()
}

#[test]
fn a_new_folder_becomes_a_listed_skill_with_one_watch_version() {
    let workspace = Workspace::new();
    let (library, _watcher) = watched(&workspace);

    write_simple(&workspace.skills(), "frete", "Shipping rules.");

    until(&library, "frete to be listed", |l| names(l) == ["frete"]);
    assert_eq!(sources(&library, "frete"), [VersionSource::Watch]);
}

#[test]
fn an_edit_records_a_second_version_and_the_new_text_is_live() {
    let workspace = Workspace::new();
    write_simple(&workspace.skills(), "frete", "Old rules.");
    let (library, _watcher) = watched(&workspace);
    assert_eq!(library.versions("frete").unwrap().len(), 1);

    fs::write(workspace.skills().join("frete/SKILL.md"), skill_md("frete", "New rules.")).unwrap();

    until(&library, "the new text to be live", |l| l.summary("frete").unwrap().description == "New rules.");
    assert_eq!(sources(&library, "frete"), [VersionSource::Watch, VersionSource::Watch]);
}

#[test]
fn a_renamed_folder_leaves_the_old_name_and_lists_the_new_one() {
    let workspace = Workspace::new();
    write_simple(&workspace.skills(), "frete", "Shipping rules.");
    let (library, _watcher) = watched(&workspace);

    fs::rename(workspace.skills().join("frete"), workspace.skills().join("entrega")).unwrap();

    until(&library, "the rename to show", |l| names(l) == ["entrega"]);
    let entrega = library.summary("entrega").unwrap();
    assert!(entrega.validity.errors > 0, "the name inside no longer matches the folder");
}

#[test]
fn a_deleted_folder_leaves_the_list_but_keeps_its_versions_for_restore() {
    let workspace = Workspace::new();
    write_simple(&workspace.skills(), "frete", "Shipping rules.");
    write_simple(&workspace.skills(), "boleto", "Billing.");
    let (library, _watcher) = watched(&workspace);

    fs::remove_dir_all(workspace.skills().join("frete")).unwrap();

    until(&library, "frete to leave the list", |l| names(l) == ["boleto"]);
    assert!(library.summary("frete").is_err());
    assert_eq!(library.versions("frete").unwrap().len(), 1, "its history stays for a restore");
}

#[test]
fn an_unzip_of_200_skills_records_exactly_one_version_per_skill() {
    let workspace = Workspace::new();
    let (library, _watcher) = watched(&workspace);
    let skill_names: Vec<String> = (0..200).map(|i| format!("skill-{i:03}")).collect();
    let files: Vec<(String, Vec<u8>)> = skill_names
        .iter()
        .flat_map(|name| {
            [
                (format!("{name}/SKILL.md"), skill_md(name, "Unzipped.").into_bytes()),
                (format!("{name}/references/guia.md"), format!("# Guia de {name}\n").into_bytes()),
            ]
        })
        .collect();
    let entries: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();

    zip::ZipArchive::new(std::io::Cursor::new(zip_of(&entries)))
        .unwrap()
        .extract(workspace.skills())
        .unwrap();

    until(&library, "all 200 skills", |l| l.list(&Default::default()).total == 200);
    sleep(Duration::from_secs(1));
    for name in &skill_names {
        let versions = library.versions(name).unwrap();
        assert_eq!(versions.len(), 1, "{name}: one version, no duplicates");
        assert_eq!(versions[0].files, 2, "{name}: recorded complete, both files");
    }
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_reported_on_its_skill_and_a_new_skill_elsewhere_still_appears() {
    use skillcase_common::events::DomainEvent;
    use std::os::unix::fs::PermissionsExt;
    skillcase_testkit::hostile::as_unprivileged(
        "library_watching::an_unreadable_folder_is_reported_on_its_skill_and_a_new_skill_elsewhere_still_appears",
        || {
            let workspace = Workspace::new();
            write_simple(&workspace.skills(), "frete", "Shipping rules.");
            write_simple(&workspace.skills(), "troca", "Exchange rules.");
            let private = workspace.skills().join("frete/private");
            fs::create_dir(&private).unwrap();
            fs::set_permissions(&private, fs::Permissions::from_mode(0o000)).unwrap();
            let mut events = workspace.events.subscribe();
            let library = workspace.open();
            let options =
                WatchOptions { rescan_unwatched: Duration::from_millis(300), ..WatchOptions::default() };
            let _watcher = watching::watch(&library, options).unwrap();

            let findings = library.findings("frete").unwrap();
            let located: Vec<(&str, &str)> =
                findings.iter().map(|f| (f.code.as_str(), f.file.as_str())).collect();
            assert_eq!(located, [("io_error", "private")], "the skill says which folder it cannot read");
            until(&library, "the watcher's note", |l| {
                l.watch_note().is_some_and(|n| n.contains("frete/private"))
            });
            let status = support::drain(&mut events).into_iter().find_map(|e| match e {
                DomainEvent::SkillsDirStatus { available: true, message: Some(message) } => Some(message),
                _ => None,
            });
            assert!(status.is_some_and(|m| m.contains("frete/private")), "the UI is told");

            write_simple(&workspace.skills(), "novo", "New rules.");
            until(&library, "novo to be listed", |l| names(l) == ["frete", "novo", "troca"]);

            fs::set_permissions(&private, fs::Permissions::from_mode(0o755)).unwrap();
            until(&library, "frete to be valid again", |l| l.summary("frete").unwrap().validity.errors == 0);
            until(&library, "the note to clear", |l| l.watch_note().is_none());
        },
    );
}
