//! The safe open's promises, one per test: what it refuses, and that it never blocks or reads
//! past the limit.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::*;
use skillcase_common::error::Coded;

const LIMIT: u64 = 1024 * 1024;

fn skill(tmp: &tempfile::TempDir) -> std::path::PathBuf {
    let dir = tmp.path().join("demo");
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(dir.join("SKILL.md"), "---\nname: demo\ndescription: d\n---\n").unwrap();
    fs::write(dir.join("references/ok.md"), "# OK\n").unwrap();
    dir
}

fn open(dir: &Path) -> SkillDir {
    SkillDir::open(dir, Reach::Listed).unwrap()
}

fn code(result: Result<Vec<u8>, FileError>) -> &'static str {
    result.unwrap_err().code()
}

#[test]
fn a_regular_file_beneath_the_folder_is_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = open(&skill(&tmp));
    assert_eq!(dir.read("references/ok.md", LIMIT).unwrap(), b"# OK\n");
    assert_eq!(dir.read("SKILL.md", LIMIT).unwrap().len(), 34);
}

#[cfg(unix)]
#[test]
fn a_link_as_the_last_segment_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    fs::write(tmp.path().join("outside.md"), "secret").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("outside.md"), path.join("references/link.md")).unwrap();
    let err = open(&path).read("references/link.md", LIMIT).unwrap_err();
    assert_eq!((err.code(), err.file()), ("symlink", "references/link.md"));
}

#[cfg(unix)]
#[test]
fn a_link_to_a_folder_on_the_way_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    fs::create_dir(tmp.path().join("elsewhere")).unwrap();
    fs::write(tmp.path().join("elsewhere/ok.md"), "secret").unwrap();
    fs::remove_dir_all(path.join("references")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("elsewhere"), path.join("references")).unwrap();
    assert_eq!(code(open(&path).read("references/ok.md", LIMIT)), "symlink");
}

#[cfg(unix)]
#[test]
fn the_component_by_component_open_refuses_what_openat2_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    fs::create_dir(tmp.path().join("elsewhere")).unwrap();
    fs::write(tmp.path().join("elsewhere/x.md"), "secret").unwrap();
    std::os::unix::fs::symlink(tmp.path().join("elsewhere"), path.join("references/far")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("elsewhere/x.md"), path.join("references/x.md")).unwrap();
    let dir = open(&path);
    for rel in ["references/far/x.md", "references/x.md", "references/ok.md"] {
        let nested = dir.open_file(rel, LIMIT).map(|_| ()).map_err(|e| e.code());
        let by_parts = unix::open_by_components_for_test(&dir, rel, LIMIT).map(|_| ()).map_err(|e| e.code());
        assert_eq!(nested, by_parts, "{rel}");
    }
    assert_eq!(dir.open_file("references/far/x.md", LIMIT).unwrap_err().code(), "symlink");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_instead_of_blocking_the_open() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path.join("references/pipe.md"),
        rustix::fs::FileType::Fifo,
        0o644.into(),
        0,
    )
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = open(&path);
    std::thread::spawn(move || {
        let _ = tx.send(dir.read("references/pipe.md", LIMIT).map_err(|e| (e.code(), e.to_string())));
    });
    let answer = rx.recv_timeout(Duration::from_secs(5)).expect("opening a FIFO blocked");
    let (code, message) = answer.unwrap_err();
    assert_eq!(code, "not_regular_file");
    assert!(message.contains("FIFO"), "{message}");
}

#[test]
fn a_file_over_the_limit_is_refused_before_a_byte_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    let huge = fs::File::create(path.join("references/huge.md")).unwrap();
    huge.set_len(2 * 1024 * 1024 * 1024).unwrap();
    let started = Instant::now();
    let err = open(&path).read("references/huge.md", LIMIT).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    assert!(matches!(err, FileError::TooLarge { size: 2_147_483_648, limit: LIMIT, .. }), "{err:?}");
}

#[test]
fn a_file_that_grows_past_the_limit_after_it_was_opened_is_read_no_further() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    fs::write(path.join("references/grows.md"), "0123456789").unwrap();
    let file = open(&path).open_file("references/grows.md", 64).unwrap();
    fs::write(path.join("references/grows.md"), "x".repeat(10_000)).unwrap();
    assert!(matches!(file.read_all(), Err(FileError::TooLarge { size: 65, limit: 64, .. })));
}

#[test]
fn paths_that_could_leave_the_folder_are_refused_before_any_system_call() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = open(&skill(&tmp));
    for rel in ["../demo/SKILL.md", "/etc/passwd", "references//ok.md", "./SKILL.md", "references\\ok.md", ""]
    {
        assert_eq!(code(dir.read(rel, LIMIT)), "path_not_beneath", "{rel:?}");
    }
}

#[test]
fn a_folder_where_a_file_is_expected_is_not_a_regular_file() {
    let tmp = tempfile::tempdir().unwrap();
    let err = open(&skill(&tmp)).read("references", LIMIT).unwrap_err();
    assert!(matches!(err, FileError::NotRegular { kind: Kind::Dir, .. }), "{err:?}");
}

#[test]
fn a_missing_file_is_told_apart_from_a_refusal() {
    let tmp = tempfile::tempdir().unwrap();
    let err = open(&skill(&tmp)).read("references/none.md", LIMIT).unwrap_err();
    assert!(err.is_not_found(), "{err:?}");
}

#[cfg(unix)]
#[test]
fn a_listed_folder_that_is_a_link_is_refused_and_a_named_one_is_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    let link = tmp.path().join("linked");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let err = SkillDir::open(&link, Reach::Listed).unwrap_err();
    assert_eq!((err.code(), err.file()), ("symlink", ""));
    assert_eq!(
        SkillDir::open(&link, Reach::Named).unwrap().read("references/ok.md", LIMIT).unwrap(),
        b"# OK\n"
    );
}

#[test]
fn a_missing_folder_and_a_file_get_their_own_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    let missing = SkillDir::open(&tmp.path().join("nope"), Reach::Listed).unwrap_err();
    let file = SkillDir::open(&path.join("SKILL.md"), Reach::Listed).unwrap_err();
    assert_eq!((missing.code(), file.code()), ("path_not_found", "not_a_directory"));
}

#[cfg(unix)]
#[test]
fn kind_of_never_follows_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let path = skill(&tmp);
    std::os::unix::fs::symlink(path.join("references"), path.join("scripts")).unwrap();
    let dir = open(&path);
    assert_eq!(dir.kind_of("scripts"), Some(Kind::Symlink));
    assert_eq!(dir.kind_of("references"), Some(Kind::Dir));
    assert_eq!(dir.kind_of("absent"), None);
}

#[cfg(unix)]
#[test]
fn a_named_file_is_followed_through_a_link_but_a_fifo_or_device_there_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real.zip");
    fs::write(&real, b"PK").unwrap();
    std::os::unix::fs::symlink(&real, tmp.path().join("link.zip")).unwrap();
    assert_eq!(
        open_named(&tmp.path().join("link.zip"), "link.zip", LIMIT).unwrap().read_all().unwrap(),
        b"PK"
    );
    let fifo = tmp.path().join("pipe.zip");
    rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, 0o644.into(), 0).unwrap();
    std::os::unix::fs::symlink("/dev/zero", tmp.path().join("zero.zip")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let paths = [fifo, tmp.path().join("zero.zip")];
    std::thread::spawn(move || {
        let codes: Vec<&str> =
            paths.iter().map(|p| open_named(p, "x.zip", LIMIT).unwrap_err().code()).collect();
        let _ = tx.send(codes);
    });
    let codes = rx.recv_timeout(Duration::from_secs(5)).expect("opening a named FIFO blocked");
    assert_eq!(codes, ["not_regular_file", "not_regular_file"]);
}

#[test]
fn a_named_file_over_the_limit_is_refused_from_its_size() {
    let tmp = tempfile::tempdir().unwrap();
    let huge = tmp.path().join("huge.zip");
    fs::File::create(&huge).unwrap().set_len(2 * 1024 * 1024 * 1024).unwrap();
    let err = open_named(&huge, "huge.zip", LIMIT).unwrap_err();
    assert!(matches!(err, FileError::TooLarge { size: 2_147_483_648, limit: LIMIT, .. }), "{err:?}");
}
