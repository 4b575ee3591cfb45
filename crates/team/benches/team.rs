//! The team inbox's performance targets at a million cases on PostgreSQL: the inbox's
//! first page of each tab and view with its total and tab counts, and the tab counts alone, each
//! within 20 ms; then "open case" (`get_case`, what the window calls when a person opens one),
//! once from one client and then from 16 clients at once for ten seconds, at least 1,000 a second
//! with a p99 within 30 ms. Criterion does not run calls concurrently, so the 16 clients are timed
//! by hand after the criterion groups (whatever filter they were given) and their figures printed.
//!
//! The million cases are filled once (`fill.sql`: one `INSERT … SELECT` per table) into a cluster
//! kept under the target directory (`target/team-bench/`); later runs find the filled database
//! by its marker and start at once. The marker is a digest of the schema and the fill, so a
//! changed index or mix fills again. The server is stopped when the bench ends.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::Criterion;
use postgres::{Client, NoTls};
use sha2::{Digest, Sha256};
use skillcase_cases::store::{CaseFilter, CaseTab, CaseView};
use skillcase_cases::CasesRepository;
use skillcase_team::{PgCases, TeamUrl};
use skillcase_testkit::postgres::Cluster;

/// The cases [`FILL`] writes.
const CASES: i64 = 1_000_000;
const FILL: &str = include_str!("fill.sql");
const SCHEMA: &str = concat!(
    include_str!("../migrations/0001_inbox.sql"),
    include_str!("../migrations/0002_closed_totals.sql"),
    include_str!("../migrations/0003_people_and_chain.sql")
);
const DATABASE: &str = "team_bench";
/// The person whose *Mine* view is benched: one of the ten the fill assigns cases to.
const ME: &str = "Ana";
/// The concurrent clients of the open-case run, each with a connection of the pool.
const CLIENTS: usize = 16;
/// How long the open-case run lasts, after a second to open the pool's connections.
const LOAD: Duration = Duration::from_secs(10);

/// Fills the database or finds it filled, runs the criterion groups, then the 16 clients, and
/// stops the server.
fn main() {
    let dir = bench_dir();
    let cluster = Cluster::keep_in(&dir.join("cluster"));
    let url = filled_database(&cluster, &dir);
    let team = PgCases::open_with(&url, CLIENTS as u32).unwrap();
    let ids = case_ids(&team);
    let mut criterion = Criterion::default().configure_from_args();
    inbox(&mut criterion, &team);
    search(&mut criterion, &team);
    open_case(&mut criterion, &team, &ids);
    criterion.final_summary();
    open_case_under_load(&team, &ids);
    drop(team);
    cluster.stop();
}

/// `target/team-bench`: the bench binary is `target/<profile>/deps/team-…`, wherever the target
/// directory is, and `cargo clean` removes the data with the builds.
fn bench_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).expect("the bench runs from target/<profile>/deps").join("team-bench")
}

/// The URL of the bench database, filled now unless the marker says this schema and fill
/// already are.
fn filled_database(cluster: &Cluster, dir: &Path) -> TeamUrl {
    let url = TeamUrl::parse(&cluster.url(DATABASE)).unwrap();
    let marker = dir.join("filled");
    if std::fs::read_to_string(&marker).ok() == Some(fingerprint()) {
        eprintln!("team bench: reusing the {CASES} cases in {}", dir.display());
        return url;
    }
    let _ = std::fs::remove_file(&marker);
    cluster.psql("postgres", &format!("DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"));
    cluster.psql("postgres", &format!("CREATE DATABASE {DATABASE}"));
    drop(PgCases::open(&url).unwrap());
    fill(&url);
    std::fs::write(&marker, fingerprint()).unwrap();
    url
}

/// What the filled database was made from: the schema and the fill without their comment lines,
/// so rewording a comment does not fill again.
fn fingerprint() -> String {
    let sql = format!("{SCHEMA}\n{FILL}");
    let statements: Vec<&str> = sql.lines().filter(|line| !line.trim_start().starts_with("--")).collect();
    format!("{:x}", Sha256::digest(statements.join("\n")))
}

/// Writes the cases with their secondary indexes dropped and builds the indexes again after
/// (much faster than keeping them row by row), then vacuums and analyses, as autovacuum would
/// have long since on a team's server, so the planner and the index-only scans see the data.
fn fill(url: &TeamUrl) {
    let started = Instant::now();
    let mut client = Client::connect(url.secret(), NoTls).unwrap();
    let indexes = secondary_indexes(&mut client);
    for (name, _) in &indexes {
        client.batch_execute(&format!("DROP INDEX {name}")).unwrap();
    }
    client.batch_execute(FILL).unwrap();
    client.batch_execute("SET maintenance_work_mem = '1GB'").unwrap();
    for (_, definition) in &indexes {
        client.batch_execute(definition).unwrap();
    }
    client.batch_execute("VACUUM ANALYZE").unwrap();
    client.batch_execute("CHECKPOINT").unwrap();
    let filled: i64 = client.query_one("SELECT count(*) FROM cases", &[]).unwrap().get(0);
    assert_eq!(filled, CASES, "fill.sql writes {CASES} cases");
    assert_eq!(unlike_the_triggers(&mut client), 0, "cases whose search text is not what the triggers write");
    eprintln!("team bench: filled {CASES} cases in {:.0?}", started.elapsed());
}

/// How many of a sample of a thousand cases hold search text other than what the triggers
/// would have written (`fill.sql` writes it itself, with the triggers off).
fn unlike_the_triggers(client: &mut Client) -> i64 {
    let row = client
        .query_one(
            "SELECT count(*) FROM cases c WHERE c.number IN (SELECT generate_series(1001, 1000000, 1000)) \
             AND (c.search_fields <> skillcase_fold(concat_ws(' ', c.title, c.summary, c.blocker, c.lead_name, \
                 c.lead_contact, c.lead_id, c.conversation_id, \
                 (SELECT string_agg(m ->> 'text', ' ') FROM jsonb_array_elements(c.context::jsonb) AS m))) \
             OR c.search_talk <> coalesce((SELECT string_agg(' ' || skillcase_fold(coalesce( \
                 e.payload::jsonb ->> 'text', e.payload::jsonb ->> 'info', '')), '' ORDER BY e.seq) \
                 FROM case_events e WHERE e.case_id = c.id \
                 AND e.kind IN ('human_replied', 'lead_provided', 'internal_note')), ''))",
            &[],
        )
        .unwrap();
    row.get(0)
}

/// The name and definition of every index of the bulk-written tables that no constraint owns.
fn secondary_indexes(client: &mut Client) -> Vec<(String, String)> {
    let rows = client
        .query(
            "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i \
             WHERE i.indrelid IN ('cases'::regclass, 'case_events'::regclass, 'deliveries'::regclass) \
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
            &[],
        )
        .unwrap();
    rows.iter().map(|row| (row.get(0), row.get(1))).collect()
}

/// Target (a): each first page the inbox opens on, with its total and tab counts, and the tab
/// counts alone (what the badge refreshes).
fn inbox(c: &mut Criterion, team: &PgCases) {
    let mut group = c.benchmark_group("inbox_among_1m");
    for (name, filter) in first_pages() {
        group.bench_function(name, |b| b.iter(|| team.list_cases(&filter).unwrap()));
    }
    group.bench_function("tab_counts", |b| b.iter(|| team.tab_counts().unwrap()));
    group.finish();
}

/// The default filter, each tab, and each tab in the *Mine* and *Unassigned* views (whose
/// totals are counted, not kept: the closed tab's is the largest count the inbox makes).
fn first_pages() -> Vec<(&'static str, CaseFilter)> {
    let tab = |tab: CaseTab| CaseFilter { tab: Some(tab), ..CaseFilter::default() };
    let mine = |t: CaseTab| CaseFilter { view: Some(CaseView::Mine), me: Some(ME.into()), ..tab(t) };
    let unassigned = |t: CaseTab| CaseFilter { view: Some(CaseView::Unassigned), ..tab(t) };
    vec![
        ("first_page_default", CaseFilter::default()),
        ("first_page_waiting_on_you", tab(CaseTab::WaitingOnYou)),
        ("first_page_waiting_on_customer", tab(CaseTab::WaitingOnCustomer)),
        ("first_page_closed", tab(CaseTab::Closed)),
        ("first_page_mine_waiting_on_you", mine(CaseTab::WaitingOnYou)),
        ("first_page_mine_waiting_on_customer", mine(CaseTab::WaitingOnCustomer)),
        ("first_page_mine_closed", mine(CaseTab::Closed)),
        ("first_page_unassigned_waiting_on_you", unassigned(CaseTab::WaitingOnYou)),
        ("first_page_unassigned_closed", unassigned(CaseTab::Closed)),
    ]
}

/// Target (c): the inbox search a person types in *Waiting on you*, each a first page with its
/// total: the newest case's conversation id, a number that is also said in answers, an
/// accent-less word of a note, a customer's name; and the first letter of a word, which the
/// trigram index cannot narrow (every waiting case's text is read).
fn search(c: &mut Criterion, team: &PgCases) {
    let mut group = c.benchmark_group("search_among_1m");
    for (name, search) in SEARCHES {
        let filter = CaseFilter {
            tab: Some(CaseTab::WaitingOnYou),
            search: Some((*search).into()),
            ..CaseFilter::default()
        };
        group.bench_function(*name, |b| b.iter(|| team.list_cases(&filter).unwrap()));
    }
    group.finish();
}

/// The searches of [`search`], named for what they find.
const SEARCHES: &[(&str, &str)] = &[
    ("conversation_id", "wa-5511901299999"),
    ("number_said_in_answers", "4242"),
    ("note_word_without_accents", "excecao"),
    ("customer_name", "fernanda lima"),
    ("first_letter", "w"),
];

/// One random case opened at a time: what a call costs without the others waiting beside it.
fn open_case(c: &mut Criterion, team: &PgCases, ids: &[String]) {
    let mut state = 1;
    let mut group = c.benchmark_group("open_case_among_1m");
    group.bench_function("one_client", |b| {
        b.iter(|| team.get_case(&ids[(splitmix(&mut state) % ids.len() as u64) as usize]).unwrap())
    });
    group.finish();
}

/// Target (b): [`CLIENTS`] threads opening random cases for [`LOAD`] over one pool of as many
/// connections; prints the throughput and the latencies' median, p99 and maximum.
fn open_case_under_load(team: &PgCases, ids: &[String]) {
    clients(team, ids, Duration::from_secs(1));
    let started = Instant::now();
    let mut latencies = clients(team, ids, LOAD);
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    let at = |quantile: f64| latencies[((latencies.len() - 1) as f64 * quantile).round() as usize];
    println!(
        "open_case_{CLIENTS}_clients: {} calls in {:.1} s: {:.0}/s, p50 {:.2?}, p99 {:.2?}, max {:.2?}",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// Every case's id, for the clients to pick from.
fn case_ids(team: &PgCases) -> Vec<String> {
    let rows = team.pg().read(|c| Ok(c.query("SELECT id FROM cases", &[])?)).unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

/// Runs the clients until `length` has passed; every call's latency.
fn clients(team: &PgCases, ids: &[String], length: Duration) -> Vec<Duration> {
    let deadline = Instant::now() + length;
    std::thread::scope(|s| {
        let running: Vec<_> =
            (0..CLIENTS as u64).map(|n| s.spawn(move || client(team, ids, n, deadline))).collect();
        running.into_iter().flat_map(|client| client.join().unwrap()).collect()
    })
}

/// One client: opens a random case, then the next, until `deadline`.
fn client(team: &PgCases, ids: &[String], seed: u64, deadline: Instant) -> Vec<Duration> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut latencies = Vec::new();
    while Instant::now() < deadline {
        let id = &ids[(splitmix(&mut state) % ids.len() as u64) as usize];
        let started = Instant::now();
        team.get_case(id).unwrap();
        latencies.push(started.elapsed());
    }
    latencies
}

/// SplitMix64: random enough to spread the cases opened, without a dependency.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
