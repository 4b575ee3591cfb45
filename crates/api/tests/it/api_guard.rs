//! `POST /v1/guard/before-send` over real loopback sockets (SPEC B5).

use crate::support;

use serde_json::{json, Value};
use skillcase_testkit::http::conforms;
use support::Live;

async fn before_send(live: &Live, conversation_id: &str, turn_id: &str, message: &str) -> Value {
    let body = json!({ "conversation_id": conversation_id, "turn_id": turn_id, "message": message });
    let reply = live.request("POST", "/v1/guard/before-send").json(&body).send().await;
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    reply.json()
}

const PROMISE: &str = "Vou verificar com a equipe financeira e te retorno mais tarde.";

#[tokio::test]
async fn an_ordinary_commitment_passes() {
    let live = Live::start().await;
    let verdict = before_send(&live, "conv-1", "t1", "Vou te mandar o link de rastreio agora.").await;
    assert_eq!(verdict["verdict"], "pass");
    assert_eq!(verdict["reason"], Value::Null);
}

#[tokio::test]
async fn a_promise_without_an_open_case_is_vetoed_with_the_teaching_message() {
    let live = Live::start().await;
    let verdict = before_send(&live, "conv-2", "t1", PROMISE).await;
    assert_eq!(verdict["verdict"], "veto");
    assert_eq!(
        verdict["reason"],
        "you promised a human follow-up without opening a case: open one, or rephrase without the promise \
         (the promise: \"Vou verificar com a equipe financeira e te retorno mais tarde.\")"
    );
    assert_eq!(verdict["vetoes_in_turn"], 1);
}

#[tokio::test]
async fn the_second_veto_in_a_turn_opens_a_case_and_passes() {
    let live = Live::start().await;
    before_send(&live, "conv-3", "t1", PROMISE).await;
    let second = before_send(&live, "conv-3", "t1", PROMISE).await;
    assert_eq!(second["verdict"], "pass");
    let id = second["auto_opened_case"]["id"].as_str().expect("a case was opened").to_string();
    let case = live.request("GET", &format!("/v1/cases/{id}")).send().await.json();
    assert_eq!(case["case"]["source"], "guardrail_autofallback");
    assert_eq!(case["case"]["conversation_id"], "conv-3");
}

#[tokio::test]
async fn a_promise_covered_by_an_open_case_passes_and_names_it() {
    let live = Live::start().await;
    let opened = live
        .request("POST", "/v1/cases")
        .json(&json!({ "conversation_id": "conv-4", "title": "Refund", "summary": "Refund of order 5521." }))
        .send()
        .await
        .json();
    let verdict = before_send(&live, "conv-4", "t1", PROMISE).await;
    assert_eq!(verdict["verdict"], "pass");
    assert_eq!(verdict["open_case"]["id"], opened["case"]["id"]);
}

#[tokio::test]
async fn a_misspelt_field_is_400_naming_it() {
    let live = Live::start().await;
    let body = json!({ "conversation_id": "conv-5", "turn": "t1", "message": PROMISE });
    let reply = live.request("POST", "/v1/guard/before-send").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (400, "bad_request".to_string()));
    assert_eq!(reply.json()["error"]["details"]["field"], "turn");
}

#[tokio::test]
async fn requests_and_verdicts_conform_to_the_documented_schemas() {
    let live = Live::start().await;
    let doc = live.request("GET", "/v1/openapi.json").send().await.json();
    let schema = |name: &str| json!({ "$ref": format!("#/components/schemas/{name}") });
    let request = json!({ "conversation_id": "conv-6", "turn_id": "t1", "message": PROMISE });
    conforms(&doc, &schema("BeforeSendRequest"), &request, "request").unwrap();
    let veto = before_send(&live, "conv-6", "t1", PROMISE).await;
    conforms(&doc, &schema("Verdict"), &veto, "veto").unwrap();
    let auto = before_send(&live, "conv-6", "t1", PROMISE).await;
    conforms(&doc, &schema("Verdict"), &auto, "autofallback").unwrap();
}

#[tokio::test]
async fn the_case_the_guardrail_opens_is_announced_like_any_new_case() {
    let live = Live::start().await;
    let mut heard = live.state.app.events().subscribe();
    before_send(&live, "conv-9", "t1", PROMISE).await;
    assert!(heard.try_recv().is_err(), "a veto opens nothing");
    let verdict = before_send(&live, "conv-9", "t1", PROMISE).await;
    let id = verdict["auto_opened_case"]["id"].as_str().unwrap().to_string();
    assert_eq!(heard.try_recv().unwrap(), skillcase_common::events::DomainEvent::CaseOpened { id });
}

#[tokio::test]
async fn a_message_longer_than_the_guardrail_reads_is_422_invalid_input_before_it_is_read() {
    let live = Live::start().await;
    let body = json!({ "conversation_id": "conv-9", "turn_id": "t1", "message": "vou te ligar amanhã ".repeat(501) });
    let started = std::time::Instant::now();
    let reply = live.request("POST", "/v1/guard/before-send").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (422, "invalid_input".to_string()));
    assert_eq!(reply.json()["error"]["details"]["field"], "message");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "refused after {:?}", started.elapsed());
    let at_the_cap = json!({ "conversation_id": "conv-9", "turn_id": "t1", "message": "a".repeat(10_000) });
    let read = live.request("POST", "/v1/guard/before-send").json(&at_the_cap).send().await;
    assert_eq!(read.status, 200, "10,000 characters are read");
}
