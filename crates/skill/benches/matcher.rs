//! Keyword matching at scale (SPEC A7): the API matches every customer message, so building the
//! keyword index for 10,000 skills and matching one message against it are both measured.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_skill::matcher::KeywordIndex;
use skillcase_skill::model::{Matcher, Skill, SkillConfig, SkillType};

const SKILLS: usize = 10_000;

fn generated(i: usize) -> Skill {
    Skill {
        name: format!("skill-{i:05}"),
        description: format!("Skill {i}"),
        license: None,
        compatibility: None,
        metadata: Default::default(),
        allowed_tools: None,
        dir: format!("/skills/skill-{i:05}").into(),
        body: String::new(),
        config: SkillConfig {
            matcher: Some(Matcher {
                any_keywords: vec![format!("produto{i}"), format!("nota fiscal {i}")],
                probe_keywords: vec![format!("duvida{i}")],
            }),
            ..Default::default()
        },
        skill_type: SkillType::Prompt,
        files: vec![],
    }
}

fn matching(c: &mut Criterion) {
    let skills: Vec<Skill> = (0..SKILLS).map(generated).collect();
    let message = "Olá! Comprei o produto4242 semana passada e ainda não recebi a Nota Fiscal 17. \
                   Também tenho uma dúvida9999 sobre a devolução: qual o prazo? Obrigado.";
    let mut group = c.benchmark_group("matcher_10k");
    group.bench_function("build_keyword_index", |b| b.iter(|| KeywordIndex::new(black_box(&skills))));
    let compiled = KeywordIndex::new(&skills);
    group.bench_function("match_one_message", |b| b.iter(|| compiled.match_message(black_box(message))));
    group.finish();
}

criterion_group!(benches, matching);
criterion_main!(benches);
