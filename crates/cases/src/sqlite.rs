//! The cases repositories on the embedded SQLite database: every write goes to the database's
//! single writer (so concurrent callers share commits instead of waiting for the file lock),
//! every read to its read pool.

use std::sync::Arc;
use std::time::Duration;

use skillcase_store::Database;

use super::agents::{self, AgentInput, AgentSwitches, AgentView};
use super::endpoint::{self, EndpointInput, EndpointSettings, EndpointView};
use super::error::CasesError;
use super::model::{Actor, Case, CaseEvent, Delivery, DeliveryState, HumanAction, NewCase};
use super::outbox::{self, Attempt, Backoff, Claimed, OutboxStatus};
use super::promises::{NewPromise, OverduePromise};
use super::quiet::{self, QuietDelays, QuietRun};
use super::replies::pick::PickFilter;
use super::replies::{self, ImportOutcome, SavedRepliesRepository, SavedReply, SavedReplyInput};
use super::report::{self, CaseReport, ReportRange};
use super::repository::{CasesRepository, OutboxRepository, Veto, VetoCount};
use super::sla::OverdueTarget;
use super::store::{self, CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use super::transition::{self, OpenOutcome};
use super::{reads, veto};

/// Cases and the outbox in one SQLite database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SqliteCases {
    db: Arc<Database>,
}

impl SqliteCases {
    /// The repositories over an open database.
    pub fn new(db: Arc<Database>) -> Self {
        SqliteCases { db }
    }

    /// The database underneath (the application shares it with the library and settings).
    pub fn database(&self) -> &Arc<Database> {
        &self.db
    }

    /// Vetoes recorded for a turn (0 when none).
    pub fn vetoes_in_turn(&self, conversation_id: &str, turn_id: &str) -> Result<i64, CasesError> {
        self.db.read(|c| veto::vetoes_in_turn(c, conversation_id, turn_id))
    }
}

impl CasesRepository for SqliteCases {
    fn open_case(&self, new: NewCase) -> Result<OpenOutcome, CasesError> {
        self.db.write(move |c| transition::open_case(c, new))
    }

    fn reply(
        &self,
        case_id: &str,
        action: HumanAction,
        text: &str,
        actor_name: &str,
    ) -> Result<(Case, Delivery), CasesError> {
        let (case_id, text, actor_name) = (case_id.to_owned(), text.to_owned(), actor_name.to_owned());
        self.db.write(move |c| transition::reply(c, &case_id, action, &text, &actor_name))
    }

    fn add_note(&self, case_id: &str, text: &str, actor_name: &str) -> Result<CaseEvent, CasesError> {
        let (case_id, text, actor_name) = (case_id.to_owned(), text.to_owned(), actor_name.to_owned());
        self.db.write(move |c| crate::notes::add_note(c, &case_id, &text, &actor_name))
    }

    fn hold_reply(&self, case_id: &str, person: &str) -> Result<crate::lease::Replying, CasesError> {
        let (case_id, person) = (case_id.to_owned(), person.to_owned());
        self.db.write(move |c| crate::lease::hold(c, &case_id, &person))
    }

    fn assign(
        &self,
        case_ids: &[String],
        assignee: Option<&str>,
        actor_name: &str,
    ) -> Result<Vec<Case>, CasesError> {
        let (case_ids, assignee, actor_name) =
            (case_ids.to_vec(), assignee.map(str::to_owned), actor_name.to_owned());
        self.db.write(move |c| crate::assign::assign_many(c, &case_ids, assignee.as_deref(), &actor_name))
    }

    fn provide_update(&self, case_id: &str, info: &str) -> Result<Case, CasesError> {
        let (case_id, info) = (case_id.to_owned(), info.to_owned());
        self.db.write(move |c| transition::provide_update(c, &case_id, &info))
    }

    fn record_lead_asked(&self, case_id: &str, text: Option<&str>) -> Result<Case, CasesError> {
        let (case_id, text) = (case_id.to_owned(), text.map(str::to_owned));
        self.db.write(move |c| transition::record_lead_asked(c, &case_id, text.as_deref()))
    }

    fn record_lead_unresponsive(&self, case_id: &str, note: Option<&str>) -> Result<Case, CasesError> {
        let (case_id, note) = (case_id.to_owned(), note.map(str::to_owned));
        self.db.write(move |c| transition::record_lead_unresponsive(c, &case_id, note.as_deref()))
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
        self.db
            .write(move |c| transition::cancel(c, &case_id, actor, actor_name.as_deref(), reason.as_deref()))
    }

    fn cancel_many(
        &self,
        case_ids: &[String],
        actor_name: &str,
        reason: &str,
    ) -> Result<Vec<Case>, CasesError> {
        let (case_ids, actor_name, reason) = (case_ids.to_vec(), actor_name.to_owned(), reason.to_owned());
        self.db.write(move |c| transition::cancel_many(c, &case_ids, &actor_name, &reason))
    }

    fn get_case(&self, id: &str) -> Result<CaseWithTimeline, CasesError> {
        self.db.read(|c| store::get_case(c, id))
    }

    fn find_case_by_number(&self, number: i64) -> Result<Case, CasesError> {
        self.db.read(|c| store::find_case_by_number(c, number))
    }

    fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        self.db.read(|c| store::list_cases(c, filter))
    }

    fn tab_counts(&self) -> Result<TabCounts, CasesError> {
        self.db.read(store::tab_counts)
    }

    fn report(&self, range: &ReportRange) -> Result<CaseReport, CasesError> {
        self.db.read(|c| report::case_report(c, range))
    }

    fn set_read(&self, case_id: &str, read: bool) -> Result<(), CasesError> {
        let case_id = case_id.to_owned();
        self.db.write(
            move |c| if read { reads::mark_read(c, &case_id) } else { reads::mark_unread(c, &case_id) },
        )
    }

    fn set_read_many(&self, case_ids: &[String], read: bool) -> Result<(), CasesError> {
        let case_ids = case_ids.to_vec();
        self.db.write(move |c| reads::set_read_many(c, &case_ids, read))
    }

    fn record_veto(&self, veto: &Veto) -> Result<VetoCount, CasesError> {
        let veto = veto.clone();
        self.db.write(move |c| veto::record_veto(c, &veto))
    }

    fn record_promise(&self, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError> {
        let (case_id, promise) = (case_id.to_owned(), promise.clone());
        self.db.write(move |c| crate::promises::record_promise(c, &case_id, &promise))
    }

    fn take_overdue_promises(&self, now: &str) -> Result<Vec<OverduePromise>, CasesError> {
        let now = now.to_owned();
        self.db.write(move |c| crate::promises::take_overdue(c, &now))
    }

    fn take_overdue_targets(&self, now: &str) -> Result<Vec<OverdueTarget>, CasesError> {
        let now = now.to_owned();
        self.db.write(move |c| crate::sla::take_overdue(c, &now))
    }

    fn follow_up_quiet(&self, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError> {
        let (now, delays) = (now.to_owned(), *delays);
        self.db.write(move |c| quiet::follow_up(c, &now, &delays))
    }

    fn note_auto_case(&self, conversation_id: &str, turn_id: &str, case_id: &str) -> Result<(), CasesError> {
        let ids = (conversation_id.to_owned(), turn_id.to_owned(), case_id.to_owned());
        self.db.write(move |c| veto::note_auto_case(c, &ids.0, &ids.1, &ids.2))
    }

    fn agent_switches(&self, agent_id: Option<&str>) -> Result<AgentSwitches, CasesError> {
        self.db.read(|c| agents::switches(c, agent_id))
    }
}

impl OutboxRepository for SqliteCases {
    fn endpoint(&self) -> Result<Option<EndpointSettings>, CasesError> {
        self.db.read(endpoint::get_endpoint)
    }

    fn endpoint_view(&self) -> Result<Option<EndpointView>, CasesError> {
        self.db.read(endpoint::endpoint_view)
    }

    fn set_endpoint(&self, input: EndpointInput) -> Result<EndpointView, CasesError> {
        self.db.write(move |c| endpoint::set_endpoint(c, input))
    }

    fn checked_endpoint(&self, input: &EndpointInput) -> Result<EndpointSettings, CasesError> {
        self.db.read(|c| endpoint::checked_endpoint(c, input))
    }

    fn claim_next(&self, lease_margin: Duration) -> Result<Option<Claimed>, CasesError> {
        self.db.write(move |c| outbox::claim_next(c, lease_margin))
    }

    fn next_due_at(&self) -> Result<Option<String>, CasesError> {
        self.db.read(outbox::next_due_at)
    }

    fn release(&self, id: &str) -> Result<(), CasesError> {
        let id = id.to_owned();
        self.db.write(move |c| outbox::release(c, &id))
    }

    fn record_attempt(
        &self,
        id: &str,
        attempt: &Attempt,
        max_attempts: u32,
        backoff: &Backoff,
    ) -> Result<Delivery, CasesError> {
        let (id, attempt, backoff) = (id.to_owned(), attempt.clone(), *backoff);
        self.db.write(move |c| outbox::record_attempt(c, &id, &attempt, max_attempts, &backoff))
    }

    fn retry(&self, id: &str) -> Result<Delivery, CasesError> {
        let id = id.to_owned();
        self.db.write(move |c| outbox::retry(c, &id))
    }

    fn status(&self) -> Result<OutboxStatus, CasesError> {
        self.db.read(outbox::outbox_status)
    }

    fn deliveries_in_state(&self, state: DeliveryState) -> Result<Vec<Delivery>, CasesError> {
        self.db.read(|c| outbox::deliveries_in_state(c, state))
    }

    fn agents(&self) -> Result<Vec<AgentView>, CasesError> {
        self.db.read(agents::list_agents)
    }

    fn set_agent(&self, input: AgentInput) -> Result<AgentView, CasesError> {
        self.db.write(move |c| agents::set_agent(c, input))
    }

    fn remove_agent(&self, agent_id: &str) -> Result<(), CasesError> {
        let agent_id = agent_id.to_owned();
        self.db.write(move |c| agents::remove_agent(c, &agent_id))
    }
}

impl SavedRepliesRepository for SqliteCases {
    fn list(&self) -> Result<Vec<SavedReply>, CasesError> {
        self.db.read(replies::store::list)
    }

    fn create(&self, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
        self.db.write(move |c| replies::store::create(c, input))
    }

    fn update(&self, id: &str, input: SavedReplyInput) -> Result<SavedReply, CasesError> {
        let id = id.to_owned();
        self.db.write(move |c| replies::store::update(c, &id, input))
    }

    fn delete(&self, id: &str) -> Result<(), CasesError> {
        let id = id.to_owned();
        self.db.write(move |c| replies::store::delete(c, &id))
    }

    fn pick(&self, filter: &PickFilter) -> Result<Vec<SavedReply>, CasesError> {
        self.db.read(|c| replies::store::pick(c, filter))
    }

    fn import(&self, entries: Vec<SavedReplyInput>) -> Result<ImportOutcome, CasesError> {
        self.db.write(move |c| replies::store::import(c, entries))
    }
}
