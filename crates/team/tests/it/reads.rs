//! The team inbox's reads at scale: a first page and its counts read indexes, not every case.
//! (What the inbox shows is tested on both databases in `skillcase-cases`' suite.)

use skillcase_cases::store::{CaseFilter, CasePage, CaseTab, CaseView};
use skillcase_team::reads;
use skillcase_team::sql::PgSql;

use crate::support::{psql, team};

fn numbers(page: &CasePage) -> Vec<i64> {
    page.items.iter().map(|item| item.case.number).collect()
}

fn tab(tab: CaseTab) -> CaseFilter {
    CaseFilter { tab: Some(tab), ..CaseFilter::default() }
}

/// A timestamp expression written the way the domain's clock writes times.
fn stamp(timestamp: &str) -> String {
    format!("to_char({timestamp}, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
}

#[test]
fn the_first_pages_and_their_counts_read_indexes_not_every_case() {
    let team = team();
    // 20,000 cases: 19,000 closed and 1,000 waiting, a quarter of them on the customer; Ana
    // has one case in fifty.
    psql(
        team.url(),
        &format!(
            "WITH c AS (SELECT n, CASE WHEN n > 19000 THEN (CASE WHEN n % 4 = 0 THEN 'awaiting_lead' ELSE 'awaiting_human' END) \
                 ELSE 'resolved' END AS status, {} AS at FROM generate_series(1, 20000) n) \
             INSERT INTO cases (id, number, conversation_id, lead_name, status, title, summary, source, waiting_since, \
                 opened_at, updated_at, closed_at, assignee) \
             SELECT 'case-' || n, 1000 + n, 'conv-' || n, 'Lead ' || n, status, 'Refund for order ' || n, 'Charged twice', \
                 'agent', CASE WHEN status <> 'resolved' THEN at END, at, at, CASE WHEN status = 'resolved' THEN at END, \
                 CASE WHEN n % 50 = 0 THEN 'Ana' END FROM c",
            stamp("timestamp '2024-01-01' + n * interval '1 minute'")
        ),
    );
    psql(team.url(), "UPDATE case_counter SET next = 21001");
    // The closed totals, as the closing steps would have kept them.
    psql(
        team.url(),
        "INSERT INTO closed_totals (assignee, n) \
         SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1",
    );
    // As autovacuum leaves a table: statistics gathered, new search entries moved into the index.
    psql(team.url(), "VACUUM ANALYZE cases");
    // The reads run in one transaction, whose own scans PostgreSQL counts per table.
    let mut conn = team.pg().connection().unwrap();
    let mut tx = conn.transaction().unwrap();
    let mut sql = PgSql::new(&mut tx);

    let counts = reads::tab_counts(&mut sql).unwrap();
    assert_eq!((counts.waiting_on_you, counts.waiting_on_customer, counts.closed), (750, 250, 19_000));
    let first = reads::list_cases(&mut sql, &tab(CaseTab::WaitingOnYou)).unwrap();
    assert_eq!((first.items.len(), first.total), (50, 750));
    assert_eq!(numbers(&reads::list_cases(&mut sql, &tab(CaseTab::Closed)).unwrap())[0], 20_000);
    let mine = CaseFilter { view: Some(CaseView::Mine), me: Some("Ana".into()), ..tab(CaseTab::Closed) };
    assert_eq!(reads::list_cases(&mut sql, &mine).unwrap().total, 380);
    let search = CaseFilter { search: Some("order 12345".into()), ..tab(CaseTab::Closed) };
    assert_eq!(numbers(&reads::list_cases(&mut sql, &search).unwrap()), [13_345]);
    let scans =
        tx.query_one("SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'cases'", &[]);
    let (seq, idx): (i64, i64) = scans.map(|row| (row.get(0), row.get(1))).unwrap();
    assert!(idx > 0, "the reads used indexes");
    assert_eq!(seq, 0, "no read went through every case");
    // Each count reads the narrowest index for it (the unread one only while its predicate is
    // `UNREAD_WAITING` word for word).
    let counted = [
        (reads::UNREAD_WAITING, "cases_unread"),
        ("status = 'awaiting_lead'", "cases_open_status"),
        ("closed_at IS NOT NULL AND assignee = 'Ana'", "cases_closed_by_assignee"),
    ];
    for (condition, index) in counted {
        let plan = tx.query(&format!("EXPLAIN SELECT count(*) FROM cases WHERE {condition}"), &[]).unwrap();
        let plan: Vec<String> = plan.iter().map(|row| row.get(0)).collect();
        assert!(plan.iter().any(|line| line.contains(index)), "{condition}: {plan:?}");
    }
    let mut sql = PgSql::new(&mut tx);
    // A search that finds few cases reads them as a list; one that finds many (every closed
    // case says "order", read best by a scan) searches in each statement: both count and page alike.
    let few = CaseFilter { search: Some("order 1234".into()), ..tab(CaseTab::Closed) };
    let few = reads::list_cases(&mut sql, &few).unwrap();
    assert_eq!((few.total, numbers(&few)[..3].to_vec()), (12, vec![13_349, 13_348, 13_347]));
    let many = CaseFilter { search: Some("order".into()), ..tab(CaseTab::Closed) };
    let many = reads::list_cases(&mut sql, &many).unwrap();
    assert_eq!((many.total, numbers(&many)[0], many.items.len()), (19_000, 20_000, 50));
}

#[test]
fn the_overdue_watch_finds_the_next_promise_owed_without_walking_the_promises_already_told() {
    let team = team();
    // 20,000 cases with a promise: the 19,000 oldest closed or already announced, then 1,000
    // waiting on a person and owed.
    psql(
        team.url(),
        &format!(
            "INSERT INTO cases (id, number, conversation_id, lead_name, status, title, summary, source, waiting_since, \
                 opened_at, updated_at, closed_at, promise_quote, promise_due_at, promise_overdue_told) \
             SELECT 'case-' || n, 1000 + n, 'conv-' || n, 'Lead ' || n, \
                 CASE WHEN n > 19000 OR n % 2 = 0 THEN 'awaiting_human' ELSE 'resolved' END, 'Refund ' || n, 'Charged twice', \
                 'agent', {at}, {at}, {at}, CASE WHEN n <= 19000 AND n % 2 = 1 THEN {at} END, 'I will call you', {at}, n <= 19000 \
             FROM generate_series(1, 20000) n",
            at = stamp("timestamp '2024-01-01' + n * interval '1 minute'")
        ),
    );
    psql(team.url(), "VACUUM ANALYZE cases");
    let mut conn = team.pg().connection().unwrap();
    let mut tx = conn.transaction().unwrap();
    let mut sql = PgSql::new(&mut tx);

    let next = skillcase_cases::promises::next_overdue(&mut sql).unwrap();
    assert_eq!(next.as_deref(), Some("2024-01-14T04:41:00.000Z"), "case 19,001's promise");
    let scans = tx.query_one(
        "SELECT seq_scan, idx_tup_fetch FROM pg_stat_xact_user_tables WHERE relname = 'cases'",
        &[],
    );
    let (seq, fetched): (i64, i64) = scans.map(|row| (row.get(0), row.get(1))).unwrap();
    assert_eq!(seq, 0, "the look went through every case");
    assert!(fetched <= 10, "the look read {fetched} cases to find one");
}
