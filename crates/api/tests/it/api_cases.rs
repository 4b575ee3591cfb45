//! The case endpoints over real loopback sockets (SPEC B2, B4), and the OpenAPI document checked
//! against what the server really routes and answers.

use crate::support;

use std::sync::Arc;

use serde_json::{json, Value};
use skillcase_cases::model::HumanAction;
use skillcase_cases::CasesRepository;
use skillcase_testkit::http::conforms;
use support::Live;

fn refund(conversation_id: &str) -> Value {
    json!({
        "conversation_id": conversation_id,
        "title": "Refund above the agent's limit",
        "summary": "The lead asks for a refund of R$ 900 for order 5521.",
        "blocker": "Refunds over R$ 500 need a person.",
        "lead": { "name": "Ana Lima", "channel": "whatsapp" },
        "context": [{ "role": "lead", "text": "Quero meu dinheiro de volta." }],
    })
}

async fn open(live: &Live, conversation_id: &str) -> String {
    let reply = live.request("POST", "/v1/cases").json(&refund(conversation_id)).send().await;
    assert_eq!(reply.status, 201, "{}", String::from_utf8_lossy(&reply.body));
    reply.json()["case"]["id"].as_str().unwrap().to_string()
}

/// What a person does in the app: ask the lead for something, moving the case to awaiting_lead.
fn person_asks_the_lead(live: &Live, case_id: &str) {
    let path = live.dir.path().join(skillcase_store::db::DATABASE_FILE);
    let cases = skillcase_cases_sqlite::SqliteCases::new(skillcase_store::Database::open(&path).unwrap());
    cases.reply(case_id, HumanAction::NeedLeadInfo, "Which order number is it?", "Marta").unwrap();
}

#[tokio::test]
async fn opening_is_201_and_opening_again_for_the_conversation_is_200_with_the_same_case() {
    let live = Live::start().await;
    let first = live.request("POST", "/v1/cases").json(&refund("conv-1")).send().await;
    assert_eq!(first.status, 201);
    assert_eq!(first.json()["already_open"], false);
    assert_eq!(first.json()["case"]["status"], "awaiting_human");
    assert_eq!(first.json()["case"]["source"], "agent");
    let again = live.request("POST", "/v1/cases").json(&refund("conv-1")).send().await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["already_open"], true);
    assert_eq!(again.json()["case"]["id"], first.json()["case"]["id"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_clients_opening_at_once_for_one_conversation_get_exactly_one_case() {
    let live = Arc::new(Live::start().await);
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let live = Arc::clone(&live);
            tokio::spawn(
                async move { live.request("POST", "/v1/cases").json(&refund("conv-race")).send().await },
            )
        })
        .collect();
    let mut created = 0;
    let mut ids = Vec::new();
    for client in clients {
        let reply = client.await.unwrap();
        match reply.status {
            201 => created += 1,
            200 => assert_eq!(reply.json()["already_open"], true),
            other => panic!("unexpected {other}: {}", String::from_utf8_lossy(&reply.body)),
        }
        ids.push(reply.json()["case"]["id"].as_str().unwrap().to_string());
    }
    assert_eq!(created, 1);
    ids.dedup();
    assert_eq!(ids.len(), 1, "every client got the same case");
    let conn = skillcase_store::db::open(&live.dir.path().join(skillcase_store::db::DATABASE_FILE)).unwrap();
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM cases WHERE conversation_id = 'conv-race'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn an_unknown_field_is_400_and_names_it_even_when_nested() {
    let live = Live::start().await;
    let mut body = refund("conv-2");
    body["priority"] = json!("high");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (400, "bad_request".to_string()));
    assert_eq!(reply.json()["error"]["details"]["field"], "priority");
    let mut nested = refund("conv-2");
    nested["lead"]["nickname"] = json!("Aninha");
    let reply = live.request("POST", "/v1/cases").json(&nested).send().await;
    assert_eq!(reply.json()["error"]["details"]["field"], "lead.nickname");
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("unknown field `nickname`"));
}

#[tokio::test]
async fn a_missing_field_or_a_wrong_type_is_400_naming_the_field() {
    let live = Live::start().await;
    let mut missing = refund("conv-3");
    missing.as_object_mut().unwrap().remove("summary");
    let reply = live.request("POST", "/v1/cases").json(&missing).send().await;
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("missing field `summary`"));
    let mut wrong = refund("conv-3");
    wrong["context"][0]["text"] = json!(42);
    let reply = live.request("POST", "/v1/cases").json(&wrong).send().await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["details"]["field"], "context[0].text");
}

#[tokio::test]
async fn the_agent_cannot_choose_the_source() {
    let live = Live::start().await;
    let mut body = refund("conv-4");
    body["source"] = json!("guardrail_autofallback");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["details"]["field"], "source");
}

#[tokio::test]
async fn the_handover_reason_is_stored_and_returned_with_the_case() {
    let live = Live::start().await;
    let mut body = refund("conv-reason");
    body["reason"] = json!("policy_restriction");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!(reply.status, 201);
    let id = reply.json()["case"]["id"].as_str().unwrap().to_string();
    assert_eq!(reply.json()["case"]["reason"], "policy_restriction");
    let read = live.request("GET", &format!("/v1/cases/{id}")).send().await.json();
    assert_eq!(read["case"]["reason"], "policy_restriction");
}

#[tokio::test]
async fn an_agent_that_sends_no_reason_still_opens_its_case_as_not_stated() {
    let live = Live::start().await;
    let reply = live.request("POST", "/v1/cases").json(&refund("conv-old-agent")).send().await;
    assert_eq!(reply.status, 201);
    assert_eq!(reply.json()["case"]["reason"], "not_stated");
}

#[tokio::test]
async fn an_unknown_reason_is_422_invalid_reason_listing_the_allowed_ones_and_opens_nothing() {
    let live = Live::start().await;
    let mut body = refund("conv-typo");
    body["reason"] = json!("policy");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (422, "invalid_reason".to_string()));
    assert_eq!(
        reply.json()["error"]["details"],
        json!({
            "field": "reason",
            "given": "policy",
            "allowed": ["customer_request", "missing_knowledge", "unsupported_request", "policy_restriction",
                        "tool_failure", "pending_clarification"]
        })
    );
    let retried = live.request("POST", "/v1/cases").json(&refund("conv-typo")).send().await;
    assert_eq!(retried.status, 201, "the refused request left no case behind");
}

#[tokio::test]
async fn the_agent_cannot_claim_the_guardrails_reason() {
    let live = Live::start().await;
    let mut body = refund("conv-claim");
    body["reason"] = json!("guardrail_autofallback");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (422, "invalid_reason".to_string()));
}

#[tokio::test]
async fn a_blank_summary_is_422_text_required() {
    let live = Live::start().await;
    let mut body = refund("conv-5");
    body["summary"] = json!("   ");
    let reply = live.request("POST", "/v1/cases").json(&body).send().await;
    assert_eq!((reply.status, reply.code()), (422, "text_required".to_string()));
}

#[tokio::test]
async fn a_case_is_read_with_its_timeline() {
    let live = Live::start().await;
    let id = open(&live, "conv-6").await;
    let reply = live.request("GET", &format!("/v1/cases/{id}")).send().await;
    assert_eq!(reply.status, 200);
    let body = reply.json();
    assert_eq!(body["case"]["id"], id.as_str());
    assert_eq!(body["events"][0]["kind"], "opened");
    assert_eq!(body["deliveries"], json!([]));
}

#[tokio::test]
async fn an_unknown_case_is_404_case_not_found() {
    let live = Live::start().await;
    let reply = live.request("GET", "/v1/cases/8d4e7a0c-0000-4000-8000-000000000000").send().await;
    assert_eq!((reply.status, reply.code()), (404, "case_not_found".to_string()));
}

#[tokio::test]
async fn an_update_while_the_case_waits_on_a_person_is_409_and_changes_nothing() {
    let live = Live::start().await;
    let id = open(&live, "conv-7").await;
    let reply = live
        .request("POST", &format!("/v1/cases/{id}/updates"))
        .json(&json!({ "info": "Order 5521" }))
        .send()
        .await;
    assert_eq!((reply.status, reply.code()), (409, "invalid_transition".to_string()));
    let after = live.request("GET", &format!("/v1/cases/{id}")).send().await.json();
    assert_eq!(after["case"]["status"], "awaiting_human");
    assert_eq!(after["events"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_lead_s_answer_moves_an_awaiting_lead_case_back_to_the_person() {
    let live = Live::start().await;
    let id = open(&live, "conv-8").await;
    person_asks_the_lead(&live, &id);
    let asked = live
        .request("POST", &format!("/v1/cases/{id}/events"))
        .json(&json!({ "type": "lead_asked", "text": "Qual o número do pedido?" }))
        .send()
        .await;
    assert_eq!(asked.status, 200);
    assert_eq!(asked.json()["case"]["status"], "awaiting_lead");
    let update = live
        .request("POST", &format!("/v1/cases/{id}/updates"))
        .json(&json!({ "info": "Pedido 5521" }))
        .send()
        .await;
    assert_eq!(update.status, 200);
    assert_eq!(update.json()["case"]["status"], "awaiting_human");
    let timeline = live.request("GET", &format!("/v1/cases/{id}")).send().await.json();
    let kinds: Vec<&str> =
        timeline["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["opened", "human_replied", "lead_asked", "lead_provided"]);
}

#[tokio::test]
async fn an_unresponsive_lead_is_recorded_and_the_case_keeps_waiting_on_them() {
    let live = Live::start().await;
    let id = open(&live, "conv-9").await;
    person_asks_the_lead(&live, &id);
    let reply = live
        .request("POST", &format!("/v1/cases/{id}/events"))
        .json(&json!({ "type": "lead_unresponsive", "note": "no answer for 24 h" }))
        .send()
        .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["case"]["status"], "awaiting_lead");
}

#[tokio::test]
async fn cancelling_closes_the_case_and_a_second_cancel_is_409() {
    let live = Live::start().await;
    let id = open(&live, "conv-10").await;
    let path = format!("/v1/cases/{id}/events");
    let cancel = json!({ "type": "cancel", "reason": "the lead solved it alone" });
    let first = live.request("POST", &path).json(&cancel).send().await;
    assert_eq!(first.status, 200);
    assert_eq!(first.json()["case"]["status"], "cancelled");
    let second = live.request("POST", &path).json(&cancel).send().await;
    assert_eq!((second.status, second.code()), (409, "invalid_transition".to_string()));
    let reopened = live.request("POST", "/v1/cases").json(&refund("conv-10")).send().await;
    assert_eq!(reopened.status, 201, "a closed case does not block a new one");
}

#[tokio::test]
async fn an_unknown_event_type_is_400() {
    let live = Live::start().await;
    let id = open(&live, "conv-11").await;
    let reply = live
        .request("POST", &format!("/v1/cases/{id}/events"))
        .json(&json!({ "type": "resolved" }))
        .send()
        .await;
    assert_eq!((reply.status, reply.code()), (400, "bad_request".to_string()));
    assert!(reply.json()["error"]["message"].as_str().unwrap().contains("unknown variant `resolved`"));
}

#[tokio::test]
async fn every_documented_operation_is_routed() {
    let live = Live::start().await;
    let doc = live.request("GET", "/v1/openapi.json").send().await.json();
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let concrete = path
                .replace("{id}", "8d4e7a0c-0000-4000-8000-000000000000")
                .replace("{name}", "no-such-skill")
                .replace("{path}", "references/a.md");
            let reply = live.request(&method.to_uppercase(), &concrete).json(&json!({})).send().await;
            let reply = if method == "get" { live.request("GET", &concrete).send().await } else { reply };
            assert!(
                !["not_found", "method_not_allowed"].contains(&reply.code().as_str()),
                "{method} {path} is documented but not routed"
            );
            operations += 1;
        }
    }
    assert_eq!(operations, skillcase_api::routes::ENDPOINTS.len());
}

#[tokio::test]
async fn real_answers_and_requests_conform_to_the_documented_schemas() {
    let live = Live::start().await;
    let doc = live.request("GET", "/v1/openapi.json").send().await.json();
    let schema = |name: &str| json!({ "$ref": format!("#/components/schemas/{name}") });
    let mut request = refund("conv-schema");
    request["reason"] = json!("tool_failure");
    conforms(&doc, &schema("OpenCaseRequest"), &request, "request").unwrap();
    let opened = live.request("POST", "/v1/cases").json(&request).send().await.json();
    conforms(&doc, &schema("OpenCaseResponse"), &opened, "open").unwrap();
    let id = opened["case"]["id"].as_str().unwrap().to_string();
    person_asks_the_lead(&live, &id);
    let update = json!({ "info": "Pedido 5521" });
    conforms(&doc, &schema("UpdateRequest"), &update, "update request").unwrap();
    let updated = live.request("POST", &format!("/v1/cases/{id}/updates")).json(&update).send().await.json();
    conforms(&doc, &schema("CaseResponse"), &updated, "update").unwrap();
    let cancel = json!({ "type": "cancel", "reason": "duplicate" });
    conforms(&doc, &schema("EventRequest"), &cancel, "event request").unwrap();
    live.request("POST", &format!("/v1/cases/{id}/events")).json(&cancel).send().await;
    let timeline = live.request("GET", &format!("/v1/cases/{id}")).send().await.json();
    assert!(!timeline["deliveries"].as_array().unwrap().is_empty(), "the person's reply queued a delivery");
    conforms(&doc, &schema("CaseWithTimeline"), &timeline, "timeline").unwrap();
}

#[tokio::test]
async fn opening_announces_the_new_case_once_and_agent_changes_announce_a_change() {
    use skillcase_common::events::DomainEvent;
    let live = Live::start().await;
    let mut heard = live.state.app.events().subscribe();
    let id = open(&live, "conv-events").await;
    assert_eq!(heard.try_recv().unwrap(), DomainEvent::CaseOpened { id: id.clone() });
    let again = live.request("POST", "/v1/cases").json(&refund("conv-events")).send().await;
    assert_eq!(again.status, 200);
    assert!(heard.try_recv().is_err(), "reopening an open case announces nothing");
    person_asks_the_lead(&live, &id);
    let update = live
        .request("POST", &format!("/v1/cases/{id}/updates"))
        .json(&json!({ "info": "Order 5521" }))
        .send()
        .await;
    assert_eq!(update.status, 200);
    assert_eq!(heard.try_recv().unwrap(), DomainEvent::CaseChanged { id: id.clone() });
    let cancel = live
        .request("POST", &format!("/v1/cases/{id}/events"))
        .json(&json!({ "type": "cancel", "reason": "The lead gave up." }))
        .send()
        .await;
    assert_eq!(cancel.status, 200);
    assert_eq!(heard.try_recv().unwrap(), DomainEvent::CaseChanged { id });
}

#[tokio::test]
async fn the_agent_never_reads_a_person_s_internal_note() {
    let live = Live::start().await;
    let id = open(&live, "conv-note").await;
    live.state.app.add_case_note(id.clone(), "Manager approved the refund offline.".into()).await.unwrap();
    let reply = live.request("GET", &format!("/v1/cases/{id}")).send().await;
    assert_eq!(reply.status, 200);
    let body = String::from_utf8_lossy(&reply.body).to_string();
    assert!(!body.contains("approved the refund offline"), "{body}");
    assert!(!body.contains("internal_note"), "{body}");
    assert_eq!(reply.json()["events"].as_array().unwrap().len(), 1);
}
