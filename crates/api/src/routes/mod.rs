//! The route table of SPEC B4: one entry per endpoint, from which both the router and the
//! OpenAPI document are built, so the two cannot drift apart.

use axum::http::Method;
use axum::routing::{on, MethodFilter, MethodRouter};
use axum::Router;

use super::state::ApiState;

mod cases;
mod guard;
mod meta;
mod skills;

/// Where a parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamIn {
    Path,
    Query,
}

/// A path or query parameter of an endpoint, for the OpenAPI document.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub location: ParamIn,
    pub required: bool,
    pub description: &'static str,
}

/// One endpoint: how it is routed and how it is documented.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub method: Method,
    /// The path in axum's syntax (`/v1/cases/{id}`, `{*path}` for a rest-of-path parameter);
    /// [`Endpoint::openapi_path`] gives OpenAPI's.
    pub path: &'static str,
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub params: &'static [Param],
    /// The component schema of the JSON request body, if the endpoint takes one.
    pub body: Option<&'static str>,
    /// Success statuses and the component schema each answers with.
    pub ok: &'static [(u16, &'static str)],
    /// The error codes this endpoint answers with beyond those every request can get.
    pub errors: &'static [&'static str],
    /// Attaches the handler for `method`.
    pub route: fn(MethodFilter) -> MethodRouter<ApiState>,
}

const CASE_ID: Param =
    Param { name: "id", location: ParamIn::Path, required: true, description: "the case id (a uuid)" };

impl Endpoint {
    /// The path as OpenAPI writes it: `{*path}` becomes `{path}`.
    pub fn openapi_path(&self) -> String {
        self.path.replace("{*", "{")
    }
}

const SKILL_NAME: Param =
    Param { name: "name", location: ParamIn::Path, required: true, description: "the skill's name" };
const CONVERSATION: Param = Param {
    name: "conversation_id",
    location: ParamIn::Query,
    required: false,
    description: "the conversation the skill is read for; reading activates the skill there",
};

/// Every endpoint of the API.
pub const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        method: Method::GET,
        path: "/v1/openapi.json",
        operation_id: "openapi",
        summary: "This API's OpenAPI 3.1 document",
        params: &[],
        body: None,
        ok: &[(200, "OpenApiDocument")],
        errors: &[],
        route: |m| on(m, meta::openapi),
    },
    Endpoint {
        method: Method::POST,
        path: "/v1/cases",
        operation_id: "openCase",
        summary: "Open a case for a conversation, or get the one already open for it",
        params: &[],
        body: Some("OpenCaseRequest"),
        ok: &[(201, "OpenCaseResponse"), (200, "OpenCaseResponse")],
        errors: &["text_required", "invalid_case_input", "invalid_reason"],
        route: |m| on(m, cases::open),
    },
    Endpoint {
        method: Method::GET,
        path: "/v1/cases/{id}",
        operation_id: "getCase",
        summary: "A case with its timeline of events and its deliveries",
        params: &[CASE_ID],
        body: None,
        ok: &[(200, "CaseWithTimeline")],
        errors: &["case_not_found"],
        route: |m| on(m, cases::get),
    },
    Endpoint {
        method: Method::POST,
        path: "/v1/cases/{id}/updates",
        operation_id: "provideUpdate",
        summary: "Hand back what the lead answered: awaiting_lead becomes awaiting_human",
        params: &[CASE_ID],
        body: Some("UpdateRequest"),
        ok: &[(200, "CaseResponse")],
        errors: &["case_not_found", "invalid_transition", "text_required", "invalid_case_input"],
        route: |m| on(m, cases::update),
    },
    Endpoint {
        method: Method::POST,
        path: "/v1/cases/{id}/events",
        operation_id: "recordCaseEvent",
        summary: "Record that the lead was asked or went quiet, or cancel the case",
        params: &[CASE_ID],
        body: Some("EventRequest"),
        ok: &[(200, "CaseResponse")],
        errors: &["case_not_found", "invalid_transition", "invalid_case_input"],
        route: |m| on(m, cases::event),
    },
    Endpoint {
        method: Method::POST,
        path: "/v1/guard/before-send",
        operation_id: "beforeSend",
        summary: "May the agent send this message? Vetoes a promised human follow-up without an open case",
        params: &[],
        body: Some("BeforeSendRequest"),
        ok: &[(200, "Verdict")],
        errors: &["invalid_input", "invalid_case_input"],
        route: |m| on(m, guard::before_send),
    },
    Endpoint {
        method: Method::GET,
        path: "/v1/skills/index",
        operation_id: "skillsIndex",
        summary: "Level 1: the index of visible skills for the agent's prompt",
        params: &[Param {
            name: "format",
            location: ParamIn::Query,
            required: false,
            description: "skillcase (default) or agentskills",
        }],
        body: None,
        ok: &[(200, "Index")],
        errors: &["unknown_index_format", "bad_request"],
        route: |m| on(m, skills::index),
    },
    Endpoint {
        method: Method::POST,
        path: "/v1/skills/match",
        operation_id: "matchSkills",
        summary: "Which skills a customer message activates (hard) or nearly activates (probe)",
        params: &[],
        body: Some("MatchRequest"),
        ok: &[(200, "MatchResponse")],
        errors: &[],
        route: |m| on(m, skills::match_message),
    },
    Endpoint {
        method: Method::GET,
        path: "/v1/skills/{name}",
        operation_id: "readSkill",
        summary: "Level 2: the skill's body with its required and optional references",
        params: &[
            SKILL_NAME,
            Param {
                name: "task",
                location: ParamIn::Query,
                required: false,
                description: "what the agent is about to do; route keywords in it add required references",
            },
            CONVERSATION,
        ],
        body: None,
        ok: &[(200, "SkillText")],
        errors: &["skill_not_found", "skill_invalid", "bad_request"],
        route: |m| on(m, skills::read),
    },
    Endpoint {
        method: Method::GET,
        path: "/v1/skills/{name}/files/{*path}",
        operation_id: "readSkillFile",
        summary: "Level 3: one support file of a skill active in the conversation",
        params: &[
            SKILL_NAME,
            Param {
                name: "path",
                location: ParamIn::Path,
                required: true,
                description: "relative path inside the skill, under a support folder (references/a.md)",
            },
            Param { required: true, ..CONVERSATION },
        ],
        body: None,
        ok: &[(200, "SkillText")],
        errors: &[
            "skill_not_active",
            "skill_not_found",
            "skill_invalid",
            "bad_request",
            "path_empty",
            "path_backslash",
            "path_not_relative",
            "path_empty_segment",
            "path_dot_segment",
            "path_not_support_folder",
            "file_is_infrastructure",
            "file_not_in_skill",
            "file_not_text",
        ],
        route: |m| on(m, skills::read_file),
    },
];

/// The router of every endpoint in [`ENDPOINTS`].
pub fn router() -> Router<ApiState> {
    ENDPOINTS.iter().fold(Router::new(), |router, endpoint| {
        let filter = MethodFilter::try_from(endpoint.method.clone())
            .expect("the table only uses methods axum can route");
        router.route(endpoint.path, (endpoint.route)(filter))
    })
}
