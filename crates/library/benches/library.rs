//! The skill library at scale:
//! - `library_scan_10k/restart`: the start-up scan of 10,000 generated skill folders with the
//!   database of a previous run — the level-1 listing (frontmatter only, in parallel) plus a
//!   `stat` walk per folder; no content is read because every fingerprint matches;
//! - `library_scan_1k/first_start`: the very first scan, with an empty database, of 1,000 folders
//!   — the listing, then a full read of every folder, 2,000 blobs stored and 1,000 `watch`
//!   versions recorded (the first run over 10,000 folders costs about ten times this: it is one
//!   file creation per blob, and took ~40 s here, so it is measured at a tenth of the size);
//! - `library_import_64_files`: importing a 64-file package (1 MB) into an empty library —
//!   inspect, validate, blobs fsynced, staged, swapped into place, version committed.

use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use skillcase_library::{Library, LibraryOptions};

const SKILLS: usize = 10_000;

fn write_skills(root: &Path, count: usize) {
    for i in 0..count {
        let dir = root.join(format!("skill-{i:05}"));
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:05}\ndescription: Answers questions about topic {i}: frete, prazo or \
                 devolução for order type {i}.\n---\n# Topic {i}\n\nRead references/guide.md first.\n"
            ),
        )
        .unwrap();
        std::fs::write(dir.join("references/guide.md"), format!("# Guide {i}\n\nStep one for topic {i}.\n"))
            .unwrap();
    }
}

fn open(data: &Path, skills: &Path) -> Library {
    let library = Library::open(LibraryOptions::in_data_dir(data, skills.to_path_buf(), None)).unwrap();
    library.scan().unwrap();
    library
}

fn scan_10k_restart(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    write_skills(&skills, SKILLS);
    let data = tempfile::tempdir_in(root.path()).unwrap();
    open(data.path(), &skills);
    let mut group = c.benchmark_group("library_scan_10k");
    group.sample_size(10);
    group.bench_function("restart", |b| {
        b.iter(|| {
            let library = open(data.path(), &skills);
            assert_eq!(library.list(&Default::default()).total, SKILLS as u32);
        })
    });
    group.finish();
}

fn scan_1k_first_start(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    write_skills(&skills, SKILLS / 10);
    let mut group = c.benchmark_group("library_scan_1k");
    group.sample_size(10);
    group.bench_function("first_start", |b| {
        b.iter_batched(
            || tempfile::tempdir_in(root.path()).unwrap(),
            |data| {
                let library = open(data.path(), &skills);
                black_box(library.list(&Default::default()).total);
                data
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

fn package_zip() -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    writer.start_file("pkg/SKILL.md", options).unwrap();
    writer
        .write_all(b"---\nname: pkg\ndescription: A 64-file package for the import benchmark.\n---\n# Pkg\n")
        .unwrap();
    for n in 0..63 {
        writer.start_file(format!("pkg/references/doc-{n:02}.md"), options).unwrap();
        let body: Vec<u8> = (0..16 * 1024).map(|i| b'a' + ((i * 7 + n) % 26) as u8).collect();
        writer.write_all(&body).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn import_64(c: &mut Criterion) {
    let zip = package_zip();
    c.bench_function("library_import_64_files", |b| {
        b.iter_batched(
            || {
                let root = tempfile::tempdir().unwrap();
                std::fs::create_dir_all(root.path().join("skills")).unwrap();
                let library = open(&root.path().join("data"), &root.path().join("skills"));
                (root, library)
            },
            |(root, library)| {
                let report = library.import_zip(black_box(&zip), false).unwrap();
                assert_eq!(report.files.len(), 64);
                (root, library)
            },
            BatchSize::PerIteration,
        )
    });
}

criterion_group!(benches, scan_10k_restart, scan_1k_first_start, import_64);
criterion_main!(benches);
