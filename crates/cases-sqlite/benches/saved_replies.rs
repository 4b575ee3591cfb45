//! How fast the reply box's picker answers a keystroke among 500 saved replies: the matching
//! alone (folded query against each reply's stored search text, ranked), and the whole look-up
//! the window asks for (the SQL read of the candidates for the action and language, then the
//! matching), for a query typed without its accents, one that matches nothing, and an empty one.

use criterion::{criterion_group, criterion_main, Criterion};

use skillcase_cases::model::HumanAction;
use skillcase_cases::replies::pick::{self, PickFilter};
use skillcase_cases::replies::{store, ReplyLanguage, SavedReply, SavedReplyInput};
use skillcase_cases_sqlite::SqliteSql;

const TOPICS: [&str; 10] = [
    "Reembolso",
    "Cartão",
    "Entrega",
    "Troca",
    "Garantia",
    "Refund",
    "Shipping",
    "Invoice",
    "Password",
    "Warranty",
];

fn input(n: usize) -> SavedReplyInput {
    let topic = TOPICS[n % TOPICS.len()];
    let actions =
        [None, Some(HumanAction::Resolved), Some(HumanAction::NeedLeadInfo), Some(HumanAction::Escalate)];
    let languages = [None, Some(ReplyLanguage::En), Some(ReplyLanguage::PtBr)];
    SavedReplyInput {
        title: format!("{topic} {n}: resposta padrão"),
        body: format!(
            "Olá {{{{lead.name}}}}, sobre o caso {{{{case.number}}}} ({topic}): já verifiquei a situação e \
             a solução é a seguinte. Qualquer dúvida, estou à disposição. — {{{{person.name}}}} ({n})"
        ),
        action: actions[n % actions.len()],
        language: languages[n % languages.len()],
    }
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    store::import(&mut SqliteSql::new(&conn), (0..500).map(input).collect()).unwrap();
    let replies: Vec<SavedReply> = store::list(&mut SqliteSql::new(&conn)).unwrap();
    let texts: Vec<String> = replies.iter().map(|r| pick::search_text(&r.title, &r.body)).collect();
    let filter = |query: &str| PickFilter {
        action: Some(HumanAction::Resolved),
        language: ReplyLanguage::PtBr,
        query: query.into(),
    };
    for (name, query) in [("accentless", "cartao"), ("no_match", "zzz"), ("empty", "")] {
        let f = filter(query);
        c.bench_function(&format!("saved_reply_match_500_{name}"), |b| {
            b.iter(|| pick::pick(replies.iter().zip(texts.iter().map(String::as_str)), &f))
        });
        c.bench_function(&format!("saved_reply_pick_500_{name}"), |b| {
            b.iter(|| store::pick(&mut SqliteSql::new(&conn), &f).unwrap())
        });
    }
}

criterion_group!(saved_replies, benches);
criterion_main!(saved_replies);
