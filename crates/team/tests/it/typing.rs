//! The inbox page read while a person types: a newer one cancels the older on the server.

use std::time::{Duration, Instant};

use skillcase_cases::repository::CasesRepository;
use skillcase_cases::sql::Storage;
use skillcase_cases::store::{CaseFilter, CaseTab};
use skillcase_cases::CasesError;
use skillcase_team::connect;
use skillcase_team::typing::TypingReads;

use crate::support::{fresh_url, refund_case, team};

fn typing_reads() -> TypingReads {
    TypingReads::new(connect::config(&fresh_url()).unwrap())
}

fn code(result: Result<(), CasesError>) -> &'static str {
    match result {
        Err(CasesError::Storage { code, .. }) => code,
        other => panic!("expected a storage error, got {other:?}"),
    }
}

#[test]
fn a_newer_typing_read_cancels_the_one_running_on_the_server() {
    let reads = typing_reads();
    let started = Instant::now();
    let slow = {
        let reads = reads.clone();
        std::thread::spawn(move || {
            reads.read(|client| {
                client.batch_execute("SELECT pg_sleep(20)").map_err(skillcase_team::sql::storage_error)
            })
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let newer = reads.read(|client| {
        let row = client.query_one("SELECT 41 + 1", &[]).map_err(skillcase_team::sql::storage_error)?;
        Ok(row.get::<_, i32>(0))
    });
    assert_eq!(newer.unwrap(), 42);
    assert_eq!(code(slow.join().unwrap()), "superseded");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the older read ran to its end: {:?}",
        started.elapsed()
    );
}

#[test]
fn a_typing_read_alone_runs_to_its_end() {
    let reads = typing_reads();
    let value = reads.read(|client| {
        client.batch_execute("SELECT pg_sleep(0.2)").map_err(skillcase_team::sql::storage_error)?;
        Ok("done")
    });
    assert_eq!(value.unwrap(), "done");
}

#[test]
fn a_statement_cancelled_by_someone_else_is_team_query_cancelled_outside_typing() {
    let team = team();
    let url = team.url().clone();
    let mut canceller = None;
    let outcome = team.read(|sql| {
        let pid = sql.query_one("SELECT pg_backend_pid()::bigint", &[])?.int(0)?;
        canceller = Some(std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            crate::support::psql(&url, &format!("SELECT pg_cancel_backend({pid})"));
        }));
        sql.query("SELECT pg_sleep(20)::text", &[])?;
        Ok(())
    });
    canceller.unwrap().join().unwrap();
    assert_eq!(code(outcome), "team_query_cancelled");
}

#[test]
fn the_typed_search_reads_the_same_page_as_an_ordinary_read() {
    let team = team();
    team.open_case(refund_case("wa-5511900001")).unwrap();
    team.open_case(refund_case("wa-5511900002")).unwrap();
    let filter = CaseFilter {
        tab: Some(CaseTab::WaitingOnYou),
        search: Some("wa-5511900002".into()),
        ..CaseFilter::default()
    };
    let typed = CasesRepository::list_cases_latest(&team, &filter).unwrap();
    assert_eq!(typed.items.len(), 1);
    assert_eq!(typed.items[0].case.conversation_id, "wa-5511900002");
    assert_eq!(typed, CasesRepository::list_cases(&team, &filter).unwrap());
}
