//! Every state change of a case on the team database (SPEC B2), one function per transition,
//! each inside the caller's transaction. A transition locks the case's row first
//! ([`crate::rows::lock_case`]), so racing instances take turns and the later one is checked
//! against the earlier one's result.

use postgres::Transaction;
use skillcase_cases::model::{Actor, Case, CaseEvent, Delivery, HumanAction, NewCase};
use skillcase_cases::transition::OpenOutcome;

use crate::error::TeamError;

pub fn open_case(tx: &mut Transaction<'_>, new: &NewCase) -> Result<OpenOutcome, TeamError> {
    todo!()
}

pub fn reply(
    tx: &mut Transaction<'_>,
    case_id: &str,
    action: HumanAction,
    text: &str,
    actor_name: &str,
) -> Result<(Case, Delivery), TeamError> {
    todo!()
}

pub fn add_note(
    tx: &mut Transaction<'_>,
    case_id: &str,
    text: &str,
    actor_name: &str,
) -> Result<CaseEvent, TeamError> {
    todo!()
}

pub fn provide_update(tx: &mut Transaction<'_>, case_id: &str, info: &str) -> Result<Case, TeamError> {
    todo!()
}

pub fn record_lead_asked(
    tx: &mut Transaction<'_>,
    case_id: &str,
    text: Option<&str>,
) -> Result<Case, TeamError> {
    todo!()
}

pub fn record_lead_unresponsive(
    tx: &mut Transaction<'_>,
    case_id: &str,
    note: Option<&str>,
) -> Result<Case, TeamError> {
    todo!()
}

pub fn cancel(
    tx: &mut Transaction<'_>,
    case_id: &str,
    actor: Actor,
    actor_name: Option<&str>,
    reason: Option<&str>,
) -> Result<Case, TeamError> {
    todo!()
}

pub fn cancel_many(
    tx: &mut Transaction<'_>,
    case_ids: &[String],
    actor_name: &str,
    reason: &str,
) -> Result<Vec<Case>, TeamError> {
    todo!()
}

pub fn assign(
    tx: &mut Transaction<'_>,
    case_ids: &[String],
    assignee: Option<&str>,
    actor_name: &str,
) -> Result<Vec<Case>, TeamError> {
    todo!()
}
