//! Level 1 at scale, for 10,000 skills:
//! - `index_10k_in_memory`: rendering from skills already in memory, both formats, with the
//!   default budget (most skills cut) and with no budget (all rendered);
//! - `index_10k_from_disk`: the whole level-1 path from 10,000 skill folders in a temp dir (the
//!   fast `read_index_entry` per folder, keep the valid ones, render) against the raw floor
//!   measured in the same run: open each `<dir>/SKILL.md` and read its first 4 KB,
//!   single-threaded. The target is within 1.5x of the floor. Level 1 spreads the folders over
//!   the cores, as the library's listing pass does, so the floor is also measured that way
//!   (`raw_floor_open_read_4k_all_cores`) to show what the file system allows. A third reference,
//!   `lookup_floor`, adds the two look-ups level 1 cannot skip (is there a `skill.config.yaml`?
//!   a `scripts/`? — they decide the config and the type), so the file-system share of the
//!   level-1 time can be told apart from the parsing, validation and rendering share.
//! - `index_entry_in_memory`: the rules level 1 runs on one folder's frontmatter (and config),
//!   without the file system, so the CPU share of `read_index_entry` can be read directly.
//! - `index_10k_from_disk_cpu`: the single-threaded floors and level 1, timed in CPU time of the
//!   whole process (every thread) instead of wall time, which other work on a shared machine
//!   disturbs far less, and which shows what spreading the work over the cores costs.

use std::hint::black_box;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_common::parallel;
use skillcase_skill::disclosure::{index, IndexFormat, DEFAULT_BUDGET};
use skillcase_skill::load::read_index_entry;
use skillcase_skill::model::{Skill, SkillConfig, SkillFile, SkillType};
use skillcase_skill::package::{Package, PackageFile};
use skillcase_skill::policy::Policy;
use skillcase_skill::validate::{validate_scoped, Profile, Scope};

const SKILLS: usize = 10_000;

fn generated(i: usize) -> Skill {
    let name = format!("skill-{i:05}");
    Skill {
        description: format!(
            "Answers questions about topic {i} & its <edge> cases: when the customer asks about \
             frete, prazo or devolução for order type {i}, use this skill."
        ),
        license: None,
        compatibility: None,
        metadata: Default::default(),
        allowed_tools: None,
        dir: format!("/home/ana/skills/{name}").into(),
        body: String::new(),
        config: SkillConfig {
            category: Some("vendas".into()),
            tags: vec!["preco".into(), format!("t{}", i % 7)],
            hidden: i % 50 == 0,
            ..Default::default()
        },
        skill_type: SkillType::Prompt,
        files: vec![SkillFile {
            path: "SKILL.md".into(),
            size: 100,
            kind: skillcase_skill::model::FileKind::SkillMd,
            infrastructure: false,
        }],
        name,
    }
}

fn render_index(c: &mut Criterion) {
    // Reverse order so the sort does real work.
    let skills: Vec<Skill> = (0..SKILLS).rev().map(generated).collect();
    let mut group = c.benchmark_group("index_10k_in_memory");
    for format in [IndexFormat::Agentskills, IndexFormat::Skillcase] {
        group.bench_function(format!("{}_default_budget", format.as_str()), |b| {
            b.iter(|| index(black_box(&skills), format, DEFAULT_BUDGET))
        });
        group.bench_function(format!("{}_unbounded", format.as_str()), |b| {
            b.iter(|| index(black_box(&skills), format, usize::MAX))
        });
    }
    group.finish();
}

/// Writes 10,000 skill folders (`SKILL.md` with a realistic frontmatter and a ~2 KB body; every
/// tenth with a `skill.config.yaml`) and returns their paths.
fn write_library(root: &Path) -> Vec<PathBuf> {
    let body = "Follow these steps when the customer asks about the topic.\n".repeat(35);
    (0..SKILLS)
        .map(|i| {
            let name = format!("skill-{i:05}");
            let dir = root.join(&name);
            std::fs::create_dir_all(&dir).unwrap();
            let skill_md = format!("{}# Topic {i}\n\n{body}", frontmatter(i));
            std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
            if i % 10 == 0 {
                std::fs::write(dir.join("skill.config.yaml"), "category: vendas\ntags: [preco, frete]\n")
                    .unwrap();
            }
            dir
        })
        .collect()
}

/// The frontmatter of generated skill `i`, as `write_library` writes it (level 1 reads no body).
fn frontmatter(i: usize) -> String {
    let name = format!("skill-{i:05}");
    format!(
        "---\nname: {name}\ndescription: Answers questions about topic {i} and its edge cases. Use when the \
         customer asks about frete, prazo or devolução for order type {i}.\nlicense: MIT\n\
         metadata:\n  author: bench\n  team: support\n---\n"
    )
}

fn entry_in_memory(c: &mut Criterion) {
    let policy = Policy::default();
    let scope = Scope::Index { has_scripts: false };
    let package = |config: Option<&str>| {
        let mut files =
            vec![PackageFile::validation_only("SKILL.md", frontmatter(7).into_bytes(), 4096, None)];
        if let Some(config) = config {
            files.push(PackageFile::validation_only(
                "skill.config.yaml",
                config.into(),
                config.len() as u64,
                None,
            ));
        }
        Package { folder_name: Some("skill-00007".into()), files }
    };
    let mut group = c.benchmark_group("index_entry_in_memory");
    let plain = package(None);
    group.bench_function("frontmatter_only", |b| {
        b.iter(|| validate_scoped(black_box(&plain), Profile::Skillcase, &policy, scope))
    });
    let configured = package(Some("category: vendas\ntags: [preco, frete]\n"));
    group.bench_function("with_config", |b| {
        b.iter(|| validate_scoped(black_box(&configured), Profile::Skillcase, &policy, scope))
    });
    group.finish();
}

/// The floor: open each SKILL.md and read its first 4 KB, nothing else.
fn raw_floor(dirs: &[PathBuf]) -> usize {
    let mut buf = [0u8; 4096];
    let mut total = 0;
    for dir in dirs {
        let mut file = std::fs::File::open(dir.join("SKILL.md")).unwrap();
        total += file.read(&mut buf).unwrap();
    }
    total
}

/// The floor plus the two look-ups level 1 needs in every folder (both absent in 9 of 10 here).
fn lookup_floor(dirs: &[PathBuf]) -> usize {
    let mut buf = [0u8; 4096];
    let mut total = 0;
    for dir in dirs {
        let mut file = std::fs::File::open(dir.join("SKILL.md")).unwrap();
        total += file.read(&mut buf).unwrap();
        total += usize::from(std::fs::metadata(dir.join("skill.config.yaml")).is_ok());
        total += usize::from(std::fs::metadata(dir.join("scripts")).is_ok());
    }
    total
}

/// The floor again, with the folders spread over the cores the way level 1 spreads them: what
/// the file system allows at best when every core reads.
fn raw_floor_parallel(dirs: &[PathBuf]) -> usize {
    parallel::map(dirs, |dir| raw_floor(std::slice::from_ref(dir)), |_| {}).into_iter().sum()
}

/// How the folders are read: spread over the cores (the library's listing pass) or one after
/// the other on the calling thread (the like-for-like comparison with the single-threaded floor).
#[derive(Clone, Copy)]
enum Threads {
    AllCores,
    One,
}

/// The valid skills among `dirs`, read with the fast level-1 loader.
fn read_valid(dirs: &[PathBuf], threads: Threads) -> Vec<Skill> {
    let policy = Policy::default();
    let entry = |dir: &PathBuf| read_index_entry(dir, Profile::Skillcase, &policy);
    let read = match threads {
        Threads::AllCores => parallel::map(dirs, entry, |_| {}),
        Threads::One => dirs.iter().map(entry).collect(),
    };
    read.into_iter().filter(|v| v.is_valid()).filter_map(|v| v.skill).collect()
}

/// The whole level-1 path: fast index entry per folder, valid skills kept, index rendered.
fn level1_from_disk(dirs: &[PathBuf], format: IndexFormat, threads: Threads) -> usize {
    let skills = read_valid(dirs, threads);
    assert_eq!(skills.len(), dirs.len(), "every generated skill is valid");
    index(&skills, format, DEFAULT_BUDGET).text.len()
}

fn from_disk(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = write_library(tmp.path());
    let mut group = c.benchmark_group("index_10k_from_disk");
    group.sample_size(20);
    group.bench_function("raw_floor_open_read_4k", |b| b.iter(|| raw_floor(black_box(&dirs))));
    group.bench_function("raw_floor_open_read_4k_all_cores", |b| {
        b.iter(|| raw_floor_parallel(black_box(&dirs)))
    });
    group.bench_function("lookup_floor_plus_config_and_scripts", |b| {
        b.iter(|| lookup_floor(black_box(&dirs)))
    });
    group.bench_function("level1_agentskills", |b| {
        b.iter(|| level1_from_disk(black_box(&dirs), IndexFormat::Agentskills, Threads::AllCores))
    });
    group.bench_function("level1_agentskills_one_thread", |b| {
        b.iter(|| level1_from_disk(black_box(&dirs), IndexFormat::Agentskills, Threads::One))
    });
    group.bench_function("level1_skillcase", |b| {
        b.iter(|| level1_from_disk(black_box(&dirs), IndexFormat::Skillcase, Threads::AllCores))
    });
    group.finish();
}

/// CPU time consumed so far by the whole process, every thread included, so work spread over
/// the cores is counted in full.
fn process_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Times `iters` runs of `f` in process CPU time.
fn cpu_iters(iters: u64, mut f: impl FnMut() -> usize) -> Duration {
    let start = process_cpu();
    for _ in 0..iters {
        black_box(f());
    }
    process_cpu() - start
}

fn from_disk_cpu(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = write_library(tmp.path());
    let mut group = c.benchmark_group("index_10k_from_disk_cpu");
    group.sample_size(20);
    group.bench_function("raw_floor_open_read_4k", |b| b.iter_custom(|n| cpu_iters(n, || raw_floor(&dirs))));
    group.bench_function("lookup_floor_plus_config_and_scripts", |b| {
        b.iter_custom(|n| cpu_iters(n, || lookup_floor(&dirs)))
    });
    group.bench_function("level1_agentskills", |b| {
        b.iter_custom(|n| {
            cpu_iters(n, || level1_from_disk(&dirs, IndexFormat::Agentskills, Threads::AllCores))
        })
    });
    group.bench_function("level1_agentskills_one_thread", |b| {
        b.iter_custom(|n| cpu_iters(n, || level1_from_disk(&dirs, IndexFormat::Agentskills, Threads::One)))
    });
    group.finish();
}

criterion_group!(benches, render_index, entry_in_memory, from_disk, from_disk_cpu);
criterion_main!(benches);
