//! The agent's tools (SPEC D3): the HTTP API's actions as MCP tools, each one call into the
//! application with the API's semantics and error codes, a JSON Schema for its arguments
//! (unknown fields refused, as the API refuses them) and one for its structured result.
//!
//! | tool | the API's endpoint |
//! |---|---|
//! | `read_skill` | `GET /v1/skills/{name}` (level 2; records the activation) |
//! | `read_skill_file` | `GET /v1/skills/{name}/files/{path}` (level 3, active skills only) |
//! | `match_skills` | `POST /v1/skills/match` |
//! | `open_case` | `POST /v1/cases` (returns the open one if there is one) |
//! | `provide_case_update` | `POST /v1/cases/{id}/updates` |
//! | `record_case_event` | `POST /v1/cases/{id}/events` |
//! | `get_case` | `GET /v1/cases/{id}` |
//! | `check_message` | `POST /v1/guard/before-send` |

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use skillcase_application::cases::CaseEvent;
use skillcase_application::domain::cases::guard::BeforeSend;
use skillcase_application::domain::cases::model::{CaseSource, ContextMessage, Lead, NewCase};
use skillcase_application::domain::cases::reason::HandoverReason;
use skillcase_application::domain::skill::disclosure::{Activation, SegmentKind};
use skillcase_application::App;
use skillcase_common::ErrorBody;

use crate::error::tool_error;

/// `read_skill` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSkillArgs {
    /// The skill's name, as in the index.
    pub name: String,
    /// What you are about to do: route keywords in it add required references, inlined.
    pub task: Option<String>,
    /// The conversation you read it for: the skill becomes active there, so its files can be read.
    pub conversation_id: Option<String>,
}

/// `read_skill_file` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSkillFileArgs {
    /// The skill's name.
    pub name: String,
    /// The file's path inside the skill, under a support folder (`references/prazos.md`).
    pub path: String,
    /// The conversation the skill is active in; without it the read is refused (`skill_not_active`).
    pub conversation_id: Option<String>,
}

/// `match_skills` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchArgs {
    pub conversation_id: String,
    /// The customer's message.
    pub message: String,
}

/// The lead a case is about; every field optional.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeadArg {
    pub id: Option<String>,
    pub name: Option<String>,
    /// `whatsapp`, `email`, ...
    pub channel: Option<String>,
    /// A phone number or an address.
    pub contact: Option<String>,
}

/// One recent message of the conversation.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArg {
    /// Who spoke: `lead`, `agent`, ...
    pub role: String,
    pub text: String,
    /// When (RFC 3339).
    pub at: Option<String>,
}

/// `open_case` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenCaseArgs {
    pub conversation_id: String,
    /// What the case is about, at most 200 characters.
    pub title: String,
    /// What the lead needs.
    pub summary: String,
    /// Why you cannot resolve it yourself.
    pub blocker: Option<String>,
    #[serde(default)]
    pub lead: LeadArg,
    /// Which agent opens it, when several share the inbox.
    pub agent_id: Option<String>,
    /// The last messages of the conversation, oldest first.
    #[serde(default)]
    pub context: Vec<ContextArg>,
    /// Why you hand over. Checked by the application (not by serde), so a wrong one is
    /// `invalid_reason` listing the allowed names, as over HTTP.
    #[serde(default)]
    #[schemars(schema_with = "reason_schema")]
    pub reason: Option<String>,
}

/// The `reason` argument: one of the reasons an agent may send, straight from the domain's list.
fn reason_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "string",
        "enum": HandoverReason::agent_choice_names(),
        "description": "Why you hand over: customer_request (the customer asked for a person), missing_knowledge \
            (you do not know the answer), unsupported_request (you cannot do it at all), policy_restriction (a rule \
            forbids you), tool_failure (a tool you need failed), pending_clarification (a person must work out what \
            the customer means). Optional, but always send it: the inbox filters and reports by it."
    })
}

/// `provide_case_update` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    pub case_id: String,
    /// What the lead answered.
    pub info: String,
}

/// What happened with the lead.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// You asked the lead what the person needs (the case stays `awaiting_lead`).
    LeadAsked,
    /// The lead stopped answering.
    LeadUnresponsive,
    /// Cancel the case (the lead gave up, or it was opened by mistake).
    Cancel,
}

/// `record_case_event` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventArgs {
    pub case_id: String,
    pub kind: EventKind,
    /// What you asked, why the lead is unresponsive, or why you cancel.
    pub note: Option<String>,
}

/// `get_case` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetCaseArgs {
    pub case_id: String,
}

/// `check_message` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckArgs {
    pub conversation_id: String,
    /// Your turn: every attempt at the same reply uses the same one, a new reply a new one.
    pub turn_id: String,
    /// The message you are about to send the lead.
    pub message: String,
    /// Which agent sends it, when several share the inbox: its guardrail switch applies.
    pub agent_id: Option<String>,
}

/// `read_skill`'s structured result.
#[derive(Debug, Serialize)]
struct ReadSkillResult {
    name: String,
    text: String,
    required: Vec<String>,
    optional: Vec<String>,
    route_matched: Vec<String>,
}

/// Every tool this server offers.
pub fn all() -> Vec<Tool> {
    let object = |properties: Value, required: &[&str]| -> Arc<JsonObject> {
        let schema = json!({ "type": "object", "properties": properties, "required": required });
        Arc::new(schema.as_object().cloned().expect("an object"))
    };
    let case = json!({ "type": "object", "description": "the case (id, number, conversation_id, status, title, ...)" });
    let list = json!({ "type": "array", "items": { "type": "string" } });
    let matches = json!({ "type": "array", "items": { "type": "object", "properties": {
        "name": { "type": "string" }, "trigger": { "type": "string" }, "keyword": { "type": "string" } } } });
    let read_only = ToolAnnotations::new().read_only(true);
    vec![
        tool::<ReadSkillArgs>(
            "read_skill",
            "Level 2: a skill's instructions, then the references you must read before acting (required), the others you may read (optional) and, for a task that matches a route, those documents inlined. With conversation_id the skill becomes active there.",
            object(json!({ "name": { "type": "string" }, "text": { "type": "string" }, "required": list,
                "optional": list, "route_matched": list }), &["name", "text", "required", "optional", "route_matched"]),
        ),
        tool::<ReadSkillFileArgs>(
            "read_skill_file",
            "Level 3: one support file of a skill active in the conversation (activate it with read_skill or match_skills first).",
            object(json!({ "name": { "type": "string" }, "path": { "type": "string" }, "text": { "type": "string" } }), &["name", "path", "text"]),
        )
        .with_annotations(read_only.clone()),
        tool::<MatchArgs>(
            "match_skills",
            "Which skills a customer message activates (hard: now active in the conversation) or nearly activates (probe). Recorded as activations.",
            object(json!({ "hard": matches, "probe": matches }), &["hard", "probe"]),
        ),
        tool::<OpenCaseArgs>(
            "open_case",
            "Open a case for a person to answer, when you cannot resolve the request yourself. A conversation has at most one open case: if one is open it is returned with already_open true, so retrying is safe.",
            object(json!({ "case": case, "already_open": { "type": "boolean" } }), &["case", "already_open"]),
        ),
        tool::<UpdateArgs>(
            "provide_case_update",
            "Hand back what the lead answered after the person asked for information: the case waits on the person again.",
            object(json!({ "case": case }), &["case"]),
        ),
        tool::<EventArgs>(
            "record_case_event",
            "Record that you asked the lead (lead_asked) or that the lead stopped answering (lead_unresponsive), or cancel the case (cancel).",
            object(json!({ "case": case }), &["case"]),
        ),
        tool::<GetCaseArgs>(
            "get_case",
            "A case with its timeline of events, oldest first, and the deliveries of the person's answers.",
            object(json!({ "case": case, "events": { "type": "array" }, "deliveries": { "type": "array" } }), &["case"]),
        )
        .with_annotations(read_only),
        tool::<CheckArgs>(
            "check_message",
            "Ask before sending each message to the lead. A promise that a person will follow up, without an open case, is vetoed with what to do instead; the second veto in the same turn_id opens the case itself and passes.",
            object(json!({ "verdict": { "type": "string", "enum": ["pass", "veto"] }, "reason": { "type": ["string", "null"] },
                "rule": { "type": ["string", "null"] }, "evidence": { "type": ["string", "null"] },
                "vetoes_in_turn": { "type": "integer" }, "open_case": {}, "auto_opened_case": {},
                "guardrail": { "type": "string", "enum": ["enabled", "disabled"] } }), &["verdict"]),
        ),
    ]
}

fn tool<A: JsonSchema + 'static>(
    name: &'static str,
    description: &'static str,
    output: Arc<JsonObject>,
) -> Tool {
    Tool::new(name, description, Arc::new(JsonObject::new()))
        .with_input_schema::<A>()
        .with_raw_output_schema(output)
}

/// Runs the tool `name`; `None` when there is no such tool.
pub async fn call(app: &App, name: &str, arguments: Option<JsonObject>) -> Option<CallToolResult> {
    let arguments = Value::Object(arguments.unwrap_or_default());
    let result = match name {
        "read_skill" => run(arguments, |a: ReadSkillArgs| read_skill(app, a)).await,
        "read_skill_file" => run(arguments, |a: ReadSkillFileArgs| read_skill_file(app, a)).await,
        "match_skills" => {
            run(arguments, |a: MatchArgs| async move {
                let outcome = app.match_skills(a.conversation_id, a.message).await?;
                structured(&json!({ "hard": outcome.hard, "probe": outcome.probe }))
            })
            .await
        }
        "open_case" => {
            run(arguments, |a: OpenCaseArgs| async move { structured(&app.open_case(new_case(a)?).await?) })
                .await
        }
        "provide_case_update" => {
            run(arguments, |a: UpdateArgs| async move {
                structured(&json!({ "case": app.provide_case_update(a.case_id, a.info).await? }))
            })
            .await
        }
        "record_case_event" => {
            run(arguments, |a: EventArgs| async move {
                let event = match a.kind {
                    EventKind::LeadAsked => CaseEvent::LeadAsked { text: a.note },
                    EventKind::LeadUnresponsive => CaseEvent::LeadUnresponsive { note: a.note },
                    EventKind::Cancel => CaseEvent::Cancel { reason: a.note },
                };
                structured(&json!({ "case": app.record_case_event(a.case_id, event).await? }))
            })
            .await
        }
        "get_case" => {
            run(
                arguments,
                |a: GetCaseArgs| async move { structured(&app.get_case_for_agent(a.case_id).await?) },
            )
            .await
        }
        "check_message" => {
            run(arguments, |a: CheckArgs| async move {
                let request = BeforeSend {
                    conversation_id: a.conversation_id,
                    turn_id: a.turn_id,
                    message: a.message,
                    agent_id: a.agent_id,
                };
                structured(&app.before_send(request).await?)
            })
            .await
        }
        _ => return None,
    };
    Some(result)
}

/// Parses the arguments (a refusal names the field, as the API's `bad_request` does), runs the
/// action and turns a refusal into a tool error.
async fn run<A, F, Fut>(arguments: Value, action: F) -> CallToolResult
where
    A: DeserializeOwned,
    F: FnOnce(A) -> Fut,
    Fut: std::future::Future<Output = Result<CallToolResult, ErrorBody>>,
{
    let parsed: Result<A, _> = serde_path_to_error::deserialize(arguments);
    let args = match parsed {
        Ok(args) => args,
        Err(error) => {
            let field = error.path().to_string();
            let mut body = ErrorBody::new("bad_request", format!("invalid arguments: {}", error.inner()));
            if field != "." {
                body.details = Some(json!({ "field": field }));
            }
            return tool_error(body);
        }
    };
    action(args).await.unwrap_or_else(tool_error)
}

/// A result whose structured content is `value` and whose text is the same JSON.
fn structured(value: &impl Serialize) -> Result<CallToolResult, ErrorBody> {
    let value = serde_json::to_value(value).map_err(|e| ErrorBody::new("internal", e.to_string()))?;
    let text = value.to_string();
    let mut result = CallToolResult::structured(value);
    result.content = vec![ContentBlock::text(text)];
    Ok(result)
}

async fn read_skill(app: &App, args: ReadSkillArgs) -> Result<CallToolResult, ErrorBody> {
    let name = args.name.clone();
    let activation = app.read_skill_parts(args.name, args.task, args.conversation_id).await?;
    let result = parts(name, activation);
    let text = result.text.clone();
    let mut call = structured(&result)?;
    call.content = vec![ContentBlock::text(text)];
    Ok(call)
}

fn parts(name: String, activation: Activation) -> ReadSkillResult {
    let paths = |kind: SegmentKind| -> Vec<String> {
        activation.segments.iter().filter(|s| s.kind == kind).flat_map(|s| s.paths.clone()).collect()
    };
    ReadSkillResult {
        required: paths(SegmentKind::Required),
        optional: paths(SegmentKind::Optional),
        route_matched: paths(SegmentKind::RouteMatched),
        text: activation.text,
        name,
    }
}

async fn read_skill_file(app: &App, args: ReadSkillFileArgs) -> Result<CallToolResult, ErrorBody> {
    let Some(conversation_id) = args.conversation_id else {
        return Err(ErrorBody::new(
            "skill_not_active",
            format!(
                "{} is not active without a conversation: pass the conversation_id you read it (read_skill) or matched it (match_skills) in",
                args.name
            ),
        ));
    };
    let text = app.read_skill_file(args.name.clone(), args.path.clone(), conversation_id).await?;
    let mut call = structured(&json!({ "name": args.name, "path": args.path, "text": text }))?;
    call.content = vec![ContentBlock::text(text)];
    Ok(call)
}

fn new_case(args: OpenCaseArgs) -> Result<NewCase, ErrorBody> {
    let reason = HandoverReason::from_agent(args.reason.as_deref())?;
    let LeadArg { id, name, channel, contact } = args.lead;
    Ok(NewCase {
        conversation_id: args.conversation_id,
        lead: Lead { id, name, channel, contact },
        agent_id: args.agent_id,
        title: args.title,
        summary: args.summary,
        blocker: args.blocker,
        context: args
            .context
            .into_iter()
            .map(|c| ContextMessage { role: c.role, text: c.text, at: c.at })
            .collect(),
        source: CaseSource::Agent,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_of_the_spec_is_offered_with_an_object_schema_for_arguments_and_result() {
        let tools = all();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "read_skill",
                "read_skill_file",
                "match_skills",
                "open_case",
                "provide_case_update",
                "record_case_event",
                "get_case",
                "check_message"
            ]
        );
        for tool in &tools {
            assert_eq!(tool.input_schema.get("type"), Some(&json!("object")), "{}", tool.name);
            assert!(tool.output_schema.is_some(), "{}", tool.name);
        }
    }

    #[test]
    fn the_argument_schema_refuses_unknown_fields_and_names_the_required_ones() {
        let tools = all();
        let open_case = tools.iter().find(|t| t.name == "open_case").unwrap();
        assert_eq!(open_case.input_schema.get("additionalProperties"), Some(&json!(false)));
        let required = open_case.input_schema.get("required").unwrap();
        assert_eq!(required, &json!(["conversation_id", "title", "summary"]));
    }

    #[test]
    fn the_open_case_schema_offers_exactly_the_reasons_an_agent_may_send() {
        let tools = all();
        let open_case = tools.iter().find(|t| t.name == "open_case").unwrap();
        let reason = &open_case.input_schema["properties"]["reason"];
        assert_eq!(reason["type"], "string");
        assert_eq!(
            reason["enum"],
            json!([
                "customer_request",
                "missing_knowledge",
                "unsupported_request",
                "policy_restriction",
                "tool_failure",
                "pending_clarification"
            ])
        );
    }
}
