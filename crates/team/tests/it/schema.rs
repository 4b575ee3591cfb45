//! The team database's schema: created on first open, left alone on the next, and a database
//! from a newer Skillcase refused untouched.

use skillcase_common::error::Coded;
use skillcase_team::schema::SCHEMA_VERSION;
use skillcase_team::PgCases;

use crate::support::{fresh_url, psql, psql_refused};

#[test]
fn opening_an_empty_database_creates_the_schema_at_the_current_version() {
    let url = fresh_url();
    PgCases::open(&url).unwrap();
    assert_eq!(psql(&url, "SELECT version FROM skillcase_schema"), SCHEMA_VERSION.to_string());
    assert_eq!(psql(&url, "SELECT next FROM case_counter"), "1001");
}

#[test]
fn opening_a_migrated_database_again_changes_nothing() {
    let url = fresh_url();
    PgCases::open(&url).unwrap();
    PgCases::open(&url).unwrap();
    assert_eq!(psql(&url, "SELECT count(*) FROM skillcase_schema"), "1");
}

#[test]
fn a_database_from_a_newer_skillcase_is_refused_and_left_untouched() {
    let url = fresh_url();
    PgCases::open(&url).unwrap();
    psql(&url, "UPDATE skillcase_schema SET version = 99");
    let err = PgCases::open(&url).unwrap_err();
    assert_eq!(err.code(), "team_db_too_new");
    assert_eq!(psql(&url, "SELECT version FROM skillcase_schema"), "99");
}

#[test]
fn the_timeline_refuses_updates_deletes_and_truncation() {
    let url = fresh_url();
    PgCases::open(&url).unwrap();
    psql(
        &url,
        "INSERT INTO cases (id, number, conversation_id, status, title, summary, source, opened_at, updated_at) \
         VALUES ('c1', 1, 'conv', 'awaiting_human', 't', 's', 'agent', 'x', 'x'); \
         INSERT INTO case_events (case_id, kind, actor, at) VALUES ('c1', 'opened', 'agent', 'x')",
    );
    for sql in ["UPDATE case_events SET at = 'y'", "DELETE FROM case_events", "TRUNCATE case_events CASCADE"]
    {
        assert!(psql_refused(&url, sql).contains("append-only"), "{sql}");
    }
    assert_eq!(psql(&url, "SELECT count(*) FROM case_events"), "1");
}

#[test]
fn a_server_that_is_not_there_is_unreachable_with_the_password_hidden() {
    let url = skillcase_team::TeamUrl::parse("postgres://ana:s3cret@127.0.0.1:1/support").unwrap();
    let err = PgCases::open(&url).unwrap_err();
    assert_eq!(err.code(), "team_db_unreachable");
    assert!(!err.to_string().contains("s3cret"), "{err}");
}
