//! Attacks on the skills directory through the files themselves: a path swapped between a
//! regular file and a link to a file outside, or a FIFO, while several threads read it, each
//! read in turn through the folder reader (`dir_reader`, the safe opener every folder reader
//! uses) and through the library's level 3; and a FIFO where `skill.config.yaml` should be when
//! the scan starts. No reader may see a byte from outside the skill, and no thread may be held.
//! Level 3 is read from the stored version, so it is always given the recorded text.
#![cfg(unix)]

use crate::support;

use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use skillcase_library::Library;
use skillcase_skill::disclosure::{dir_reader, file};
use skillcase_skill::finding::Finding;
use skillcase_skill::load::load_dir;
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::Profile;
use skillcase_testkit::hostile::{make_fifo, Intruder, Swapper};
use skillcase_testkit::skills::{skill_md, write_skill};
use support::Workspace;

/// How long each race runs.
const RACE: Duration = Duration::from_secs(5);
/// Reader threads in each race.
const READERS: usize = 4;
/// What the outside file holds; no answer may ever contain it.
const SECRET: &str = "root:x:0:0:OUTSIDE-THE-SKILL";
/// What `references/ok.md` holds when it is the regular file.
const OK_TEXT: &str = "# Tabela de frete\n\nSudeste: 3 dias.\n";

/// A workspace with the skill `frete` (SKILL.md and `references/ok.md`) and a file outside the
/// skills directory holding [`SECRET`], the library opened and scanned.
fn frete() -> (Workspace, Arc<Library>) {
    let workspace = Workspace::new();
    write_skill(
        &workspace.skills(),
        "frete",
        &[("SKILL.md", &skill_md("frete", "Calcula o frete.")), ("references/ok.md", OK_TEXT)],
    );
    std::fs::write(workspace.root.path().join("passwd"), SECRET).unwrap();
    let library = workspace.open();
    assert_eq!(library.level3("frete", "references/ok.md").unwrap(), OK_TEXT);
    (workspace, library)
}

/// What the readers saw through the folder, and through level 3.
#[derive(Debug, Default)]
struct Seen {
    served: u64,
    leaked: u64,
    refused: u64,
    /// Level-3 reads answered with the recorded text.
    stored: u64,
    /// Level-3 reads answered with anything else.
    stored_other: u64,
}

/// Runs [`READERS`] threads reading `references/ok.md` for [`RACE`] while `swapper` swaps it,
/// every other read through the folder reader and through level 3, then checks that every
/// reader came back (none held in an `open`).
fn race(library: &Arc<Library>, swapper: Swapper) -> (Seen, u64) {
    let deadline = Instant::now() + RACE;
    let (done, finished) = mpsc::channel();
    let skill =
        load_dir(&library.live_dir("frete").unwrap(), Profile::Skillcase, &Policy::default()).skill.unwrap();
    for _ in 0..READERS {
        let (library, skill, done) = (Arc::clone(library), skill.clone(), done.clone());
        std::thread::spawn(move || {
            let mut seen = Seen::default();
            while Instant::now() < deadline {
                match file(&skill, "references/ok.md", &dir_reader(&skill, 1 << 20)) {
                    Ok(text) if text.contains("OUTSIDE-THE-SKILL") => seen.leaked += 1,
                    Ok(text) => {
                        assert_eq!(text, OK_TEXT);
                        seen.served += 1
                    }
                    Err(_) => seen.refused += 1,
                }
                match library.level3("frete", "references/ok.md") {
                    Ok(text) if text == OK_TEXT => seen.stored += 1,
                    _ => seen.stored_other += 1,
                }
            }
            let _ = done.send(seen);
        });
    }
    let mut total = Seen::default();
    for _ in 0..READERS {
        let seen = finished
            .recv_timeout(RACE + Duration::from_secs(10))
            .expect("a reader never came back: it is held in an open");
        total.served += seen.served;
        total.leaked += seen.leaked;
        total.refused += seen.refused;
        total.stored += seen.stored;
        total.stored_other += seen.stored_other;
    }
    (total, swapper.stop())
}

#[test]
fn level3_never_serves_a_byte_of_a_file_outside_while_a_link_to_it_is_swapped_in() {
    let (workspace, library) = frete();
    let target = workspace.skills().join("frete/references/ok.md");
    let outside = workspace.root.path().join("passwd");
    let swapper =
        Swapper::start(&target, OK_TEXT, Intruder::Link(outside), &workspace.root.path().join("stage"));
    let (seen, swaps) = race(&library, swapper);
    assert_eq!((seen.leaked, seen.stored_other), (0, 0), "{seen:?} after {swaps} swaps");
    assert!(
        swaps > 100 && seen.served > 0 && seen.refused > 0 && seen.stored > 0,
        "the race did not run: {seen:?}, {swaps} swaps"
    );
}

#[test]
fn level3_never_holds_a_thread_while_a_fifo_is_swapped_in() {
    let (workspace, library) = frete();
    let target = workspace.skills().join("frete/references/ok.md");
    let swapper = Swapper::start(&target, OK_TEXT, Intruder::Fifo, &workspace.root.path().join("stage"));
    let (seen, swaps) = race(&library, swapper);
    assert_eq!(seen.stored_other, 0, "{seen:?} after {swaps} swaps");
    assert!(
        swaps > 100 && seen.served > 0 && seen.refused > 0 && seen.stored > 0,
        "the race did not run: {seen:?}, {swaps} swaps"
    );
    assert_eq!(
        library.level3("frete", "references/ok.md").unwrap(),
        OK_TEXT,
        "served again once it is a file"
    );
}

fn codes(findings: &[Finding]) -> Vec<(&str, &str)> {
    findings.iter().map(|f| (f.code.as_str(), f.file.as_str())).collect()
}

#[test]
fn a_fifo_named_skill_config_yaml_neither_holds_the_scan_nor_hides_the_other_skills() {
    let workspace = Workspace::new();
    write_skill(&workspace.skills(), "frete", &[("SKILL.md", &skill_md("frete", "Calcula o frete."))]);
    write_skill(&workspace.skills(), "piped", &[("SKILL.md", &skill_md("piped", "Has a FIFO."))]);
    make_fifo(&workspace.skills().join("piped/skill.config.yaml"));
    let library = Arc::new(Library::open(workspace.options()).unwrap());
    let (done, scanned) = mpsc::channel();
    let scanning = Arc::clone(&library);
    std::thread::spawn(move || {
        let _ = done.send(scanning.scan().map(|report| report.local));
    });
    let local = scanned.recv_timeout(Duration::from_secs(20)).expect("the scan is held by the FIFO");
    assert_eq!(local.unwrap(), 2);
    assert_eq!(library.summary("frete").unwrap().validity.errors, 0);
    assert_eq!(library.summary("piped").unwrap().validity.errors, 1);
    assert_eq!(codes(&library.findings("piped").unwrap()), [("not_regular_file", "skill.config.yaml")]);
}

/// Imports `path` on another thread and returns the refusal codes, failing if the import does
/// not come back within seconds (held in an `open` or reading an endless file).
fn import_refusal(library: &Arc<Library>, path: std::path::PathBuf) -> Vec<String> {
    let (done, answered) = mpsc::channel();
    let importing = Arc::clone(library);
    std::thread::spawn(move || {
        let _ = done.send(importing.import_path(&path, false).map(|r| (r.refused, r.findings)));
    });
    let (refused, findings) =
        answered.recv_timeout(Duration::from_secs(10)).expect("the import is held").expect("a report");
    assert_eq!(refused.as_deref(), Some("import_refused"));
    findings.into_iter().map(|f| f.code).collect()
}

#[test]
fn importing_a_fifo_or_a_link_to_dev_zero_named_like_a_zip_is_refused_at_once() {
    let workspace = Workspace::new();
    let library = workspace.open();
    let fifo = workspace.root.path().join("pipe.zip");
    make_fifo(&fifo);
    assert_eq!(import_refusal(&library, fifo), ["not_regular_file"]);
    let zero = workspace.root.path().join("zero.zip");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    assert_eq!(import_refusal(&library, zero), ["not_regular_file"]);
}

#[test]
fn importing_a_zip_larger_than_any_package_is_refused_from_its_size() {
    let workspace = Workspace::new();
    let library = workspace.open();
    let huge = workspace.root.path().join("huge.zip");
    skillcase_testkit::hostile::sparse_file(&huge, b"PK\x03\x04", 3 * 1024 * 1024 * 1024);
    assert_eq!(import_refusal(&library, huge), ["zip_archive_too_large"]);
}
