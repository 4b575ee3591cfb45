//! `skillcase gc-blobs` (the real binary): blobs are collected only on request, only the ones no
//! version names, and the command says what it freed.

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use assert_cmd::Command;
use sha2::{Digest, Sha256};
use skillcase_library::{Library, LibraryOptions};
use skillcase_testkit::skills::write_simple;

/// A skills directory and a data directory side by side.
struct Workspace(tempfile::TempDir);

impl Workspace {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("skills")).unwrap();
        Workspace(root)
    }

    fn skills(&self) -> PathBuf {
        self.0.path().join("skills")
    }

    fn data(&self) -> PathBuf {
        self.0.path().join("data")
    }

    /// Opens and scans the library, as the app would.
    fn open(&self) -> Arc<Library> {
        let library = Library::open(LibraryOptions::in_data_dir(&self.data(), self.skills(), None)).unwrap();
        library.scan().unwrap();
        Arc::new(library)
    }
}

fn gc(workspace: &Workspace) -> serde_json::Value {
    let output = Command::cargo_bin("skillcase")
        .unwrap()
        .args(["gc-blobs", "--format", "json", "--data-dir"])
        .arg(workspace.data())
        .env("SKILLCASE_SKILLS_DIR", workspace.skills())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Writes a blob no version names, as an interrupted write would leave it.
fn orphan(workspace: &Workspace, bytes: &[u8]) -> std::path::PathBuf {
    let hash = format!("{:x}", Sha256::digest(bytes));
    let path = workspace.data().join("blobs").join(&hash[..2]).join(&hash);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn gc_removes_only_the_blob_no_version_names_and_reports_the_bytes() {
    let workspace = Workspace::new();
    write_simple(&workspace.skills(), "frete", "Shipping rules.");
    let library = workspace.open();
    drop(library);
    let stray = orphan(&workspace, b"orphan");

    let report = gc(&workspace);

    assert_eq!(report["removed"], 1);
    assert_eq!(report["freed_bytes"], 6);
    assert_eq!(report["kept"], 1, "the SKILL.md blob of frete stays");
    assert!(!stray.exists());
    let reopened = workspace.open();
    let live = reopened.versions("frete").unwrap()[0].id;
    assert!(reopened.version_package("frete", live).is_ok(), "the version can still be restored");
}

#[test]
fn a_second_gc_finds_nothing_to_remove() {
    let workspace = Workspace::new();
    write_simple(&workspace.skills(), "frete", "Shipping rules.");
    drop(workspace.open());
    orphan(&workspace, b"orphan");
    gc(&workspace);

    let report = gc(&workspace);

    assert_eq!((report["removed"].as_u64(), report["kept"].as_u64()), (Some(0), Some(1)));
}
