//! The guardrail's veto counts in SQLite (SPEC B5): one row per `(conversation_id, turn_id)` in
//! `guard_vetoes`, so the count survives a restart between the agent's two attempts.

use rusqlite::{params, Connection, OptionalExtension};

use super::clock;
use super::error::CasesError;
use super::repository::{Veto, VetoCount};
use super::store;

/// In one atomic step: the open case covering the conversation, or one more veto for the turn.
pub fn record_veto(conn: &Connection, veto: &Veto) -> Result<VetoCount, CasesError> {
    skillcase_store::atomic(conn, |tx| {
        if let Some(case) = store::open_case_for_conversation(tx, &veto.conversation_id)? {
            return Ok(VetoCount::Covered(Box::new(case)));
        }
        let vetoes: i64 = tx.query_row(
            "INSERT INTO guard_vetoes (conversation_id, turn_id, vetoes, first_at, last_at, last_rule, last_evidence) \
             VALUES (?1, ?2, 1, ?3, ?3, ?4, ?5) \
             ON CONFLICT (conversation_id, turn_id) DO UPDATE SET vetoes = vetoes + 1, last_at = excluded.last_at, \
             last_rule = excluded.last_rule, last_evidence = excluded.last_evidence \
             RETURNING vetoes",
            params![veto.conversation_id, veto.turn_id, clock::now(), veto.rule, veto.evidence],
            |row| row.get(0),
        )?;
        Ok(VetoCount::Vetoes(vetoes))
    })
}

/// Remembers the case the guardrail opened for a turn.
pub fn note_auto_case(
    conn: &Connection,
    conversation_id: &str,
    turn_id: &str,
    case_id: &str,
) -> Result<(), CasesError> {
    conn.execute(
        "UPDATE guard_vetoes SET auto_case_id = ?3 WHERE conversation_id = ?1 AND turn_id = ?2",
        params![conversation_id, turn_id, case_id],
    )?;
    Ok(())
}

/// Vetoes recorded for a turn (0 when none), for the case view and tests.
pub fn vetoes_in_turn(conn: &Connection, conversation_id: &str, turn_id: &str) -> Result<i64, CasesError> {
    let n = conn
        .query_row(
            "SELECT vetoes FROM guard_vetoes WHERE conversation_id = ?1 AND turn_id = ?2",
            params![conversation_id, turn_id],
            |row| row.get(0),
        )
        .optional()?;
    Ok(n.unwrap_or(0))
}
