//! How fast the case engine answers the inbox: a person's reply (state, events and outbox row
//! in one durable transaction), an inbox page among many cases, and one case's timeline; and
//! the inbox over 100 000 cases (first page, a deep page, search, counts), which the
//! virtualised list asks for as the person scrolls. Search goes through the full-text index
//! (`cases_search`, FTS5): a conversation id, a word of a note typed without its accents and cut
//! short as while typing, and a word every case holds. And the handover report over 100 000
//! cases: the inbox's default eight weeks, and a whole year (every case). The quiet-customer
//! job's look-ups run over the same 100 000 cases, and so do the response-time targets' "due
//! soonest" pages and the overdue watch's scan. And the delivery worker's claim when several
//! agents share the inbox, each routed to its own endpoint or the default one.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

use skillcase_cases::agents::{set_agent, AgentInput};
use skillcase_cases::endpoint::{set_endpoint, EndpointInput};
use skillcase_cases::model::{CaseSource, HumanAction, Lead, NewCase};
use skillcase_cases::outbox::{claim_next, release};
use skillcase_cases::quiet::{self, QuietDelays};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::report::ReportRange;
use skillcase_cases::sla;
use skillcase_cases::sql::Storage;
use skillcase_cases::store::{get_case, CaseFilter, CaseSort, CaseTab, CaseView};
use skillcase_cases::CasesRepository;
use skillcase_cases_sqlite::inbox::{list_cases, tab_counts};
use skillcase_cases_sqlite::report::case_report;
use skillcase_cases_sqlite::{SqliteCases, SqliteSql};
use skillcase_store::Database;

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
        reason: HandoverReason::PolicyRestriction,
    }
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let cases = SqliteCases::new(Database::open(&dir.path().join("bench.sqlite3")).unwrap());
    for n in 0..10_000 {
        cases.open_case(new_case(format!("seed-{n}"))).unwrap();
    }
    let mut n = 0u64;
    c.bench_function("open_case_then_reply_durably", |b| {
        b.iter(|| {
            n += 1;
            let id = cases.open_case(new_case(format!("bench-{n}"))).unwrap().case.id;
            cases.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap()
        })
    });
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    let waiting = CaseFilter { tab: Some(CaseTab::WaitingOnYou), ..CaseFilter::default() };
    c.bench_function("inbox_page_of_50_among_10k_cases", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &waiting).unwrap())
    });
    let searched = CaseFilter { search: Some("seed-9999".into()), ..CaseFilter::default() };
    c.bench_function("inbox_search_among_10k_cases", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &searched).unwrap())
    });
    let id = cases.open_case(new_case("timeline".into())).unwrap().case.id;
    cases.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    for _ in 0..20 {
        cases.record_lead_asked(&id, Some("Which card?")).unwrap();
    }
    c.bench_function("case_with_22_events", |b| {
        b.iter(|| get_case(&mut SqliteSql::new(&conn), &id).unwrap())
    });
}

/// Writes `n` cases straight into the table in one transaction (opening them one by one with
/// `synchronous=FULL` would take minutes): 70% waiting on the person, 10% on the customer, the
/// rest closed, one in three already read, one in ten with an internal note. The search index
/// follows through its triggers, as it does for every write.
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
        let mut note = tx
            .prepare(
                "INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
                 VALUES (?1, 'internal_note', 'human', 'Ana', ?2, ?3)",
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
            if i % 10 == 0 {
                note.execute(rusqlite::params![
                    id,
                    at,
                    format!(r#"{{"text":"Gerente aprovou a exceção nº {i}"}}"#)
                ])
                .unwrap();
            }
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
    c.bench_function("inbox_first_page_of_100_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &first).unwrap())
    });
    let deep = page(CaseTab::WaitingOnYou, 69_900);
    c.bench_function("inbox_last_page_of_100_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &deep).unwrap())
    });
    let closed = page(CaseTab::Closed, 10_000);
    c.bench_function("inbox_closed_page_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &closed).unwrap())
    });
    let searched = CaseFilter { search: Some("wa-99999".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &searched).unwrap())
    });
    let typing = CaseFilter { search: Some("excec 4242".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_note_prefix_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &typing).unwrap())
    });
    let name_and_digit = CaseFilter { search: Some("lead 7".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_17k_matches_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &name_and_digit).unwrap())
    });
    let number = CaseFilter { search: Some("4242".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_number_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &number).unwrap())
    });
    let everywhere = CaseFilter { search: Some("refund".into()), ..page(CaseTab::WaitingOnYou, 0) };
    c.bench_function("inbox_search_word_in_every_case_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &everywhere).unwrap())
    });
    c.bench_function("tab_counts_among_100k", |b| b.iter(|| tab_counts(&mut SqliteSql::new(&conn)).unwrap()));
    c.bench_function("tab_counts_recounted_among_100k", |b| b.iter(|| recounted_tab_counts(&conn)));
    quiet_customers(c, &conn);
}

/// The tab counts as they were computed before `case_tab_counts` kept them: grouped over every
/// case, plus the unread count over the covering index. Benched beside the kept counts.
fn recounted_tab_counts(conn: &rusqlite::Connection) -> (i64, i64) {
    let grouped: i64 = conn
        .prepare_cached("SELECT status, count(*) FROM cases GROUP BY status")
        .unwrap()
        .query_map([], |r| r.get::<_, i64>(1))
        .unwrap()
        .map(Result::unwrap)
        .sum();
    let unread = conn
        .query_row(
            "SELECT count(*) FROM cases WHERE status = 'awaiting_human' \
             AND (read_at IS NULL OR read_at < waiting_since)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    (grouped, unread)
}

/// The 100 000 cases of [`seed`], each with one of the seven reasons (and `not_stated` for one
/// in eight), nine in ten answered between 0 and 12 hours after opening, and every resolved case
/// moved into the conversation of an open one opened four cases earlier, so "reopened" has
/// earlier resolved cases to look for.
fn seed_reasons(conn: &rusqlite::Connection) {
    conn.execute_batch(
        "UPDATE cases SET reason = CASE rowid % 8 \
             WHEN 0 THEN 'customer_request' WHEN 1 THEN 'missing_knowledge' WHEN 2 THEN 'unsupported_request' \
             WHEN 3 THEN 'policy_restriction' WHEN 4 THEN 'tool_failure' WHEN 5 THEN 'pending_clarification' \
             WHEN 6 THEN 'guardrail_autofallback' ELSE 'not_stated' END, \
           first_reply_at = CASE WHEN rowid % 10 <> 0 \
             THEN strftime('%Y-%m-%dT%H:%M:%fZ', opened_at, '+' || (rowid * 37 % 720) || ' minutes') END; \
         UPDATE cases SET conversation_id = 'wa-' || (rowid - 5) WHERE status = 'resolved';",
    )
    .unwrap();
}

fn handover_report(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    seed(&conn, 100_000);
    seed_reasons(&conn);
    let eight_weeks = ReportRange { from: "2026-10-05".into(), to: "2026-11-29".into() };
    c.bench_function("handover_report_8_weeks_among_100k", |b| {
        b.iter(|| case_report(&mut SqliteSql::new(&conn), &eight_weeks).unwrap())
    });
    let year = ReportRange { from: "2026-01-01".into(), to: "2026-12-31".into() };
    c.bench_function("handover_report_whole_year_among_100k", |b| {
        b.iter(|| case_report(&mut SqliteSql::new(&conn), &year).unwrap())
    });
}

/// The 100 000 cases of [`seed`] in people's hands as a team's are: four in five assigned to one
/// of seven people, the rest nobody's; the closed totals follow, as the closing steps keep them.
fn seed_assignees(conn: &rusqlite::Connection) {
    conn.execute_batch(
        "UPDATE cases SET assignee = CASE WHEN number % 5 = 0 THEN NULL \
             WHEN number % 7 = 1 THEN 'Ana' ELSE 'Person ' || (number % 7) END; \
         DELETE FROM closed_totals; \
         INSERT INTO closed_totals (assignee, n) \
             SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1;",
    )
    .unwrap();
}

/// The *Mine* and *Unassigned* views over 100 000 cases: each tab's first page with its total;
/// the *Closed* totals are the ones the closing steps keep.
fn views(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    seed(&conn, 100_000);
    seed_assignees(&conn);
    let page = |tab: CaseTab, view: CaseView| CaseFilter {
        tab: Some(tab),
        view: Some(view),
        me: Some("Ana".into()),
        limit: 50,
        ..CaseFilter::default()
    };
    for (name, view) in [("mine", CaseView::Mine), ("unassigned", CaseView::Unassigned)] {
        for (tab_name, tab) in [("waiting_on_you", CaseTab::WaitingOnYou), ("closed", CaseTab::Closed)] {
            let filter = page(tab, view);
            c.bench_function(&format!("{name}_{tab_name}_first_page_among_100k"), |b| {
                b.iter(|| list_cases(&mut SqliteSql::new(&conn), &filter).unwrap())
            });
        }
    }
}

/// The quiet-customer job over the 100 000 cases (10 000 waiting on the customer, half of them
/// reminded a day into their wait): its two look-ups when a batch is due, and a whole run when
/// nothing is due yet, which is what almost every 30-second run finds.
fn quiet_customers(c: &mut Criterion, conn: &rusqlite::Connection) {
    conn.execute(
        "UPDATE cases SET reminded_at = strftime('%Y-%m-%dT%H:%M:%fZ', waiting_since, '+1 day') \
         WHERE status = 'awaiting_lead' AND number % 2 = 0",
        [],
    )
    .unwrap();
    c.bench_function("quiet_due_for_reminder_batch_among_100k", |b| {
        b.iter(|| {
            quiet::due_for_reminder(&mut SqliteSql::new(conn), "2026-12-01T00:00:00.000Z", quiet::BATCH)
                .unwrap()
        })
    });
    c.bench_function("quiet_due_for_close_batch_among_100k", |b| {
        b.iter(|| {
            quiet::due_for_close(&mut SqliteSql::new(conn), "2026-12-01T00:00:00.000Z", true, quiet::BATCH)
                .unwrap()
        })
    });
    let delays = QuietDelays {
        remind_after: Some(Duration::from_secs(24 * 3600)),
        close_after: Some(Duration::from_secs(72 * 3600)),
    };
    c.bench_function("quiet_follow_up_nothing_due_among_100k", |b| {
        b.iter(|| {
            let run = quiet_follow_up(conn, &delays);
            assert!(run.reminded.is_empty() && run.closed.is_empty());
        })
    });
}

/// One run of the quiet-customer job at a time when nothing is due: both look-ups, each finding
/// nothing (the job's transactions run only for the cases found).
fn quiet_follow_up(conn: &rusqlite::Connection, delays: &QuietDelays) -> skillcase_cases::quiet::QuietRun {
    let now = "2026-01-01T00:00:00.000Z";
    let sql = &mut SqliteSql::new(conn);
    let remind = quiet::before(now, delays.remind_after.unwrap()).unwrap();
    let close = quiet::before(now, delays.close_after.unwrap()).unwrap();
    let reminded = quiet::due_for_reminder(sql, &remind, quiet::BATCH).unwrap();
    let closed = quiet::due_for_close(sql, &close, true, quiet::BATCH).unwrap();
    skillcase_cases::quiet::QuietRun { reminded, closed }
}

/// The delivery worker's claim with several agents: 10 000 pending replies, half of them of an
/// agent with its own endpoint, and the default endpoint off, so the claim must pass over every
/// reply that has nowhere to go; then the same with the default endpoint on. Each claim is given
/// back, so every iteration sees the same outbox.
fn agent_routing(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("routing.sqlite3");
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    let billing = AgentInput {
        agent_id: "billing-bot".into(),
        url: Some("http://127.0.0.1:9/billing".into()),
        secret: Some("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into()),
        cases_enabled: true,
        guardrail_enabled: true,
    };
    cases.write(move |sql| set_agent(sql, &billing)).unwrap();
    for n in 0..10_000 {
        let agent = if n % 2 == 0 { "support-bot" } else { "billing-bot" };
        let id = cases
            .open_case(NewCase { agent_id: Some(agent.into()), ..new_case(format!("route-{n}")) })
            .unwrap()
            .case
            .id;
        cases.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    }
    let conn = skillcase_store::db::open(&path).unwrap();
    let margin = Duration::from_secs(5);
    let mut claim_and_give_back = |b: &mut criterion::Bencher| {
        b.iter(|| {
            let claimed = claim_next(&mut SqliteSql::new(&conn), margin).unwrap().unwrap();
            release(&mut SqliteSql::new(&conn), &claimed.id).unwrap();
        })
    };
    let endpoint = |enabled| EndpointInput {
        url: "http://127.0.0.1:9/default".into(),
        secret: Some("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into()),
        timeout_secs: None,
        max_attempts: None,
        enabled,
    };
    set_endpoint(&mut SqliteSql::new(&conn), &endpoint(false)).unwrap();
    c.bench_function("claim_routed_among_10k_pending_default_off", &mut claim_and_give_back);
    set_endpoint(&mut SqliteSql::new(&conn), &endpoint(true)).unwrap();
    c.bench_function("claim_routed_among_10k_pending_default_on", &mut claim_and_give_back);
}

/// The 100 000 cases of [`seed`] with response-time targets: every open case has a first reply
/// due an hour after opening and a resolution due eight hours after; the cases waiting on the
/// customer stand paused.
fn seed_targets(conn: &rusqlite::Connection) {
    conn.execute_batch(
        "UPDATE cases SET first_reply_target = 60, resolution_target = 480, \
           first_reply_due_at = strftime('%Y-%m-%dT%H:%M:%fZ', opened_at, '+1 hour'), \
           resolution_due_at = strftime('%Y-%m-%dT%H:%M:%fZ', opened_at, '+8 hours'); \
         UPDATE cases SET sla_paused_at = waiting_since WHERE status = 'awaiting_lead'; \
         UPDATE cases SET sla_due_at = first_reply_due_at WHERE status = 'awaiting_human';",
    )
    .unwrap();
}

/// "Due soonest" over 100 000 cases (70 000 waiting on the person, each with a running target):
/// the first page and a deep one, walked from `cases_sla_due`; and the overdue watch's scan when
/// nothing new is due (what almost every poll finds: every target already announced).
fn response_targets(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let conn = skillcase_store::db::open(&dir.path().join("bench.sqlite3")).unwrap();
    seed(&conn, 100_000);
    seed_targets(&conn);
    let page = |offset: u32| CaseFilter {
        tab: Some(CaseTab::WaitingOnYou),
        sort: Some(CaseSort::DueSoonest),
        offset,
        limit: 100,
        ..CaseFilter::default()
    };
    let first = page(0);
    c.bench_function("due_soonest_first_page_of_100_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &first).unwrap())
    });
    let deep = page(69_900);
    c.bench_function("due_soonest_last_page_of_100_among_100k", |b| {
        b.iter(|| list_cases(&mut SqliteSql::new(&conn), &deep).unwrap())
    });
    c.bench_function("sla_overdue_scan_nothing_due_among_100k", |b| {
        b.iter(|| {
            assert!(sla::take_overdue(&mut SqliteSql::new(&conn), "2025-12-31T00:00:00.000Z")
                .unwrap()
                .is_empty())
        })
    });
    let announced = sla::take_overdue(&mut SqliteSql::new(&conn), "2026-12-31T00:00:00.000Z").unwrap().len();
    assert!(announced > 70_000, "every open case's targets fell due: {announced}");
    c.bench_function("sla_overdue_scan_all_announced_among_100k", |b| {
        b.iter(|| {
            assert!(sla::take_overdue(&mut SqliteSql::new(&conn), "2026-12-31T00:00:00.000Z")
                .unwrap()
                .is_empty())
        })
    });
}

criterion_group! {
    name = cases;
    config = Criterion::default().sample_size(30);
    targets = benches, hundred_thousand, views, handover_report, response_targets, agent_routing
}
criterion_main!(cases);
