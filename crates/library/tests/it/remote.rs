//! The library's side of a remote catalog pull, without a network: what a pull must download is
//! only what the blob store lacks, and a pull is recorded whole or not at all — bytes that are not
//! what the catalog announced, or a listed file that never arrived, record nothing.

use std::path::Path;

use skillcase_library::remote::{CatalogKind, PullChange, Upstream, UpstreamFile};
use skillcase_library::{Library, LibraryOptions};
use skillcase_store::blobs::sha256_hex;

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

fn library(root: &Path) -> Library {
    let options = LibraryOptions::in_data_dir(&root.join("data"), root.join("skills"), None);
    let library = Library::open(options).unwrap();
    library.scan().unwrap();
    library
}

fn frete(text: &str) -> Upstream {
    Upstream {
        name: "frete".into(),
        version: Some("1.0".into()),
        description: "d".into(),
        files: vec![UpstreamFile {
            path: "SKILL.md".into(),
            sha256: sha256_hex(text.as_bytes()),
            size: text.len() as u64,
        }],
        revoked: false,
    }
}

#[test]
fn a_pull_records_only_after_every_file_is_in_hand_and_then_needs_nothing_more() {
    let root = tempfile::tempdir().unwrap();
    let lib = library(root.path());
    let id = lib.subscribe("http://127.0.0.1:9/index.json", CatalogKind::Index, None).unwrap().id;
    let upstream = vec![frete(SKILL_MD)];
    let wanted = lib.files_to_fetch(&upstream);
    assert_eq!(wanted.len(), 1);

    let missing = lib.record_pull(id, upstream.clone(), Vec::new()).unwrap_err();
    assert_eq!(skillcase_common::error::Coded::code(&missing), "blob_missing");
    assert!(lib.remote_skills(Some(id)).unwrap().is_empty(), "nothing recorded without the file");

    let report = lib
        .record_pull(id, upstream.clone(), vec![(wanted[0].clone(), SKILL_MD.as_bytes().to_vec())])
        .unwrap();
    assert_eq!(report.skills[0].change, PullChange::New);
    assert!(lib.files_to_fetch(&upstream).is_empty(), "a stored file is never fetched again");
}

#[test]
fn bytes_that_are_not_what_the_catalog_announced_are_refused_even_if_the_caller_did_not_check() {
    let root = tempfile::tempdir().unwrap();
    let lib = library(root.path());
    let id = lib.subscribe("http://127.0.0.1:9/index.json", CatalogKind::Index, None).unwrap().id;
    let upstream = vec![frete(SKILL_MD)];
    let wanted = lib.files_to_fetch(&upstream);
    let tampered = SKILL_MD.replace("frete.", "frete!").into_bytes();
    let error = lib.record_pull(id, upstream, vec![(wanted[0].clone(), tampered)]).unwrap_err();
    assert_eq!(skillcase_common::error::Coded::code(&error), "catalog_digest_mismatch");
    assert!(lib.remote_skills(Some(id)).unwrap().is_empty());
    let sha = &wanted[0].sha256;
    assert!(!root.path().join("data/blobs").join(&sha[..2]).join(sha).exists());
}
