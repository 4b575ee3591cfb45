//! Trigger tests at library scale: 10,000 cases over 1,000 skills, each case run through the
//! matcher and level-2 routing against every skill (`skillcase test`, the window's Tests tab and
//! conflicts view all run exactly this). The target is at most 1 s for the whole run.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_skill::model::{Matcher, References, Route, Skill, SkillConfig, SkillFile, SkillType};
use skillcase_skill::triggers::{run_cases, TriggerCase};

const SKILLS: usize = 1_000;
const CASES_PER_SKILL: usize = 10;

fn file(path: &str) -> SkillFile {
    SkillFile {
        path: path.into(),
        size: 100,
        kind: skillcase_skill::files::kind_of(path),
        infrastructure: false,
    }
}

/// A skill with six hard keywords (one or two words), three probes and two routes.
fn generated(i: usize) -> Skill {
    let hard = vec![
        format!("produto{i}"),
        format!("pedido {i}"),
        format!("troca do item{i}"),
        format!("nota fiscal {i}"),
        format!("plano{i}"),
        format!("assinatura{i}"),
    ];
    let routes = vec![
        Route {
            match_: vec![format!("urgente{i}"), "estorno".into()],
            required_refs: vec!["references/estorno.md".into()],
        },
        Route { match_: vec![format!("empresa{i}")], required_refs: vec!["references/pj.md".into()] },
    ];
    Skill {
        name: format!("skill-{i:04}"),
        description: format!("Skill {i}"),
        license: None,
        compatibility: None,
        metadata: Default::default(),
        allowed_tools: None,
        dir: format!("/skills/skill-{i:04}").into(),
        body: String::new(),
        config: SkillConfig {
            matcher: Some(Matcher {
                any_keywords: hard,
                probe_keywords: vec![format!("duvida{i}"), format!("entrega{i}"), "prazo".into()],
            }),
            references: References { required: vec!["references/base.md".into()], routes },
            ..Default::default()
        },
        skill_type: SkillType::Prompt,
        files: ["references/base.md", "references/estorno.md", "references/pj.md"]
            .into_iter()
            .map(file)
            .collect(),
    }
}

/// Ten realistic messages per skill: positives in several phrasings (some with a route word or
/// another skill's keyword), a probe, and negatives naming a neighbour.
fn cases(i: usize) -> Vec<TriggerCase> {
    let next = (i + 1) % SKILLS;
    let case = |query: String, should_trigger: bool| TriggerCase {
        query,
        should_trigger,
        kind: None,
        required_refs: None,
    };
    vec![
        case(format!("Olá, comprei o produto{i} semana passada e ainda não chegou, podem ver?"), true),
        case(format!("Qual o status do pedido {i}? Preciso com urgência, é urgente{i} mesmo"), true),
        case(format!("Quero fazer a troca do item{i}, veio com defeito e a caixa amassada"), true),
        case(format!("Não recebi a nota fiscal {i} no e-mail, podem reenviar por favor?"), true),
        case(format!("Como cancelo o plano{i}? Sou da empresa{i} e quero o estorno"), true),
        case(format!("A assinatura{i} renovou sozinha e também tenho o produto{next}"), true),
        TriggerCase {
            kind: Some(skillcase_skill::matcher::Trigger::Probe),
            ..case(format!("Tenho uma duvida{i} sobre o prazo"), true)
        },
        case(format!("Quero saber do produto{next}, é para presente"), false),
        case("Vocês abrem no domingo? Qual o horário da loja no shopping?".to_string(), false),
        case(format!("Meu cadastro está com o e-mail errado, número {i}"), false),
    ]
    .into_iter()
    .take(CASES_PER_SKILL)
    .collect()
}

fn trigger_tests(c: &mut Criterion) {
    let skills: Vec<Skill> = (0..SKILLS).map(generated).collect();
    let all: BTreeMap<String, Vec<TriggerCase>> =
        (0..SKILLS).map(|i| (skills[i].name.clone(), cases(i))).collect();
    let report = run_cases(&skills, &all);
    assert_eq!(report.passed + report.failed, (SKILLS * CASES_PER_SKILL) as u32);
    assert_eq!(report.failed, 0, "the generated cases all pass");
    let mut group = c.benchmark_group("triggers_1k_skills");
    group.sample_size(20);
    group.bench_function("run_10k_cases", |b| b.iter(|| run_cases(black_box(&skills), black_box(&all))));
    group.finish();
}

criterion_group!(benches, trigger_tests);
criterion_main!(benches);
