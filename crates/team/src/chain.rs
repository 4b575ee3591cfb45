//! `skillcase team verify`: every case's timeline walked along its hash chain. Each event's
//! digest covers the event before it on its case, so an event changed, removed or slipped in
//! afterwards — by anyone, the database's owner included, with the triggers turned off — shows
//! as a break. The digests are recomputed here, not by the database's own function, which its
//! owner could replace.

use std::collections::HashMap;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::GenericClient;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::TeamError;

/// What the walk found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainReport {
    pub cases: u64,
    pub events: u64,
    pub breaks: Vec<ChainBreak>,
}

/// One place where a case's history is not what its chain says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export)]
pub struct ChainBreak {
    pub case_id: String,
    #[ts(type = "number")]
    pub number: i64,
    /// The event at fault, when one is.
    #[ts(type = "number | null")]
    pub seq: Option<i64>,
    pub problem: String,
}

/// One stored event, as its digest covers it.
struct Event {
    seq: i64,
    kind: String,
    actor: String,
    actor_name: Option<String>,
    at: String,
    payload: String,
    prev: Option<String>,
    digest: Option<String>,
}

/// Walks every case's chain, one case at a time as the events stream in (a million cases are
/// never held in memory at once).
pub fn verify(client: &mut impl GenericClient) -> Result<ChainReport, TeamError> {
    let cases: i64 = client.query_one("SELECT count(*) FROM cases", &[])?.get(0);
    let mut report = ChainReport { cases: u64::try_from(cases).unwrap_or(0), events: 0, breaks: Vec::new() };
    for row in client.query(
        "SELECT h.case_id, c.number FROM case_chain h JOIN cases c ON c.id = h.case_id \
         WHERE h.events > 0 AND NOT EXISTS (SELECT 1 FROM case_events e WHERE e.case_id = h.case_id) \
         ORDER BY c.number",
        &[],
    )? {
        let problem = "every event of the case was removed".to_string();
        report.breaks.push(ChainBreak { case_id: row.get(0), number: row.get(1), seq: None, problem });
    }
    let mut rows = client.query_raw(
        "SELECT e.case_id, c.number, h.head, h.events, e.seq, e.kind, e.actor, e.actor_name, e.at, e.payload, \
         e.prev_digest, e.digest FROM case_events e JOIN cases c ON c.id = e.case_id \
         LEFT JOIN case_chain h ON h.case_id = e.case_id ORDER BY e.case_id, e.seq",
        std::iter::empty::<&(dyn ToSql + Sync)>(),
    )?;
    let mut case: Option<CaseChain> = None;
    let mut timeline = Vec::new();
    while let Some(row) = rows.next()? {
        let case_id: String = row.get(0);
        if case.as_ref().is_some_and(|c| c.id != case_id) {
            let done = case.take().expect("checked just above");
            report.breaks.extend(done.walk(&std::mem::take(&mut timeline)));
        }
        if case.is_none() {
            case = Some(CaseChain { id: case_id, number: row.get(1), head: row.get(2), events: row.get(3) });
        }
        timeline.push(event_at(&row, 4));
        report.events += 1;
    }
    if let Some(done) = case {
        report.breaks.extend(done.walk(&timeline));
    }
    report.breaks.sort_by_key(|b| (b.number, b.seq));
    Ok(report)
}

/// What a case's chain row says of it.
struct CaseChain {
    id: String,
    number: i64,
    head: Option<String>,
    events: Option<i64>,
}

impl CaseChain {
    fn walk(&self, timeline: &[Event]) -> Vec<ChainBreak> {
        walk(&self.id, timeline, self.head.as_deref().unwrap_or(""), self.events.unwrap_or(0))
            .into_iter()
            .map(|(seq, problem)| ChainBreak { case_id: self.id.clone(), number: self.number, seq, problem })
            .collect()
    }
}

/// The event in the columns of `row` from `at` on: seq, kind, actor, actor_name, at, payload,
/// prev_digest, digest.
fn event_at(row: &postgres::Row, at: usize) -> Event {
    Event {
        seq: row.get(at),
        kind: row.get(at + 1),
        actor: row.get(at + 2),
        actor_name: row.get(at + 3),
        at: row.get(at + 4),
        payload: row.get(at + 5),
        prev: row.get(at + 6),
        digest: row.get(at + 7),
    }
}

/// Walks one case's chain: what the window checks when a person opens the case.
pub fn verify_case(client: &mut impl GenericClient, case_id: &str) -> Result<Vec<ChainBreak>, TeamError> {
    let Some(row) = client.query_opt(
        "SELECT c.number, h.head, h.events FROM cases c LEFT JOIN case_chain h ON h.case_id = c.id WHERE c.id = $1",
        &[&case_id],
    )?
    else {
        return Ok(Vec::new());
    };
    let chain =
        CaseChain { id: case_id.to_string(), number: row.get(0), head: row.get(1), events: row.get(2) };
    Ok(chain.walk(&events_of(client, case_id)?))
}

/// One case's events, in order.
fn events_of(client: &mut impl GenericClient, case_id: &str) -> Result<Vec<Event>, TeamError> {
    let rows = client.query(
        "SELECT seq, kind, actor, actor_name, at, payload, prev_digest, digest FROM case_events \
         WHERE case_id = $1 ORDER BY seq",
        &[&case_id],
    )?;
    Ok(rows.iter().map(|row| event_at(row, 0)).collect())
}

/// The breaks in one case's chain: each event's digest recomputed over the one before it, the
/// links followed from the first event to the head the case's chain row keeps.
fn walk(case_id: &str, events: &[Event], head: &str, count: i64) -> Vec<(Option<i64>, String)> {
    let mut problems = Vec::new();
    let mut next: HashMap<&str, &Event> = HashMap::new();
    for event in events {
        let (Some(prev), Some(digest)) = (&event.prev, &event.digest) else {
            problems
                .push((Some(event.seq), "the event has no digest: it was written around the chain".into()));
            continue;
        };
        if digest_of(prev, case_id, event) != *digest {
            problems.push((Some(event.seq), "the event was changed after it was written".into()));
        }
        if next.insert(prev.as_str(), event).is_some() {
            problems.push((Some(event.seq), "two events follow the same one: one was slipped in".into()));
        }
    }
    let (mut at, mut walked) = ("", 0_usize);
    while let Some(event) = next.get(at) {
        walked += 1;
        at = event.digest.as_deref().unwrap_or_default();
        if walked > events.len() {
            break;
        }
    }
    if at != head || walked != events.len() || i64::try_from(walked).ok() != Some(count) {
        problems.push((
            None,
            format!(
                "the chain holds {walked} of the case's {} events and ends {}: events were removed or added",
                events.len(),
                if at == head { "at its recorded head" } else { "short of its recorded head" }
            ),
        ));
    }
    problems
}

/// The digest of `event` after `prev`, as the database's trigger computes it: SHA-256 over each
/// field written as its length in characters, `:` and the field (`-` for NULL), in hex.
fn digest_of(prev: &str, case_id: &str, event: &Event) -> String {
    let seq = event.seq.to_string();
    let fields = [
        Some(prev),
        Some(case_id),
        Some(seq.as_str()),
        Some(event.kind.as_str()),
        Some(event.actor.as_str()),
        event.actor_name.as_deref(),
        Some(event.at.as_str()),
        Some(event.payload.as_str()),
    ];
    let mut hasher = Sha256::new();
    for field in fields {
        match field {
            Some(text) => hasher.update(format!("{}:{text}", text.chars().count())),
            None => hasher.update("-"),
        }
    }
    format!("{:x}", hasher.finalize())
}
