//! How fast the case engine answers the inbox: a person's reply (state, events and outbox row
//! in one durable transaction), an inbox page among many cases, and one case's timeline.

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_core::cases::model::{CaseSource, HumanAction, Lead, NewCase};
use skillcase_core::cases::store::{get_case, list_cases, CaseFilter, CaseTab};
use skillcase_core::cases::transition::{open_case, record_lead_asked, reply};

fn new_case(conversation: String) -> NewCase {
    NewCase {
        conversation_id: conversation,
        lead: Lead { name: Some("Maria Souza".into()), ..Lead::default() },
        agent_id: Some("support-bot".into()),
        title: "Refund for a double charge".into(),
        summary: "The lead was charged twice and wants one charge refunded.".into(),
        blocker: None,
        context: Vec::new(),
        source: CaseSource::Agent,
    }
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_core::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    for n in 0..10_000 {
        open_case(&conn, new_case(format!("seed-{n}"))).unwrap();
    }
    let mut n = 0u64;
    c.bench_function("open_case_then_reply_durably", |b| {
        b.iter(|| {
            n += 1;
            let id = open_case(&conn, new_case(format!("bench-{n}"))).unwrap().case.id;
            reply(&conn, &id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap()
        })
    });
    let waiting = CaseFilter { tab: Some(CaseTab::WaitingOnYou), ..CaseFilter::default() };
    c.bench_function("inbox_page_of_50_among_10k_cases", |b| b.iter(|| list_cases(&conn, &waiting).unwrap()));
    let searched = CaseFilter { search: Some("seed-9999".into()), ..CaseFilter::default() };
    c.bench_function("inbox_search_among_10k_cases", |b| b.iter(|| list_cases(&conn, &searched).unwrap()));
    let id = open_case(&conn, new_case("timeline".into())).unwrap().case.id;
    reply(&conn, &id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    for _ in 0..20 {
        record_lead_asked(&conn, &id, Some("Which card?")).unwrap();
    }
    c.bench_function("case_with_22_events", |b| b.iter(|| get_case(&conn, &id).unwrap()));
}

criterion_group! {
    name = cases;
    config = Criterion::default().sample_size(30);
    targets = benches
}
criterion_main!(cases);
