//! Several agents, one inbox: each agent's own endpoint receives its cases' replies (the others
//! go to the default endpoint), an agent whose cases are switched off cannot open one, and one
//! whose guardrail is switched off gets every message passed, saying so.

mod support;

use std::time::Duration;

use skillcase_cases::agents::{list_agents, remove_agent, route, set_agent, AgentInput};
use skillcase_cases::endpoint::set_endpoint;
use skillcase_cases::guard::{before_send, BeforeSend, GuardrailState, VerdictKind};
use skillcase_cases::model::HumanAction;
use skillcase_cases::outbox::{claim_next, next_due_at};
use skillcase_cases::transition::{open_case, reply};
use skillcase_cases::SqliteCases;
use skillcase_common::error::Coded;
use skillcase_guard::due::Calendar;
use skillcase_store::Database;
use support::{endpoint_input, new_db, refund_case, SECRET};

const MARGIN: Duration = Duration::from_secs(5);

fn agent(id: &str, url: Option<&str>) -> AgentInput {
    AgentInput {
        agent_id: id.into(),
        url: url.map(Into::into),
        secret: url.map(|_| SECRET.into()),
        cases_enabled: true,
        guardrail_enabled: true,
    }
}

fn case_of(agent_id: &str, conversation: &str) -> skillcase_cases::model::NewCase {
    skillcase_cases::model::NewCase { agent_id: Some(agent_id.into()), ..refund_case(conversation) }
}

#[test]
fn a_reply_on_a_case_of_an_agent_with_its_own_endpoint_goes_there() {
    let (_dir, _path, conn) = new_db();
    set_endpoint(&conn, endpoint_input("http://127.0.0.1:9/default")).unwrap();
    set_agent(&conn, agent("billing-bot", Some("http://127.0.0.1:9/billing"))).unwrap();
    let id = open_case(&conn, case_of("billing-bot", "conv-1")).unwrap().case.id;
    reply(&conn, &id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    let claimed = claim_next(&conn, MARGIN).unwrap().unwrap();
    assert_eq!(claimed.endpoint.url, "http://127.0.0.1:9/billing");
    assert_eq!(claimed.endpoint.secret, SECRET);
}

#[test]
fn a_reply_on_a_case_of_an_agent_without_its_own_endpoint_goes_to_the_default_one() {
    let (_dir, _path, conn) = new_db();
    set_endpoint(&conn, endpoint_input("http://127.0.0.1:9/default")).unwrap();
    set_agent(&conn, agent("sales-bot", None)).unwrap();
    let id = open_case(&conn, case_of("sales-bot", "conv-1")).unwrap().case.id;
    reply(&conn, &id, HumanAction::Resolved, "Done.", "Ana").unwrap();
    assert_eq!(claim_next(&conn, MARGIN).unwrap().unwrap().endpoint.url, "http://127.0.0.1:9/default");
}

#[test]
fn with_the_default_endpoint_off_only_agents_with_their_own_endpoint_are_sent_and_the_rest_wait() {
    let (_dir, _path, conn) = new_db();
    set_endpoint(
        &conn,
        skillcase_cases::endpoint::EndpointInput { enabled: false, ..endpoint_input("http://127.0.0.1:9/d") },
    )
    .unwrap();
    set_agent(&conn, agent("billing-bot", Some("http://127.0.0.1:9/billing"))).unwrap();
    let waiting = open_case(&conn, case_of("sales-bot", "conv-1")).unwrap().case.id;
    reply(&conn, &waiting, HumanAction::Resolved, "Done.", "Ana").unwrap();
    assert!(next_due_at(&conn).unwrap().is_none(), "a delivery with nowhere to go does not wake the worker");
    let routed = open_case(&conn, case_of("billing-bot", "conv-2")).unwrap().case.id;
    reply(&conn, &routed, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    let claimed = claim_next(&conn, MARGIN).unwrap().unwrap();
    assert_eq!(claimed.case_id, routed);
    assert!(claim_next(&conn, MARGIN).unwrap().is_none());
}

#[test]
fn an_agent_with_its_cases_switched_off_cannot_open_one_and_nothing_is_written() {
    let (_dir, _path, conn) = new_db();
    set_agent(&conn, AgentInput { cases_enabled: false, ..agent("quiet-bot", None) }).unwrap();
    let err = open_case(&conn, case_of("quiet-bot", "conv-1")).unwrap_err();
    assert_eq!(err.code(), "agent_cases_disabled");
    assert_eq!(err.details().unwrap()["agent_id"], "quiet-bot");
    let count: i64 = conn.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).unwrap();
    assert_eq!(count, 0);
}

#[test]
fn an_agent_with_its_own_endpoint_needs_a_secret() {
    let (_dir, _path, conn) = new_db();
    let input = AgentInput { secret: None, ..agent("billing-bot", Some("http://127.0.0.1:9/billing")) };
    let err = set_agent(&conn, input).unwrap_err();
    assert_eq!(err.code(), "invalid_endpoint_setting");
    assert!(list_agents(&conn).unwrap().is_empty(), "nothing was stored");
}

#[test]
fn a_saved_secret_is_kept_when_the_agent_is_saved_again_without_one() {
    let (_dir, _path, conn) = new_db();
    set_agent(&conn, agent("billing-bot", Some("http://127.0.0.1:9/billing"))).unwrap();
    let again = AgentInput {
        secret: None,
        guardrail_enabled: false,
        ..agent("billing-bot", Some("http://127.0.0.1:9/b2"))
    };
    set_agent(&conn, again).unwrap();
    let endpoint = route(&conn, Some("billing-bot")).unwrap().unwrap();
    assert_eq!((endpoint.url.as_str(), endpoint.secret.as_str()), ("http://127.0.0.1:9/b2", SECRET));
}

#[test]
fn an_agent_url_with_credentials_is_refused() {
    let (_dir, _path, conn) = new_db();
    let err = set_agent(&conn, agent("billing-bot", Some("http://u:hunter2@127.0.0.1:9/b"))).unwrap_err();
    assert_eq!(err.code(), "endpoint_url_has_credentials");
}

#[test]
fn a_blank_agent_id_is_refused() {
    let (_dir, _path, conn) = new_db();
    assert_eq!(set_agent(&conn, agent("   ", None)).unwrap_err().code(), "invalid_agent_id");
}

#[test]
fn settings_list_agents_seen_on_cases_beside_the_configured_ones_with_their_case_counts() {
    let (_dir, _path, conn) = new_db();
    open_case(&conn, case_of("sales-bot", "conv-1")).unwrap();
    open_case(&conn, case_of("sales-bot", "conv-2")).unwrap();
    set_agent(&conn, AgentInput { guardrail_enabled: false, ..agent("billing-bot", Some("http://u@x")) })
        .unwrap_err();
    set_agent(&conn, AgentInput { guardrail_enabled: false, ..agent("billing-bot", None) }).unwrap();
    let listed: Vec<(String, bool, bool, i64)> = list_agents(&conn)
        .unwrap()
        .into_iter()
        .map(|a| (a.agent_id, a.configured, a.guardrail_enabled, a.cases))
        .collect();
    assert_eq!(listed, vec![("billing-bot".into(), true, false, 0), ("sales-bot".into(), false, true, 2)]);
}

#[test]
fn removing_an_agent_sends_its_replies_to_the_default_endpoint_again() {
    let (_dir, _path, conn) = new_db();
    set_endpoint(&conn, endpoint_input("http://127.0.0.1:9/default")).unwrap();
    set_agent(&conn, agent("billing-bot", Some("http://127.0.0.1:9/billing"))).unwrap();
    remove_agent(&conn, "billing-bot").unwrap();
    assert_eq!(route(&conn, Some("billing-bot")).unwrap().unwrap().url, "http://127.0.0.1:9/default");
    assert_eq!(remove_agent(&conn, "billing-bot").unwrap_err().code(), "agent_not_found");
}

fn ask(cases: &SqliteCases, agent_id: &str, turn: &str) -> skillcase_cases::guard::Verdict {
    let request = BeforeSend {
        conversation_id: "conv-9".into(),
        turn_id: turn.into(),
        message: "Our team will get back to you tomorrow with the refund.".into(),
        agent_id: Some(agent_id.into()),
    };
    before_send(cases, request, &|| Calendar::named("America/Sao_Paulo").unwrap()).unwrap()
}

#[test]
fn with_its_guardrail_switched_off_an_agent_s_promise_passes_and_the_verdict_says_so() {
    let (_dir, path, conn) = new_db();
    set_agent(&conn, AgentInput { guardrail_enabled: false, ..agent("sales-bot", None) }).unwrap();
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    let verdict = ask(&cases, "sales-bot", "t1");
    assert_eq!(verdict.verdict, VerdictKind::Pass);
    assert_eq!(verdict.guardrail, GuardrailState::Disabled);
    assert!(verdict.reason.unwrap().contains("switched off"));
}

#[test]
fn the_same_promise_from_an_agent_with_its_guardrail_on_is_vetoed() {
    let (_dir, path, _conn) = new_db();
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    let verdict = ask(&cases, "sales-bot", "t1");
    assert_eq!((verdict.verdict, verdict.guardrail), (VerdictKind::Veto, GuardrailState::Enabled));
}

#[test]
fn the_case_the_guardrail_opens_carries_the_agent_id() {
    let (_dir, path, _conn) = new_db();
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    ask(&cases, "sales-bot", "t1");
    let second = ask(&cases, "sales-bot", "t1");
    let id = second.auto_opened_case.unwrap().id;
    let case = skillcase_cases::CasesRepository::get_case(&cases, &id).unwrap().case;
    assert_eq!(case.agent_id.as_deref(), Some("sales-bot"));
}

#[test]
fn the_second_veto_stays_a_veto_when_the_agent_may_not_open_cases() {
    let (_dir, path, conn) = new_db();
    set_agent(&conn, AgentInput { cases_enabled: false, ..agent("quiet-bot", None) }).unwrap();
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    ask(&cases, "quiet-bot", "t1");
    let second = ask(&cases, "quiet-bot", "t1");
    assert_eq!(second.verdict, VerdictKind::Veto);
    assert!(second.auto_opened_case.is_none());
    assert!(second.reason.unwrap().contains("cases are switched off"));
}
