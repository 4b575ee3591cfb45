//! Level 1 at scale: rendering the index for 10,000 skills held in memory, in both formats,
//! with the default budget (most skills cut) and with no budget (all rendered).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_core::skill::disclosure::{index, IndexFormat, DEFAULT_BUDGET};
use skillcase_core::skill::model::{Skill, SkillConfig, SkillFile, SkillType};

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

criterion_group!(benches, render_index);
criterion_main!(benches);
