//! From one desktop to a team: a local SQLite inbox copied into a new team database reads back
//! case for case, event for event, with the same counts and checksums on both sides, and the team
//! database carries on numbering after it. A database that already holds an inbox is refused and
//! left as it was.

use std::path::{Path, PathBuf};
use std::time::Duration;

use skillcase_cases::agents::AgentInput;
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::marks::{MarkSource, NewMark};
use skillcase_cases::model::{Actor, EventKind};
use skillcase_cases::model::{HumanAction, NewCase};
use skillcase_cases::outbox::{Attempt, Backoff};
use skillcase_cases::promises::NewPromise;
use skillcase_cases::repository::Veto;
use skillcase_cases::rows;
use skillcase_cases::sql::Storage;
use skillcase_cases::{clock, CasesRepository, GuardRepository, OutboxRepository};
use skillcase_cases_sqlite::SqliteCases;
use skillcase_common::error::Coded;
use skillcase_store::Database;
use skillcase_team::copy::{copy_inbox, CopyReport};
use skillcase_team::{PgCases, TeamError};
use tempfile::TempDir;

use crate::support::{another_instance, psql, team};

const TARGETS: &str = r#"{"first_reply_minutes":30,"resolution_minutes":240}"#;
const EVERY_DAY: &str = r#"{"time_zone":"UTC","working_days":["monday","tuesday","wednesday","thursday","friday","saturday","sunday"],"opens":"00:00","closes":"23:59","holidays":[]}"#;

/// Every table the copy fills, as the report names them.
const TABLES: [&str; 11] = [
    "case_counter",
    "cases",
    "case_events",
    "deliveries",
    "agent_endpoint",
    "agents",
    "guard_vetoes",
    "guard_marks",
    "guard_model",
    "closed_totals",
    "settings",
];

/// A desktop's inbox in a SQLite file of its own.
struct Solo {
    _dir: TempDir,
    path: PathBuf,
    cases: SqliteCases,
}

impl Solo {
    /// A new connection to the local database, as the copy command opens it.
    fn connection(&self) -> rusqlite::Connection {
        skillcase_store::db::open(&self.path).unwrap()
    }

    fn count(&self, table: &str) -> u64 {
        let n: i64 =
            self.connection().query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap();
        n as u64
    }

    fn case_ids(&self) -> Vec<String> {
        let conn = self.connection();
        let mut stmt = conn.prepare("SELECT id FROM cases ORDER BY number").unwrap();
        let ids = stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<Vec<String>, _>>().unwrap();
        ids
    }
}

/// An empty local inbox (the schema of this build, no cases).
fn empty_solo() -> Solo {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(skillcase_store::db::DATABASE_FILE);
    skillcase_store::db::open(&path).unwrap();
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    Solo { _dir: dir, path, cases }
}

/// A desktop that worked for a while: response targets and a calendar (and a setting of its
/// own), a case asked back to the lead, noted and assigned, a resolved one, one the guardrail
/// opened after two vetoes with a promise on it, a delivery that failed once, the endpoint and
/// an agent whose cases are switched off.
fn worked_solo() -> Solo {
    let solo = empty_solo();
    solo.connection()
        .execute_batch(&format!(
            "INSERT INTO settings (key, value) VALUES ('response_targets', '{TARGETS}'), \
             ('business_calendar', '{EVERY_DAY}'), ('skills_dir', '\"/home/ana/skills\"')"
        ))
        .unwrap();
    let cases = &solo.cases;
    cases.set_endpoint(endpoint()).unwrap();

    let refund = cases.open_case(new_case("conv-refund", "Refund for a double charge")).unwrap().case;
    cases.reply(&refund.id, HumanAction::NeedLeadInfo, "Which card was charged, João?", "Ana").unwrap();
    cases.provide_update(&refund.id, "The Visa ending 4242.").unwrap();
    cases.add_note(&refund.id, "Finance approves refunds under R$ 500.", "Ana").unwrap();
    cases.assign(std::slice::from_ref(&refund.id), Some("Ana"), "Ana").unwrap();

    let invoice =
        cases.open_case(new_case("conv-invoice", "Invoice sent to the wrong address")).unwrap().case;
    cases.reply(&invoice.id, HumanAction::Resolved, "Sent the invoice again.", "Bruno").unwrap();
    let claimed = cases.claim_next(Duration::from_secs(5)).unwrap().expect("a delivery to send");
    let failure =
        Attempt::Retryable { status: Some(503), error: "Service Unavailable".into(), retry_after: None };
    cases.record_attempt(&claimed.id, &failure, 5, &Backoff::default()).unwrap();

    let veto = Veto {
        conversation_id: "conv-promise".into(),
        turn_id: "turn-1".into(),
        rule: Some("promise_without_case".into()),
        evidence: Some("Te retorno ainda hoje.".into()),
        message: "Obrigada! Te retorno ainda hoje.".into(),
    };
    cases.record_veto(&veto).unwrap();
    cases.record_veto(&veto).unwrap();
    let promised = cases.open_case(new_case("conv-promise", "A callback promised today")).unwrap().case;
    cases.note_auto_case("conv-promise", "turn-1", &promised.id).unwrap();
    cases.record_promise(&promised.id, &promise()).unwrap();

    cases.set_agent(agent("support-bot")).unwrap();
    cases.add_mark(&clear_mark("O estorno constará em fatura em até 3 dias úteis."), "Ana").unwrap();
    cases
        .add_mark(&clear_mark("Your refund will appear on your statement within 3 business days."), "Ana")
        .unwrap();
    let model = skillcase_guard::model().clone();
    cases.adopt_model(&model, &skillcase_guard::retrain::retrain(&model, &[]).report, "Ana").unwrap();
    solo
}

/// A person's mark "not a promise" on `text`, from the veto log.
fn clear_mark(text: &str) -> NewMark {
    NewMark { text: text.into(), promise: false, source: MarkSource::Veto, conversation_id: None }
}

/// The sample refund case under another conversation and title.
fn new_case(conversation_id: &str, title: &str) -> NewCase {
    NewCase { title: title.into(), ..crate::support::refund_case(conversation_id) }
}

fn endpoint() -> EndpointInput {
    EndpointInput {
        url: "https://agent.example.com/hooks/skillcase".into(),
        secret: Some("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    }
}

fn agent(agent_id: &str) -> AgentInput {
    AgentInput {
        agent_id: agent_id.into(),
        url: None,
        secret: None,
        cases_enabled: false,
        guardrail_enabled: true,
    }
}

fn promise() -> NewPromise {
    NewPromise {
        quote: "Te retorno ainda hoje.".into(),
        actor: None,
        action: Some("te retorno".into()),
        due_text: Some("ainda hoje".into()),
        due_at: Some("2026-12-01T21:00:00.000Z".into()),
        turn_id: "turn-1".into(),
        spans: vec![],
    }
}

fn copy(solo: &Solo, team: &PgCases) -> Result<CopyReport, TeamError> {
    copy_inbox(&solo.connection(), team)
}

/// Every copied table of the team database as text, and where the timeline's numbers stand:
/// equal before and after means nothing changed.
fn team_state(team: &PgCases) -> String {
    let mut state: Vec<String> = TABLES
        .iter()
        .map(|table| {
            psql(
                team.url(),
                &format!("SELECT count(*) || ' ' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM {table} t"),
            )
        })
        .collect();
    state.push(psql(
        team.url(),
        "SELECT pg_sequence_last_value(pg_get_serial_sequence('case_events', 'seq'))",
    ));
    state.join("\n")
}

#[test]
fn every_case_reads_back_from_the_team_database_as_it_was_with_its_timeline_and_deliveries() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    for id in solo.case_ids() {
        let local = solo.cases.get_case(&id).unwrap();
        assert_eq!(team.read(|sql| rows::find_case(sql, &id)).unwrap(), local.case);
        assert_eq!(team.read(|sql| rows::events_for_case(sql, &id)).unwrap(), local.events);
        assert_eq!(team.read(|sql| rows::deliveries_for_case(sql, &id)).unwrap(), local.deliveries);
    }
}

#[test]
fn the_report_gives_every_table_with_the_local_row_counts() {
    let (solo, team) = (worked_solo(), team());
    let report = copy(&solo, &team).unwrap();

    let counts: Vec<(&str, u64)> = report.tables.iter().map(|t| (t.table.as_str(), t.rows)).collect();
    let expected: Vec<(&str, u64)> = TABLES
        .iter()
        .map(|&table| match table {
            "settings" => (table, 2),
            _ => (table, solo.count(table)),
        })
        .collect();
    assert_eq!(counts, expected);
    assert_eq!(counts[1], ("cases", 3));
}

#[test]
fn the_team_database_sums_to_the_same_checksums_when_copied_again_elsewhere() {
    let solo = worked_solo();
    let first = copy(&solo, &team()).unwrap();
    let second = copy(&solo, &team()).unwrap();

    assert_eq!(first, second);
    assert!(first.tables.iter().all(|t| t.sha256.len() == 64), "{first:?}");
}

#[test]
fn an_empty_inbox_copies_as_the_counter_alone_and_serialises_for_the_cli() {
    let (solo, team) = (empty_solo(), team());
    let report = copy(&solo, &team).unwrap();

    let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    let counter = "f6be69e6269e122ba775ffe127ed343fabddb262766ea568ce4d3970a1b828d6"; // sha256 of "[1,1001]\n"
    let mut tables = vec![serde_json::json!({ "table": "case_counter", "rows": 1, "sha256": counter })];
    tables.extend(TABLES[1..].iter().map(|t| serde_json::json!({ "table": t, "rows": 0, "sha256": empty })));
    assert_eq!(serde_json::to_value(&report).unwrap(), serde_json::json!({ "tables": tables }));
}

#[test]
fn only_the_case_settings_are_copied() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    let settings = psql(team.url(), "SELECT key || '=' || value FROM settings ORDER BY key");
    assert_eq!(settings, format!("business_calendar={EVERY_DAY}\nresponse_targets={TARGETS}"));
}

#[test]
fn the_local_flags_arrive_as_booleans() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    let switches = team.agent_switches(Some("support-bot")).unwrap();
    assert_eq!((switches.cases_enabled, switches.guardrail_enabled), (false, true));
    assert_eq!(psql(team.url(), "SELECT enabled FROM agent_endpoint"), "t");
    assert_eq!(
        psql(team.url(), "SELECT count(*) FROM cases WHERE promise_overdue_told OR first_reply_overdue_told"),
        "0"
    );
}

#[test]
fn the_veto_counts_and_the_case_the_guardrail_opened_are_copied() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    let vetoes = psql(
        team.url(),
        "SELECT v.vetoes || ' ' || c.title FROM guard_vetoes v JOIN cases c ON c.id = v.auto_case_id",
    );
    assert_eq!(vetoes, "2 A callback promised today");
}

#[test]
fn the_guardrail_s_marks_and_adopted_model_are_copied_and_new_marks_continue_after_them() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    assert_eq!(team.marks().unwrap(), solo.cases.marks().unwrap());
    assert_eq!(team.adopted_model().unwrap(), solo.cases.adopted_model().unwrap());
    let next = team.add_mark(&clear_mark("Você pode acompanhar pelo app."), "Bia").unwrap();
    assert_eq!(next.id, 3);
}

#[test]
fn the_case_numbers_continue_after_the_copied_ones() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    let numbers = psql(team.url(), "SELECT max(number) || ' ' || (SELECT next FROM case_counter) FROM cases");
    assert_eq!(numbers, "1003 1004");
}

#[test]
fn the_next_event_on_the_team_database_continues_after_the_copied_ones() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();
    let last_local = solo.count("case_events") as i64;
    let case_id = solo.case_ids().remove(0);

    let payload = serde_json::json!({ "text": "First note on the team inbox." });
    let seq = team
        .write(move |sql| {
            rows::append_event(
                sql,
                &case_id,
                EventKind::InternalNote,
                Actor::Human,
                Some("Ana"),
                &clock::now(),
                &payload,
            )
        })
        .unwrap();
    assert_eq!(seq, last_local + 1);
}

#[test]
fn the_copied_replies_and_notes_are_found_by_the_team_inbox_search() {
    let (solo, team) = (worked_solo(), team());
    copy(&solo, &team).unwrap();

    let found = psql(
        team.url(),
        "SELECT title FROM cases WHERE (search_fields || ' ' || search_talk) LIKE '%joao%' \
         AND (search_fields || ' ' || search_talk) LIKE '%visa ending 4242%' \
         AND (search_fields || ' ' || search_talk) LIKE '%under r$ 500%'",
    );
    assert_eq!(found, "Refund for a double charge");
}

#[test]
fn a_team_database_that_already_holds_an_inbox_is_refused_and_left_unchanged() {
    let team = team();
    copy(&worked_solo(), &team).unwrap();
    let before = team_state(&team);

    let err = copy(&worked_solo(), &team).unwrap_err();

    assert_eq!(err.code(), "team_db_not_empty");
    assert_eq!(team_state(&team), before);
}

#[test]
fn a_team_database_with_only_its_settings_saved_is_refused_naming_the_table() {
    let team = team();
    psql(team.url(), &format!("INSERT INTO settings (key, value) VALUES ('response_targets', '{TARGETS}')"));
    let before = team_state(&team);

    let err = copy(&worked_solo(), &team).unwrap_err();

    assert_eq!(
        (err.code(), err.details()),
        ("team_db_not_empty", Some(serde_json::json!({ "tables": ["settings"] })))
    );
    assert_eq!(team_state(&team), before);
}

#[test]
fn a_local_flag_that_is_neither_0_nor_1_is_refused_and_nothing_is_copied() {
    let (solo, team) = (worked_solo(), team());
    solo.connection().execute("UPDATE cases SET promise_overdue_told = 2 WHERE number = 1003", []).unwrap();
    let before = team_state(&team);

    let err = copy(&solo, &team).unwrap_err();

    assert_eq!(err.code(), "db_corrupt");
    assert_eq!(team_state(&team), before);
}

#[test]
fn a_copy_that_reads_back_differently_is_rolled_back_naming_the_table() {
    let (solo, team) = (worked_solo(), team());
    // Something on the server rewrites what arrives: the agents' rows no longer match.
    psql(
        team.url(),
        "CREATE FUNCTION tamper() RETURNS trigger LANGUAGE plpgsql AS $$ \
         BEGIN NEW.updated_at := 'tampered'; RETURN NEW; END $$; \
         CREATE TRIGGER tamper BEFORE INSERT ON agents FOR EACH ROW EXECUTE FUNCTION tamper()",
    );
    let before = team_state(&team);

    let err = copy(&solo, &team).unwrap_err();

    assert_eq!(err.code(), "team_copy_mismatch");
    assert_eq!(err.details().unwrap()["table"], "agents");
    assert_eq!(team_state(&team), before);
}

#[test]
fn two_instances_copying_into_one_empty_database_at_once_copy_once() {
    let team = team();
    let other = another_instance(&team);
    let solos = [worked_solo(), worked_solo()];
    let paths: Vec<&Path> = solos.iter().map(|s| s.path.as_path()).collect();

    let outcomes: Vec<Result<CopyReport, TeamError>> = std::thread::scope(|scope| {
        let runs = [(paths[0], &team), (paths[1], &other)].map(|(path, instance)| {
            scope.spawn(move || copy_inbox(&skillcase_store::db::open(path).unwrap(), instance))
        });
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });

    let codes: Vec<&str> =
        outcomes.iter().map(|o| o.as_ref().map_or_else(|e| e.code(), |_| "copied")).collect();
    assert!(
        codes == ["copied", "team_db_not_empty"] || codes == ["team_db_not_empty", "copied"],
        "{codes:?}"
    );
    assert_eq!(psql(team.url(), "SELECT count(*) FROM cases"), "3");
}

#[test]
fn nul_characters_an_older_desktop_stored_arrive_as_replacement_characters() {
    let solo = empty_solo();
    let id = solo.cases.open_case(new_case("conv-nul", "Refund")).unwrap().case.id;
    // What a Skillcase that kept NUL characters left in the file: raw in text, escaped in JSON.
    solo.connection()
        .execute_batch(&format!(
            "UPDATE cases SET title = 'Refund' || char(0) || ' now', \
               context = '[{{\"role\":\"lead\",\"text\":\"twice\\u0000!\"}}]' WHERE id = '{id}'; \
             INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
               VALUES ('{id}', 'internal_note', 'human', 'Ana', '2026-12-01T10:00:00.000Z', \
                       '{{\"text\":\"ledger\\u0000 \\\\u0000\"}}');"
        ))
        .unwrap();
    let team = team();

    let report = copy(&solo, &team).unwrap();

    let copied = team.read(|sql| rows::find_case(sql, &id)).unwrap();
    assert_eq!(
        (copied.title.as_str(), copied.context[0].text.as_str()),
        ("Refund\u{FFFD} now", "twice\u{FFFD}!")
    );
    let note = team.read(|sql| rows::events_for_case(sql, &id)).unwrap().pop().unwrap();
    assert_eq!(note.payload["text"], "ledger\u{FFFD} \\u0000", "an escaped backslash is text, kept");
    assert_eq!(report.tables.iter().find(|t| t.table == "cases").unwrap().rows, 1);
}
