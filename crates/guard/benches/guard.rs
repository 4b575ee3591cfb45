//! How long the guardrail's detector takes on a typical support message (it runs before every
//! message the agent sends).

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_guard::detect;

/// A typical agent reply: three sentences, one of them a promise near the end.
const PROMISE_PT: &str = "Oi, Mariana! Entendi: o valor do frete veio cobrado duas vezes no seu cartão. \
     Já conferi aqui o pedido #48213 e está tudo certo com a entrega, prevista para quinta-feira. \
     Vou verificar com o setor financeiro o estorno da cobrança duplicada e te retorno ainda hoje.";

/// A typical reply with no promise: every rule gets a chance and none may fire.
const CLEAR_EN: &str = "Hi Mark, thanks for waiting. I checked your order #48213 and it left our warehouse \
     this morning; the carrier expects to deliver it on Thursday. I'll send you the tracking link now, \
     and you'll receive an automatic email when it is out for delivery. Is there anything else I can help with?";

fn bench_detect(c: &mut Criterion) {
    detect("warm up the compiled rules");
    c.bench_function("detect/promise_pt_br_3_sentences", |b| {
        b.iter(|| detect(std::hint::black_box(PROMISE_PT)))
    });
    c.bench_function("detect/clear_en_4_sentences", |b| b.iter(|| detect(std::hint::black_box(CLEAR_EN))));
}

criterion_group!(benches, bench_detect);
criterion_main!(benches);
