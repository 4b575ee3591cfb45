//! The OpenAPI 3.1 document served at `GET /v1/openapi.json`.
//!
//! Paths and operations come from the route table ([`routes::ENDPOINTS`]), the one source the
//! router is also built from; the error responses of each operation come from the status table
//! in [`error`](super::error). Only the body schemas are written here by hand, and a test checks
//! every reference resolves. Like every endpoint, the document needs the bearer token: SPEC B4
//! admits no request without it, and an agent that can read the document can also send it.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use skillcase_cases::reason::HandoverReason;

use super::error::known_codes;
use super::routes::{Endpoint, ParamIn, ENDPOINTS};

/// Codes any request can be answered with, whatever the endpoint.
const EVERY_REQUEST: &[&str] = &[
    "unauthorized",
    "host_not_allowed",
    "origin_not_allowed",
    "request_timeout",
    "too_many_connections",
    "internal",
];
/// Codes any request with a JSON body can also get.
const EVERY_BODY: &[&str] = &["bad_request", "body_too_large", "unsupported_media_type"];

/// The whole document.
pub fn document() -> Value {
    let mut paths = Map::new();
    for endpoint in ENDPOINTS {
        let item = paths.entry(endpoint.openapi_path()).or_insert_with(|| json!({}));
        item[endpoint.method.as_str().to_ascii_lowercase()] = operation(endpoint);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Skillcase local agent API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The loopback API the AI agent calls: skills by disclosure level, cases, and the \
                guardrail. Every request needs `Authorization: Bearer <token>` (the token is in the \
                `api-token` file of the Skillcase data directory); requests with an `Origin` header or a \
                `Host` other than 127.0.0.1:<port> or localhost:<port> are refused; bodies are JSON, at \
                most 256 KB. Errors are `{\"error\": {\"code\", \"message\"}}`."
        },
        "servers": [{ "url": "http://127.0.0.1:7878" }],
        "security": [{ "bearer": [] }],
        "paths": paths,
        "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "schemas": schemas(),
        }
    })
}

fn operation(endpoint: &Endpoint) -> Value {
    let mut op = json!({
        "operationId": endpoint.operation_id,
        "summary": endpoint.summary,
        "responses": responses(endpoint),
    });
    if !endpoint.params.is_empty() {
        op["parameters"] = endpoint
            .params
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "in": if p.location == ParamIn::Path { "path" } else { "query" },
                    "required": p.required,
                    "description": p.description,
                    "schema": { "type": "string" },
                })
            })
            .collect();
    }
    if let Some(body) = endpoint.body {
        op["requestBody"] = json!({
            "required": true,
            "content": { "application/json": { "schema": schema_ref(body) } },
        });
    }
    op
}

fn responses(endpoint: &Endpoint) -> Value {
    let mut responses = Map::new();
    for (status, schema) in endpoint.ok {
        responses.insert(
            status.to_string(),
            json!({
                "description": "success",
                "content": { "application/json": { "schema": schema_ref(schema) } },
            }),
        );
    }
    let body_codes = if endpoint.body.is_some() { EVERY_BODY } else { &[][..] };
    let codes = EVERY_REQUEST.iter().chain(body_codes).chain(endpoint.errors);
    let mut by_status: BTreeMap<u16, Vec<&str>> = BTreeMap::new();
    for code in codes {
        by_status.entry(status_of_known(code)).or_default().push(code);
    }
    for (status, codes) in by_status {
        responses.insert(
            status.to_string(),
            json!({
                "description": format!("error code {}", codes.join(", ")),
                "content": { "application/json": { "schema": schema_ref("ErrorEnvelope") } },
            }),
        );
    }
    Value::Object(responses)
}

/// The status of a code the table lists; the route table only names listed codes (tested).
fn status_of_known(code: &str) -> u16 {
    known_codes().find(|(known, _)| known == &code).map_or(500, |(_, status)| status.as_u16())
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn nullable_ref(name: &str) -> Value {
    json!({ "oneOf": [schema_ref(name), { "type": "null" }] })
}

fn string() -> Value {
    json!({ "type": "string" })
}

/// Who works a case: the person's name as their Settings give it, `null` while nobody has it.
fn assignee() -> Value {
    json!({ "type": ["string", "null"], "description": "the person working the case; null while nobody has taken it" })
}

fn optional_string() -> Value {
    json!({ "type": ["string", "null"] })
}

/// The body schemas, by name.
fn schemas() -> Value {
    json!({
        "ErrorEnvelope": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {
                        "code": { "type": "string", "description": "stable snake_case code" },
                        "message": string(),
                        "details": { "description": "structured context, such as the field at fault" },
                    },
                },
            },
        },
        "OpenApiDocument": { "type": "object", "description": "this document" },
        "OpenCaseRequest": object(
            &["conversation_id", "title", "summary"],
            json!({
                "conversation_id": { "type": "string", "description": "the agent's id for the chat with the lead" },
                "title": { "type": "string", "description": "what the case is about, in a line (at most 200 characters)" },
                "summary": { "type": "string", "description": "what the lead needs" },
                "blocker": { "type": "string", "description": "why the agent cannot do it itself" },
                "agent_id": string(),
                "lead": schema_ref("Lead"),
                "context": { "type": "array", "items": schema_ref("ContextMessage"), "description": "recent messages, oldest first" },
                "reason": {
                    "enum": HandoverReason::agent_choice_names(),
                    "description": "why you hand over; optional for agents written before it (the case is then `not_stated`), anything else is `invalid_reason`",
                },
            }),
        ),
        "Lead": object(&[], json!({ "id": string(), "name": string(), "channel": string(), "contact": string() })),
        "ContextMessage": object(
            &["role", "text"],
            json!({ "role": { "type": "string", "description": "lead, agent, ..." }, "text": string(), "at": string() }),
        ),
        "OpenCaseResponse": object(
            &["case", "already_open"],
            json!({
                "case": schema_ref("Case"),
                "already_open": { "type": "boolean", "description": "true when the conversation already had this open case" },
            }),
        ),
        "CaseResponse": object(&["case"], json!({ "case": schema_ref("Case") })),
        "UpdateRequest": object(&["info"], json!({ "info": { "type": "string", "description": "what the lead answered" } })),
        "EventRequest": {
            "oneOf": [
                event_variant("lead_asked", "text", "what the agent asked the lead"),
                event_variant("lead_unresponsive", "note", "what happened"),
                event_variant("cancel", "reason", "why the case is cancelled"),
            ],
            "discriminator": { "propertyName": "type" },
        },
        "BeforeSendRequest": object(
            &["conversation_id", "turn_id", "message"],
            json!({
                "conversation_id": string(),
                "turn_id": { "type": "string", "description": "the agent's turn; every attempt at the same reply shares it" },
                "message": { "type": "string", "description": "the message the agent is about to send" },
                "agent_id": { "type": "string", "description": "the agent sending it, when several share the inbox: its guardrail switch applies and a case the guardrail opens carries it" },
            }),
        ),
        "Verdict": object(
            &["verdict", "reason", "rule", "evidence", "spans", "vetoes_in_turn", "open_case", "auto_opened_case", "guardrail"],
            json!({
                "verdict": { "enum": ["pass", "veto"] },
                "reason": { "type": ["string", "null"], "description": "the teaching message on a veto, quoting the promise; which case covers the promise on a pass" },
                "rule": { "type": ["string", "null"], "description": "what found the promise (`model`)" },
                "evidence": { "type": ["string", "null"], "description": "the sentence that makes the promise" },
                "spans": { "type": "array", "items": schema_ref("Span"), "description": "who, what makes it later, and what they will do, inside `message`" },
                "vetoes_in_turn": { "type": "integer" },
                "open_case": nullable_ref("CaseRef"),
                "auto_opened_case": nullable_ref("CaseRef"),
                "guardrail": { "enum": ["enabled", "disabled"], "description": "`disabled` when the guardrail is switched off for the agent in Settings: the message passed unread" },
            }),
        ),
        "Index": object(
            &["format", "text", "budget_chars", "used_chars", "entries"],
            json!({
                "format": { "enum": ["skillcase", "agentskills"] },
                "text": { "type": "string", "description": "the exact text for the agent's prompt" },
                "budget_chars": { "type": "integer" },
                "used_chars": { "type": "integer" },
                "entries": { "type": "array", "items": { "type": "object" }, "description": "every visible skill, included or cut by the budget" },
            }),
        ),
        "MatchRequest": object(
            &["conversation_id", "message"],
            json!({ "conversation_id": string(), "message": { "type": "string", "description": "the customer's message" } }),
        ),
        "MatchResponse": object(
            &["hard", "probe"],
            json!({
                "hard": { "type": "array", "items": schema_ref("SkillMatch"), "description": "activated; now active in the conversation" },
                "probe": { "type": "array", "items": schema_ref("SkillMatch"), "description": "near misses" },
            }),
        ),
        "SkillMatch": object(
            &["name", "trigger", "keyword"],
            json!({ "name": string(), "trigger": { "enum": ["hard", "probe"] }, "keyword": string() }),
        ),
        "SkillText": object(
            &["name", "text"],
            json!({ "name": string(), "path": string(), "text": { "type": "string", "description": "the exact text the agent reads" } }),
        ),
        "Span": object(
            &["role", "start", "end", "text"],
            json!({
                "role": { "enum": ["actor", "deferral", "action"] },
                "start": { "type": "integer", "description": "offset in characters (Unicode scalar values)" },
                "end": { "type": "integer", "description": "offset just past the span, in characters" },
                "text": string(),
            }),
        ),
        "Promise": object(
            &["seq", "made_at", "quote", "actor", "action", "due_text", "due_at", "kept", "spans"],
            json!({
                "seq": { "type": "integer", "description": "the `promise_made` event on the timeline" },
                "made_at": string(),
                "quote": { "type": "string", "description": "the sentence the customer was told" },
                "actor": { "type": ["string", "null"], "description": "who will act" },
                "action": { "type": ["string", "null"], "description": "what they will do" },
                "due_text": { "type": ["string", "null"], "description": "when, in the message's words" },
                "due_at": { "type": ["string", "null"], "description": "that time in the business calendar, RFC 3339 UTC" },
                "kept": { "type": "boolean", "description": "a person replied on the case after the promise" },
                "spans": { "type": "array", "items": schema_ref("Span"), "description": "offsets into `quote`" },
            }),
        ),
        "CaseRef": object(&["id", "number"], json!({ "id": string(), "number": { "type": "integer" } })),
        "Case": object(
            &["id", "number", "conversation_id", "lead", "status", "title", "summary", "context", "source",
              "reason", "waiting_since", "opened_at", "updated_at", "closed_at", "sla", "assignee"],
            json!({
                "id": string(),
                "number": { "type": "integer", "description": "the short number people use (#1042)" },
                "conversation_id": string(),
                "lead": schema_ref("Lead"),
                "agent_id": string(),
                "status": { "enum": ["awaiting_human", "awaiting_lead", "resolved", "escalated", "cancelled"] },
                "title": string(),
                "summary": string(),
                "blocker": string(),
                "context": { "type": "array", "items": schema_ref("ContextMessage") },
                "source": { "enum": ["agent", "guardrail_autofallback"] },
                "reason": {
                    "enum": HandoverReason::ALL.map(HandoverReason::as_str),
                    "description": "why the AI handed over; `guardrail_autofallback` exactly when the guardrail opened it, `not_stated` when the agent gave none",
                },
                "waiting_since": optional_string(),
                "opened_at": string(),
                "updated_at": string(),
                "closed_at": optional_string(),
                "sla": schema_ref("CaseSla"),
                "assignee": assignee(),
            }),
        ),
        "CaseSla": object(
            &["first_reply", "resolution", "paused_since", "next_due_at"],
            json!({
                "first_reply": nullable_ref("SlaClock"),
                "resolution": nullable_ref("SlaClock"),
                "paused_since": { "type": ["string", "null"], "description": "since when the clocks stand still: the case waits on the customer" },
                "next_due_at": { "type": ["string", "null"], "description": "the next due time still running; null while paused or closed" },
            }),
        ),
        "SlaClock": object(
            &["target_minutes", "due_at", "met_at", "state"],
            json!({
                "target_minutes": { "type": "integer", "description": "the target the case was opened under, in business minutes" },
                "due_at": { "type": "string", "description": "when it falls due, RFC 3339 UTC, after every pause so far" },
                "met_at": { "type": ["string", "null"], "description": "the first answer (first reply) or the close (resolution)" },
                "state": { "enum": ["running", "paused", "overdue", "met", "late"] },
            }),
        ),
        "CaseWithTimeline": object(
            &["case", "events", "deliveries", "promises"],
            json!({
                "case": schema_ref("Case"),
                "events": { "type": "array", "items": schema_ref("CaseEvent") },
                "deliveries": { "type": "array", "items": schema_ref("Delivery") },
                "promises": { "type": "array", "items": schema_ref("Promise"), "description": "what the agent promised the customer, oldest first" },
            }),
        ),
        "CaseEvent": object(
            &["seq", "case_id", "kind", "actor", "at", "payload"],
            json!({
                "seq": { "type": "integer" },
                "case_id": string(),
                "kind": { "enum": ["opened", "human_replied", "lead_asked", "lead_provided", "lead_unresponsive",
                                    "resolved", "escalated", "cancelled", "agent_notified", "delivery_failed",
                                    "promise_made", "reminder_sent", "sla_overdue"] },
                "actor": { "enum": ["agent", "human", "system", "lead"] },
                "actor_name": string(),
                "at": string(),
                "payload": { "type": "object" },
            }),
        ),
        "Delivery": object(
            &["id", "case_id", "event_seq", "action", "state", "attempts", "next_attempt_at", "last_error",
              "last_status", "created_at", "updated_at", "delivered_at"],
            json!({
                "id": string(),
                "case_id": string(),
                "event_seq": { "type": "integer" },
                "action": { "enum": ["resolved", "need_lead_info", "escalate", "reminder", "lead_unresponsive"] },
                "state": { "enum": ["pending", "delivered", "failed", "dead"] },
                "attempts": { "type": "integer" },
                "next_attempt_at": optional_string(),
                "last_error": optional_string(),
                "last_status": { "type": ["integer", "null"] },
                "created_at": string(),
                "updated_at": string(),
                "delivered_at": optional_string(),
            }),
        ),
    })
}

/// An object schema that allows no property beyond `properties`.
fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties, "additionalProperties": false })
}

/// One `type` of the case-event request, with its optional text field.
fn event_variant(kind: &str, text_field: &str, description: &str) -> Value {
    object(
        &["type"],
        json!({ "type": { "const": kind }, text_field: { "type": "string", "description": description } }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    found.push(r.clone());
                }
                map.values().for_each(|v| refs(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_resolves_to_a_schema() {
        let doc = document();
        let mut found = Vec::new();
        refs(&doc, &mut found);
        assert!(!found.is_empty());
        for reference in found {
            let name = reference.strip_prefix("#/components/schemas/").expect(&reference);
            assert!(doc["components"]["schemas"].get(name).is_some(), "{reference} does not resolve");
        }
    }

    #[test]
    fn the_document_lists_exactly_the_routed_endpoints() {
        let doc = document();
        let mut documented: Vec<(String, String)> = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                documented.push((method.to_uppercase(), path.clone()));
            }
        }
        let mut routed: Vec<(String, String)> =
            ENDPOINTS.iter().map(|e| (e.method.to_string(), e.openapi_path())).collect();
        documented.sort();
        routed.sort();
        assert_eq!(documented, routed);
    }

    #[test]
    fn every_error_code_an_endpoint_names_has_a_status() {
        for endpoint in ENDPOINTS {
            for code in EVERY_REQUEST.iter().chain(EVERY_BODY).chain(endpoint.errors) {
                assert!(known_codes().any(|(known, _)| known == *code), "{code} of {}", endpoint.path);
            }
        }
    }

    #[test]
    fn operation_ids_are_unique() {
        let mut ids: Vec<_> = ENDPOINTS.iter().map(|e| e.operation_id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), ENDPOINTS.len());
    }
}
