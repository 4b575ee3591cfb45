//! Where cases live, as the rest of Skillcase sees it: two traits, implemented once for every
//! [`Storage`] — the embedded SQLite database of one desktop, or a team's PostgreSQL — so no
//! caller changes and no step is written twice.
//!
//! Every method is one atomic step of SPEC B1–B3: it changes everything it names or nothing, and
//! a refusal (`invalid_transition`, `case_not_found`, …) changes nothing. Methods block the
//! calling thread; async callers run them on a blocking thread.

use std::time::Duration;

use super::agents::{AgentInput, AgentSwitches, AgentView};
use super::endpoint::{EndpointInput, EndpointSettings, EndpointView};
use super::error::CasesError;
use super::marks::{AdoptedModel, Mark, NewMark, VetoEntry};
use super::model::{Actor, Case, CaseEvent, Delivery, DeliveryState, HumanAction, NewCase};
use super::outbox::{Attempt, Backoff, Claimed, OutboxStatus};
use super::promises::{NewPromise, OverduePromise};
use super::quiet::{QuietDelays, QuietRun};
use super::report::{CaseReport, ReportRange};
use super::sla::OverdueTarget;
use super::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use super::transition::{self, OpenOutcome};
use crate::sql::Storage;
use skillcase_guard::model::Model;
use skillcase_guard::retrain::Report;

/// Cases, their append-only timelines, what a person has read, and the guardrail's veto counts.
pub trait CasesRepository: Send + Sync {
    /// Opens a case for a conversation, or returns the one already open for it (SPEC B2).
    fn open_case(&self, new: NewCase) -> Result<OpenOutcome, CasesError>;
    /// A person's answer, with its event, the person's read mark and the outbox delivery that
    /// relays it, in one step. Returns the case as that step left it, timeline included, so the
    /// caller need not read it again.
    fn reply(
        &self,
        case_id: &str,
        action: HumanAction,
        text: &str,
        actor_name: &str,
    ) -> Result<(CaseWithTimeline, Delivery), CasesError>;
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
    /// The inbox page a person is waiting on while typing: a newer call interrupts this one
    /// where the database can (`superseded`), so only the newest search costs time.
    fn list_cases_latest(&self, filter: &CaseFilter) -> Result<CasePage, CasesError>;
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
    /// When the next promise or response-time target falls due unannounced (`None`: nothing is
    /// owed), so the overdue watch can sleep until then.
    fn next_overdue_at(&self) -> Result<Option<String>, CasesError>;
    /// When the quiet-customer job next has a reminder or a closing to do under `delays`.
    fn next_quiet_at(&self, delays: &QuietDelays) -> Result<Option<String>, CasesError>;
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
    /// The whole message, for the veto log a person marks from.
    pub message: String,
}

/// What [`CasesRepository::record_veto`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VetoCount {
    /// The conversation already has an open case: nothing was counted.
    Covered(Box<Case>),
    /// Vetoes in this turn, this one included.
    Vetoes(i64),
}

/// What people taught the guardrail (SPEC B5): their marks, the veto log they mark from, and the
/// model a retrain adopted ([`crate::marks`]). On a team's database the marks are the team's.
pub trait GuardRepository: Send + Sync {
    /// Stores a person's mark; a message marked again keeps only its newest mark.
    fn add_mark(&self, mark: &NewMark, by: &str) -> Result<Mark, CasesError>;
    /// Removes a mark (`guard_mark_not_found` when there is none).
    fn remove_mark(&self, id: i64) -> Result<(), CasesError>;
    /// Every mark, oldest first.
    fn marks(&self) -> Result<Vec<Mark>, CasesError>;
    /// The newest vetoed turns, newest first.
    fn vetoes(&self, limit: i64) -> Result<Vec<VetoEntry>, CasesError>;
    /// The model a retrain adopted, if one did.
    fn adopted_model(&self) -> Result<Option<AdoptedModel>, CasesError>;
    /// When the adopted model was adopted (`None`: the shipped model is in use).
    fn adopted_at(&self) -> Result<Option<String>, CasesError>;
    /// Makes `model` the workspace's guardrail model; returns when.
    fn adopt_model(&self, model: &Model, report: &Report, by: &str) -> Result<String, CasesError>;
    /// Goes back to the shipped model.
    fn forget_model(&self) -> Result<(), CasesError>;
}

/// Every storage keeps the guardrail's marks too.
impl<S: Storage> GuardRepository for S {
    fn add_mark(&self, mark: &NewMark, by: &str) -> Result<Mark, CasesError> {
        let (mark, by) = (mark.clone(), by.to_owned());
        self.write(move |sql| crate::marks::add_mark(sql, &mark, &by))
    }

    fn remove_mark(&self, id: i64) -> Result<(), CasesError> {
        self.write(move |sql| crate::marks::remove_mark(sql, id))
    }

    fn marks(&self) -> Result<Vec<Mark>, CasesError> {
        self.read(crate::marks::marks)
    }

    fn vetoes(&self, limit: i64) -> Result<Vec<VetoEntry>, CasesError> {
        self.read(|sql| crate::marks::vetoes(sql, limit))
    }

    fn adopted_model(&self) -> Result<Option<AdoptedModel>, CasesError> {
        self.read(crate::marks::adopted_model)
    }

    fn adopted_at(&self) -> Result<Option<String>, CasesError> {
        self.read(crate::marks::adopted_at)
    }

    fn adopt_model(&self, model: &Model, report: &Report, by: &str) -> Result<String, CasesError> {
        let (model, report, by) = (model.clone(), report.clone(), by.to_owned());
        self.write(move |sql| crate::marks::adopt_model(sql, &model, &report, &by))
    }

    fn forget_model(&self) -> Result<(), CasesError> {
        self.write(crate::marks::forget_model)
    }
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

/// Every storage is the cases repository: each method one transaction of the step that owns the
/// use case, written once over [`Storage`] for both databases.
impl<S: Storage> CasesRepository for S {
    fn open_case(&self, new: NewCase) -> Result<OpenOutcome, CasesError> {
        self.write(move |sql| transition::open_case(sql, &new))
    }

    fn reply(
        &self,
        case_id: &str,
        action: HumanAction,
        text: &str,
        actor_name: &str,
    ) -> Result<(CaseWithTimeline, Delivery), CasesError> {
        let (case_id, text, actor_name) = (case_id.to_owned(), text.to_owned(), actor_name.to_owned());
        self.write(move |sql| {
            let (_, delivery) = transition::reply(sql, &case_id, action, &text, &actor_name)?;
            Ok((crate::store::get_case(sql, &case_id)?, delivery))
        })
    }

    fn add_note(&self, case_id: &str, text: &str, actor_name: &str) -> Result<CaseEvent, CasesError> {
        let (case_id, text, actor_name) = (case_id.to_owned(), text.to_owned(), actor_name.to_owned());
        self.write(move |sql| crate::notes::add_note(sql, &case_id, &text, &actor_name))
    }

    fn hold_reply(&self, case_id: &str, person: &str) -> Result<crate::lease::Replying, CasesError> {
        let (case_id, person) = (case_id.to_owned(), person.to_owned());
        self.write(move |sql| crate::lease::hold(sql, &case_id, &person))
    }

    fn provide_update(&self, case_id: &str, info: &str) -> Result<Case, CasesError> {
        let (case_id, info) = (case_id.to_owned(), info.to_owned());
        self.write(move |sql| transition::provide_update(sql, &case_id, &info))
    }

    fn record_lead_asked(&self, case_id: &str, text: Option<&str>) -> Result<Case, CasesError> {
        let (case_id, text) = (case_id.to_owned(), text.map(str::to_owned));
        self.write(move |sql| transition::record_lead_asked(sql, &case_id, text.as_deref()))
    }

    fn record_lead_unresponsive(&self, case_id: &str, note: Option<&str>) -> Result<Case, CasesError> {
        let (case_id, note) = (case_id.to_owned(), note.map(str::to_owned));
        self.write(move |sql| transition::record_lead_unresponsive(sql, &case_id, note.as_deref()))
    }

    fn cancel(
        &self,
        case_id: &str,
        actor: Actor,
        actor_name: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Case, CasesError> {
        let case_id = case_id.to_owned();
        let (actor_name, reason) = (actor_name.map(str::to_owned), reason.map(str::to_owned));
        self.write(move |sql| {
            transition::cancel(sql, &case_id, actor, actor_name.as_deref(), reason.as_deref())
        })
    }

    fn cancel_many(
        &self,
        case_ids: &[String],
        actor_name: &str,
        reason: &str,
    ) -> Result<Vec<Case>, CasesError> {
        let (case_ids, actor_name, reason) = (case_ids.to_vec(), actor_name.to_owned(), reason.to_owned());
        self.write(move |sql| transition::cancel_many(sql, &case_ids, &actor_name, &reason))
    }

    fn get_case(&self, id: &str) -> Result<CaseWithTimeline, CasesError> {
        self.read(|sql| crate::store::get_case(sql, id))
    }

    fn assign(
        &self,
        case_ids: &[String],
        assignee: Option<&str>,
        actor_name: &str,
    ) -> Result<Vec<Case>, CasesError> {
        let (case_ids, assignee, actor_name) =
            (case_ids.to_vec(), assignee.map(str::to_owned), actor_name.to_owned());
        self.write(move |sql| crate::assign::assign_many(sql, &case_ids, assignee.as_deref(), &actor_name))
    }

    fn find_case_by_number(&self, number: i64) -> Result<Case, CasesError> {
        self.read(|sql| crate::rows::find_case_by_number(sql, number))
    }

    fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        Storage::list_cases(self, filter)
    }

    fn list_cases_latest(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        Storage::list_cases_latest(self, filter)
    }

    fn tab_counts(&self) -> Result<TabCounts, CasesError> {
        Storage::tab_counts(self)
    }

    fn report(&self, range: &ReportRange) -> Result<CaseReport, CasesError> {
        Storage::report(self, range)
    }

    fn set_read(&self, case_id: &str, read: bool) -> Result<(), CasesError> {
        let case_id = case_id.to_owned();
        self.write(move |sql| crate::reads::set_read(sql, &case_id, read))
    }

    fn set_read_many(&self, case_ids: &[String], read: bool) -> Result<(), CasesError> {
        let case_ids = case_ids.to_vec();
        self.write(move |sql| crate::reads::set_read_many(sql, &case_ids, read))
    }

    fn record_veto(&self, veto: &Veto) -> Result<VetoCount, CasesError> {
        let veto = veto.clone();
        self.write(move |sql| crate::veto::record_veto(sql, &veto))
    }

    fn record_promise(&self, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError> {
        let (case_id, promise) = (case_id.to_owned(), promise.clone());
        self.write(move |sql| crate::promises::record_promise(sql, &case_id, &promise))
    }

    fn take_overdue_promises(&self, now: &str) -> Result<Vec<OverduePromise>, CasesError> {
        let now = now.to_owned();
        self.write(move |sql| crate::promises::take_overdue(sql, &now))
    }

    fn follow_up_quiet(&self, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError> {
        crate::quiet::follow_up(self, now, delays)
    }

    fn agent_switches(&self, agent_id: Option<&str>) -> Result<AgentSwitches, CasesError> {
        self.read(|sql| crate::agents::switches(sql, agent_id))
    }

    fn take_overdue_targets(&self, now: &str) -> Result<Vec<OverdueTarget>, CasesError> {
        let now = now.to_owned();
        self.write(move |sql| crate::sla::take_overdue(sql, &now))
    }

    fn next_overdue_at(&self) -> Result<Option<String>, CasesError> {
        self.read(|sql| {
            let promise = crate::promises::next_overdue(sql)?;
            Ok(crate::sla::earliest([promise, crate::sla::next_overdue(sql)?]))
        })
    }

    fn next_quiet_at(&self, delays: &QuietDelays) -> Result<Option<String>, CasesError> {
        self.read(|sql| crate::quiet::next_due(sql, delays))
    }

    fn note_auto_case(&self, conversation_id: &str, turn_id: &str, case_id: &str) -> Result<(), CasesError> {
        let ids = (conversation_id.to_owned(), turn_id.to_owned(), case_id.to_owned());
        self.write(move |sql| crate::veto::note_auto_case(sql, &ids.0, &ids.1, &ids.2))
    }
}

/// Every storage is the outbox too.
impl<S: Storage> OutboxRepository for S {
    fn endpoint(&self) -> Result<Option<EndpointSettings>, CasesError> {
        self.read(crate::endpoint::get_endpoint)
    }

    fn endpoint_view(&self) -> Result<Option<EndpointView>, CasesError> {
        self.read(crate::endpoint::endpoint_view)
    }

    fn set_endpoint(&self, input: EndpointInput) -> Result<EndpointView, CasesError> {
        self.write(move |sql| crate::endpoint::set_endpoint(sql, &input))
    }

    fn checked_endpoint(&self, input: &EndpointInput) -> Result<EndpointSettings, CasesError> {
        self.read(|sql| crate::endpoint::checked_endpoint(sql, input))
    }

    fn claim_next(&self, lease_margin: Duration) -> Result<Option<Claimed>, CasesError> {
        self.write(move |sql| crate::outbox::claim_next(sql, lease_margin))
    }

    fn next_due_at(&self) -> Result<Option<String>, CasesError> {
        self.read(crate::outbox::next_due_at)
    }

    fn release(&self, id: &str) -> Result<(), CasesError> {
        let id = id.to_owned();
        self.write(move |sql| crate::outbox::release(sql, &id))
    }

    fn record_attempt(
        &self,
        id: &str,
        attempt: &Attempt,
        max_attempts: u32,
        backoff: &Backoff,
    ) -> Result<Delivery, CasesError> {
        let (id, attempt, backoff) = (id.to_owned(), attempt.clone(), *backoff);
        self.write(move |sql| crate::outbox::record_attempt(sql, &id, &attempt, max_attempts, &backoff))
    }

    fn retry(&self, id: &str) -> Result<Delivery, CasesError> {
        let id = id.to_owned();
        self.write(move |sql| crate::outbox::retry(sql, &id))
    }

    fn status(&self) -> Result<OutboxStatus, CasesError> {
        self.read(crate::outbox::outbox_status)
    }

    fn agents(&self) -> Result<Vec<AgentView>, CasesError> {
        self.read(crate::agents::list_agents)
    }

    fn set_agent(&self, input: AgentInput) -> Result<AgentView, CasesError> {
        self.write(move |sql| crate::agents::set_agent(sql, &input))
    }

    fn remove_agent(&self, agent_id: &str) -> Result<(), CasesError> {
        let agent_id = agent_id.to_owned();
        self.write(move |sql| crate::agents::remove_agent(sql, &agent_id))
    }

    fn deliveries_in_state(&self, state: DeliveryState) -> Result<Vec<Delivery>, CasesError> {
        self.read(|sql| crate::outbox::deliveries_in_state(sql, state))
    }
}
