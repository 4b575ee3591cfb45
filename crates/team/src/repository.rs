//! The repository traits on the team database: each method one read or one transaction of the
//! module that owns the use case, its errors turned into the cases domain's.

use std::time::Duration;

use skillcase_cases::agents::{AgentInput, AgentSwitches, AgentView};
use skillcase_cases::endpoint::{EndpointInput, EndpointSettings, EndpointView};
use skillcase_cases::lease::Replying;
use skillcase_cases::model::{Actor, Case, CaseEvent, Delivery, DeliveryState, HumanAction, NewCase};
use skillcase_cases::outbox::{Attempt, Backoff, Claimed, OutboxStatus};
use skillcase_cases::promises::{NewPromise, OverduePromise};
use skillcase_cases::quiet::{QuietDelays, QuietRun};
use skillcase_cases::report::{CaseReport, ReportRange};
use skillcase_cases::repository::{CasesRepository, OutboxRepository, Veto, VetoCount};
use skillcase_cases::sla::OverdueTarget;
use skillcase_cases::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};
use skillcase_cases::transition::OpenOutcome;
use skillcase_cases::CasesError;

use crate::{agents, endpoint, jobs, lease, outbox, quiet, reads, transition, PgCases};

impl CasesRepository for PgCases {
    fn open_case(&self, new: NewCase) -> Result<OpenOutcome, CasesError> {
        Ok(self.pg.write(|tx| transition::open_case(tx, &new))?)
    }

    fn reply(
        &self,
        case_id: &str,
        action: HumanAction,
        text: &str,
        actor_name: &str,
    ) -> Result<(Case, Delivery), CasesError> {
        Ok(self.pg.write(|tx| transition::reply(tx, case_id, action, text, actor_name))?)
    }

    fn add_note(&self, case_id: &str, text: &str, actor_name: &str) -> Result<CaseEvent, CasesError> {
        Ok(self.pg.write(|tx| transition::add_note(tx, case_id, text, actor_name))?)
    }

    fn hold_reply(&self, case_id: &str, person: &str) -> Result<Replying, CasesError> {
        Ok(self.pg.write(|tx| lease::hold(tx, case_id, person))?)
    }

    fn provide_update(&self, case_id: &str, info: &str) -> Result<Case, CasesError> {
        Ok(self.pg.write(|tx| transition::provide_update(tx, case_id, info))?)
    }

    fn record_lead_asked(&self, case_id: &str, text: Option<&str>) -> Result<Case, CasesError> {
        Ok(self.pg.write(|tx| transition::record_lead_asked(tx, case_id, text))?)
    }

    fn record_lead_unresponsive(&self, case_id: &str, note: Option<&str>) -> Result<Case, CasesError> {
        Ok(self.pg.write(|tx| transition::record_lead_unresponsive(tx, case_id, note))?)
    }

    fn cancel(
        &self,
        case_id: &str,
        actor: Actor,
        actor_name: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Case, CasesError> {
        Ok(self.pg.write(|tx| transition::cancel(tx, case_id, actor, actor_name, reason))?)
    }

    fn cancel_many(
        &self,
        case_ids: &[String],
        actor_name: &str,
        reason: &str,
    ) -> Result<Vec<Case>, CasesError> {
        Ok(self.pg.write(|tx| transition::cancel_many(tx, case_ids, actor_name, reason))?)
    }

    fn get_case(&self, id: &str) -> Result<CaseWithTimeline, CasesError> {
        Ok(self.pg.read(|c| reads::get_case(c, id))?)
    }

    fn assign(
        &self,
        case_ids: &[String],
        assignee: Option<&str>,
        actor_name: &str,
    ) -> Result<Vec<Case>, CasesError> {
        Ok(self.pg.write(|tx| transition::assign(tx, case_ids, assignee, actor_name))?)
    }

    fn find_case_by_number(&self, number: i64) -> Result<Case, CasesError> {
        Ok(self.pg.read(|c| reads::find_case_by_number(c, number))?)
    }

    fn list_cases(&self, filter: &CaseFilter) -> Result<CasePage, CasesError> {
        Ok(self.pg.read(|c| reads::list_cases(c, filter))?)
    }

    fn tab_counts(&self) -> Result<TabCounts, CasesError> {
        Ok(self.pg.read(reads::tab_counts)?)
    }

    fn report(&self, range: &ReportRange) -> Result<CaseReport, CasesError> {
        Ok(self.pg.read(|c| reads::report(c, range))?)
    }

    fn set_read(&self, case_id: &str, read: bool) -> Result<(), CasesError> {
        Ok(self.pg.write(|tx| reads::set_read(tx, case_id, read))?)
    }

    fn set_read_many(&self, case_ids: &[String], read: bool) -> Result<(), CasesError> {
        Ok(self.pg.write(|tx| reads::set_read_many(tx, case_ids, read))?)
    }

    fn record_veto(&self, veto: &Veto) -> Result<VetoCount, CasesError> {
        Ok(self.pg.write(|tx| jobs::record_veto(tx, veto))?)
    }

    fn record_promise(&self, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError> {
        Ok(self.pg.write(|tx| jobs::record_promise(tx, case_id, promise))?)
    }

    fn take_overdue_promises(&self, now: &str) -> Result<Vec<OverduePromise>, CasesError> {
        Ok(self.pg.write(|tx| jobs::take_overdue_promises(tx, now))?)
    }

    fn follow_up_quiet(&self, now: &str, delays: &QuietDelays) -> Result<QuietRun, CasesError> {
        Ok(quiet::follow_up(&self.pg, now, delays)?)
    }

    fn agent_switches(&self, agent_id: Option<&str>) -> Result<AgentSwitches, CasesError> {
        Ok(self.pg.read(|c| agents::switches(c, agent_id))?)
    }

    fn take_overdue_targets(&self, now: &str) -> Result<Vec<OverdueTarget>, CasesError> {
        Ok(self.pg.write(|tx| jobs::take_overdue_targets(tx, now))?)
    }

    fn note_auto_case(&self, conversation_id: &str, turn_id: &str, case_id: &str) -> Result<(), CasesError> {
        Ok(self.pg.write(|tx| jobs::note_auto_case(tx, conversation_id, turn_id, case_id))?)
    }
}

impl OutboxRepository for PgCases {
    fn endpoint(&self) -> Result<Option<EndpointSettings>, CasesError> {
        Ok(self.pg.read(endpoint::get_endpoint)?)
    }

    fn endpoint_view(&self) -> Result<Option<EndpointView>, CasesError> {
        Ok(self.pg.read(endpoint::endpoint_view)?)
    }

    fn set_endpoint(&self, input: EndpointInput) -> Result<EndpointView, CasesError> {
        Ok(self.pg.write(|tx| endpoint::set_endpoint(tx, &input))?)
    }

    fn checked_endpoint(&self, input: &EndpointInput) -> Result<EndpointSettings, CasesError> {
        Ok(self.pg.read(|c| endpoint::checked_endpoint(c, input))?)
    }

    fn claim_next(&self, lease_margin: Duration) -> Result<Option<Claimed>, CasesError> {
        Ok(self.pg.write(|tx| outbox::claim_next(tx, lease_margin))?)
    }

    fn next_due_at(&self) -> Result<Option<String>, CasesError> {
        Ok(self.pg.read(outbox::next_due_at)?)
    }

    fn release(&self, id: &str) -> Result<(), CasesError> {
        Ok(self.pg.write(|tx| outbox::release(tx, id))?)
    }

    fn record_attempt(
        &self,
        id: &str,
        attempt: &Attempt,
        max_attempts: u32,
        backoff: &Backoff,
    ) -> Result<Delivery, CasesError> {
        Ok(self.pg.write(|tx| outbox::record_attempt(tx, id, attempt, max_attempts, backoff))?)
    }

    fn retry(&self, id: &str) -> Result<Delivery, CasesError> {
        Ok(self.pg.write(|tx| outbox::retry(tx, id))?)
    }

    fn status(&self) -> Result<OutboxStatus, CasesError> {
        Ok(self.pg.read(outbox::status)?)
    }

    fn agents(&self) -> Result<Vec<AgentView>, CasesError> {
        Ok(self.pg.read(agents::list_agents)?)
    }

    fn set_agent(&self, input: AgentInput) -> Result<AgentView, CasesError> {
        Ok(self.pg.write(|tx| agents::set_agent(tx, &input))?)
    }

    fn remove_agent(&self, agent_id: &str) -> Result<(), CasesError> {
        Ok(self.pg.write(|tx| agents::remove_agent(tx, agent_id))?)
    }

    fn deliveries_in_state(&self, state: DeliveryState) -> Result<Vec<Delivery>, CasesError> {
        Ok(self.pg.read(|c| outbox::deliveries_in_state(c, state))?)
    }
}
