//! How long the guardrail's detector takes on a typical support message (it runs before every
//! message the agent sends), what it costs to start (loading the embedded model and the first
//! call), and the costliest messages it is given: [`MAX_MESSAGE_CHARS`] characters of one clause
//! of promises, and of the patterns the due-time finder reads slowest, through `detect` and
//! `due_near` (which runs when a promise passes).
//!
//! `cargo bench -p skillcase-guard` (criterion prints the median of each benchmark; the line
//! `start-up:` before them is the first `detect` of a fresh process, model load included).

use std::time::Instant;

use criterion::{criterion_group, Criterion};
use skillcase_guard::due::{due_near, Calendar};
use skillcase_guard::model::Model;
use skillcase_guard::retrain::{retrain, Mark};
use skillcase_guard::{detect, detect_with, model_bytes, MAX_MESSAGE_CHARS};

/// A typical agent reply: three sentences, the promise in the last.
const PROMISE_PT: &str = "Oi, Mariana! Entendi: o valor do frete veio cobrado duas vezes no seu cartão. \
     Já conferi aqui o pedido #48213 e está tudo certo com a entrega, prevista para quinta-feira. \
     Vou verificar com o setor financeiro o estorno da cobrança duplicada e te retorno ainda hoje.";

/// Three sentences, the promise in the middle.
const PROMISE_EN: &str = "Thanks for sending the photos of the cracked screen, Daniel. \
     I've logged the claim and our repairs team will call you tomorrow morning to book a courier. \
     Please keep the phone switched off until then.";

/// Three sentences and no promise: every sentence is scored and none may pass.
const CLEAR_EN: &str = "Hi Mark, thanks for waiting. I checked your order #48213 and it left our warehouse \
     this morning; the carrier expects to deliver it on Thursday. I'll send you the tracking link now, \
     and you'll receive an automatic email when it is out for delivery. Is there anything else I can help with?";

fn bench_detect(c: &mut Criterion) {
    detect("warm up the model");
    c.bench_function("detect/promise_pt_br_3_sentences", |b| {
        b.iter(|| detect(std::hint::black_box(PROMISE_PT)))
    });
    c.bench_function("detect/promise_en_3_sentences", |b| {
        b.iter(|| detect(std::hint::black_box(PROMISE_EN)))
    });
    c.bench_function("detect/clear_en_4_sentences", |b| b.iter(|| detect(std::hint::black_box(CLEAR_EN))));
}

fn bench_start_up(c: &mut Criterion) {
    c.bench_function("start_up/load_model", |b| {
        b.iter(|| Model::from_bytes(std::hint::black_box(model_bytes())))
    });
    c.bench_function("start_up/load_model_and_first_detect", |b| {
        b.iter(|| {
            let model = Model::from_bytes(std::hint::black_box(model_bytes())).expect("valid model");
            detect_with(&model, std::hint::black_box(PROMISE_PT))
        })
    });
}

/// `unit` repeated to exactly [`MAX_MESSAGE_CHARS`] characters.
fn at_the_cap(unit: &str) -> String {
    unit.chars().cycle().take(MAX_MESSAGE_CHARS).collect()
}

fn bench_at_the_cap(c: &mut Criterion) {
    let calendar = Calendar::named("America/Sao_Paulo").expect("a known zone");
    let now = jiff::ZonedDateTime::now().with_time_zone(calendar.time_zone().clone());
    let mut group = c.benchmark_group("at_the_cap");
    group.sample_size(10);
    for (name, unit) in
        [("one_clause_of_promises", "vou te ligar amanhã "), ("ellipses", "... "), ("dashes", "—a")]
    {
        let message = at_the_cap(unit);
        group.bench_function(format!("detect/{name}"), |b| b.iter(|| detect(std::hint::black_box(&message))));
        group.bench_function(format!("due_near/{name}"), |b| {
            b.iter(|| due_near(std::hint::black_box(&message), &message, &now, &calendar))
        });
    }
    group.finish();
}

/// *Retrain*: the shipped training plus 0 or 100 marks (the blind split's 100 first messages as
/// stand-ins), and both models measured.
fn bench_retrain(c: &mut Criterion) {
    let mut group = c.benchmark_group("retrain");
    group.sample_size(10);
    let blind = skillcase_guard::base::blind_examples();
    for n in [0, 100] {
        let marks: Vec<Mark> =
            blind.iter().take(n).map(|e| Mark { text: e.text.clone(), promise: e.promise }).collect();
        group.bench_function(format!("{n}_marks"), |b| b.iter(|| retrain(skillcase_guard::model(), &marks)));
    }
    group.finish();
}

criterion_group!(benches, bench_detect, bench_start_up, bench_at_the_cap, bench_retrain);

fn main() {
    // The very first call of this process: the embedded model is parsed, then one message scored.
    let started = Instant::now();
    let found = detect(PROMISE_EN);
    println!(
        "start-up: first detect() of the process {:.3} ms (promise: {})",
        started.elapsed().as_secs_f64() * 1e3,
        found.promise
    );
    benches();
    Criterion::default().configure_from_args().final_summary();
}
