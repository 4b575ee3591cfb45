//! What the guardrail and the periodic jobs write on the team database: vetoes per turn, the
//! promise ledger, the quiet-customer follow-up and the overdue response targets. Each case is
//! taken by one instance however many run the same job at once.

use postgres::Transaction;
use skillcase_cases::promises::{NewPromise, OverduePromise};
use skillcase_cases::repository::{Veto, VetoCount};
use skillcase_cases::sla::OverdueTarget;

use crate::error::TeamError;

pub fn record_veto(tx: &mut Transaction<'_>, veto: &Veto) -> Result<VetoCount, TeamError> {
    todo!()
}

pub fn record_promise(
    tx: &mut Transaction<'_>,
    case_id: &str,
    promise: &NewPromise,
) -> Result<bool, TeamError> {
    todo!()
}

pub fn take_overdue_promises(tx: &mut Transaction<'_>, now: &str) -> Result<Vec<OverduePromise>, TeamError> {
    todo!()
}

pub fn take_overdue_targets(tx: &mut Transaction<'_>, now: &str) -> Result<Vec<OverdueTarget>, TeamError> {
    todo!()
}

pub fn note_auto_case(
    tx: &mut Transaction<'_>,
    conversation_id: &str,
    turn_id: &str,
    case_id: &str,
) -> Result<(), TeamError> {
    todo!()
}
