//! SPEC A8, the accepted side: the layouts a skill zip may have, junk dropped, scripts under
//! `allow_executable`, and the on-disk half — staging, fixed permissions, atomic replacement and
//! a staging folder that leaves no trace when dropped.

use std::fs;
use std::path::Path;

use skillcase_library::archive::{self, inspect_bytes};
use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::policy::Policy;
use skillcase_testkit::zips::*;

fn paths(package: &Package) -> Vec<&str> {
    package.files.iter().map(|f| f.path.as_str()).collect()
}

fn entries_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn skill_md_at_the_root_is_accepted() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/tabela.md", b"# Tabela")]);
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    assert_eq!(package.folder_name, None);
    assert_eq!(paths(&package), ["SKILL.md", "references/tabela.md"]);
    assert_eq!(package.file("references/tabela.md").unwrap().bytes, b"# Tabela");
}

#[test]
fn one_top_folder_holding_skill_md_is_accepted_and_named() {
    let zip = zip_of(&[("frete/references/tabela.md", b"# Tabela"), ("frete/SKILL.md", SKILL_MD)]);
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    assert_eq!(package.folder_name.as_deref(), Some("frete"));
    assert_eq!(paths(&package), ["SKILL.md", "references/tabela.md"]);
}

#[test]
fn os_junk_is_dropped() {
    let zip = zip_of(&[
        ("frete/SKILL.md", SKILL_MD),
        ("frete/.DS_Store", b"\0\0\0\x01Bud1"),
        ("__MACOSX/frete/._SKILL.md", b"\0\x05\x16\x07"),
        ("frete/references/Thumbs.db", b"junk"),
        ("frete/references/tabela.md", b"# Tabela"),
    ]);
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    assert_eq!(package.folder_name.as_deref(), Some("frete"));
    assert_eq!(paths(&package), ["SKILL.md", "references/tabela.md"]);
}

#[test]
fn scripts_are_accepted_when_allow_executable_is_on() {
    let zip =
        zip_of(&[("SKILL.md", SKILL_MD), ("scripts/run.py", b"#!/usr/bin/env python3\nprint('frete')\n")]);
    let policy = Policy { allow_executable: true, ..Policy::default() };
    let package = inspect_bytes(&zip, &policy).unwrap();
    assert_eq!(paths(&package), ["SKILL.md", "scripts/run.py"]);
}

#[test]
fn an_archive_comment_is_tolerated() {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer.set_comment("exported by a CMS").unwrap();
    writer.start_file("SKILL.md", deflated()).unwrap();
    std::io::Write::write_all(&mut writer, SKILL_MD).unwrap();
    let zip = writer.finish().unwrap().into_inner();
    assert_eq!(paths(&inspect_bytes(&zip, &Policy::default()).unwrap()), ["SKILL.md"]);
}

#[test]
fn a_zip64_end_record_is_followed() {
    let zip = with_zip64_end(&zip_of(&[("SKILL.md", SKILL_MD), ("references/tabela.md", b"# Tabela")]));
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    assert_eq!(paths(&package), ["SKILL.md", "references/tabela.md"]);
}

#[test]
fn each_file_carries_the_sha256_of_its_bytes() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/abc.md", b"abc")]);
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    assert_eq!(
        package.file("references/abc.md").unwrap().sha256,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn staged_folder_holds_the_package_byte_for_byte() {
    let zip = zip_of(&[
        ("SKILL.md", SKILL_MD),
        ("references/tabela.md", b"# Tabela\nSP: 10\n"),
        ("assets/logo.svg", b"<svg/>"),
    ]);
    let package = inspect_bytes(&zip, &Policy::default()).unwrap();
    let parent = tempfile::tempdir().unwrap();
    let staged = archive::stage(&package, parent.path()).unwrap();
    for file in &package.files {
        assert_eq!(fs::read(staged.path().join(&file.path)).unwrap(), file.bytes, "{}", file.path);
    }
    assert_eq!(entries_in(&staged.path()), ["SKILL.md", "assets", "references"]);
}

#[cfg(unix)]
#[test]
fn written_files_are_0644_and_folders_0755_whatever_the_archive_said() {
    use std::os::unix::fs::PermissionsExt;
    let mut zip = zip_with([
        ("SKILL.md", SKILL_MD, deflated().unix_permissions(0o777)),
        ("references/tabela.md", b"# Tabela".as_slice(), deflated().unix_permissions(0o777)),
    ]);
    let setuid_rwx = 0o104_777 << 16;
    let record = central_record(&zip, b"SKILL.md");
    write_u32(&mut zip, record + 38, setuid_rwx);
    let policy = Policy { allow_executable: true, ..Policy::default() };
    let package = inspect_bytes(&zip, &policy).unwrap();
    assert_eq!(package.file("SKILL.md").unwrap().unix_mode, Some(0o4777));
    let parent = tempfile::tempdir().unwrap();
    let staged = archive::stage(&package, parent.path()).unwrap();
    let mode = |p: &str| fs::metadata(staged.path().join(p)).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode("SKILL.md"), 0o644);
    assert_eq!(mode("references/tabela.md"), 0o644);
    assert_eq!(mode("references"), 0o755);
}

#[test]
fn a_dropped_staging_folder_leaves_no_trace() {
    let package =
        Package { folder_name: None, files: vec![PackageFile::new("SKILL.md", SKILL_MD.to_vec(), None)] };
    let parent = tempfile::tempdir().unwrap();
    let staged = archive::stage(&package, parent.path()).unwrap();
    assert!(staged.path().join("SKILL.md").is_file());
    drop(staged);
    assert!(entries_in(parent.path()).is_empty());
}

#[test]
fn install_moves_the_staged_folder_into_place() {
    let package =
        Package { folder_name: None, files: vec![PackageFile::new("SKILL.md", SKILL_MD.to_vec(), None)] };
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    let staged = archive::stage(&package, root.path()).unwrap();
    archive::install(staged, &skills.join("frete")).unwrap();
    assert_eq!(fs::read(skills.join("frete/SKILL.md")).unwrap(), SKILL_MD);
    assert_eq!(entries_in(root.path()), ["skills"]);
}

#[test]
fn install_replaces_an_existing_folder_whole() {
    let root = tempfile::tempdir().unwrap();
    let target = root.path().join("skills/frete");
    fs::create_dir_all(target.join("references")).unwrap();
    fs::write(target.join("SKILL.md"), "old").unwrap();
    fs::write(target.join("references/old-only.md"), "old").unwrap();
    let package =
        Package { folder_name: None, files: vec![PackageFile::new("SKILL.md", b"new".to_vec(), None)] };
    let staged = archive::stage(&package, root.path()).unwrap();
    archive::install(staged, &target).unwrap();
    assert_eq!(entries_in(&target), ["SKILL.md"]);
    assert_eq!(fs::read_to_string(target.join("SKILL.md")).unwrap(), "new");
    assert_eq!(entries_in(root.path()), ["skills"]);
}

#[test]
fn a_failed_install_puts_the_old_folder_back() {
    let root = tempfile::tempdir().unwrap();
    let target = root.path().join("skills/frete");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("SKILL.md"), "old").unwrap();
    let package =
        Package { folder_name: None, files: vec![PackageFile::new("SKILL.md", b"new".to_vec(), None)] };
    let staged = archive::stage(&package, root.path()).unwrap();
    fs::remove_dir_all(staged.path()).unwrap();
    let err = archive::install(staged, &target).unwrap_err();
    assert_eq!(skillcase_common::error::Coded::code(&err), "install_failed");
    assert_eq!(fs::read_to_string(target.join("SKILL.md")).unwrap(), "old");
    assert_eq!(entries_in(root.path()), ["skills"]);
}

/// A library over `skills`, its database and blobs in a folder of their own.
fn library_at(skills: &Path) -> (tempfile::TempDir, Library) {
    let data = tempfile::tempdir().unwrap();
    let library =
        Library::open(LibraryOptions::in_data_dir(data.path(), skills.to_path_buf(), None)).unwrap();
    library.scan().unwrap();
    (data, library)
}

#[test]
fn importing_a_zip_installs_it_under_its_frontmatter_name() {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    let zip = zip_of(&[("frete/SKILL.md", SKILL_MD), ("frete/references/tabela.md", b"# Tabela")]);
    let (_data, library) = library_at(&skills);
    let imported = library.import_zip(&zip, false).unwrap();
    assert_eq!(imported.name.as_deref(), Some("frete"));
    assert!(imported.installed && !imported.replaced);
    assert_eq!(fs::read(skills.join("frete/references/tabela.md")).unwrap(), b"# Tabela");
    assert_eq!(entries_in(root.path()), ["skills"]);
}

#[test]
fn a_dry_run_import_checks_everything_and_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    let zip = zip_of(&[("SKILL.md", SKILL_MD)]);
    let (_data, library) = library_at(&skills);
    let imported = library.import_zip(&zip, true).unwrap();
    assert_eq!((imported.name.as_deref(), imported.installed), (Some("frete"), false));
    assert!(entries_in(root.path()).is_empty());
}

#[test]
fn a_zip_that_fails_validation_is_refused_with_the_validator_findings() {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    let zip = zip_of(&[("SKILL.md", "---\nname: Frete Grátis\n---\nbody\n".as_bytes())]);
    let (_data, library) = library_at(&skills);
    let report = library.import_zip(&zip, false).unwrap();
    assert_eq!(report.refused.as_deref(), Some("import_refused"));
    assert!(report.findings.iter().any(|f| f.file == "SKILL.md" && f.is_error()), "{:?}", report.findings);
    assert!(entries_in(root.path()).is_empty());
}
