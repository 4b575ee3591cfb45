//! Level 1 at scale, for 10,000 skills:
//! - `index_10k_in_memory`: rendering from skills already in memory, both formats, with the
//!   default budget (most skills cut) and with no budget (all rendered);
//! - `index_10k_from_disk`: the whole level-1 path from 10,000 skill folders in a temp dir (the
//!   fast `read_index_entry` per folder, keep the valid ones, render) against the raw floor
//!   measured in the same run: open each `<dir>/SKILL.md` and read its first 4 KB,
//!   single-threaded. The target is within 1.5x of the floor.

use std::hint::black_box;
use std::io::Read;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_core::skill::disclosure::{index, IndexFormat, DEFAULT_BUDGET};
use skillcase_core::skill::load::read_index_entry;
use skillcase_core::skill::model::{Skill, SkillConfig, SkillFile, SkillType};
use skillcase_core::skill::validate::Profile;

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
            kind: skillcase_core::skill::model::FileKind::SkillMd,
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
            let skill_md = format!(
                "---\nname: {name}\ndescription: Answers questions about topic {i} and its edge cases. Use when the \
                 customer asks about frete, prazo or devolução for order type {i}.\nlicense: MIT\n\
                 metadata:\n  author: bench\n  team: support\n---\n# Topic {i}\n\n{body}"
            );
            std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
            if i % 10 == 0 {
                std::fs::write(dir.join("skill.config.yaml"), "category: vendas\ntags: [preco, frete]\n").unwrap();
            }
            dir
        })
        .collect()
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

/// The valid skills among `dirs`, read with the fast level-1 loader.
fn read_valid(dirs: &[PathBuf]) -> Vec<Skill> {
    dirs.iter()
        .map(|dir| read_index_entry(dir, Profile::Skillcase))
        .filter(|v| v.is_valid())
        .filter_map(|v| v.skill)
        .collect()
}

/// The whole level-1 path, single-threaded: fast index entry per folder, valid skills kept,
/// index rendered.
fn level1_from_disk(dirs: &[PathBuf], format: IndexFormat) -> usize {
    let skills = read_valid(dirs);
    assert_eq!(skills.len(), dirs.len(), "every generated skill is valid");
    index(&skills, format, DEFAULT_BUDGET).text.len()
}

fn from_disk(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = write_library(tmp.path());
    let mut group = c.benchmark_group("index_10k_from_disk");
    group.sample_size(20);
    group.bench_function("raw_floor_open_read_4k", |b| b.iter(|| raw_floor(black_box(&dirs))));
    group.bench_function("level1_agentskills", |b| {
        b.iter(|| level1_from_disk(black_box(&dirs), IndexFormat::Agentskills))
    });
    group.bench_function("level1_skillcase", |b| {
        b.iter(|| level1_from_disk(black_box(&dirs), IndexFormat::Skillcase))
    });
    group.finish();
}

criterion_group!(benches, render_index, from_disk);
criterion_main!(benches);
