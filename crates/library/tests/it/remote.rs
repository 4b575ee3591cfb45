//! The library's side of a remote catalog pull, without a network: what a pull must download is
//! only what the blob store lacks, downloads stream to disk and are checked as they arrive, and a
//! pull is recorded whole or not at all — bytes that are not what the catalog announced, or a
//! listed file that never arrived, record nothing.

use std::path::Path;

use skillcase_library::remote::{CatalogKind, Downloads, PullChange, Upstream, UpstreamFile, Wanted};
use skillcase_library::{Library, LibraryError, LibraryOptions};
use skillcase_store::blobs::sha256_hex;

const SKILL_MD: &str =
    "---\nname: frete\ndescription: Calcula o frete. Use quando o cliente pergunta do frete.\n---\n# Frete\n";

fn library(root: &Path) -> Library {
    let options = LibraryOptions::in_data_dir(&root.join("data"), root.join("skills"), None);
    let library = Library::open(options).unwrap();
    library.scan().unwrap();
    library
}

const URL: &str = "http://127.0.0.1:9/index.json";

/// Downloads `wanted` as `bytes`, in chunks of 7 bytes as a network would deliver them.
fn download(downloads: &mut Downloads, wanted: &Wanted, bytes: &[u8]) -> Result<(), LibraryError> {
    let mut download = downloads.start(wanted)?;
    for chunk in bytes.chunks(7) {
        download.write(chunk)?;
    }
    downloads.finish(download)
}

fn code(error: &LibraryError) -> &'static str {
    skillcase_common::error::Coded::code(error)
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
    let id = lib.subscribe(URL, CatalogKind::Index, None).unwrap().id;
    let upstream = vec![frete(SKILL_MD)];
    let wanted = lib.files_to_fetch(URL, &upstream).unwrap();
    assert_eq!(wanted.len(), 1);

    let missing = lib.record_pull(id, upstream.clone(), lib.downloads(URL).unwrap()).unwrap_err();
    assert_eq!(code(&missing), "blob_missing");
    assert!(lib.remote_skills(Some(id)).unwrap().is_empty(), "nothing recorded without the file");

    let mut downloads = lib.downloads(URL).unwrap();
    download(&mut downloads, &wanted[0], SKILL_MD.as_bytes()).unwrap();
    let report = lib.record_pull(id, upstream.clone(), downloads).unwrap();
    assert_eq!(report.skills[0].change, PullChange::New);
    assert_eq!((report.files_downloaded, report.bytes_downloaded), (1, SKILL_MD.len() as u64));
    assert!(lib.files_to_fetch(URL, &upstream).unwrap().is_empty(), "a stored file is never fetched again");
}

#[test]
fn bytes_that_are_not_what_the_catalog_announced_are_refused_as_they_arrive_and_nothing_is_stored() {
    let root = tempfile::tempdir().unwrap();
    let lib = library(root.path());
    let upstream = vec![frete(SKILL_MD)];
    let wanted = lib.files_to_fetch(URL, &upstream).unwrap();
    let tampered = SKILL_MD.replace("frete.", "frete!").into_bytes();
    let longer = format!("{SKILL_MD}more");
    let mut downloads = lib.downloads(URL).unwrap();
    let error = download(&mut downloads, &wanted[0], &tampered).unwrap_err();
    assert_eq!(code(&error), "catalog_digest_mismatch");
    let error = download(&mut downloads, &wanted[0], longer.as_bytes()).unwrap_err();
    assert_eq!(code(&error), "catalog_digest_mismatch");
    assert!(error.to_string().contains("more than the"), "{error}");
    drop(downloads);
    let sha = &wanted[0].sha256;
    assert!(!root.path().join("data/blobs").join(&sha[..2]).join(sha).exists());
    let left: Vec<_> = std::fs::read_dir(root.path().join("data/blobs")).unwrap().collect();
    assert!(left.is_empty(), "the dropped downloads leave nothing in the blob store: {left:?}");
}

#[test]
fn a_catalog_announcing_more_than_a_pull_may_download_is_refused_before_a_byte_is_fetched() {
    let root = tempfile::tempdir().unwrap();
    let lib = library(root.path());
    let skills: Vec<Upstream> = (0..3u64)
        .map(|i| Upstream {
            name: format!("s{i}"),
            files: vec![UpstreamFile {
                path: "SKILL.md".into(),
                sha256: sha256_hex(&i.to_le_bytes()),
                size: skillcase_library::remote::MAX_PULL_BYTES / 2,
            }],
            ..frete(SKILL_MD)
        })
        .collect();
    let error = lib.files_to_fetch(URL, &skills).unwrap_err();
    assert_eq!(skillcase_common::error::Coded::code(&error), "catalog_too_large");
}
