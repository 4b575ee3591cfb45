//! SPEC A8: every malicious or malformed zip is refused with its own code, before anything is
//! written. Each archive is built inside its test, with the `zip` writer and, where the writer
//! would not produce the attack, by editing the header bytes afterwards.

use std::fs;
use std::io::{Cursor, Write};
use std::path::Path;

use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::archive::{self, codes};
use skillcase_skill::policy::Policy;
use skillcase_testkit::zips::*;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

/// Imports `bytes` into a fresh workspace and returns the refusal codes, after checking that
/// the workspace (skills folder and its parent, where staging happens) is exactly as before.
fn refusal(bytes: &[u8], policy: &Policy) -> Vec<String> {
    let workspace = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let skills = workspace.path().join("skills");
    fs::create_dir(&skills).unwrap();
    let mut options = LibraryOptions::in_data_dir(data.path(), skills, None);
    options.policy = policy.clone();
    let library = Library::open(options).unwrap();
    library.scan().unwrap();
    let report = library.import_zip(bytes, false).expect("a refusal is a report, not a failure");
    assert_eq!(listing(workspace.path()), vec!["skills".to_string()], "the import wrote something");
    assert!(report.refused.is_some(), "expected a refusal, got {report:?}");
    report.findings.into_iter().filter(|f| f.is_error()).map(|f| f.code).collect()
}

fn refused(bytes: &[u8]) -> Vec<String> {
    refusal(bytes, &Policy::default())
}

/// Every path under `dir`, relative, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in fs::read_dir(&current).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn dot_dot_traversal_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("xx/evil.md", b"pwned")]);
    rename_entry(&mut zip, b"xx/evil.md", b"../evil.md");
    assert_eq!(refused(&zip), [codes::PATH_TRAVERSAL]);
}

#[test]
fn absolute_path_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("xetc/evil.md", b"pwned")]);
    rename_entry(&mut zip, b"xetc/evil.md", b"/etc/evil.md");
    assert_eq!(refused(&zip), [codes::ABSOLUTE_PATH]);
}

#[test]
fn windows_drive_path_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("xx/evil.md", b"pwned")]);
    rename_entry(&mut zip, b"xx/evil.md", b"C:/evil.md");
    assert_eq!(refused(&zip), [codes::DRIVE_PATH]);
}

#[test]
fn backslash_path_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
    rename_entry(&mut zip, b"references/a.md", b"references\\a.md");
    assert_eq!(refused(&zip), [codes::BACKSLASH_PATH]);
}

#[test]
fn symlink_entry_is_refused() {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    writer.start_file("SKILL.md", deflated()).unwrap();
    writer.write_all(SKILL_MD).unwrap();
    writer.add_symlink("references/passwd.md", "/etc/passwd", SimpleFileOptions::default()).unwrap();
    let zip = writer.finish().unwrap().into_inner();
    assert_eq!(refused(&zip), [codes::SYMLINK]);
}

#[test]
fn duplicate_name_is_refused() {
    let mut zip =
        zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"first"), ("references/b.md", b"second")]);
    rename_entry(&mut zip, b"references/b.md", b"references/a.md");
    assert_eq!(refused(&zip), [codes::DUPLICATE_NAME]);
}

#[test]
fn names_differing_only_in_case_are_refused() {
    let zip =
        zip_of(&[("SKILL.md", SKILL_MD), ("references/Tabela.md", b"one"), ("references/tabela.md", b"two")]);
    assert_eq!(refused(&zip), [codes::CASE_COLLISION]);
}

#[test]
fn one_folder_spelled_two_ways_is_a_case_collision() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"a"), ("References/b.md", b"b")]);
    assert_eq!(refused(&zip), [codes::CASE_COLLISION]);
}

/// Windows drops trailing dots and spaces from a file name, so each pair is one file there.
#[test]
fn names_differing_only_in_trailing_dots_or_spaces_are_refused_as_collisions() {
    for twin in ["references/a.md.", "references/a.md ", "references/a.md. ."] {
        let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"one"), (twin, b"two")]);
        assert_eq!(refused(&zip), [codes::CASE_COLLISION], "{twin:?}");
    }
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"a"), ("references./b.md", b"b")]);
    assert_eq!(refused(&zip), [codes::CASE_COLLISION], "a folder with a trailing dot");
}

#[test]
fn nul_in_a_name_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/aXb.md", b"x")]);
    rename_entry(&mut zip, b"references/aXb.md", b"references/a\0b.md");
    assert_eq!(refused(&zip), [codes::NUL_IN_NAME]);
}

#[test]
fn over_long_name_is_refused() {
    let long = format!("references/{}.md", "a".repeat(300));
    let zip = zip_of(&[("SKILL.md", SKILL_MD), (&long, b"x")]);
    assert_eq!(refused(&zip), [codes::NAME_TOO_LONG]);
}

#[test]
fn more_files_than_the_limit_are_refused() {
    let names: Vec<String> = (0..64).map(|i| format!("references/{i:02}.md")).collect();
    let mut entries: Vec<(&str, &[u8])> = vec![("SKILL.md", SKILL_MD)];
    entries.extend(names.iter().map(|n| (n.as_str(), b"# note".as_slice())));
    assert_eq!(entries.len(), 65);
    assert_eq!(refused(&zip_of(&entries)), [codes::TOO_MANY_FILES]);
}

#[test]
fn one_file_over_one_megabyte_is_refused() {
    let big = vec![b'x'; 1024 * 1024 + 1];
    let zip = zip_with([("SKILL.md", SKILL_MD, deflated()), ("assets/big.txt", big.as_slice(), stored())]);
    assert_eq!(refused(&zip), [codes::FILE_TOO_LARGE]);
}

#[test]
fn total_over_five_megabytes_is_refused() {
    let part = vec![b'x'; 900 * 1024];
    let names: Vec<String> = (0..6).map(|i| format!("assets/part{i}.txt")).collect();
    let mut entries = vec![("SKILL.md", SKILL_MD, deflated())];
    entries.extend(names.iter().map(|n| (n.as_str(), part.as_slice(), stored())));
    assert_eq!(refused(&zip_with(entries)), [codes::TOTAL_TOO_LARGE]);
}

#[test]
fn declared_size_smaller_than_the_data_is_caught_while_streaming() {
    let text = "linha de tabela de frete\n".repeat(400);
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/tabela.md", text.as_bytes())]);
    let local = local_header(&zip, b"references/tabela.md");
    let central = central_record(&zip, b"references/tabela.md");
    write_u32(&mut zip, local + 22, 100);
    write_u32(&mut zip, central + 24, 100);
    assert_eq!(refused(&zip), [codes::SIZE_MISMATCH]);
}

#[test]
fn classic_deflate_bomb_is_refused_from_its_header() {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    writer.start_file("SKILL.md", deflated()).unwrap();
    writer.write_all(SKILL_MD).unwrap();
    writer.start_file("references/zeros.md", deflated().large_file(true).compression_level(Some(9))).unwrap();
    let zeros = vec![0u8; 1024 * 1024];
    for _ in 0..1024 {
        writer.write_all(&zeros).unwrap();
    }
    let zip = writer.finish().unwrap().into_inner();
    assert!(zip.len() < 2 * 1024 * 1024, "1 GiB of zeros compresses to {} bytes", zip.len());
    assert_eq!(refused(&zip), [codes::BOMB]);
}

#[test]
fn overlapping_entries_bomb_is_refused() {
    let kernel = "frete ".repeat(10_000);
    let mut zip = zip_of(&[
        ("SKILL.md", SKILL_MD),
        ("references/a.md", kernel.as_bytes()),
        ("references/b.md", kernel.as_bytes()),
    ]);
    let shared = read_u32(&zip, central_record(&zip, b"references/a.md") + 42);
    let b = central_record(&zip, b"references/b.md");
    write_u32(&mut zip, b + 42, shared);
    assert_eq!(refused(&zip), [codes::OVERLAPPING_ENTRIES]);
}

#[test]
fn encrypted_entry_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/secret.md", b"segredo")]);
    let local = local_header(&zip, b"references/secret.md");
    let central = central_record(&zip, b"references/secret.md");
    write_u16(&mut zip, local + 6, 0x0001);
    write_u16(&mut zip, central + 8, 0x0001);
    assert_eq!(refused(&zip), [codes::ENCRYPTED]);
}

#[test]
fn archive_without_skill_md_is_refused() {
    let zip = zip_of(&[("README.md", b"# not a skill"), ("references/a.md", b"# A")]);
    assert_eq!(refused(&zip), [codes::NO_SKILL_MD]);
}

#[test]
fn archive_with_two_skill_md_is_refused() {
    let zip = zip_of(&[("frete/SKILL.md", SKILL_MD), ("troca/SKILL.md", SKILL_MD)]);
    assert_eq!(refused(&zip), [codes::MULTIPLE_SKILL_MD]);
}

#[test]
fn archive_with_several_top_folders_is_refused() {
    let zip = zip_of(&[("frete/SKILL.md", SKILL_MD), ("extras/notes.md", b"# notes")]);
    assert_eq!(refused(&zip), [codes::MULTIPLE_TOP_FOLDERS]);
}

#[test]
fn scripts_are_refused_while_the_policy_refuses_executable_content() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("scripts/run.py", b"print('frete')\n")]);
    assert_eq!(refused(&zip), [codes::EXECUTABLE_REFUSED]);
}

#[test]
fn the_executable_refusal_names_the_setting() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("scripts/run.py", b"print('frete')\n")]);
    let findings = archive::inspect_bytes(&zip, &Policy::default()).unwrap_err();
    assert_eq!(findings[0].file, "scripts/run.py");
    assert!(findings[0].message.contains("`allow_executable`"), "{}", findings[0].message);
}

#[test]
fn asset_with_a_refused_extension_is_refused() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("assets/fonte.ttf", b"\0\x01\0\0font")]);
    assert_eq!(refused(&zip), [codes::ASSET_EXTENSION_REFUSED]);
}

#[test]
fn bytes_that_are_not_a_zip_are_refused() {
    assert_eq!(refused(b"this is a text file, not an archive"), [codes::INVALID]);
}

#[test]
fn truncated_zip_is_refused() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
    assert_eq!(refused(&zip[..zip.len() / 2]), [codes::INVALID]);
}

#[test]
fn corrupted_data_fails_its_crc() {
    let mut zip = zip_with([
        ("SKILL.md", SKILL_MD, deflated()),
        ("references/a.md", b"# Tabela de frete".as_slice(), stored()),
    ]);
    let data = local_header(&zip, b"references/a.md") + 30 + "references/a.md".len();
    zip[data + 2] ^= 0xff;
    assert_eq!(refused(&zip), [codes::CRC_MISMATCH]);
}

#[test]
fn local_header_naming_another_file_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
    let local = local_header(&zip, b"references/a.md");
    zip[local + 30 + "references/".len()] = b'z';
    assert_eq!(refused(&zip), [codes::HEADER_MISMATCH]);
}

#[test]
fn unsupported_compression_method_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
    let local = local_header(&zip, b"references/a.md");
    let central = central_record(&zip, b"references/a.md");
    write_u16(&mut zip, local + 8, 12);
    write_u16(&mut zip, central + 10, 12);
    assert_eq!(refused(&zip), [codes::UNSUPPORTED_COMPRESSION]);
}

/// Every method but stored, deflate and WinZip AES (99, which is encryption) is refused as an
/// unsupported method, never as encryption, whichever header names it.
#[test]
fn an_unknown_compression_method_in_either_header_has_its_own_code() {
    for method in [1u16, 6, 9, 12, 14, 19, 93, 95, 98, 100, 0x1234, 0xffff] {
        for (in_local, in_central) in [(true, true), (true, false), (false, true)] {
            let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
            let local = local_header(&zip, b"references/a.md");
            let central = central_record(&zip, b"references/a.md");
            if in_local {
                write_u16(&mut zip, local + 8, method);
            }
            if in_central {
                write_u16(&mut zip, central + 10, method);
            }
            let where_ = format!("method {method}, local {in_local}, central {in_central}");
            assert_eq!(refused(&zip), [codes::UNSUPPORTED_COMPRESSION], "{where_}");
        }
    }
}

#[test]
fn headers_naming_two_different_known_methods_are_a_header_mismatch() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/a.md", b"# A")]);
    let local = local_header(&zip, b"references/a.md");
    write_u16(&mut zip, local + 8, 0);
    assert_eq!(refused(&zip), [codes::HEADER_MISMATCH]);
}

#[test]
fn a_name_used_for_a_file_and_a_folder_is_refused() {
    let zip = zip_of(&[("SKILL.md", SKILL_MD), ("references", b"file"), ("references/a.md", b"# A")]);
    assert_eq!(refused(&zip), [codes::FILE_FOLDER_CONFLICT]);
}

#[test]
fn fifo_entry_is_refused() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("references/pipe", b"")]);
    let central = central_record(&zip, b"references/pipe");
    write_u16(&mut zip, central + 4, 3 << 8 | 20);
    write_u32(&mut zip, central + 38, 0o010_644 << 16);
    assert_eq!(refused(&zip), [codes::SPECIAL_FILE]);
}

#[test]
fn every_bad_entry_is_reported_at_once() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("xx/a.md", b"a"), ("references\\b.md", b"b")]);
    rename_entry(&mut zip, b"xx/a.md", b"../a.md");
    let findings = archive::inspect_bytes(&zip, &Policy::default()).unwrap_err();
    let located: Vec<(&str, &str)> = findings.iter().map(|f| (f.code.as_str(), f.file.as_str())).collect();
    assert_eq!(located, [(codes::PATH_TRAVERSAL, "../a.md"), (codes::BACKSLASH_PATH, "references\\b.md")]);
    assert!(findings.iter().all(|f| f.hint.is_some()));
}

#[test]
fn junk_names_are_still_checked_before_being_dropped() {
    let mut zip = zip_of(&[("SKILL.md", SKILL_MD), ("__MACOSX/xx/._a.md", b"junk")]);
    rename_entry(&mut zip, b"__MACOSX/xx/._a.md", b"__MACOSX/../._a.md");
    assert_eq!(refused(&zip), [codes::PATH_TRAVERSAL]);
}

#[test]
fn an_oversized_archive_is_refused_before_it_is_read() {
    let limits = Policy::default().limits;
    let oversized = vec![0u8; archive::max_archive_bytes(&limits) as usize + 1];
    let err = archive::inspect(oversized.as_slice(), &Policy::default()).unwrap_err();
    match err {
        archive::ArchiveError::Refused { findings } => assert_eq!(findings[0].code, codes::ARCHIVE_TOO_LARGE),
        other => panic!("expected a refusal, got {other}"),
    }
}
