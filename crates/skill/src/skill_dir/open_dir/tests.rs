//! The folder writer's promises, one per test: nothing is written, read or removed through a
//! link, and a link on the way to a folder is followed only when it stays beneath.

use std::fs;
use std::io::Write;
use std::time::Duration;

use super::*;
use skillcase_common::error::Coded;

fn held(tmp: &tempfile::TempDir) -> OpenDir {
    OpenDir::open_named(tmp.path()).unwrap()
}

#[cfg(unix)]
#[test]
fn a_new_file_is_never_written_through_a_link_planted_at_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, "mine").unwrap();
    std::os::unix::fs::symlink(&victim, tmp.path().join("SKILL.md")).unwrap();
    let error = held(&tmp).create_file("SKILL.md", 0o644).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "mine");
}

#[cfg(unix)]
#[test]
fn a_sub_folder_that_is_a_link_is_refused_and_never_created_through() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("references")).unwrap();
    let dir = held(&tmp);
    assert_eq!(dir.child("references").unwrap_err().code(), "symlink");
    assert_eq!(dir.child_or_create("references").unwrap_err().code(), "symlink");
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn a_file_is_created_with_exactly_its_mode_and_read_back_by_handle() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = held(&tmp);
    let mut file = dir.create_file("a.txt", 0o644).unwrap();
    file.write_all(b"hello").unwrap();
    assert_eq!(dir.read_file("a.txt", 5).unwrap().unwrap(), b"hello");
    assert_eq!(dir.read_file("missing", 5).unwrap(), None);
    assert_eq!(dir.read_file("a.txt", 4).unwrap_err().code(), "file_too_large");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(tmp.path().join("a.txt")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }
}

#[cfg(unix)]
#[test]
fn reading_a_fifo_or_a_link_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        tmp.path().join("pipe"),
        rustix::fs::FileType::Fifo,
        0o644.into(),
        0,
    )
    .unwrap();
    std::os::unix::fs::symlink("/etc/hostname", tmp.path().join("link")).unwrap();
    let dir = held(&tmp);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send((
            dir.read_file("pipe", 1024).map_err(|e| e.code()),
            dir.read_file("link", 1024).map_err(|e| e.code()),
        ));
    });
    let (pipe, link) = rx.recv_timeout(Duration::from_secs(5)).expect("reading a FIFO blocked");
    assert_eq!((pipe, link), (Err("not_regular_file"), Err("symlink")));
}

#[cfg(unix)]
#[test]
fn removing_a_tree_removes_a_link_inside_it_and_never_what_it_points_to() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("keep.txt"), "keep").unwrap();
    fs::create_dir_all(tmp.path().join("old/references")).unwrap();
    fs::write(tmp.path().join("old/references/a.md"), "a").unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("old/references/out")).unwrap();
    held(&tmp).remove_tree("old").unwrap();
    assert!(!tmp.path().join("old").exists());
    assert_eq!(fs::read_to_string(outside.path().join("keep.txt")).unwrap(), "keep");
}

#[cfg(unix)]
#[test]
fn a_link_on_the_way_is_followed_only_while_it_stays_beneath() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    fs::create_dir_all(root.join(".claude/skills")).unwrap();
    fs::create_dir_all(root.join(".agents")).unwrap();
    std::os::unix::fs::symlink("../.claude/skills", root.join(".agents/skills")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join(".codex")).unwrap();
    let project = OpenDir::open_named(&root).unwrap();

    let inside = project.beneath(".agents/skills", true).unwrap().unwrap();
    inside.create_file("x", 0o644).unwrap();
    assert!(root.join(".claude/skills/x").is_file());

    let error = project.beneath(".codex/skills", true).unwrap_err();
    assert!(matches!(&error, FileError::NotBeneath { path } if path == ".codex"), "{error}");
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0, "nothing was created outside");
    assert!(project.beneath(".cursor/skills", false).unwrap().is_none());
    assert!(!root.join(".cursor").exists());
}

#[test]
fn an_exchange_or_a_rename_names_only_entries_of_the_held_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = held(&tmp);
    for bad in ["..", "a/b", "", "."] {
        assert!(dir.rename(bad, &dir, "x").is_err(), "{bad}");
        assert!(dir.remove_tree(bad).is_err(), "{bad}");
    }
}

#[cfg(unix)]
#[test]
fn the_portable_handle_refuses_links_like_the_unix_one() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("references")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("f"), tmp.path().join("f")).unwrap();
    let dir = portable::Handle::open_named(tmp.path()).unwrap();
    assert_eq!(dir.child("references").unwrap_err().code(), "symlink");
    assert_eq!(dir.open_file("f", 10).unwrap_err().code(), "symlink");
    assert_eq!(dir.create_file("f", 0o644).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
    assert!(!outside.path().join("f").exists());
    dir.remove_tree("references").unwrap();
    assert!(outside.path().exists());
}
