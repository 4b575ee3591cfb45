//! The OpenAPI 3.1 document served at `GET /v1/openapi.json`.
//!
//! Paths and operations come from the route table ([`routes::ENDPOINTS`]), the one source the
//! router is also built from; the error responses of each operation come from the status table
//! in [`error`](super::error). Only the body schemas are written here by hand, and a test checks
//! every reference resolves. Like every endpoint, the document needs the bearer token: SPEC B4
//! admits no request without it, and an agent that can read the document can also send it.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::error::known_codes;
use super::routes::{Endpoint, ParamIn, ENDPOINTS};

/// Codes any request can be answered with, whatever the endpoint.
const EVERY_REQUEST: &[&str] =
    &["unauthorized", "host_not_allowed", "origin_not_allowed", "request_timeout", "internal"];
/// Codes any request with a JSON body can also get.
const EVERY_BODY: &[&str] = &["bad_request", "body_too_large", "unsupported_media_type"];

/// The whole document.
pub fn document() -> Value {
    let mut paths = Map::new();
    for endpoint in ENDPOINTS {
        let item = paths.entry(endpoint.path).or_insert_with(|| json!({}));
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

fn string() -> Value {
    json!({ "type": "string" })
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
    })
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
            ENDPOINTS.iter().map(|e| (e.method.to_string(), e.path.to_string())).collect();
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
