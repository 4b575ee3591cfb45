//! Where cases live, as the rest of Skillcase sees it: two traits, one implementation per
//! backend. SQLite ([`crate::sqlite::SqliteCases`]) is the embedded default for one desktop; a
//! team's PostgreSQL implements the same traits, so no caller changes.
//!
//! Every method is one atomic step of SPEC B1–B3: it changes everything it names or nothing, and
//! a refusal (`invalid_transition`, `case_not_found`, …) changes nothing. Methods block the
//! calling thread; async callers run them on a blocking thread.

use std::time::Duration;

use super::agents::{AgentInput, AgentSwitches, AgentView};
use super::endpoint::{EndpointInput, EndpointSettings, EndpointView};
use super::error::CasesError;
use super::model::{Actor, Case, CaseEvent, Delivery, DeliveryState, HumanAction, NewCase};
use super::outbox::{Attempt, Backoff, Claimed, OutboxStatus};
use super::promises::{NewPromise, OverduePromise};
use super::quiet::{QuietDelays, QuietRun};
use super::report::{CaseReport, ReportRange};
use super::sla::OverdueTarget;
use super::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use super::transition::OpenOutcome;

/// Cases, their append-only timelines, what a person has read, and the guardrail's veto counts.
pub trait CasesRepository: Send + Sync {
    /// Opens a case for a conversation, or returns the one already open for it (SPEC B2).
    fn open_case(&self, new: NewCase) -> Result<OpenOutcome, CasesError>;
    /// A person's answer, with its event and the outbox delivery that relays it, in one step.
    fn reply(
        &self,
        case_id: &str,
        action: HumanAction,
        text: &str,
        actor_name: &str,
    ) -> Result<(Case, Delivery), CasesError>;
    /// A person's internal note on a case: on its timeline, never sent to the agent, the case
    /// otherwise unchanged. Returns the note's event.
    fn add_note(&self, case_id: &str, text: &str, actor_name: &str) -> Result<CaseEvent, CasesError>;
    /// `person` is writing a reply on the case: holds its lease for [`crate::lease::REPLY_LEASE`]
    /// (renewed on every call) and returns it — or, while someone else's lease runs, theirs,
    /// which they keep.
    fn hold_reply(&self, case_id: &str, person: &str) -> Result<crate::lease::Replying, CasesError>;
    /// The agent hands back what the lead answered: `awaiting_lead` → `awaiting_human`.
    fn provide_update(&self, case_id: &str, info: &str) -> Result<Case, CasesError>;
    /// The agent records what it asked the lead; the case keeps waiting on the lead.
    fn record_lead_asked(&self, case_id: &str, text: Option<&str>) -> Result<Case, CasesError>;
    /// The agent records that the lead stopped answering.
    fn record_lead_unresponsive(&self, case_id: &str, note: Option<&str>) -> Result<Case, CasesError>;
    /// The agent or a person cancels an open case.
    fn cancel(
        &self,
        case_id: &str,
        actor: Actor,
        actor_name: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Case, CasesError>;
    /// A person cancels several open cases with one reason: all of them or none (the refusal
    /// names the case that could not be cancelled).
    fn cancel_many(
        &self,
        case_ids: &[String],
        actor_name: &str,
        reason: &str,
    ) -> Result<Vec<Case>, CasesError>;
    /// One case with its timeline and deliveries.
    fn get_case(&self, id: &str) -> Result<CaseWithTimeline, CasesError>;
    /// Assigns the open cases to `assignee` (`None`: unassigned), all or none, with an event each.
    fn assign(
        &self,
        case_ids: &[String],
        assignee: Option<&str>,
        actor_name: &str,
    ) -> Result<Vec<Case>, CasesError>;
    /// The case people know by this number (`#1042`), without its timeline.
    fn find_case_by_number(&self, number: i64) -> Result<Case, CasesError>;
    /// One inbox page with the tab counts.
    fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError>;
    /// The tab counts and the unread badge.
    fn tab_counts(&self) -> Result<TabCounts, CasesError>;
    /// The handover report over the cases opened in `range` (SPEC D5).
    fn report(&self, range: &ReportRange) -> Result<CaseReport, CasesError>;
    /// Marks the case read (the person opened it) or unread again.
    fn set_read(&self, case_id: &str, read: bool) -> Result<(), CasesError>;
    /// Marks several cases read or unread at once: all of them or none.
    fn set_read_many(&self, case_ids: &[String], read: bool) -> Result<(), CasesError>;
    /// In one step: the conversation's open case (which covers any promise), or one more veto
    /// for the turn (SPEC B5).
    fn record_veto(&self, veto: &Veto) -> Result<VetoCount, CasesError>;
    /// Puts a promise that passed the guardrail on the case's ledger (once per turn and quote);
    /// returns whether it was recorded.
    fn record_promise(&self, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError>;
    /// The open cases whose promise is overdue at `now` and not yet announced, marked announced.
    fn take_overdue_promises(&self, now: &str) -> Result<Vec<OverduePromise>, CasesError>;
    /// One run of the quiet-customer job at `now` (SPEC D5): the reminders due and the closings
    /// due, each its own transaction, each case at most once per wait however many runs race.
    fn follow_up_quiet(&self, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError>;
    /// The switches of an agent (every one on for an agent without settings, or no id).
    fn agent_switches(&self, agent_id: Option<&str>) -> Result<AgentSwitches, CasesError>;
    /// The response-time targets that fell due unmet at `now`, each taken once with its
    /// `sla_overdue` event.
    fn take_overdue_targets(&self, now: &str) -> Result<Vec<OverdueTarget>, CasesError>;
    /// Remembers the case the guardrail opened for a turn.
    fn note_auto_case(&self, conversation_id: &str, turn_id: &str, case_id: &str) -> Result<(), CasesError>;
}

/// A promise the guardrail vetoed: where, and what decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Veto {
    pub conversation_id: String,
    pub turn_id: String,
    pub rule: Option<String>,
    pub evidence: Option<String>,
}

/// What [`CasesRepository::record_veto`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VetoCount {
    /// The conversation already has an open case: nothing was counted.
    Covered(Box<Case>),
    /// Vetoes in this turn, this one included.
    Vetoes(i64),
}

/// The relay of replies to the agent endpoint (SPEC B3): the endpoint's settings and the
/// outbox of deliveries the worker claims, sends and settles.
pub trait OutboxRepository: Send + Sync {
    /// The stored endpoint, if one was ever configured.
    fn endpoint(&self) -> Result<Option<EndpointSettings>, CasesError>;
    /// The stored endpoint without its secret, for Settings.
    fn endpoint_view(&self) -> Result<Option<EndpointView>, CasesError>;
    /// Validates and stores the endpoint; nothing is stored when a field is wrong.
    fn set_endpoint(&self, input: EndpointInput) -> Result<EndpointView, CasesError>;
    /// The endpoint `input` describes, validated but not stored (a missing secret is the stored one).
    fn checked_endpoint(&self, input: &EndpointInput) -> Result<EndpointSettings, CasesError>;
    /// Takes the routable delivery due the longest that no worker holds, with its agent's
    /// endpoint, leased for that endpoint's timeout plus `lease_margin`.
    fn claim_next(&self, lease_margin: Duration) -> Result<Option<Claimed>, CasesError>;
    /// When the next pending delivery falls due.
    fn next_due_at(&self) -> Result<Option<String>, CasesError>;
    /// Gives a claimed delivery back untouched.
    fn release(&self, id: &str) -> Result<(), CasesError>;
    /// Settles one attempt with its timeline event.
    fn record_attempt(
        &self,
        id: &str,
        attempt: &Attempt,
        max_attempts: u32,
        backoff: &Backoff,
    ) -> Result<Delivery, CasesError>;
    /// A person's Retry of a failed or dead delivery, under the same id.
    fn retry(&self, id: &str) -> Result<Delivery, CasesError>;
    /// Endpoint health and what waits, for the banner.
    fn status(&self) -> Result<OutboxStatus, CasesError>;
    /// Every agent with settings or cases, for Settings.
    fn agents(&self) -> Result<Vec<AgentView>, CasesError>;
    /// Validates and stores one agent's endpoint and switches; nothing is stored when a field is wrong.
    fn set_agent(&self, input: AgentInput) -> Result<AgentView, CasesError>;
    /// Forgets one agent's settings (its cases keep its id).
    fn remove_agent(&self, agent_id: &str) -> Result<(), CasesError>;
    /// Every delivery in one state, oldest first.
    fn deliveries_in_state(&self, state: DeliveryState) -> Result<Vec<Delivery>, CasesError>;
}
