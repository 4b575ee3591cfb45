//! Crash safety of the library: the real `skillcase` binary imports zips and edits a
//! skill through the library and is killed with SIGKILL at a random moment, 50 times. After every
//! kill the database passes `PRAGMA integrity_check`, the skill folder holds exactly the content
//! it had before that run or the content that run was writing (never a mix), and the library
//! re-opens and records what is on disk.

use skillcase_testkit::zips;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use skillcase_library::versions::{content_hash, manifest_of};
use skillcase_library::{Library, LibraryOptions};
use skillcase_skill::load::package_from_dir;
use skillcase_skill::package::{Package, PackageFile};

const RUNS: usize = 50;

/// A folder's content as path -> bytes.
type Files = BTreeMap<String, Vec<u8>>;

fn hash_of(files: &Files) -> String {
    let pkg = Package {
        folder_name: None,
        files: files.iter().map(|(p, b)| PackageFile::new(p.clone(), b.clone(), None)).collect(),
    };
    content_hash(&manifest_of(&pkg))
}

fn folder_hash(dir: &Path) -> String {
    content_hash(&manifest_of(&package_from_dir(dir).unwrap()))
}

fn skill_md(variant: &str) -> Vec<u8> {
    format!(
        "---\nname: frete\ndescription: Calcula o frete ({variant}).\n---\n# Frete\n\nVariante {variant}.\n"
    )
    .into_bytes()
}

/// A package of 40 reference files of 16 KB whose bytes depend on `seed`.
fn package(seed: u8) -> Files {
    let mut files = Files::new();
    files.insert("SKILL.md".into(), skill_md(&format!("zip {seed}")));
    for n in 0..40 {
        let body: Vec<u8> = (0..16 * 1024).map(|i| b'a' + ((i + n + seed as usize) % 26) as u8).collect();
        files.insert(format!("references/doc-{n:02}.md"), body);
    }
    files
}

fn zip_of(files: &Files) -> Vec<u8> {
    let entries: Vec<(String, &[u8])> =
        files.iter().map(|(p, b)| (format!("frete/{p}"), b.as_slice())).collect();
    zips::zip_of(&entries.iter().map(|(p, b)| (p.as_str(), *b)).collect::<Vec<_>>())
}

/// A small xorshift generator: the seed is printed, so a failing run can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

struct Ws {
    root: tempfile::TempDir,
}

impl Ws {
    fn skills(&self) -> std::path::PathBuf {
        self.root.path().join("skills")
    }
    fn data(&self) -> std::path::PathBuf {
        self.root.path().join("data")
    }

    fn import(&self, zip: &Path) -> Child {
        Command::new(env!("CARGO_BIN_EXE_skillcase"))
            .args(["import", zip.to_str().unwrap(), "--into"])
            .arg(self.skills())
            .arg("--data-dir")
            .arg(self.data())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    fn edit(&self, text: &[u8]) -> Child {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillcase"))
            .args(["edit", "frete", "SKILL.md", "--skills-dir"])
            .arg(self.skills())
            .arg("--data-dir")
            .arg(self.data())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(text);
        child
    }
}

#[test]
fn sigkill_during_imports_and_edits_never_leaves_a_mixed_folder_or_a_damaged_database() {
    let ws = Ws { root: tempfile::tempdir().unwrap() };
    std::fs::create_dir_all(ws.skills()).unwrap();
    let packages = [package(1), package(2)];
    let zips: Vec<_> = packages
        .iter()
        .enumerate()
        .map(|(i, files)| {
            let path = ws.root.path().join(format!("frete-{i}.zip"));
            std::fs::write(&path, zip_of(files)).unwrap();
            path
        })
        .collect();

    assert!(ws.import(&zips[1]).wait().unwrap().success());
    let started = Instant::now();
    assert!(ws.import(&zips[0]).wait().unwrap().success());
    let full_run = started.elapsed();
    let mut current = packages[0].clone();
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    println!("seed {seed}, one import takes {full_run:?}");
    let mut rng = Rng(seed);
    let window = full_run.as_micros() as u64;
    let mut completed = 0;

    for run in 0..RUNS {
        let (mut child, intended) = if rng.below(2) == 0 {
            let which = rng.below(2) as usize;
            (ws.import(&zips[which]), packages[which].clone())
        } else {
            let text = skill_md(&format!("edit {run}"));
            let mut next = current.clone();
            next.insert("SKILL.md".into(), text.clone());
            (ws.edit(&text), next)
        };
        std::thread::sleep(Duration::from_micros(rng.below(window)));
        let _ = child.kill();
        child.wait().unwrap();

        let conn = rusqlite::Connection::open(ws.data().join(skillcase_store::db::DATABASE_FILE)).unwrap();
        let check: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(check, "ok", "run {run} (seed {seed})");
        drop(conn);

        let on_disk = folder_hash(&ws.skills().join("frete"));
        let (before, after) = (hash_of(&current), hash_of(&intended));
        assert!(on_disk == before || on_disk == after, "run {run} left a mixed folder (seed {seed})");
        if on_disk == after && before != after {
            completed += 1;
        }
        if on_disk == after {
            current = intended;
        }

        let library = Library::open(LibraryOptions::in_data_dir(&ws.data(), ws.skills(), None)).unwrap();
        library.scan().unwrap();
        let live = library.summary("frete").unwrap().live_version.unwrap();
        let live_hash =
            library.versions("frete").unwrap().into_iter().find(|v| v.id == live).unwrap().content_hash;
        assert_eq!(live_hash, on_disk, "run {run}: the live version is not what is on disk (seed {seed})");
    }
    println!(
        "{completed} of {RUNS} killed runs had already swapped the folder in; the rest left the old one"
    );
}
