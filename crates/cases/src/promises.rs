//! The promise ledger (SPEC D1): what the agent promised the customer, on the case that covers it.
//!
//! A promising message that passes the guardrail — because the conversation has an open case, or
//! after the guardrail opened one — is recorded as a `promise_made` event: the promise as the
//! agent wrote it, who will act and what they will do (as written), and when it is due if the text
//! says so. The case keeps the promise still waiting for a person: the earliest-due promise made
//! since the last human reply. A person's reply keeps it; a promise past its due time with no reply
//! since is overdue, and rises to the top of *Waiting on you*.

use serde::{Deserialize, Serialize};
use serde_json::json;
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::model::{Actor, CaseEvent, EventKind};
use super::rows::{append_event, lock_case};
use crate::args;
use crate::sql::Sql;
use skillcase_guard::Span;

/// A promise to record, as the guardrail read it from the agent's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct NewPromise {
    /// The sentence that makes the promise, as written.
    pub quote: String,
    /// Who will act, as written ("a Letícia da contabilidade", "our billing team", "I").
    pub actor: Option<String>,
    /// What they will do, as written ("te ligar", "review your claim").
    pub action: Option<String>,
    /// The time expression, as written ("amanhã cedo", "by end of day").
    pub due_text: Option<String>,
    /// When it falls due (RFC 3339 UTC), resolved in the workspace's time zone and business days.
    pub due_at: Option<String>,
    /// The agent's turn, so the same promise checked twice in a turn is recorded once.
    pub turn_id: String,
    /// What decided it — who, what makes it later, what they will do — with character offsets
    /// into `quote`.
    pub spans: Vec<Span>,
}

impl NewPromise {
    /// The payload of the `promise_made` event that records it:.
    pub fn event_payload(&self) -> serde_json::Value {
        json!({
            "quote": self.quote,
            "actor": self.actor,
            "action": self.action,
            "due_text": self.due_text,
            "due_at": self.due_at,
            "turn_id": self.turn_id,
            "spans": self.spans,
        })
    }
}

/// A promise on a case's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Promise {
    /// The `promise_made` event that recorded it.
    pub seq: i64,
    pub made_at: String,
    pub quote: String,
    pub actor: Option<String>,
    pub action: Option<String>,
    pub due_text: Option<String>,
    pub due_at: Option<String>,
    /// True once a person replied on the case after the promise was made.
    pub kept: bool,
    /// What decided it, with character offsets into `quote`.
    pub spans: Vec<Span>,
}

/// The promise a case still owes, for the inbox row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PendingPromise {
    pub quote: String,
    pub due_at: Option<String>,
}

/// Records `promise` on case `case_id` once per turn and quote, and makes it the case's pending
/// promise when it falls due before the one pending now. The case's row is locked first, so two
/// instances checking the same message at once record it once. Returns whether it was recorded.
pub fn record_promise(sql: &mut dyn Sql, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError> {
    let case = lock_case(sql, case_id)?;
    if promise_recorded(sql, case_id, promise)? {
        return Ok(false);
    }
    let payload = promise.event_payload();
    let now = clock::now();
    append_event(
        sql,
        case_id,
        EventKind::PromiseMade,
        Actor::Agent,
        case.agent_id.as_deref(),
        &now,
        &payload,
    )?;
    sql.execute(
        "UPDATE cases SET promise_quote = $2, promise_due_at = $3, promise_overdue_told = false, updated_at = $4 \
         WHERE id = $1 AND (promise_quote IS NULL \
         OR ($3 IS NOT NULL AND (promise_due_at IS NULL OR $3 < promise_due_at)))",
        args![case_id, &promise.quote, &promise.due_at, now.as_str()],
    )?;
    Ok(true)
}

/// Whether the case's timeline already has this turn's promise with these words.
fn promise_recorded(sql: &mut dyn Sql, case_id: &str, promise: &NewPromise) -> Result<bool, CasesError> {
    let dialect = sql.dialect();
    let (turn, quote) = (dialect.json_text("payload", "turn_id"), dialect.json_text("payload", "quote"));
    let query = format!(
        "SELECT count(*) FROM case_events WHERE case_id = $1 AND kind = 'promise_made' \
         AND {turn} = $2 AND {quote} = $3"
    );
    Ok(sql.query_one(&query, args![case_id, &promise.turn_id, &promise.quote])?.int(0)? > 0)
}

/// A person replied: every promise made so far is kept, and the case owes none.
pub(crate) fn keep_promises(sql: &mut dyn Sql, case_id: &str) -> Result<(), CasesError> {
    sql.execute(
        "UPDATE cases SET promise_quote = NULL, promise_due_at = NULL, promise_overdue_told = false WHERE id = $1",
        args![case_id],
    )?;
    Ok(())
}

/// An open case whose promise fell due without a person's reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverduePromise {
    pub case_id: String,
    pub number: i64,
    pub quote: String,
}

/// The partial index of the promises on open cases not yet announced (the overdue watch's).
const WATCH_INDEX: &str = "cases_promise_watch";

/// The open cases whose promise is overdue at `now` and that nobody was told about yet; marks
/// them told, so each overdue promise is announced once whichever instance polls first.
pub fn take_overdue(sql: &mut dyn Sql, now: &str) -> Result<Vec<OverduePromise>, CasesError> {
    let marked = crate::sla::Marked {
        told: "promise_overdue_told",
        index: WATCH_INDEX,
        condition: "promise_due_at <= $1 AND status IN ('awaiting_human', 'awaiting_lead')",
        columns: "id, number, promise_quote",
    };
    let rows = crate::sla::take_marked(sql, marked, now)?;
    rows.iter()
        .map(|row| {
            Ok(OverduePromise {
                case_id: row.text(0)?,
                number: row.int(1)?,
                quote: row.opt_text(2)?.unwrap_or_default(),
            })
        })
        .collect()
}

/// When the next promise not yet announced falls due on an open case (`None`: none is owed), so
/// the watch sleeps until then instead of looking on a timer. Same condition as [`take_overdue`].
pub fn next_overdue(sql: &mut dyn Sql) -> Result<Option<String>, CasesError> {
    let from = sql.dialect().indexed_by(WATCH_INDEX);
    let row = sql.query_opt(
        &format!(
            "SELECT promise_due_at FROM cases{from} WHERE promise_due_at IS NOT NULL \
             AND status IN ('awaiting_human', 'awaiting_lead') AND NOT promise_overdue_told \
             ORDER BY promise_due_at LIMIT 1"
        ),
        args![],
    )?;
    row.map(|row| row.text(0)).transpose()
}

/// The ledger of a case, oldest first, from its timeline.
pub fn promises_of(events: &[CaseEvent]) -> Vec<Promise> {
    let last_reply = events.iter().filter(|e| e.kind == EventKind::HumanReplied).map(|e| e.seq).max();
    events
        .iter()
        .filter(|e| e.kind == EventKind::PromiseMade)
        .map(|e| {
            let text = |key: &str| e.payload.get(key).and_then(|v| v.as_str()).map(str::to_string);
            Promise {
                seq: e.seq,
                made_at: e.at.clone(),
                quote: text("quote").unwrap_or_default(),
                actor: text("actor"),
                action: text("action"),
                due_text: text("due_text"),
                due_at: text("due_at"),
                kept: last_reply.is_some_and(|reply| reply > e.seq),
                spans: e
                    .payload
                    .get("spans")
                    .cloned()
                    .and_then(|s| serde_json::from_value(s).ok())
                    .unwrap_or_default(),
            }
        })
        .collect()
}
