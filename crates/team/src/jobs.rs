//! What the guardrail and the periodic jobs write on the team database: vetoes per turn, the
//! promise ledger, the quiet-customer follow-up and the overdue response targets. Each case is
//! taken by one instance however many run the same job at once.

use postgres::{GenericClient, Row, Transaction};
use skillcase_cases::clock;
use skillcase_cases::model::{Actor, EventKind};
use skillcase_cases::promises::{NewPromise, OverduePromise};
use skillcase_cases::repository::{Veto, VetoCount};
use skillcase_cases::sla::{OverdueTarget, SlaTarget};

use crate::error::TeamError;
use crate::rows::{append_event, lock_case, open_case_for_conversation};

/// In one step: the conversation's open case, which covers any promise, or one more veto for the
/// turn. Two instances vetoing the same turn at once take turns on its row (`ON CONFLICT`), so
/// every veto is counted and each sees its own count.
pub fn record_veto(tx: &mut Transaction<'_>, veto: &Veto) -> Result<VetoCount, TeamError> {
    if let Some(case) = open_case_for_conversation(tx, &veto.conversation_id)? {
        return Ok(VetoCount::Covered(Box::new(case)));
    }
    let row = tx.query_one(
        "INSERT INTO guard_vetoes (conversation_id, turn_id, vetoes, first_at, last_at, last_rule, last_evidence) \
         VALUES ($1, $2, 1, $3, $3, $4, $5) \
         ON CONFLICT (conversation_id, turn_id) DO UPDATE SET vetoes = guard_vetoes.vetoes + 1, \
         last_at = excluded.last_at, last_rule = excluded.last_rule, last_evidence = excluded.last_evidence \
         RETURNING vetoes",
        &[&veto.conversation_id, &veto.turn_id, &clock::now(), &veto.rule, &veto.evidence],
    )?;
    Ok(VetoCount::Vetoes(row.try_get(0)?))
}

/// Records `promise` on case `case_id` once per turn and quote, and makes it the case's pending
/// promise when it falls due before the one pending now. The case's row is locked first, so two
/// instances checking the same message at once record it once. Returns whether it was recorded.
pub fn record_promise(
    tx: &mut Transaction<'_>,
    case_id: &str,
    promise: &NewPromise,
) -> Result<bool, TeamError> {
    let case = lock_case(tx, case_id)?;
    if promise_recorded(tx, case_id, promise)? {
        return Ok(false);
    }
    let now = clock::now();
    let payload = promise.event_payload();
    append_event(
        tx,
        case_id,
        EventKind::PromiseMade,
        Actor::Agent,
        case.agent_id.as_deref(),
        &now,
        &payload,
    )?;
    tx.execute(
        "UPDATE cases SET promise_quote = $2, promise_due_at = $3, promise_overdue_told = false, updated_at = $4 \
         WHERE id = $1 AND (promise_quote IS NULL \
         OR ($3::text IS NOT NULL AND (promise_due_at IS NULL OR $3::text < promise_due_at)))",
        &[&case_id, &promise.quote, &promise.due_at, &now],
    )?;
    Ok(true)
}

/// Whether the case's timeline already has this turn's promise with these words.
fn promise_recorded(
    c: &mut impl GenericClient,
    case_id: &str,
    promise: &NewPromise,
) -> Result<bool, TeamError> {
    let row = c.query_one(
        "SELECT EXISTS (SELECT 1 FROM case_events WHERE case_id = $1 AND kind = 'promise_made' \
         AND payload::jsonb ->> 'turn_id' = $2 AND payload::jsonb ->> 'quote' = $3)",
        &[&case_id, &promise.turn_id, &promise.quote],
    )?;
    Ok(row.try_get(0)?)
}

/// The open cases whose promise is overdue at `now` and that nobody was told about yet, marked
/// told, so each overdue promise is announced once whichever instance polls first.
pub fn take_overdue_promises(tx: &mut Transaction<'_>, now: &str) -> Result<Vec<OverduePromise>, TeamError> {
    let rows = take_marked(
        tx,
        "promise_overdue_told",
        "promise_due_at <= $1 AND status IN ('awaiting_human', 'awaiting_lead')",
        "id, number, promise_quote",
        now,
    )?;
    rows.iter()
        .map(|row| {
            let quote: Option<String> = row.try_get(2)?;
            Ok(OverduePromise {
                case_id: row.try_get(0)?,
                number: row.try_get(1)?,
                quote: quote.unwrap_or_default(),
            })
        })
        .collect()
}

/// The running targets due at `now` that nobody was told about yet: each is marked told and gets
/// an `sla_overdue` event (actor `system`) in this transaction, so each is announced once.
pub fn take_overdue_targets(tx: &mut Transaction<'_>, now: &str) -> Result<Vec<OverdueTarget>, TeamError> {
    let mut taken = take_target(tx, SlaTarget::FirstReply, now)?;
    taken.extend(take_target(tx, SlaTarget::Resolution, now)?);
    for overdue in &taken {
        let payload = overdue.event_payload();
        append_event(tx, &overdue.case_id, EventKind::SlaOverdue, Actor::System, None, now, &payload)?;
    }
    Ok(taken)
}

/// One target's clocks that fell due at `now` unannounced, marked told.
fn take_target(
    tx: &mut Transaction<'_>,
    target: SlaTarget,
    now: &str,
) -> Result<Vec<OverdueTarget>, TeamError> {
    let (told, due, running) = match target {
        SlaTarget::FirstReply => {
            ("first_reply_overdue_told", "first_reply_due_at", "first_reply_at IS NULL AND ")
        }
        SlaTarget::Resolution => ("resolution_overdue_told", "resolution_due_at", ""),
    };
    let condition = format!("{due} <= $1 AND {running}closed_at IS NULL AND sla_paused_at IS NULL");
    let rows = take_marked(tx, told, &condition, &format!("id, number, {due}"), now)?;
    rows.iter()
        .map(|row| {
            Ok(OverdueTarget {
                case_id: row.try_get(0)?,
                number: row.try_get(1)?,
                target,
                due_at: row.try_get(2)?,
            })
        })
        .collect()
}

/// Sets the flag `told` on the cases matching `condition` (`$1` is `now`) whose flag is still
/// off, returning `columns` of each, by number. The rows are locked in id order and the ones
/// another instance holds are skipped (`SKIP LOCKED`): that instance is taking them, and if it
/// rolls back they are still due at the next poll.
fn take_marked(
    tx: &mut Transaction<'_>,
    told: &str,
    condition: &str,
    columns: &str,
    now: &str,
) -> Result<Vec<Row>, TeamError> {
    let sql = format!(
        "WITH taken AS (UPDATE cases SET {told} = true WHERE id IN (\
             SELECT id FROM cases WHERE {condition} AND NOT {told} ORDER BY id FOR UPDATE SKIP LOCKED) \
         RETURNING {columns}) SELECT * FROM taken ORDER BY number"
    );
    Ok(tx.query(&sql, &[&now])?)
}

/// Remembers the case the guardrail opened for a turn.
pub fn note_auto_case(
    tx: &mut Transaction<'_>,
    conversation_id: &str,
    turn_id: &str,
    case_id: &str,
) -> Result<(), TeamError> {
    tx.execute(
        "UPDATE guard_vetoes SET auto_case_id = $3 WHERE conversation_id = $1 AND turn_id = $2",
        &[&conversation_id, &turn_id, &case_id],
    )?;
    Ok(())
}
