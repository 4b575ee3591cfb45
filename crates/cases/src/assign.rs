//! Assignment: who works a case. A person takes a case (assigns it to themselves),
//! gives it to someone, or leaves it to anyone again. It is not a transition: the status, the
//! waiting time and the read mark stay; an `assigned` or `unassigned` event on the timeline says
//! who did it and who had it before. Only open cases are assigned — a closed case is final.

use serde_json::json;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, Case, EventKind};
use super::rows::{append_event, find_case};
use super::transition::{bulk_ids, lock_all, take_locked};
use crate::args;
use crate::sql::Sql;

/// The longest name a case can be assigned to, in characters.
pub const MAX_ASSIGNEE_CHARS: usize = 200;

/// Assigns every case of `case_ids` to `assignee` (`None`: unassigned), all of them or none:
/// a closed case refuses the whole action (`invalid_transition`, naming the case by number). A
/// case already in that hand is left as it is, with no event. Returns the cases as they now stand.
pub fn assign_many(
    sql: &mut dyn Sql,
    case_ids: &[String],
    assignee: Option<&str>,
    actor_name: &str,
) -> Result<Vec<Case>, CasesError> {
    let assignee = checked_assignee(assignee)?;
    let actor_name = crate::transition::required("actor_name", actor_name)?;
    let case_ids = bulk_ids(case_ids)?;
    let mut locked = lock_all(sql, &case_ids)?;
    let now = clock::now();
    let mut out = Vec::with_capacity(case_ids.len());
    for id in &case_ids {
        let case = take_locked(&mut locked, id)?;
        check_assignable(&case)?;
        if case.assignee.as_deref() == assignee {
            out.push(case);
            continue;
        }
        sql.execute(
            "UPDATE cases SET assignee = $2, updated_at = $3 WHERE id = $1",
            args![id, assignee, now.as_str()],
        )?;
        // A take-over ends whoever's reply was under way: the case is someone else's now.
        crate::lease::clear(sql, id)?;
        let (kind, payload) = assignment_event(assignee, case.assignee.as_deref());
        append_event(sql, id, kind, Actor::Human, Some(actor_name), &now, &payload)?;
        out.push(find_case(sql, id)?);
    }
    Ok(out)
}

/// A closed case cannot change hands: the refusal names it by its number.
pub fn check_assignable(case: &Case) -> Result<(), CasesError> {
    if case.closed_at.is_some() {
        let refusal = CasesError::InvalidTransition { from: case.status, action: "assign" };
        return Err(CasesError::InCase { number: case.number, source: Box::new(refusal) });
    }
    Ok(())
}

/// The event of a case passing from `previous` to `assignee` (`None`: to anyone): its kind and
/// payload.
pub fn assignment_event(assignee: Option<&str>, previous: Option<&str>) -> (EventKind, serde_json::Value) {
    match assignee {
        Some(name) => (EventKind::Assigned, json!({ "assignee": name, "previous": previous })),
        None => (EventKind::Unassigned, json!({ "previous": previous })),
    }
}

/// The assignee trimmed; a blank or too long name is `invalid_case_input`. Public so every
/// storage backend checks it the same way.
pub fn checked_assignee(assignee: Option<&str>) -> Result<Option<&str>, CasesError> {
    let Some(name) = assignee.map(str::trim) else { return Ok(None) };
    if name.is_empty() {
        return Err(CasesError::InvalidInput { field: "assignee", reason: "must not be blank".into() });
    }
    if name.chars().count() > MAX_ASSIGNEE_CHARS {
        return Err(CasesError::InvalidInput {
            field: "assignee",
            reason: format!("must be at most {MAX_ASSIGNEE_CHARS} characters"),
        });
    }
    Ok(Some(name))
}
