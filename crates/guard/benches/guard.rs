//! How long the guardrail's detector takes on a typical support message (it runs before every
//! message the agent sends), and what it costs to start: loading the embedded model and the
//! first call.
//!
//! `cargo bench -p skillcase-guard` (criterion prints the median of each benchmark; the line
//! `start-up:` before them is the first `detect` of a fresh process, model load included).

use std::time::Instant;

use criterion::{criterion_group, Criterion};
use skillcase_guard::model::Model;
use skillcase_guard::{detect, detect_with, model_bytes};

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

criterion_group!(benches, bench_detect, bench_start_up);

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
