//! How fast the case engine answers the inbox: a person's reply (state, events and outbox row
//! in one durable transaction), an inbox page among many cases, and one case's timeline; and
//! the inbox over 100 000 cases (first page, a deep page, search, counts), which the
//! virtualised list asks for as the person scrolls.

use criterion::{criterion_group, criterion_main, Criterion};
use skillcase_cases::model::{CaseSource, HumanAction, Lead, NewCase};
use skillcase_cases::store::{get_case, list_cases, tab_counts, CaseFilter, CaseTab};
use skillcase_cases::transition::{open_case, record_lead_asked, reply};

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
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
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

/// Writes `n` cases straight into the table in one transaction (opening them one by one with
/// `synchronous=FULL` would take minutes): 70% waiting on the person, 10% on the customer, the
/// rest closed, one in three already read.
fn seed(conn: &rusqlite::Connection, n: u32) {
    let tx = conn.unchecked_transaction().unwrap();
    {
        let mut case = tx
            .prepare(
                "INSERT INTO cases (id, number, conversation_id, lead_name, status, title, summary, context, \
                 source, waiting_since, opened_at, updated_at, closed_at, read_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '[]', 'agent', ?8, ?9, ?9, ?10, ?11)",
            )
            .unwrap();
        for i in 0..n {
            let at = format!("2026-{:02}-{:02}T{:02}:{:02}:00.000Z", 1 + i % 11, 1 + i % 28, i % 24, i % 60);
            let status = match i % 10 {
                0..=6 => "awaiting_human",
                7 => "awaiting_lead",
                8 => "resolved",
                _ => "escalated",
            };
            let open = matches!(status, "awaiting_human" | "awaiting_lead");
            let id = format!("case-{i:06}");
            case.execute(rusqlite::params![
                id,
                1001 + i64::from(i),
                format!("wa-{i}"),
                format!("Lead {i}"),
                status,
                format!("Refund request {i}"),
                "The lead was charged twice and wants one charge refunded.",
                open.then_some(&at),
                at,
                (!open).then_some(&at),
                (i % 3 == 0).then_some("2026-12-31T00:00:00.000Z"),
            ])
            .unwrap();
        }
    }
    tx.commit().unwrap();
}

fn hundred_thousand(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    seed(&conn, 100_000);
    let page = |tab: CaseTab, offset: u32| CaseFilter {
        tab: Some(tab),
        offset,
        limit: 100,
        ..CaseFilter::default()
    };
    let first = page(CaseTab::WaitingOnYou, 0);
    c.bench_function("inbox_first_page_of_100_among_100k", |b| b.iter(|| list_cases(&conn, &first).unwrap()));
    let deep = page(CaseTab::WaitingOnYou, 69_900);
    c.bench_function("inbox_last_page_of_100_among_100k", |b| b.iter(|| list_cases(&conn, &deep).unwrap()));
    let closed = page(CaseTab::Closed, 10_000);
    c.bench_function("inbox_closed_page_among_100k", |b| b.iter(|| list_cases(&conn, &closed).unwrap()));
    let searched = CaseFilter { search: Some("wa-99999".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_among_100k", |b| b.iter(|| list_cases(&conn, &searched).unwrap()));
    c.bench_function("tab_counts_among_100k", |b| b.iter(|| tab_counts(&conn).unwrap()));
}

criterion_group! {
    name = cases;
    config = Criterion::default().sample_size(30);
    targets = benches, hundred_thousand
}
criterion_main!(cases);
