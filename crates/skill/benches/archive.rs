//! Zip inspection against its floor (SPEC A8): `inspect_bytes` on a package at the default
//! limits (64 files, 5 MiB of Markdown from the shared corpus, deflated) versus the same `zip`
//! crate reading and inflating every entry with no checks at all. Target: within 1.3x the floor.

use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_skill::archive::inspect_bytes;
use skillcase_skill::policy::Policy;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

const FILES: usize = 64;
const TOTAL_BYTES: usize = 5 * 1024 * 1024;

/// All Markdown of the shared corpus, concatenated in path order.
fn corpus_text() -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut paths = Vec::new();
    collect_markdown(&root, &mut paths);
    paths.sort();
    let text: Vec<u8> = paths.iter().flat_map(|p| std::fs::read(p).unwrap()).collect();
    assert!(
        text.len() >= TOTAL_BYTES,
        "the corpus at {} holds {} bytes of Markdown",
        root.display(),
        text.len()
    );
    text
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// A valid skill zip at the limits: SKILL.md plus 63 references, 5 MiB in all.
fn package_zip() -> Vec<u8> {
    let text = corpus_text();
    let per_file = TOTAL_BYTES / FILES;
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    writer.start_file("frete/SKILL.md", options).unwrap();
    let frontmatter = b"---\nname: frete\ndescription: Calcula o frete.\n---\n";
    writer.write_all(frontmatter).unwrap();
    writer.write_all(&text[..per_file - frontmatter.len()]).unwrap();
    for i in 1..FILES {
        writer.start_file(format!("frete/references/doc-{i:02}.md"), options).unwrap();
        writer.write_all(&text[i * per_file..(i + 1) * per_file]).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// The floor: open, then read and inflate every entry into a buffer, nothing else.
fn raw_read(bytes: &[u8]) -> usize {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut total = 0;
    for i in 0..archive.len() {
        let mut data = Vec::new();
        archive.by_index(i).unwrap().read_to_end(&mut data).unwrap();
        total += data.len();
    }
    total
}

fn bench(c: &mut Criterion) {
    let zip = package_zip();
    let policy = Policy::default();
    let package = inspect_bytes(&zip, &policy).expect("the bench package is valid");
    assert_eq!(package.files.len(), FILES);
    assert_eq!(raw_read(&zip) as u64, package.total_bytes());
    let mut group = c.benchmark_group("zip_5mib_64_files");
    group.bench_function("raw_floor", |b| b.iter(|| raw_read(std::hint::black_box(&zip))));
    group.bench_function("inspect", |b| {
        b.iter(|| inspect_bytes(std::hint::black_box(&zip), &policy).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
