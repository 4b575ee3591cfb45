//! The guardrail's veto counts in SQLite (SPEC B5): one row per `(conversation_id, turn_id)` in
//! `guard_vetoes`, so the count survives a restart between the agent's two attempts.

use crate::args;
use crate::sql::Sql;

use super::clock;
use super::error::CasesError;
use super::repository::{Veto, VetoCount};
use super::rows;

/// In one step: the conversation's open case, which covers any promise, or one more veto for the
/// turn. Two instances vetoing the same turn at once take turns on its row (`ON CONFLICT`), so
/// every veto is counted and each sees its own count.
pub fn record_veto(sql: &mut dyn Sql, veto: &Veto) -> Result<VetoCount, CasesError> {
    if let Some(case) = rows::open_case_for_conversation(sql, &veto.conversation_id)? {
        return Ok(VetoCount::Covered(Box::new(case)));
    }
    let vetoes = sql.query_one(
        "INSERT INTO guard_vetoes \
         (conversation_id, turn_id, vetoes, first_at, last_at, last_rule, last_evidence, last_message) \
         VALUES ($1, $2, 1, $3, $3, $4, $5, $6) \
         ON CONFLICT (conversation_id, turn_id) DO UPDATE SET vetoes = guard_vetoes.vetoes + 1, \
         last_at = excluded.last_at, last_rule = excluded.last_rule, last_evidence = excluded.last_evidence, \
         last_message = excluded.last_message \
         RETURNING vetoes",
        args![
            &veto.conversation_id,
            &veto.turn_id,
            clock::now().as_str(),
            &veto.rule,
            &veto.evidence,
            veto.message.trim()
        ],
    )?;
    Ok(VetoCount::Vetoes(vetoes.int(0)?))
}

/// Remembers the case the guardrail opened for a turn.
pub fn note_auto_case(
    sql: &mut dyn Sql,
    conversation_id: &str,
    turn_id: &str,
    case_id: &str,
) -> Result<(), CasesError> {
    sql.execute(
        "UPDATE guard_vetoes SET auto_case_id = $3 WHERE conversation_id = $1 AND turn_id = $2",
        args![conversation_id, turn_id, case_id],
    )?;
    Ok(())
}

/// Vetoes recorded for a turn (0 when none), for the case view and tests.
pub fn vetoes_in_turn(sql: &mut dyn Sql, conversation_id: &str, turn_id: &str) -> Result<i64, CasesError> {
    let row = sql.query_opt(
        "SELECT vetoes FROM guard_vetoes WHERE conversation_id = $1 AND turn_id = $2",
        args![conversation_id, turn_id],
    )?;
    Ok(row.map(|r| r.int(0)).transpose()?.unwrap_or(0))
}
