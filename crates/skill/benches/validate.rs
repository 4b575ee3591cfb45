//! Validation speed: one skill parsed and validated in memory, the whole 142-skill corpus loaded
//! from disk and validated, and the level-1 index path against its floor (open each SKILL.md and
//! read 4 KB); and the security scan that runs beside validation on every import: one skill, and
//! a 4 MiB file on one line (plain, full of findings, non-ASCII), whose cost must grow with its
//! length and no faster.

use std::hint::black_box;
use std::io::Read;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skillcase_skill::frontmatter;
use skillcase_skill::load::{load_dir, package_from_dir, read_index_entry};
use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::policy::Policy;
use skillcase_skill::scan::scan_package;
use skillcase_skill::validate::{validate_package, Profile};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn skill_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("the shared corpus is required for benches")
        .flatten()
        .filter(|e| e.path().is_dir())
        .flat_map(|c| std::fs::read_dir(c.path()).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn one_skill(c: &mut Criterion) {
    let pkg = package_from_dir(&corpus().join("anthropics-skills/skill-creator")).unwrap();
    let text = String::from_utf8(pkg.file("SKILL.md").unwrap().bytes.clone()).unwrap();
    let policy = Policy::default();
    c.bench_function("frontmatter_parse_skill_creator", |b| b.iter(|| frontmatter::parse(black_box(&text))));
    c.bench_function("validate_package_skill_creator", |b| {
        b.iter(|| validate_package(black_box(&pkg), Profile::Skillcase, &policy))
    });
}

fn whole_corpus(c: &mut Criterion) {
    let dirs = skill_dirs();
    let policy = Policy::default();
    let mut group = c.benchmark_group("corpus_142");
    group.sample_size(20);
    group.bench_function("load_and_validate_skillcase", |b| {
        b.iter(|| {
            dirs.iter().map(|d| load_dir(d, Profile::Skillcase, &policy).is_valid()).filter(|v| *v).count()
        })
    });
    group.bench_function("index_entries", |b| {
        b.iter(|| {
            dirs.iter()
                .map(|d| read_index_entry(d, Profile::Skillcase, &policy).is_valid())
                .filter(|v| *v)
                .count()
        })
    });
    group.bench_function("floor_open_and_read_4k", |b| {
        b.iter(|| {
            dirs.iter()
                .map(|d| {
                    let mut buf = [0u8; 4096];
                    let mut f = std::fs::File::open(d.join("SKILL.md")).unwrap();
                    f.read(&mut buf).unwrap()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("floor_plus_config_and_scripts_lookups", |b| {
        b.iter(|| {
            dirs.iter()
                .map(|d| {
                    let mut buf = [0u8; 4096];
                    let mut f = std::fs::File::open(d.join("SKILL.md")).unwrap();
                    let n = f.read(&mut buf).unwrap();
                    let config = std::fs::File::open(d.join("skill.config.yaml")).is_ok();
                    n + usize::from(config) + usize::from(d.join("scripts").is_dir())
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

/// A package of one `SKILL.md` holding `unit` repeated to `len` bytes, on one line.
fn one_line(unit: &str, len: usize) -> Package {
    let line = unit.repeat(len / unit.len());
    Package { folder_name: None, files: vec![PackageFile::new("SKILL.md", line.into_bytes(), None)] }
}

fn scan(c: &mut Criterion) {
    let pkg = package_from_dir(&corpus().join("anthropics-skills/skill-creator")).unwrap();
    c.bench_function("scan_package_skill_creator", |b| b.iter(|| scan_package(black_box(&pkg))));
    let mut group = c.benchmark_group("scan_one_line");
    group.sample_size(10);
    for (name, unit) in [
        ("plain", "the quick brown fox "),
        ("raw_ip_links", "http://1.2.3.4 "),
        ("non_ascii", "você executa é "),
    ] {
        for len in [1 << 20, 4 << 20] {
            let pkg = one_line(unit, len);
            group.throughput(Throughput::Bytes(len as u64));
            group.bench_function(format!("{name}_{}_mib", len >> 20), |b| {
                b.iter(|| scan_package(black_box(&pkg)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, one_skill, whole_corpus, scan);
criterion_main!(benches);
