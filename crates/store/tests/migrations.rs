//! Migrations that rebuild a table keep what it held: a database written by the previous schema
//! opens with every row in place.

use rusqlite::Connection;
use skillcase_store::db::{open, DATABASE_FILE};
use skillcase_store::secrets::SecretFiles;

/// The migration files of the schema versions these tests start from, in order: a database at
/// version `n` ran the first `n`.
const OLDER: [&str; 19] = [
    include_str!("../src/db/migrations/0001_settings.sql"),
    include_str!("../src/db/migrations/0002_cases.sql"),
    include_str!("../src/db/migrations/0003_guard.sql"),
    include_str!("../src/db/migrations/0004_library.sql"),
    include_str!("../src/db/migrations/0005_case_read_at.sql"),
    include_str!("../src/db/migrations/0006_promise_ledger.sql"),
    include_str!("../src/db/migrations/0007_promise_overdue.sql"),
    include_str!("../src/db/migrations/0008_internal_notes.sql"),
    include_str!("../src/db/migrations/0009_case_search.sql"),
    include_str!("../src/db/migrations/0010_handover_reason.sql"),
    include_str!("../src/db/migrations/0011_quiet_customers.sql"),
    include_str!("../src/db/migrations/0012_saved_replies.sql"),
    include_str!("../src/db/migrations/0013_response_targets.sql"),
    include_str!("../src/db/migrations/0014_agents.sql"),
    include_str!("../src/db/migrations/0015_overdue_watch_index.sql"),
    include_str!("../src/db/migrations/0016_case_assignee.sql"),
    include_str!("../src/db/migrations/0017_remote_catalogs.sql"),
    include_str!("../src/db/migrations/0018_reply_leases.sql"),
    include_str!("../src/db/migrations/0019_closed_totals.sql"),
];

/// A database file at `path` built the way an older Skillcase left it: `schema`'s files run in
/// order and its version set to how many there are.
fn database_at(path: &std::path::Path, schema: &[&str]) -> Connection {
    let conn = Connection::open(path).unwrap();
    for sql in schema {
        conn.execute_batch(sql).unwrap();
    }
    conn.pragma_update(None, "user_version", schema.len() as i64).unwrap();
    conn
}

#[test]
fn the_promise_ledger_migration_keeps_every_event_and_delivery_and_accepts_the_new_kind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = database_at(&path, &OLDER[..5]);
        conn.execute_batch(
            "INSERT INTO cases (id, number, conversation_id, status, title, summary, source, opened_at, updated_at)
               VALUES ('c1', 1001, 'conv', 'resolved', 't', 's', 'agent', 'now', 'now');
             INSERT INTO case_events (case_id, kind, actor, at) VALUES ('c1', 'opened', 'agent', 'now');
             INSERT INTO case_events (case_id, kind, actor, at) VALUES ('c1', 'human_replied', 'human', 'now');
             INSERT INTO deliveries (id, case_id, event_seq, action, body, state, created_at, updated_at)
               VALUES ('d1', 'c1', 2, 'resolved', '{}', 'pending', 'now', 'now');",
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    let events: Vec<(i64, String)> = conn
        .prepare("SELECT seq, kind FROM case_events ORDER BY seq")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(events, [(1, "opened".to_string()), (2, "human_replied".to_string())]);
    let delivery_event: i64 = conn.query_row("SELECT event_seq FROM deliveries", [], |r| r.get(0)).unwrap();
    assert_eq!(delivery_event, 2);
    conn.execute(
        "INSERT INTO case_events (case_id, kind, actor, at) VALUES ('c1', 'promise_made', 'agent', 'now')",
        [],
    )
    .unwrap();
    let unknown = conn.execute(
        "INSERT INTO case_events (case_id, kind, actor, at) VALUES ('c1', 'gossip', 'agent', 'now')",
        [],
    );
    assert!(unknown.is_err(), "a kind the table does not list is refused");
    let rewrite = conn.execute("UPDATE case_events SET kind = 'opened' WHERE seq = 2", []).unwrap_err();
    assert!(rewrite.to_string().contains("append-only"), "{rewrite}");
    let next: i64 = conn.query_row("SELECT max(seq) FROM case_events", [], |r| r.get(0)).unwrap();
    assert_eq!(next, 3, "seq keeps counting after the rebuild");
}

#[test]
fn the_search_migration_indexes_the_cases_already_there_with_their_answers_and_notes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = database_at(&path, &OLDER[..8]);
        conn.execute_batch(
            r#"INSERT INTO cases (id, number, conversation_id, lead_name, status, title, summary, blocker, context,
                                 source, opened_at, updated_at)
                 VALUES ('c1', 1001, 'wa-77', 'João Araújo', 'awaiting_human', 'Reembolso', 'Cobrança dupla',
                         'Limite', '[{"role":"lead","text":"Quero meu dinheiro"}]', 'agent', 'now', 'now');
               INSERT INTO case_events (case_id, kind, actor, at, payload)
                 VALUES ('c1', 'human_replied', 'human', 'now', '{"text":"Estornado hoje"}');
               INSERT INTO case_events (case_id, kind, actor, at, payload)
                 VALUES ('c1', 'internal_note', 'human', 'now', '{"text":"Gerente aprovou"}');"#,
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    for query in ["joao", "araujo", "cobranca", "limite", "dinheiro", "estornado", "gerente", "wa 77"] {
        let found: i64 = conn
            .query_row("SELECT count(*) FROM cases_search WHERE cases_search MATCH ?1", [query], |r| r.get(0))
            .unwrap();
        assert_eq!(found, 1, "{query}");
    }
}

#[test]
fn the_reason_migration_gives_old_cases_not_stated_the_guardrails_its_own_and_each_its_first_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = database_at(&path, &OLDER[..9]);
        conn.execute_batch(
            r#"INSERT INTO cases (id, number, conversation_id, status, title, summary, source, opened_at, updated_at)
                 VALUES ('agent', 1001, 'c1', 'awaiting_human', 'Refund', 'Charged twice', 'agent',
                         '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z'),
                        ('guard', 1002, 'c2', 'awaiting_human', 'Follow-up', 'Promised', 'guardrail_autofallback',
                         '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z');
               INSERT INTO case_events (case_id, kind, actor, at, payload) VALUES
                 ('agent', 'internal_note', 'human', '2026-11-02T10:01:00.000Z', '{"text":"Looking"}'),
                 ('agent', 'human_replied', 'human', '2026-11-02T10:05:00.000Z', '{"text":"Which card?"}'),
                 ('agent', 'human_replied', 'human', '2026-11-02T11:00:00.000Z', '{"text":"Refunded"}');"#,
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    let row = |id: &str| -> (String, Option<String>) {
        conn.query_row("SELECT reason, first_reply_at FROM cases WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap()
    };
    assert_eq!(row("agent"), ("not_stated".into(), Some("2026-11-02T10:05:00.000Z".into())));
    assert_eq!(row("guard"), ("guardrail_autofallback".into(), None));
}

#[test]
fn the_remote_catalogs_migration_keeps_the_library_and_a_fork_outlives_its_subscription() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = database_at(&path, &OLDER[..16]);
        conn.execute_batch(
            "INSERT INTO skill_versions (name, content_hash, manifest, validation, source, created_at)
               VALUES ('frete', 'h1', '[]', '{}', 'import', 'now');
             INSERT INTO skills (name, origin, live_version_id, updated_at) VALUES ('frete', 'local', 1, 'now');",
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    let live: i64 =
        conn.query_row("SELECT live_version_id FROM skills WHERE name = 'frete'", [], |r| r.get(0)).unwrap();
    assert_eq!(live, 1);
    conn.execute_batch(
        "INSERT INTO remote_catalogs (url, kind, added_at) VALUES ('https://skills.example/index.json', 'index', 'now');
         INSERT INTO remote_skills (catalog_id, name, description, manifest, digest, pulled_at)
           VALUES (1, 'frete', 'd', '[]', 'h1', 'now');
         INSERT INTO remote_forks (name, catalog_id, catalog_url, upstream_name, upstream_digest, version_id, installed_at)
           VALUES ('frete', 1, 'https://skills.example/index.json', 'frete', 'h1', 1, 'now');
         DELETE FROM remote_catalogs WHERE id = 1;",
    )
    .unwrap();
    let pulled: i64 = conn.query_row("SELECT count(*) FROM remote_skills", [], |r| r.get(0)).unwrap();
    let fork: (Option<i64>, String) = conn
        .query_row("SELECT catalog_id, catalog_url FROM remote_forks WHERE name = 'frete'", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(pulled, 0, "a removed subscription's pulled skills go with it");
    assert_eq!(fork, (None, "https://skills.example/index.json".to_string()));
    let bad_kind =
        conn.execute("INSERT INTO remote_catalogs (url, kind, added_at) VALUES ('u', 'ftp', 'now')", []);
    assert!(bad_kind.is_err(), "a kind the table does not list is refused");
}

#[test]
fn the_token_files_migration_moves_every_catalog_token_into_a_private_file_and_leaves_no_copy_in_the_database(
) {
    const TOKEN: &str = "catalog-bearer-4d9b1e77aa0c";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = database_at(&path, &OLDER[..19]);
        conn.execute(
            "INSERT INTO remote_catalogs (url, kind, token, added_at)
               VALUES ('https://a.example/mcp', 'mcp', ?1, 'now'), ('https://b.example/index.json', 'index', NULL, 'now')",
            [TOKEN],
        )
        .unwrap();
    }
    let conn = open(&path).unwrap();
    let refs: Vec<Option<String>> = conn
        .prepare("SELECT token_ref FROM remote_catalogs ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let secrets = SecretFiles::catalog_tokens(dir.path());
    let reference = refs[0].clone().expect("the token's file is named");
    assert_eq!((secrets.get(&reference).unwrap().as_str(), &refs[1]), (TOKEN, &None));
    assert!(conn.prepare("SELECT token FROM remote_catalogs").is_err(), "the token column is gone");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(secrets.path_of(&reference).unwrap()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    drop(conn);
    for file in [DATABASE_FILE.to_string(), format!("{DATABASE_FILE}-wal")] {
        let bytes = std::fs::read(dir.path().join(&file)).unwrap_or_default();
        assert!(!bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()), "{file} still holds the token");
    }
}
