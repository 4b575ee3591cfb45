//! The case model of SPEC B1: cases, their append-only events and their outbox deliveries.
//!
//! Every type here is shown by the UI or returned by the local API, so each one serialises with
//! serde and exports its TypeScript with ts-rs. Times are RFC 3339 UTC strings with millisecond
//! precision (see [`super::clock`]), so they sort as text exactly as they sort in time.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::reason::HandoverReason;
use super::sla::CaseSla;

/// Where a case stands. `awaiting_human` and `awaiting_lead` are open; the other three are
/// terminal and never change again (SPEC B2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseStatus {
    AwaitingHuman,
    AwaitingLead,
    Resolved,
    Escalated,
    Cancelled,
}

impl CaseStatus {
    /// Every status, in the order the SPEC lists them.
    pub const ALL: [CaseStatus; 5] = [
        CaseStatus::AwaitingHuman,
        CaseStatus::AwaitingLead,
        CaseStatus::Resolved,
        CaseStatus::Escalated,
        CaseStatus::Cancelled,
    ];

    /// The snake_case name stored in the database and sent over the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseStatus::AwaitingHuman => "awaiting_human",
            CaseStatus::AwaitingLead => "awaiting_lead",
            CaseStatus::Resolved => "resolved",
            CaseStatus::Escalated => "escalated",
            CaseStatus::Cancelled => "cancelled",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<CaseStatus> {
        CaseStatus::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Open cases still wait on someone; a conversation has at most one of them.
    pub fn is_open(self) -> bool {
        matches!(self, CaseStatus::AwaitingHuman | CaseStatus::AwaitingLead)
    }
}

/// Who opened the case: the agent on purpose, or the guardrail after a second veto (SPEC B5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseSource {
    Agent,
    GuardrailAutofallback,
}

impl CaseSource {
    /// The snake_case name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseSource::Agent => "agent",
            CaseSource::GuardrailAutofallback => "guardrail_autofallback",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<CaseSource> {
        [CaseSource::Agent, CaseSource::GuardrailAutofallback].into_iter().find(|s| s.as_str() == name)
    }
}

/// The customer the agent talks to. Every field is optional because the guardrail can open a
/// case knowing only the conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Lead {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub channel: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub contact: Option<String>,
}

/// One message of the conversation as the agent supplied it, so the person sees what the lead
/// actually said before answering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ContextMessage {
    /// Who spoke, as the agent names it (`lead`, `agent`, ...).
    pub role: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub at: Option<String>,
}

/// A case: something the AI could not do alone and a person must answer (SPEC B1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Case {
    pub id: String,
    /// The short number people use (`#1042`), allocated without gaps.
    pub number: i64,
    pub conversation_id: String,
    pub lead: Lead,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_id: Option<String>,
    pub status: CaseStatus,
    pub title: String,
    /// What the lead needs.
    pub summary: String,
    /// Why the AI cannot do it itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub blocker: Option<String>,
    /// The recent messages the agent supplied when it opened the case.
    pub context: Vec<ContextMessage>,
    pub source: CaseSource,
    /// Why the AI handed over (`not_stated` when the agent did not say).
    pub reason: HandoverReason,
    /// Since when the case waits on the person or the lead; `None` once closed.
    pub waiting_since: Option<String>,
    pub opened_at: String,
    pub updated_at: String,
    pub closed_at: Option<String>,
    /// The response-time targets: due times, whether each was met, paused or missed.
    pub sla: CaseSla,
    /// The person working the case (their name as their Settings say); `None`: unassigned.
    pub assignee: Option<String>,
}

/// What the agent (or the guardrail) supplies to open a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct NewCase {
    pub conversation_id: String,
    #[serde(default)]
    pub lead: Lead,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_id: Option<String>,
    pub title: String,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub blocker: Option<String>,
    #[serde(default)]
    pub context: Vec<ContextMessage>,
    #[serde(default = "default_source")]
    pub source: CaseSource,
    /// Why the AI hands over; `guardrail_autofallback` exactly when the guardrail opens it.
    #[serde(default)]
    pub reason: HandoverReason,
}

fn default_source() -> CaseSource {
    CaseSource::Agent
}

/// The three things a person can answer (SPEC B3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum HumanAction {
    Resolved,
    NeedLeadInfo,
    Escalate,
}

impl HumanAction {
    /// The snake_case name used in payloads and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            HumanAction::Resolved => "resolved",
            HumanAction::NeedLeadInfo => "need_lead_info",
            HumanAction::Escalate => "escalate",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<HumanAction> {
        [HumanAction::Resolved, HumanAction::NeedLeadInfo, HumanAction::Escalate]
            .into_iter()
            .find(|a| a.as_str() == name)
    }
}

/// What a delivery tells the agent: one of a person's three answers (`case.replied`), the
/// reminder to nudge a quiet customer (`case.reminder`), or that the case closed because the
/// customer never answered (`case.closed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DeliveryAction {
    Resolved,
    NeedLeadInfo,
    Escalate,
    Reminder,
    LeadUnresponsive,
}

impl DeliveryAction {
    const ALL: [DeliveryAction; 5] = [
        DeliveryAction::Resolved,
        DeliveryAction::NeedLeadInfo,
        DeliveryAction::Escalate,
        DeliveryAction::Reminder,
        DeliveryAction::LeadUnresponsive,
    ];

    /// The snake_case name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryAction::Resolved => "resolved",
            DeliveryAction::NeedLeadInfo => "need_lead_info",
            DeliveryAction::Escalate => "escalate",
            DeliveryAction::Reminder => "reminder",
            DeliveryAction::LeadUnresponsive => "lead_unresponsive",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<DeliveryAction> {
        DeliveryAction::ALL.into_iter().find(|a| a.as_str() == name)
    }
}

impl From<HumanAction> for DeliveryAction {
    fn from(action: HumanAction) -> Self {
        match action {
            HumanAction::Resolved => DeliveryAction::Resolved,
            HumanAction::NeedLeadInfo => DeliveryAction::NeedLeadInfo,
            HumanAction::Escalate => DeliveryAction::Escalate,
        }
    }
}

/// Who caused an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Actor {
    Agent,
    Human,
    System,
    Lead,
}

impl Actor {
    /// The snake_case name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::Agent => "agent",
            Actor::Human => "human",
            Actor::System => "system",
            Actor::Lead => "lead",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<Actor> {
        [Actor::Agent, Actor::Human, Actor::System, Actor::Lead].into_iter().find(|a| a.as_str() == name)
    }
}

/// What happened to a case. The timeline is these, in order, and never rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum EventKind {
    Opened,
    HumanReplied,
    LeadAsked,
    LeadProvided,
    LeadUnresponsive,
    Resolved,
    Escalated,
    Cancelled,
    AgentNotified,
    DeliveryFailed,
    /// The agent promised the customer a follow-up (the promise ledger).
    PromiseMade,
    /// A person's private note on the case: on the timeline and in search, never sent to the
    /// agent, and it changes nothing about the case.
    InternalNote,
    /// The customer went quiet: the agent was asked to nudge them once (`case.reminder`).
    ReminderSent,
    /// A response-time target (first reply or resolution) fell due unmet; announced once.
    SlaOverdue,
    /// A person took the case or gave it to someone (`assignee`, and `previous` when it had one).
    Assigned,
    /// A person left the case to anyone (`previous`: who had it).
    Unassigned,
}

impl EventKind {
    const ALL: [EventKind; 16] = [
        EventKind::Opened,
        EventKind::HumanReplied,
        EventKind::LeadAsked,
        EventKind::LeadProvided,
        EventKind::LeadUnresponsive,
        EventKind::Resolved,
        EventKind::Escalated,
        EventKind::Cancelled,
        EventKind::AgentNotified,
        EventKind::DeliveryFailed,
        EventKind::PromiseMade,
        EventKind::InternalNote,
        EventKind::ReminderSent,
        EventKind::SlaOverdue,
        EventKind::Assigned,
        EventKind::Unassigned,
    ];

    /// The snake_case name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Opened => "opened",
            EventKind::HumanReplied => "human_replied",
            EventKind::LeadAsked => "lead_asked",
            EventKind::LeadProvided => "lead_provided",
            EventKind::LeadUnresponsive => "lead_unresponsive",
            EventKind::Resolved => "resolved",
            EventKind::Escalated => "escalated",
            EventKind::Cancelled => "cancelled",
            EventKind::AgentNotified => "agent_notified",
            EventKind::DeliveryFailed => "delivery_failed",
            EventKind::PromiseMade => "promise_made",
            EventKind::InternalNote => "internal_note",
            EventKind::ReminderSent => "reminder_sent",
            EventKind::SlaOverdue => "sla_overdue",
            EventKind::Assigned => "assigned",
            EventKind::Unassigned => "unassigned",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// One line of a case's timeline. `payload` carries what the kind needs (the action and text
/// of a reply, the error of a failed delivery).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CaseEvent {
    /// Position in the whole event log; increases with time.
    pub seq: i64,
    pub case_id: String,
    pub kind: EventKind,
    pub actor: Actor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actor_name: Option<String>,
    pub at: String,
    #[ts(type = "Record<string, unknown>")]
    pub payload: serde_json::Value,
}

/// Where an outbox delivery stands: `pending` until the endpoint takes it (or gives up),
/// `failed` after a refusal that retrying cannot fix, `dead` after too many attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DeliveryState {
    Pending,
    Delivered,
    Failed,
    Dead,
}

impl DeliveryState {
    /// The snake_case name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Pending => "pending",
            DeliveryState::Delivered => "delivered",
            DeliveryState::Failed => "failed",
            DeliveryState::Dead => "dead",
        }
    }

    /// Parses the stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<DeliveryState> {
        [DeliveryState::Pending, DeliveryState::Delivered, DeliveryState::Failed, DeliveryState::Dead]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// One message to the agent endpoint, written in the same transaction as the event it carries.
/// Its `id` is the `webhook-id` header: the same on every attempt, so the agent can drop repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Delivery {
    pub id: String,
    pub case_id: String,
    /// The event this delivery relays (`human_replied`, `reminder_sent` or `lead_unresponsive`).
    pub event_seq: i64,
    pub action: DeliveryAction,
    pub state: DeliveryState,
    pub attempts: i64,
    /// When the worker will try next; `None` unless pending.
    pub next_attempt_at: Option<String>,
    pub last_error: Option<String>,
    /// HTTP status of the last answer, if the endpoint answered at all.
    pub last_status: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
    pub delivered_at: Option<String>,
}
